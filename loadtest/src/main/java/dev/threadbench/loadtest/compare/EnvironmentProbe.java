package dev.threadbench.loadtest.compare;

import dev.threadbench.loadtest.base.BuildInfo;
import dev.threadbench.loadtest.host.CpuPinning;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.server.ProjectLayout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Where the runs were made: JDK, OS, CPU, the frameworks' versions, how compare started the servers, the loadtest build
 * and the project's git commit: the run's fingerprint ({@link dev.threadbench.loadtest.analysis.Fingerprint}).
 */
final class EnvironmentProbe {

    private EnvironmentProbe() {}

    /**
     * @param versions         the frameworks' versions the servers logged, by server; the build's where missing
     * @param serverJvmOptions null when the servers were already running, with options compare cannot see
     * @param serverArgs       --server-args; null when the servers were already running
     * @param pinning          the CPUs of the servers and the generator; the cores counted are those before it
     */
    static Results.Environment describe(
            Map<String, String> versions, List<String> serverJvmOptions, List<String> serverArgs, CpuPinning pinning) {
        BuildInfo build = BuildInfo.get();
        return new Results.Environment(
                System.getProperty("java.vm.name") + " " + Runtime.version() + " (" + System.getProperty("java.vendor")
                        + ")",
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch"),
                cpuModel(),
                pinning.machineCpus(),
                versions.getOrDefault("undertow", build.undertowVersion()),
                versions.getOrDefault("vertx", build.vertxVersion()),
                OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS).toString(),
                serverJvmOptions == null ? null : String.join(" ", serverJvmOptions),
                serverArgs == null ? null : String.join(" ", serverArgs),
                pinning.record(),
                frameworks(versions, build),
                build.buildId(),
                gitCommit(ProjectLayout.root()));
    }

    /** Each server as named in the runs with the version it logged; the build's for a plain server that logged none. */
    private static Map<String, String> frameworks(Map<String, String> versions, BuildInfo build) {
        Map<String, String> frameworks = new TreeMap<>(versions);
        if (versions.isEmpty()) {
            frameworks.put("undertow", build.undertowVersion());
            frameworks.put("vertx", build.vertxVersion());
        }
        return frameworks;
    }

    /** The project's commit, abbreviated, with "-dirty" when tracked files had changes; null when git cannot say. */
    static String gitCommit(Path root) {
        String head = git(root, "rev-parse", "--short=12", "HEAD");
        if (head == null || head.isBlank()) {
            return null;
        }
        String changes = git(root, "status", "--porcelain", "--untracked-files=no");
        return head.trim() + (changes != null && !changes.isBlank() ? "-dirty" : "");
    }

    private static String git(Path root, String... arguments) {
        List<String> command = new ArrayList<>(List.of("git", "-C", root.toString()));
        command.addAll(List.of(arguments));
        try {
            Process process = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(10, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                return null;
            }
            return output;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                    .filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst()
                    .orElse("unknown");
        } catch (IOException | UncheckedIOException e) {
            return "unknown";
        }
    }
}
