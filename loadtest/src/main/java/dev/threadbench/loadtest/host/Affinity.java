package dev.threadbench.loadtest.host;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What Linux says about CPUs and affinity, and taskset to change it: the CPUs this process may run on,
 * which of them are hyper-threads of one core, and the affinity of every thread of a process.
 */
public final class Affinity {

    private Affinity() {}

    /** Cpus_allowed_list of this process (its cpuset and affinity); 0..n-1 when /proc does not say. */
    public static CpuSet allowedCpus() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return CpuSet.parse("Cpus_allowed_list", line.substring(line.indexOf(':') + 1));
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or an unexpected format: fall back on the count the JVM sees
        }
        int count = Runtime.getRuntime().availableProcessors();
        return CpuSet.parse("cores", count == 1 ? "0" : "0-" + (count - 1));
    }

    /** The hyper-threads sharing {@code cpu}'s core (itself included); just itself when sysfs does not say. */
    public static CpuSet siblings(int cpu) {
        Path list = Path.of("/sys/devices/system/cpu/cpu" + cpu + "/topology/thread_siblings_list");
        try {
            return CpuSet.parse("thread_siblings_list", Files.readString(list).strip());
        } catch (IOException | RuntimeException e) {
            return CpuSet.of(cpu);
        }
    }

    /** taskset's path when it is installed (util-linux). */
    public static Optional<String> taskset() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            Path tool = Path.of(dir.isEmpty() ? "." : dir, "taskset");
            if (Files.isExecutable(tool)) {
                return Optional.of(tool.toString());
            }
        }
        return Optional.empty();
    }

    /**
     * Every thread of process {@code pid} onto {@code cpus} ({@code taskset -a -p -c}); threads it starts
     * later inherit the set from the thread that starts them. Empty when it worked, else taskset's complaint.
     */
    public static Optional<String> pinAllThreads(String taskset, long pid, CpuSet cpus) {
        List<String> command = List.of(taskset, "-a", "-p", "-c", cpus.toString(), String.valueOf(pid));
        try {
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int code = process.waitFor();
            return code == 0
                    ? Optional.empty()
                    : Optional.of(output.strip().lines().reduce((a, b) -> b).orElse("exit code " + code));
        } catch (IOException e) {
            return Optional.of(e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted");
        }
    }

    /** The command prefix that starts a program on {@code cpus}. */
    public static List<String> launcher(String taskset, CpuSet cpus) {
        return List.of(taskset, "-c", cpus.toString());
    }
}
