package dev.threadbench.loadtest.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.base.UsageException;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.http.ClientAuth;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.X509KeyManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ClusterKeyTest {

    @TempDir
    Path dir;

    @Test
    void aNewKeyIsOwnerOnlyReadsBackTheSameAndMacsWhatItSigned() throws Exception {
        Path file = dir.resolve("cluster.key");
        ClusterKey.generate(file);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        try (var files = Files.list(dir)) {
            assertEquals(List.of(file), files.toList(), "no temporary file left beside the key");
        }
        ClusterKey key = ClusterKey.read("--cluster-key", file);
        ClusterKey again = ClusterKey.read("--cluster-key", file);
        assertEquals(key.fingerprint(), again.fingerprint());
        assertTrue(key.fingerprint().matches("[0-9a-f]{16}"), key.fingerprint());

        byte[] order = "run r1 at 198.18.0.2:8080".getBytes(StandardCharsets.UTF_8);
        byte[] tag = key.mac(order);
        assertEquals(32, tag.length, "HMAC-SHA256");
        assertArrayEquals(tag, again.mac(order));
        assertTrue(again.verify(order, tag));
        assertFalse(again.verify("run r1 at 198.18.0.9:8080".getBytes(StandardCharsets.UTF_8), tag), "altered content");
        assertFalse(again.verify(order, null));

        Path other = dir.resolve("other.key");
        ClusterKey.generate(other);
        ClusterKey otherKey = ClusterKey.read("--cluster-key", other);
        assertNotEquals(key.fingerprint(), otherKey.fingerprint());
        assertFalse(otherKey.verify(order, tag), "another key's MAC");
    }

    /**
     * The options the clustered Vert.x is built with (not only what {@link ClusterKey#secure} returns), down to the
     * trust and key managers Vert.x makes of them: TLS, a client certificate required, the key's certificate presented
     * and the only one trusted, another key's refused on both sides of a connection.
     */
    @Test
    void theClusteredVertxIsBuiltWithTlsThatPresentsAndTrustsOnlyTheKeysCertificate() throws Exception {
        Path file = dir.resolve("cluster.key");
        ClusterKey.generate(file);
        ClusterKey key = ClusterKey.read("--cluster-key", file);
        Path otherFile = dir.resolve("other.key");
        ClusterKey.generate(otherFile);
        X509Certificate own = certificate(key);
        X509Certificate other = certificate(ClusterKey.read("--cluster-key", otherFile));
        ClusterSettings settings =
                new ClusterSettings("127.0.0.1", 5701, List.of(), null, 5801, key, Duration.ofSeconds(10));
        EventBusOptions bus = ClusterNode.vertxOptions(settings, ClusterNode.Role.AGENT, "a1", "build")
                .getEventBusOptions();
        assertTrue(bus.isSsl());
        assertEquals(ClientAuth.REQUIRED, bus.getClientAuth());
        assertFalse(bus.isTrustAll());
        assertEquals(5801, bus.getPort());
        Vertx vertx = Vertx.vertx();
        try {
            X509TrustManager trust = (X509TrustManager)
                    bus.getTrustOptions().getTrustManagerFactory(vertx).getTrustManagers()[0];
            assertEquals(List.of(own), List.of(trust.getAcceptedIssuers()), "the key's certificate, and no CA");
            trust.checkClientTrusted(new X509Certificate[] {own}, "EC");
            trust.checkServerTrusted(new X509Certificate[] {own}, "ECDHE_ECDSA");
            assertThrows(
                    CertificateException.class,
                    () -> trust.checkClientTrusted(new X509Certificate[] {other}, "EC"),
                    "another key's certificate, as a client's");
            assertThrows(
                    CertificateException.class,
                    () -> trust.checkServerTrusted(new X509Certificate[] {other}, "ECDHE_ECDSA"),
                    "another key's certificate, as a server's");
            X509KeyManager keys = (X509KeyManager)
                    bus.getKeyCertOptions().getKeyManagerFactory(vertx).getKeyManagers()[0];
            String[] aliases = keys.getServerAliases("EC", null);
            assertEquals(1, aliases.length, List.of(aliases).toString());
            assertEquals(
                    List.of(own), List.of(keys.getCertificateChain(aliases[0])), "the key's certificate presented");
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        EventBusOptions insecure = ClusterNode.vertxOptions(
                        ClusterSettings.insecure("127.0.0.1", 5701, List.of(), null),
                        ClusterNode.Role.AGENT,
                        "a1",
                        "build")
                .getEventBusOptions();
        assertFalse(insecure.isSsl(), "--insecure: no key, no TLS");
    }

    private static X509Certificate certificate(ClusterKey key) throws CertificateException {
        return (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(
                        new ByteArrayInputStream(key.certificatePem().getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void anExistingFileIsNotOverwrittenAndWhatIsNoKeyIsNamed() throws Exception {
        Path file = Files.writeString(
                dir.resolve("notes.txt"), "not a key\n", StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        UsageException exists = assertThrows(UsageException.class, () -> ClusterKey.generate(file));
        assertEquals("keygen: " + file + " exists: remove it first, or keep using it", exists.getMessage());
        assertEquals("not a key\n", Files.readString(file));
        assertEquals(
                "--cluster-key: " + file + " is not a cluster key (make one with `loadtest keygen FILE`)",
                assertThrows(UsageException.class, () -> ClusterKey.read("--cluster-key", file))
                        .getMessage());
        Path missing = dir.resolve("missing.key");
        assertEquals(
                "--cluster-key: no such file: " + missing,
                assertThrows(UsageException.class, () -> ClusterKey.read("--cluster-key", missing))
                        .getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"rw-r--r--", "rw-r-----", "rw----r--", "r--r-----", "rw--w----"})
    void aKeyOthersMayReadIsRefusedNamingTheFix(String mode) throws Exception {
        Path file = dir.resolve("cluster.key");
        ClusterKey.generate(file);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
        assertEquals(
                "--cluster-key: " + file + " is readable by others than its owner (" + mode
                        + "): a cluster key must be secret; run chmod 600 " + file
                        + " (in a Kubernetes Secret volume: defaultMode 0440 at most)",
                assertThrows(UsageException.class, () -> ClusterKey.read("--cluster-key", file))
                        .getMessage());
    }

    /** The layout the kubelet writes for a Secret volume: NAME -> ..data/NAME, ..data -> ..TIMESTAMP/. */
    private Path secretVolume(String mode) throws Exception {
        Path volume = Files.createDirectory(dir.resolve("etc-threadbench"));
        Path version = Files.createDirectory(volume.resolve("..2026_12_07_10_00_00.123"));
        ClusterKey.generate(version.resolve("cluster.key"));
        Files.setPosixFilePermissions(version.resolve("cluster.key"), PosixFilePermissions.fromString(mode));
        Files.createSymbolicLink(volume.resolve("..data"), version.getFileName());
        return Files.createSymbolicLink(volume.resolve("cluster.key"), Path.of("..data", "cluster.key"));
    }

    @Test
    void aKubernetesSecretsKeyMayBeReadableByItsGroupOnly() throws Exception {
        Path file = secretVolume("r--r-----");
        assertTrue(ClusterKey.read("--cluster-key", file).fingerprint().matches("[0-9a-f]{16}"));
    }

    @Test
    void aKubernetesSecretsKeyReadableByOthersIsRefused() throws Exception {
        Path file = secretVolume("r--r--r--");
        assertTrue(assertThrows(UsageException.class, () -> ClusterKey.read("--cluster-key", file))
                .getMessage()
                .startsWith("--cluster-key: " + file + " is readable by others than its owner (r--r--r--)"));
    }

    @Test
    void aGroupReadableKeyLinkedOutsideASecretVolumeIsRefused() throws Exception {
        Path real = dir.resolve("real.key");
        ClusterKey.generate(real);
        Files.setPosixFilePermissions(real, PosixFilePermissions.fromString("rw-r-----"));
        Path link = Files.createSymbolicLink(dir.resolve("cluster.key"), real.getFileName());
        assertThrows(UsageException.class, () -> ClusterKey.read("--cluster-key", link));
    }
}
