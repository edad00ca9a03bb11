package dev.threadbench.process;

import dev.threadbench.common.ServerOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A server started from its jar as its own JVM, as a user would start it: for {@code loadtest compare}
 * and for the contract suite. The servers' option variables (PORT, DELAY_MS, ...) are cleared, so only
 * the arguments given count; stdout and stderr go to files; SIGTERM stops it.
 */
public final class ServerProcess implements AutoCloseable {

    /** How long a server may take to answer GET /health with 200. */
    public static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    /**
     * What to start: {@code name} ("undertow", say) for messages, the jar, the JVM's options, variables
     * added to the cleared environment, the files stdout and stderr go to (the same file: one log), and
     * what java is started through ({@code taskset -c 0}, say; usually nothing).
     */
    public record Launch(
            String name,
            Path jar,
            List<String> jvmOptions,
            Map<String, String> environment,
            Path stdout,
            Path stderr,
            List<String> launcher) {

        public Launch {
            jvmOptions = List.copyOf(jvmOptions);
            environment = Map.copyOf(environment);
            launcher = List.copyOf(launcher);
        }

        public Launch(
                String name,
                Path jar,
                List<String> jvmOptions,
                Map<String, String> environment,
                Path stdout,
                Path stderr) {
            this(name, jar, jvmOptions, environment, stdout, stderr, List.of());
        }

        /** stdout and stderr both into {@code log}, nothing added to the environment. */
        public static Launch logged(String name, Path jar, List<String> jvmOptions, Path log) {
            return new Launch(name, jar, jvmOptions, Map.of(), log, log);
        }

        /** The same, java started through {@code launcher} (a command that runs the rest of its command line). */
        public Launch through(List<String> launcher) {
            return new Launch(name, jar, jvmOptions, environment, stdout, stderr, launcher);
        }

        /** The command line that runs the jar with these server arguments, with this JVM's java. */
        public List<String> command(List<String> args) {
            List<String> command = new ArrayList<>(launcher);
            command.add(ProcessHandle.current().info().command().orElse("java"));
            command.addAll(jvmOptions);
            command.addAll(List.of("-jar", jar.toString()));
            command.addAll(args);
            return command;
        }

        private boolean oneLog() {
            return stdout.equals(stderr);
        }
    }

    /** The server did not come up; the message is one line, naming its log. */
    public static final class StartFailure extends RuntimeException {
        StartFailure(String message) {
            super(message, null, false, false);
        }
    }

    private final Launch launch;
    private final Process process;
    /** Stops the server if this JVM exits first, so that an interrupted compare leaves no server behind. */
    private final Thread stopOnExit;

    private static final String LOOPBACK = "127.0.0.1";

    private final String host;
    private final int port;

    private ServerProcess(Launch launch, Process process, String host, int port) {
        this.launch = launch;
        this.process = process;
        this.host = host;
        this.port = port;
        this.stopOnExit = new Thread(() -> stop(Duration.ofSeconds(5)), "stop-" + launch.name() + "-server");
        Runtime.getRuntime().addShutdownHook(stopOnExit);
        // however it ends (stopped, closed, or exited on its own before /health), the hook is no longer needed
        process.onExit().thenRun(this::forgetStopOnExit);
    }

    /** The arguments {@link #start} puts before the given options: {@code --port PORT --host 127.0.0.1}. */
    public static List<String> onLoopback(String port, List<String> options) {
        return on(LOOPBACK, port, options);
    }

    /**
     * The arguments {@link #start(Launch, List, String)} puts before the given options: {@code --port PORT --host
     * HOST}.
     */
    public static List<String> on(String host, String port, List<String> options) {
        List<String> args = new ArrayList<>(List.of("--port", port, "--host", host));
        args.addAll(options);
        return args;
    }

    /** Starts the server on a free loopback port and returns once GET /health answers 200. */
    public static ServerProcess start(Launch launch, List<String> options) {
        return start(launch, options, LOOPBACK);
    }

    /**
     * Starts the server on a free port of {@code host} (an address of this machine) and returns once GET /health
     * answers 200.
     */
    public static ServerProcess start(Launch launch, List<String> options, String host) {
        int port = freePort(host);
        ServerProcess server =
                new ServerProcess(launch, spawn(launch, on(host, String.valueOf(port), options)), host, port);
        server.awaitHealthy();
        return server;
    }

