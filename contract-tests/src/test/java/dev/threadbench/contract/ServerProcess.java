package dev.threadbench.contract;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** One server started from its jar as a real process on a free port, as a user would start it. */
final class ServerProcess implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    private final String server;
    private final Process process;
    private final int port;
    private final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();

    private ServerProcess(String server, Process process, int port) {
        this.server = server;
        this.process = process;
        this.port = port;
        drain(process.getInputStream(), stdout);
        drain(process.getErrorStream(), stderr);
    }

    /** Starts {@code server} ("undertow" or "vertx") with these options and waits until /health answers 200. */
    static ServerProcess start(String server, String... options) {
        return start(List.of(), server, options);
    }

    /** As {@link #start(String, String...)}, with the server's file descriptor limit lowered to {@code limit} as {@code ulimit -n} would. */
    static ServerProcess startWithDescriptorLimit(int limit, String server, String... options) {
        return start(List.of("bash", "-c", "ulimit -n " + limit + " && exec \"$@\"", "bash"), server, options);
    }

    private static ServerProcess start(List<String> wrapper, String server, String... options) {
        int port = freePort();
        List<String> args = new ArrayList<>(List.of("--port", String.valueOf(port), "--host", "127.0.0.1"));
        args.addAll(List.of(options));
        ServerProcess started = launch(wrapper, server, port, args, Map.of());
        started.awaitHealthy();
        return started;
    }

    /** Runs the jar with exactly these arguments and returns once it has exited (for option errors). */
    static ServerProcess runToExit(String server, Map<String, String> env, String... args) throws InterruptedException {
        ServerProcess run = launch(List.of(), server, -1, List.of(args), env);
        if (!run.process.waitFor(60, TimeUnit.SECONDS)) {
            run.process.destroyForcibly();
            throw new AssertionError(server + " did not exit; output: " + run.output());
        }
        run.process.waitFor();
        return run;
    }

    /** Runs the jar; {@code wrapper}, when given, is a command that execs the rest of the command line. */
    private static ServerProcess launch(List<String> wrapper, String server, int port, List<String> args, Map<String, String> env) {
        Path jar = Servers.jar(server);
        List<String> command = new ArrayList<>(wrapper);
        command.addAll(List.of(javaBinary(), "-Xmx512m", "-jar", jar.toString()));
        command.addAll(args);
        try {
            ProcessBuilder builder = new ProcessBuilder(command);
            for (String option : List.of("PORT", "HOST", "DELAY_EVERY", "DELAY_MS", "STRATEGY", "WORKERS", "PAGE")) {
                builder.environment().remove(option);
            }
            builder.environment().putAll(env);
            return new ServerProcess(server, builder.start(), port);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
    }

    private static String javaBinary() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void awaitHealthy() {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest health = HttpRequest.newBuilder(URI.create(baseUrl() + "/health")).timeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new AssertionError(server + " exited with " + process.exitValue() + " before it was healthy: " + output());
            }
            try {
                if (client.send(health, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
            sleep(50);
        }
        process.destroyForcibly();
        throw new AssertionError(server + " was not healthy within " + READY_TIMEOUT + ": " + output());
    }

    String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    int port() {
        return port;
    }

    Process process() {
        return process;
    }

    int exitCode() {
        return process.exitValue();
    }

    /** Sends SIGTERM and waits for the exit code. */
    int terminate(Duration timeout) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(server + " did not exit within " + timeout + " of SIGTERM: " + output());
        }
        return process.exitValue();
    }

    String stdout() {
        synchronized (stdout) {
            return stdout.toString(StandardCharsets.UTF_8);
        }
    }

    String stderr() {
        synchronized (stderr) {
            return stderr.toString(StandardCharsets.UTF_8);
        }
    }

    String output() {
        return "\n--- stdout ---\n" + stdout() + "\n--- stderr ---\n" + stderr();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void drain(InputStream in, ByteArrayOutputStream into) {
        Thread.ofVirtual().start(() -> {
            byte[] buffer = new byte[8192];
            try (in) {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    synchronized (into) {
                        into.write(buffer, 0, n);
                    }
                }
            } catch (IOException ignored) {
                // the process is gone
            }
        });
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    static byte[] helloHtml() {
        try {
            return Files.readAllBytes(Servers.projectRoot().resolve("hello.html"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
