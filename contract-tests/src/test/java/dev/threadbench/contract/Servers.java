package dev.threadbench.contract;

import dev.threadbench.process.ServerProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The servers under test. By default the suite starts both jars itself; given base URLs
 * ({@code -Dcontract.undertow=http://localhost:8080 -Dcontract.vertx=http://localhost:8081}) it checks
 * servers that are already running, such as a docker compose deployment, assuming their default
 * delay settings (or {@code -Dcontract.delayEvery}, {@code -Dcontract.delayMs}).
 */
final class Servers {

    static final List<String> NAMES = List.of("undertow", "vertx");

    private Servers() {}

    /** True when the suite checks servers it did not start: tests that need to start servers are skipped. */
    static boolean external() {
        return !property("contract.undertow").isEmpty()
                || !property("contract.vertx").isEmpty();
    }

    static String externalUrl(String server) {
        String url = property("contract." + server);
        if (url.isEmpty()) {
            throw new IllegalStateException("-Dcontract." + server + "=URL is missing (both servers are checked)");
        }
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    static int delayEvery() {
        return Integer.parseInt(property("contract.delayEvery", "10"));
    }

    static long delayMs() {
        return Long.parseLong(property("contract.delayMs", "2000"));
    }

    /**
     * Starts {@code server} ("undertow" or "vertx") with these options on a free port; returns once /health answers
     * 200.
     */
    static ServerProcess start(String server, String... options) {
        return ServerProcess.start(launch(server, Map.of()), List.of(options));
    }

    /** As {@link #start}, with the server's file descriptor limit lowered to {@code limit}. */
    static ServerProcess startWithDescriptorLimit(int limit, String server, String... options) {
        return ServerProcess.start(
                launch(server, Map.of())
                        .through(List.of("bash", "-c", "ulimit -n " + limit + " && exec \"$@\"", "bash")),
                List.of(options));
    }

    /** Runs the jar with exactly these arguments and returns once it has exited (for option errors). */
    static ServerProcess runToExit(String server, Map<String, String> env, String... args) throws InterruptedException {
        ServerProcess run = ServerProcess.launch(launch(server, env), List.of(args));
        if (!run.waitFor(Duration.ofSeconds(60))) {
            run.process().destroyForcibly();
            throw new AssertionError(server + " did not exit; output: " + run.output());
        }
        return run;
    }

    /** A small heap, as a user would start it; stdout and stderr each to its own file under target/server-logs. */
    private static ServerProcess.Launch launch(String server, Map<String, String> env) {
        try {
            Path logs = Files.createDirectories(projectRoot().resolve("contract-tests/target/server-logs"));
            Path stdout = Files.createTempFile(logs, server + "-", ".stdout");
            Path stderr = stdout.resolveSibling(stdout.getFileName().toString().replace(".stdout", ".stderr"));
            return new ServerProcess.Launch(server, jar(server), List.of("-Xmx512m"), env, stdout, stderr);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path jar(String server) {
        Path jar = Path.of(property(
                server + ".jar",
                projectRoot()
                        .resolve(server + "-server/target/" + server + "-server.jar")
                        .toString()));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: build it first (./mvnw package -DskipTests)");
        }
        return jar;
    }

    static Path projectRoot() {
        return Path.of(property("project.root", "..")).toAbsolutePath().normalize();
    }

    static byte[] helloHtml() {
        try {
            return Files.readAllBytes(projectRoot().resolve("hello.html"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static String property(String name) {
        return property(name, "");
    }

    private static String property(String name, String fallback) {
        String value = System.getProperty(name);
        return value == null || value.isBlank() || value.startsWith("${") ? fallback : value.trim();
    }
}