    /** Starts the jar with exactly these arguments and does not wait: to see how it takes them. */
    public static ServerProcess launch(Launch launch, List<String> args) {
        return new ServerProcess(launch, spawn(launch, args), LOOPBACK, -1);
    }

    private static Process spawn(Launch launch, List<String> args) {
        ProcessBuilder builder = new ProcessBuilder(launch.command(args));
        ServerOptions.environmentVariables().forEach(builder.environment()::remove);
        builder.environment().putAll(launch.environment());
        if (launch.oneLog()) {
            builder.redirectErrorStream(true).redirectOutput(launch.stdout().toFile());
        } else {
            builder.redirectOutput(launch.stdout().toFile())
                    .redirectError(launch.stderr().toFile());
        }
        try {
            Files.createDirectories(launch.stdout().toAbsolutePath().getParent());
            Files.createDirectories(launch.stderr().toAbsolutePath().getParent());
            return builder.start();
        } catch (IOException e) {
            throw new StartFailure("cannot start the " + launch.name() + " server: " + e.getMessage());
        }
    }

    private void awaitHealthy() {
        HttpClient client =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest health = HttpRequest.newBuilder(URI.create(baseUrl() + "/health"))
                .timeout(Duration.ofSeconds(2))
                .build();
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new StartFailure(launch.name() + " server exited with code " + process.exitValue()
                        + " before /health answered: " + lastLine() + " (" + logs() + ")");
            }
            try {
                if (client.send(health, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
                throw new StartFailure("interrupted while waiting for the " + launch.name() + " server");
            }
            sleep(50);
        }
        process.destroyForcibly();
        throw new StartFailure(launch.name() + " server did not answer /health within " + READY_TIMEOUT.toSeconds()
                + " s (" + logs() + ")");
    }

    public String name() {
        return launch.name();
    }

    /** {@code http://HOST:PORT} when {@link #start started} (127.0.0.1 unless given another address). */
    public String baseUrl() {
        return "http://" + host + ":" + port;
    }

    public long pid() {
        return process.pid();
    }

    public Process process() {
        return process;
    }

    public int exitCode() {
        return process.exitValue();
    }

    /** Waits up to {@code limit} for the process to exit; false if it is still running. */
    public boolean waitFor(Duration limit) throws InterruptedException {
        return process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** SIGTERM, then its exit code; -1 when it had to be killed after {@code grace}. */
    public int stop(Duration grace) {
        process.destroy();
        try {
            if (waitFor(grace)) {
                return process.exitValue();
            }
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        return -1;
    }

    /**
     * Once the server has exited, the hook that stops it when this JVM exits (Ctrl-C, SIGTERM to compare) is not
     * needed.
     */
    private void forgetStopOnExit() {
        if (Thread.currentThread() != stopOnExit) {
            try {
                Runtime.getRuntime().removeShutdownHook(stopOnExit);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or about to: it finds the process stopped
            }
        }
    }

    /** Stops it if it is still running: SIGTERM, killed after 30 s. */
    @Override
    public void close() {
        if (process.isAlive()) {
            stop(Duration.ofSeconds(30));
        }
    }

    /** Everything it has written to stdout so far (with stderr, when both go to one log). */
    public String stdout() {
        return read(launch.stdout());
    }

    /** Everything it has written to stderr so far; its log when both go to one. */
    public String stderr() {
        return read(launch.stderr());
    }

    /** Its output, for a failure message. */
    public String output() {
        return launch.oneLog()
                ? "\n--- " + launch.stdout() + " ---\n" + stdout()
                : "\n--- stdout ---\n" + stdout() + "\n--- stderr ---\n" + stderr();
    }

    private String lastLine() {
        String text = stderr().isBlank() ? stdout() : stderr();
        return text.lines()
                .filter(line -> !line.isBlank())
                .reduce((first, second) -> second)
                .orElse("(no output)");
    }

    private String logs() {
        return launch.oneLog() ? "log: " + launch.stdout() : "logs: " + launch.stdout() + ", " + launch.stderr();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "";
        }
    }

    private static int freePort(String host) {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getByName(host))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
