package dev.threadbench.loadtest.compare;

import dev.threadbench.loadtest.BuildInfo;
import dev.threadbench.loadtest.report.Results;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

/** Where the runs were made: JDK, OS, CPU, the frameworks' versions, and how compare started the servers. */
final class EnvironmentProbe {

    private EnvironmentProbe() {}

    /**
     * @param versions         the frameworks' versions the servers logged, by server; the build's where missing
     * @param serverJvmOptions null when the servers were already running, with options compare cannot see
     * @param serverArgs       --server-args; null when the servers were already running
     * @param pinning          the CPUs of the servers and the generator; the cores counted are those before it
     */
    static Results.Environment describe(Map<String, String> versions, List<String> serverJvmOptions, List<String> serverArgs,
                                        CpuPinning pinning) {
        BuildInfo build = BuildInfo.get();
        return new Results.Environment(
                System.getProperty("java.vm.name") + " " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")",
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                cpuModel(), pinning.machineCpus(),
                versions.getOrDefault("undertow", build.undertowVersion()),
                versions.getOrDefault("vertx", build.vertxVersion()),
                OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS).toString(),
                serverJvmOptions == null ? null : String.join(" ", serverJvmOptions),
                serverArgs == null ? null : String.join(" ", serverArgs), pinning.record());
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                    .filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst().orElse("unknown");
        } catch (IOException | UncheckedIOException e) {
            return "unknown";
        }
    }
}
