package dev.threadbench.loadtest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.cluster.ClusterNode.Role;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509ExtendedTrustManager;
import org.jgroups.Version;
import org.jgroups.blocks.cs.Connection;
import org.jgroups.stack.IpAddress;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A keyed agent's two ports, the event bus's and the membership's, reached with a raw TLS client that trusts any
 * server certificate, so that a failed connection is the agent's refusal and never the client's own distrust: without a
 * certificate, or with one of its own (a fresh self-signed one, with the same subject as the key's), the agent refuses
 * the handshake with a TLS alert; with the key's certificate the same client is taken, and the connection stays open
 * (on the membership's port once it has written what a member writes first: JGroups hangs up on a silent peer).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterIntruderIT {

    private static final String HOST = "127.0.0.1";
    private static final String BUILD = "1.0 built 2026-12-03T00:00:00Z";
    /** How long a connection taken must stay open (and how long a refusal may take to arrive). */
    private static final int READ_MILLIS = 3_000;

    private Path dir;
    private ClusterKey key;
    private ClusterKey otherKey;
    private ClusterNode agentNode;
    private Agent agent;
    private int busPort;
    private int membershipPort;

    @BeforeAll
    void startAgent() throws Exception {
        dir = Files.createTempDirectory("intruder");
        key = key("cluster.key");
        otherKey = key("other.key");
        busPort = ClusterProcesses.freePort();
        int port = ClusterProcesses.freePort();
        agentNode = ClusterNode.join(
                new ClusterSettings(HOST, port, List.of(), null, busPort, key, Duration.ofSeconds(3)),
                Role.AGENT,
                "a1",
                BUILD);
        agent = new Agent(
                agentNode, new PrintStream(new ByteArrayOutputStream(), true), AllowedTargets.parse(HOST, false));
        String address = agentNode.clusterAddress();
        membershipPort = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
    }

    @AfterAll
    void stopAgent() throws IOException {
        agent.close();
        agentNode.close();
        try (var files = Files.list(dir)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(dir);
    }

    private ClusterKey key(String name) {
        Path file = dir.resolve(name);
        ClusterKey.generate(file);
        return ClusterKey.read("--cluster-key", file);
    }

    @Test
    void theEventBusRefusesAClientWithoutACertificate() throws Exception {
        assertRefused(connect(busPort, null, null), NO_CERTIFICATE, "event bus, no certificate");
    }

    @Test
    void theEventBusRefusesAClientWithACertificateOfItsOwn() throws Exception {
        assertRefused(connect(busPort, otherKey, null), UNTRUSTED, "event bus, a self-signed certificate of its own");
    }

    @Test
    void theEventBusTakesTheSameClientWithTheKeysCertificate() throws Exception {
        assertTaken(connect(busPort, key, null), "event bus, the key's certificate");
    }

    @Test
    void theMembershipRefusesAClientWithoutACertificate() throws Exception {
        assertRefused(connect(membershipPort, null, null), NO_CERTIFICATE, "membership, no certificate");
    }

    @Test
    void theMembershipRefusesAClientWithACertificateOfItsOwn() throws Exception {
        assertRefused(
                connect(membershipPort, otherKey, null), UNTRUSTED, "membership, a self-signed certificate of its own");
    }

    @Test
    void theMembershipTakesTheSameClientWithTheKeysCertificate() throws Exception {
        // after the handshake, it says who it is as a member does; the agent waits 1 s for that, then hangs up
        assertTaken(connect(membershipPort, key, memberPreamble()), "membership, the key's certificate");
    }

    /** The alert a server sends a client that presents no certificate when one is required (TLS 1.3). */
    private static final String NO_CERTIFICATE = "certificate_required";
    /** The alert a server sends a client whose certificate it does not trust. */
    private static final String UNTRUSTED = "certificate_unknown";

    /**
     * The agent's own certificate reached the client (so it is the cluster's TLS server, and the client got past its
     * identity), the client presented its certificate when asked (if it has one), and the agent then refused it with
     * {@code alert}: in the handshake (TLS 1.2), or on the first read after it (TLS 1.3, where the client finishes
     * before the server has checked its certificate).
     */
    private void assertRefused(Attempt attempt, String alert, String what) {
        System.out.println(what + ": " + attempt);
        assertEquals(certificate(key), attempt.serverCertificate(), what + ": the agent's certificate; " + attempt);
        assertEquals(alert.equals(UNTRUSTED), attempt.presented(), what + ": presented when asked; " + attempt);
        assertTrue(
                attempt.failure() instanceof SSLException
                        && String.valueOf(attempt.failure().getMessage()).endsWith("Received fatal alert: " + alert),
                what + ": refused by the agent with the alert " + alert + "; " + attempt);
    }

    /** The same client, with the key's certificate: a handshake both ways, and a connection the agent keeps open. */
    private void assertTaken(Attempt attempt, String what) {
        System.out.println(what + ": " + attempt);
        assertEquals(certificate(key), attempt.serverCertificate(), what + ": the agent's certificate; " + attempt);
        assertTrue(attempt.presented(), what + ": asked for a certificate, and given the key's; " + attempt);
        assertNull(attempt.failure(), what + ": no refusal; " + attempt);
        assertTrue(attempt.handshake() && attempt.open(), what + ": open after " + READ_MILLIS + " ms; " + attempt);
    }

    /**
     * What became of one connection: the certificate the server presented (null: none seen), whether the client was
     * asked for its certificate and gave one, whether the handshake completed, whether the connection was still open
     * after {@link #READ_MILLIS} of reading, and the exception that ended it.
     */
    record Attempt(
            X509Certificate serverCertificate, boolean presented, boolean handshake, boolean open, Exception failure) {

        @Override
        public String toString() {
            return "server certificate "
                    + (serverCertificate == null ? "none" : serverCertificate.getSubjectX500Principal())
                    + ", presented " + presented + ", handshake " + handshake + ", open " + open + ", ended by "
                    + failure;
        }
    }

    /**
     * A TLS connection to the agent's {@code port}, trusting any server, presenting {@code identity}'s certificate
     * (none when null), writing {@code greeting} (when not null) once the handshake is done, then reading.
     */
    private static Attempt connect(int port, ClusterKey identity, byte[] greeting) throws Exception {
        AtomicReference<X509Certificate> seen = new AtomicReference<>();
        AtomicBoolean presented = new AtomicBoolean();
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(
                identity == null ? new KeyManager[0] : new KeyManager[] {new Presenting(identity, presented)},
                new TrustAll[] {new TrustAll(seen)},
                null);
        boolean handshake = false;
        OneWritePerFlight raw = new OneWritePerFlight();
        raw.connect(new InetSocketAddress(HOST, port), 5_000);
        raw.setSoTimeout(READ_MILLIS);
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(raw, HOST, port, true)) {
            socket.startHandshake();
            handshake = true;
            if (greeting != null) {
                socket.getOutputStream().write(greeting);
                socket.getOutputStream().flush();
            }
            int read = socket.getInputStream().read();
            return new Attempt(
                    seen.get(),
                    presented.get(),
                    true,
                    false,
                    new IOException(read < 0 ? "closed by the agent" : "the agent sent data unasked"));
        } catch (SocketTimeoutException silent) {
            // after the handshake: still open, as a connection taken stays; before it: a server that never answered
            return new Attempt(seen.get(), presented.get(), handshake, handshake, handshake ? null : silent);
        } catch (IOException e) {
            return new Attempt(seen.get(), presented.get(), handshake, false, e);
        }
    }

    /**
     * What a member writes first on a membership connection, after the TLS handshake: JGroups' cookie, its version, and
     * a member's address (here one no member has).
     */
    private static byte[] memberPreamble() throws IOException {
        IpAddress member = new IpAddress(new InetSocketAddress(HOST, 1));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.write(Connection.cookie);
        out.writeShort(Version.version);
        out.writeShort(member.serializedSize());
        member.writeTo(out);
        out.flush();
        return bytes.toByteArray();
    }

    static X509Certificate certificate(ClusterKey key) {
        try {
            return (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(
                            new ByteArrayInputStream(key.certificatePem().getBytes(StandardCharsets.US_ASCII)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A socket that sends what TLS wrote only when it next reads, so that a client's flight (its certificate, the
     * signature that proves it holds the key, its Finished) leaves in one write: a server that refuses the certificate
     * at once could otherwise close the connection between two of those records, and the client would fail on a broken
     * pipe instead of reading the server's alert.
     */
    private static final class OneWritePerFlight extends Socket {

        private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

        @Override
        public OutputStream getOutputStream() {
            return new OutputStream() {
                @Override
                public void write(int b) {
                    pending.write(b);
                }

                @Override
                public void write(byte[] bytes, int offset, int length) {
                    pending.write(bytes, offset, length);
                }
            };
        }

        @Override
        public InputStream getInputStream() throws IOException {
            return new FilterInputStream(super.getInputStream()) {
                @Override
                public int read() throws IOException {
                    send();
                    return super.read();
                }

                @Override
                public int read(byte[] bytes, int offset, int length) throws IOException {
                    send();
                    return super.read(bytes, offset, length);
                }
            };
        }

        private void send() throws IOException {
            if (pending.size() > 0) {
                OutputStream out = super.getOutputStream();
                out.write(pending.toByteArray());
                out.flush();
                pending.reset();
            }
        }
    }

    /** Trusts any server, remembering the certificate it presented. */
    private static final class TrustAll extends X509ExtendedTrustManager {

        private final AtomicReference<X509Certificate> seen;

        TrustAll(AtomicReference<X509Certificate> seen) {
            this.seen = seen;
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
            seen.set(chain[0]);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
            seen.set(chain[0]);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
            seen.set(chain[0]);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {}

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }

    /**
     * Presents {@code identity}'s certificate whenever a server asks for one, whatever issuers it names (a key manager
     * that picks by issuer would present nothing for a certificate of its own, and the case would be the first one).
     */
    private static final class Presenting extends X509ExtendedKeyManager {

        private static final String ALIAS = "mine";
        private final X509Certificate certificate;
        private final PrivateKey privateKey;
        private final AtomicBoolean presented;

        Presenting(ClusterKey identity, AtomicBoolean presented) throws Exception {
            this.certificate = certificate(identity);
            String base64 =
                    identity.privateKeyPem().replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
            this.privateKey = KeyFactory.getInstance("EC")
                    .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
            this.presented = presented;
        }

        @Override
        public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
            presented.set(true);
            return ALIAS;
        }

        @Override
        public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
            presented.set(true);
            return ALIAS;
        }

        @Override
        public String[] getClientAliases(String keyType, Principal[] issuers) {
            return new String[] {ALIAS};
        }

        @Override
        public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
            return null;
        }

        @Override
        public String[] getServerAliases(String keyType, Principal[] issuers) {
            return null;
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            return new X509Certificate[] {certificate};
        }

        @Override
        public PrivateKey getPrivateKey(String alias) {
            return privateKey;
        }
    }
}
