package dev.threadbench.loadtest.cluster;

import dev.threadbench.loadtest.base.UsageException;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.HexFormat;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The secret every node of one cluster shares, as one text file ({@code loadtest keygen FILE}): a 256-bit key for
 * HMAC-SHA256 over compare's orders, and a self-signed EC P-256 certificate with its private key for the event bus's
 * TLS. Every node presents that one certificate and trusts only it, with client authentication required: a peer without
 * the file can neither connect to a node's event bus nor accept a connection from one.
 */
public final class ClusterKey {

    /** Names the key file when no --cluster-key is given. */
    public static final String ENVIRONMENT = "THREADBENCH_CLUSTER_KEY";

    private static final String MAC_LABEL = "THREADBENCH CLUSTER MAC KEY";
    private static final Pattern BLOCK =
            Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----\\s*([A-Za-z0-9+/=\\s]+?)-----END \\1-----");
    private static final Duration VALIDITY = Duration.ofDays(3650);
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private final byte[] macKey;
    private final String certificatePem;
    private final String privateKeyPem;
    private final String fingerprint;

    private ClusterKey(byte[] macKey, String certificatePem, String privateKeyPem) {
        this.macKey = macKey.clone();
        this.certificatePem = certificatePem;
        this.privateKeyPem = privateKeyPem;
        this.fingerprint = fingerprint(macKey, certificatePem);
    }

