package dev.threadbench.loadtest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.net.InetAddress;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

class ClusterOptionsTest {

    @Command
    static final class Node {
        @Mixin
        ClusterOptions cluster;
    }

    private static ClusterSettings settings(String... args) {
        return CommandLine.populateCommand(new Node(), args).cluster.settings();
    }

    @Test
    void insecureWithoutJoinOrClusterHostStaysOnLoopback() {
        assertEquals("127.0.0.1", settings("--insecure").host());
        assertEquals(
                "127.0.0.1",
                settings("--insecure", "--join", "127.0.0.1:5710").host(),
                "joining a member on this host");
    }

    @Test
    void clusterHostOrAMemberOnAnotherHostSaysOtherwise() throws Exception {
        InetAddress own = ClusterOptions.firstAddress();
        assertEquals(
                own.getHostAddress(),
                settings("--insecure", "--cluster-host", own.getHostAddress()).host());
        if (!own.isLoopbackAddress()) {
            assertEquals(
                    own.getHostAddress(),
                    settings("--insecure", "--join", own.getHostAddress()).host(),
                    "the address that routes to the member");
        }
    }

    @Test
    void aKeyedNodeWithoutJoinBindsItsFirstAddress(@TempDir Path dir) {
        Path key = dir.resolve("cluster.key");
        ClusterKey.generate(key);
        ClusterSettings settings = settings("--cluster-key", key.toString());
        assertEquals(ClusterOptions.firstAddress().getHostAddress(), settings.host());
        assertNull(settings.insecureWarning("agent a1"), "no warning with a key");
    }

    @Test
    void everyInsecureNodeGetsOneWarningLine() {
        String warning = settings("--insecure").insecureWarning("compare");
        assertEquals(
                "compare: WARNING: --insecure: no cluster key, so no TLS and no signed orders: whoever reaches"
                        + " 127.0.0.1 on the cluster's ports can join this cluster and order its agents' load",
                warning);
        assertNotEquals(-1, warning.indexOf("WARNING"));
        assertEquals(-1, warning.indexOf('\n'));
    }
}
