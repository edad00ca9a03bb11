package dev.threadbench.loadtest.analysis;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.model.Results;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Whether two results files measured one build of the servers. */
class FingerprintTest {

    private static Results.Environment environment(String gitCommit, String jvmOptions, String vertx, String os) {
        return new Results.Environment(
                "OpenJDK 64-Bit Server VM 25.0.3",
                os,
                "AMD EPYC",
                2,
                "2.4.4.Final",
                vertx,
                "2026-12-06T00:00:00Z",
                jvmOptions,
                "--delay-every 10",
                new Results.Pinning("0", "1", "taskset"),
                Map.of("undertow", "2.4.4.Final", "vertx", vertx),
                "loadtest 1",
                gitCommit);
    }

    @Test
    void oneBuildNeedsAKnownCommitAndTheSameJdkOptionsArgumentsAndFrameworks() {
        Results.Environment build = environment("100b3fb", "-Xmx2g", "5.0.7", "Linux 6.18");
        assertTrue(Fingerprint.oneBuild(build, environment("100b3fb", "-Xmx2g", "5.0.7", "Linux 6.18")));
        assertTrue(
                Fingerprint.oneBuild(build, environment("100b3fb", "-Xmx2g", "5.0.7", "Linux 6.19")),
                "the kernel is the machine's, not the build's");
        assertFalse(Fingerprint.oneBuild(build, environment("8398e07", "-Xmx2g", "5.0.7", "Linux 6.18")));
        assertFalse(Fingerprint.oneBuild(build, environment("100b3fb", "-Xmx1g", "5.0.7", "Linux 6.18")));
        assertFalse(Fingerprint.oneBuild(build, environment("100b3fb", "-Xmx2g", "5.0.8", "Linux 6.18")));
        Results.Environment unknown = environment(null, "-Xmx2g", "5.0.7", "Linux 6.18");
        assertFalse(Fingerprint.oneBuild(unknown, unknown), "a commit unknown in both is not one build");
    }
}
