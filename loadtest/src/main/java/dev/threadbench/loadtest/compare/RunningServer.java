package dev.threadbench.loadtest.compare;

import java.net.URI;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * A server that was running before compare (--targets), in another container say: reached at its URL and
 * never stopped. Its process is out of sight, so its CPU time and RSS are not measured.
 */
final class RunningServer implements Target {

    static final Duration READY_TIMEOUT = Duration.ofSeconds(120);

    private final String name;
    private final URI base;
    private final ServerHttp http;

    private RunningServer(String name, URI base) {
        this.name = name;
        this.base = base;
        this.http = new ServerHttp(name, base);
    }

    /** Returns once GET /health answers 200 and /stats says this is the server named. */
    static RunningServer connect(String name, URI base, Duration readyTimeout) {
        RunningServer server = new RunningServer(name, base);
        server.awaitHealthy(readyTimeout);
        String says = server.stats().server();
        if (!name.equals(says)) {
            throw new Failure("--targets: " + name + " at " + base + " is not the " + name + " server: its /stats says '" + says + "'");
        }
        return server;
    }

    private void awaitHealthy(Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        int status = http.status("/health");
        while (status != 200 && System.nanoTime() < deadline) {
            ServerHttp.sleep(500);
            status = http.status("/health");
        }
        if (status != 200) {
            throw new Failure("--targets: " + name + " at " + base + " did not answer /health with 200 within " + limit.toSeconds()
                    + " s (" + (status < 0 ? "no answer" : "last answer " + status) + ")");
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public URI base() {
        return base;
    }

    @Override
    public OptionalLong pid() {
        return OptionalLong.empty();
    }

    /** Unknown: the server says its version only in its own log. */
    @Override
    public String frameworkVersion() {
        return null;
    }

    @Override
    public Stats stats() {
        return http.stats();
    }

    /** Left running: it is not compare's to stop. */
    @Override
    public OptionalInt stop(Duration grace) {
        return OptionalInt.empty();
    }

    @Override
    public void close() {
        // nothing of ours to release
    }
}
