package dev.threadbench.loadtest.compare;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One server started from its jar as its own JVM on a free loopback port, its output going to a log file. */
final class ServerProcess implements Target {

    /** The options both servers read from the environment too; cleared so only the flags given here count. */
    private static final List<String> SERVER_ENV = List.of("PORT", "HOST", "DELAY_EVERY", "DELAY_MS", "STRATEGY", "WORKERS", "PAGE");
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final Pattern STARTUP_LINE = Pattern.compile("^(\\S+) (\\S+) listening on ");

    private final String name;
    private final Process process;
    private final int port;
    private final Path log;
    private final ServerHttp http;

    private ServerProcess(String name, Process process, int port, Path log) {
        this.name = name;
        this.process = process;
        this.port = port;
        this.log = log;
        this.http = new ServerHttp(name, base());
    }

    static List<String> command(Path jar, List<String> jvmOptions, int port, String strategy, int delayEvery, long delayMs) {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", jar.toString(), "--port", String.valueOf(port), "--host", "127.0.0.1",
                "--delay-every", String.valueOf(delayEvery), "--delay-ms", String.valueOf(delayMs)));
        if (strategy != null) {
            command.addAll(List.of("--strategy", strategy));
        }
        return command;
    }

    /** Starts the server and returns once GET /health answers 200. */
    static ServerProcess start(String name, Path jar, List<String> jvmOptions, String strategy, int delayEvery,
                               long delayMs, Path log) {
        int port = freePort();
        ProcessBuilder builder = new ProcessBuilder(command(jar, jvmOptions, port, strategy, delayEvery, delayMs))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        SERVER_ENV.forEach(builder.environment()::remove);
        Process process;
        try {
            Files.createDirectories(log.getParent());
            process = builder.start();
        } catch (IOException e) {
            throw new Failure("cannot start the " + name + " server: " + e.getMessage());
        }
        ServerProcess server = new ServerProcess(name, process, port, log);
        server.awaitHealthy();
        return server;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public URI base() {
        return URI.create("http://127.0.0.1:" + port);
    }

    @Override
    public OptionalLong pid() {
        return OptionalLong.of(process.pid());
    }

    Path log() {
        return log;
    }

    /** "2.4.4.Final" from the server's startup line ("Undertow 2.4.4.Final listening on ..."), once it has logged it. */
    @Override
    public String frameworkVersion() {
        try {
            for (String line : Files.readAllLines(log)) {
                Matcher m = STARTUP_LINE.matcher(line);
                if (m.find()) {
                    return m.group(2);
                }
            }
        } catch (IOException e) {
            return null;
        }
        return null;
    }

    private void awaitHealthy() {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new Failure(name + " server exited with code " + process.exitValue()
                        + " before /health answered: " + lastLine() + " (log: " + log + ")");
            }
            if (http.status("/health") == 200) {
                return;
            }
            ServerHttp.sleep(100);
        }
        process.destroyForcibly();
        throw new Failure(name + " server did not answer /health within " + READY_TIMEOUT.toSeconds() + " s (log: " + log + ")");
    }

    @Override
    public Stats stats() {
        return http.stats();
    }

    /** SIGTERM, then the exit code (-1: it had to be killed after {@code grace}). */
    @Override
    public OptionalInt stop(Duration grace) {
        process.destroy();
        try {
            if (process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                return OptionalInt.of(process.exitValue());
            }
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            return OptionalInt.of(-1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            return OptionalInt.of(-1);
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }

    private String lastLine() {
        try {
            List<String> lines = Files.readAllLines(log);
            return lines.isEmpty() ? "(no output)" : lines.getLast();
        } catch (IOException e) {
            return "(no log)";
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