    /** Writes a new key to {@code file}, readable by its owner only; refuses to overwrite one. */
    public static void generate(Path file) {
        try {
            SecureRandom random = new SecureRandom();
            byte[] macKey = new byte[32];
            random.nextBytes(macKey);
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"), random);
            KeyPair pair = generator.generateKeyPair();
            X500Name subject = new X500Name("CN=threadbench cluster");
            Instant now = Instant.now();
            var builder = new JcaX509v3CertificateBuilder(
                    subject,
                    new BigInteger(64, random),
                    Date.from(now.minus(Duration.ofDays(1))),
                    Date.from(now.plus(VALIDITY)),
                    subject,
                    pair.getPublic());
            X509Certificate certificate = new JcaX509CertificateConverter()
                    .getCertificate(
                            builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(pair.getPrivate())));
            String text =
                    "# threadbench cluster key: every agent and compare of one cluster reads this same file; keep it"
                            + " secret\n"
                            + pem(MAC_LABEL, macKey) + pem("CERTIFICATE", certificate.getEncoded())
                            + pem("PRIVATE KEY", pair.getPrivate().getEncoded());
            write(file, text);
        } catch (FileAlreadyExistsException e) {
            throw new UsageException("keygen: " + file + " exists: remove it first, or keep using it");
        } catch (IOException e) {
            throw new UsageException("keygen: cannot write " + file + ": " + e.getMessage());
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IllegalStateException("cannot make a key pair and certificate: " + e.getMessage(), e);
        }
    }

    /**
     * Writes {@code text} to a new {@code file} that was never readable by anyone but its owner: a temporary file
     * created with mode 0600 beside it, filled, then linked to its name (which fails if the name exists, unlike a
     * rename).
     */
    private static void write(Path file, String text) throws IOException {
        Path directory = file.toAbsolutePath().getParent();
        if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new FileAlreadyExistsException(file.toString());
        }
        boolean posix = Files.getFileStore(directory).supportsFileAttributeView(PosixFileAttributeView.class);
        Path temporary = posix
                ? Files.createTempFile(directory, ".keygen-", ".tmp", PosixFilePermissions.asFileAttribute(OWNER_ONLY))
                : Files.createTempFile(directory, ".keygen-", ".tmp");
        try {
            Files.writeString(temporary, text, StandardCharsets.US_ASCII, StandardOpenOption.WRITE);
            try {
                Files.createLink(file, temporary);
            } catch (UnsupportedOperationException | FileSystemException noHardLinks) {
                if (noHardLinks instanceof FileAlreadyExistsException exists) {
                    throw exists;
                }
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
            }
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    /**
     * The key in {@code file}; a one-line {@link UsageException} naming {@code option} when it cannot be read, or when
     * others than its owner may read it ({@link #exposure}).
     */
    public static ClusterKey read(String option, Path file) {
        String text;
        try {
            String exposed = exposure(file);
            if (exposed != null) {
                throw new UsageException(option + ": " + file + " " + exposed);
            }
            text = Files.readString(file, StandardCharsets.US_ASCII);
        } catch (NoSuchFileException e) {
            throw new UsageException(option + ": no such file: " + file);
        } catch (IOException | UncheckedIOException e) {
            throw new UsageException(option + ": cannot read " + file + ": " + e.getMessage());
        }
        byte[] macKey = null;
        String certificate = null;
        String privateKey = null;
        Matcher m = BLOCK.matcher(text);
        while (m.find()) {
            switch (m.group(1)) {
                case MAC_LABEL -> macKey = Base64.getMimeDecoder().decode(m.group(2));
                case "CERTIFICATE" -> certificate = m.group();
                case "PRIVATE KEY" -> privateKey = m.group();
                default -> {}
            }
        }
        if (macKey == null || macKey.length < 32 || certificate == null || privateKey == null) {
            throw new UsageException(
                    option + ": " + file + " is not a cluster key (make one with `loadtest keygen FILE`)");
        }
        return new ClusterKey(macKey, certificate, privateKey);
    }

    /**
     * Why the key file is readable by others than its owner (one line, ending with the fix), or null. One allowance: a
     * file in a Kubernetes Secret volume (a name linked into the volume's {@code ..data} directory, which the kubelet
     * writes) may be readable by its group, which there is the pod's fsGroup, since a non-root container reads the
     * root-owned file through that group; never by others.
     */
    static String exposure(Path file) throws IOException {
        if (!Files.getFileStore(file).supportsFileAttributeView(PosixFileAttributeView.class)) {
            return null; // the file system's own permissions apply
        }
        Set<PosixFilePermission> mode = Files.getPosixFilePermissions(file);
        boolean others =
                mode.contains(PosixFilePermission.OTHERS_READ) || mode.contains(PosixFilePermission.OTHERS_WRITE);
        boolean group = mode.contains(PosixFilePermission.GROUP_READ) || mode.contains(PosixFilePermission.GROUP_WRITE);
        String shown = PosixFilePermissions.toString(mode);
        if (others || (group && (mode.contains(PosixFilePermission.GROUP_WRITE) || !inKubernetesSecret(file)))) {
            return "is readable by others than its owner (" + shown + "): a cluster key must be secret;"
                    + " run chmod 600 " + file + " (in a Kubernetes Secret volume: defaultMode 0440 at most)";
        }
        return null;
    }

    /** Whether {@code file} is in a Secret volume: a symbolic link to {@code ..data/NAME}, as the kubelet writes. */
    private static boolean inKubernetesSecret(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        return Files.isSymbolicLink(file)
                && Files.readSymbolicLink(file)
                        .equals(Path.of("..data", file.getFileName().toString()))
                && parent != null
                && Files.isSymbolicLink(parent.resolve("..data"));
    }

    /**
     * TLS on the event bus: this key's certificate presented, only it trusted (the event bus trusts every certificate
     * by default), client authentication required.
     */
    public EventBusOptions secure(EventBusOptions options) {
        return options.setSsl(true)
                .setClientAuth(ClientAuth.REQUIRED)
                .setTrustAll(false)
                .setKeyCertOptions(new PemKeyCertOptions()
                        .setCertValue(Buffer.buffer(certificatePem))
                        .setKeyValue(Buffer.buffer(privateKeyPem)))
                .setTrustOptions(new PemTrustOptions().addCertValue(Buffer.buffer(certificatePem)));
    }

    /** The certificate every node presents, PEM. */
    String certificatePem() {
        return certificatePem;
    }

    /** The certificate's private key, PKCS #8 in PEM. */
    String privateKeyPem() {
        return privateKeyPem;
    }

    /** HMAC-SHA256 of {@code data} under this key. */
    public byte[] mac(byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(macKey, "HmacSHA256"));
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256: " + e.getMessage(), e);
        }
    }

    /** Whether {@code tag} is {@code data}'s MAC under this key (compared in constant time). */
    public boolean verify(byte[] data, byte[] tag) {
        return tag != null && MessageDigest.isEqual(mac(data), tag);
    }

    /**
     * Names the key without revealing it (the first 16 hex digits of a SHA-256 over it): nodes publish it, so that
     * compare refuses an agent of another key with one line instead of a TLS handshake that fails silently.
     */
    public String fingerprint() {
        return fingerprint;
    }

    private static String fingerprint(byte[] macKey, String certificatePem) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update("threadbench cluster key fingerprint".getBytes(StandardCharsets.US_ASCII));
            digest.update(certificatePem.getBytes(StandardCharsets.US_ASCII));
            digest.update(macKey);
            return HexFormat.of().formatHex(digest.digest(), 0, 8);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String pem(String label, byte[] der) {
        return "-----BEGIN " + label + "-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der) + "\n-----END " + label + "-----\n";
    }
}
