package dev.threadbench.loadtest.cluster;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Agents and compares as their own JVMs from the packaged jar, each logging to a file; all stopped at close. A cluster
 * key is made for them ({@link #keyArgs()}); agents take it and {@link #allowTargets} unless told otherwise.
 */
final class ClusterProcesses implements AutoCloseable {

    private final Path dir;
    private final Path key;
    private String allowTargets = "127.0.0.0/8";
    private final List<Process> started = new ArrayList<>();
    private final java.util.Map<String, Process> byName = new java.util.HashMap<>();

    ClusterProcesses(Path dir) {
        this.dir = dir;
        this.key = dir.resolve("cluster.key");
        ClusterKey.generate(key);
    }

    /** {@code --cluster-key FILE}, for a compare's arguments. */
    List<String> keyArgs() {
        return List.of("--cluster-key", key.toString());
    }

    /** The agents' --allow-targets from now on (default 127.0.0.0/8). */
    ClusterProcesses allowTargets(String allowed) {
        this.allowTargets = allowed;
        return this;
    }

    static Path loadtestJar() {
        Path jar = Path.of(System.getProperty("loadtest.jar", "target/loadtest.jar"));
        assertTrue(Files.isRegularFile(jar), "the loadtest jar is packaged before this test: " + jar);
        return jar;
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /**
     * {@code java -jar loadtest.jar ARGS} run through {@code launcher} (ip netns exec NS, or nothing), output to
     * NAME.log.
     */
    Process start(String name, List<String> launcher, List<String> args) throws IOException {
        List<String> command = new ArrayList<>(launcher);
        command.addAll(List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "-Xmx256m",
                "-jar",
                loadtestJar().toAbsolutePath().toString()));
        command.addAll(args);
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log(name).toFile())
                .start();
        process.getOutputStream().close();
        started.add(process);
        byName.put(name, process);
        return process;
    }

    /** Stops {@code process} with the others at close. */
    void track(Process process) {
        started.add(process);
    }

    /** An agent, once it has said it joined. */
    Process agent(String name, List<String> launcher, String host, int port, String join) throws Exception {
        return agent(name, launcher, host, port, join, List.of());
    }

    /** The same, with more options (--failure-timeout, ...). */
    Process agent(String name, List<String> launcher, String host, int port, String join, List<String> more)
            throws Exception {
        Process agent = startAgent(name, launcher, host, port, join, more);
        awaitLine(name, agent, "agent " + name + ": joined the cluster", Duration.ofSeconds(60));
        return agent;
    }

    /** The same, returned as soon as it is started. */
    Process startAgent(String name, List<String> launcher, String host, int port, String join, List<String> more)
            throws IOException {
        List<String> args = new ArrayList<>(List.of(
                "agent",
                "--name",
                name,
                "--cluster-host",
                host,
                "--cluster-port",
                String.valueOf(port),
                "--allow-targets",
                allowTargets));
        args.addAll(keyArgs());
        if (join != null) {
            args.addAll(List.of("--join", join));
        }
        args.addAll(more);
        return start(name, launcher, args);
    }

    Process process(String name) {
        return byName.get(name);
    }

    /** SIGTERM, then its exit code. */
    int terminate(String name) throws InterruptedException {
        Process process = byName.get(name);
        process.destroy();
        return exit(process, Duration.ofSeconds(30));
    }

    /** SIGKILL: the process gets no chance to say goodbye. */
    void kill(String name) throws InterruptedException {
        byName.get(name).destroyForcibly().waitFor(5, TimeUnit.SECONDS);
    }

    Path log(String name) {
        return dir.resolve(name + ".log");
    }

    String output(String name) {
        try {
            return Files.readString(log(name));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    void awaitLine(String name, Process process, String line, Duration limit) throws Exception {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!output(name).contains(line)) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                fail(name + " did not print '" + line + "'"
                        + (process.isAlive() ? "" : " (exited " + process.exitValue() + ")") + ":\n" + output(name));
            }
            Thread.sleep(50);
        }
    }

    /** Its exit code; fails with its threads' stacks (jcmd) when it is still running after {@code limit}. */
    static int exit(Process process, Duration limit) throws InterruptedException {
        if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            fail("still running after " + limit + "; its threads:\n" + threads(process));
        }
        return process.exitValue();
    }

    private static String threads(Process process) {
        try {
            Process jcmd = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "jcmd")
                                    .toString(),
                            Long.toString(process.pid()),
                            "Thread.print")
                    .redirectErrorStream(true)
                    .start();
            String dump = new String(jcmd.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            jcmd.waitFor(30, TimeUnit.SECONDS);
            return dump;
        } catch (java.io.IOException | InterruptedException e) {
            return "(no thread dump: " + e + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        started.forEach(Process::destroy);
        for (Process process : started) {
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
    }
}
