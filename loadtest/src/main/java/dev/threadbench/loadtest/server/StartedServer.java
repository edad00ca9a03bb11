package dev.threadbench.loadtest.server;

import dev.threadbench.process.ServerProcess;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A server compare started from its jar, on a free port (of loopback, or --server-host), its output going to a log
 * file.
 */
public final class StartedServer implements Target {

    private static final Pattern STARTUP_LINE = Pattern.compile("^(\\S+) (\\S+) listening on ", Pattern.MULTILINE);

    private final ServerProcess process;
    private final URI base;
    private final ServerHttp http;

    private StartedServer(ServerProcess process) {
        this.process = process;
        this.base = URI.create(process.baseUrl());
        this.http = new ServerHttp(process.name(), base);
    }

    /**
     * Starts the server with these options (after its port and host: {@code host}, or loopback when null) and returns
     * once GET /health answers 200.
     */
    public static StartedServer start(ServerProcess.Launch launch, List<String> options, String host) {
        try {
            return new StartedServer(
                    host == null ? ServerProcess.start(launch, options) : ServerProcess.start(launch, options, host));
        } catch (ServerProcess.StartFailure e) {
            throw new Failure(e.getMessage());
        }
    }

    @Override
    public String name() {
        return process.name();
    }

    @Override
    public URI base() {
        return base;
    }

    /** The server JVM's process id (taskset, when pinned, runs java in its own process). */
    @Override
    public OptionalLong pid() {
        return OptionalLong.of(process.pid());
    }

    /**
     * "2.4.4.Final" from the server's startup line ("Undertow 2.4.4.Final listening on ..."), once it has logged it.
     */
    @Override
    public String frameworkVersion() {
        Matcher m = STARTUP_LINE.matcher(process.stdout());
        return m.find() ? m.group(2) : null;
    }

    @Override
    public Stats stats() {
        return http.stats(false);
    }

    @Override
    public Stats statsWithThreadClasses() {
        return http.stats(true);
    }

    /** SIGTERM, then the exit code (-1: it had to be killed after {@code grace}). */
    @Override
    public OptionalInt stop(Duration grace) {
        return OptionalInt.of(process.stop(grace));
    }

    @Override
    public void close() {
        process.close();
    }
}
