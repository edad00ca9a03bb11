package dev.threadbench.loadtest.server;

import dev.threadbench.loadtest.base.UsageException;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * A server that was running before compare (--targets), in another container say: reached at its URL and
 * never stopped. Its cost is what its own /stats reports, as for the servers compare starts.
 */
public final class RunningServer implements Target {

    public static final Duration READY_TIMEOUT = Duration.ofSeconds(120);

    /** A target's name: what the tables and results.json call it. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9]+(-[A-Za-z0-9]+)*");

    private final String name;
    private final URI base;
    private final ServerHttp http;
    private volatile boolean hasStats = true;

    private RunningServer(String name, URI base) {
        this.name = name;
        this.base = base;
        this.http = new ServerHttp(name, base);
    }

    /**
     * Returns once the server is up: GET /health answers 200 (or 404, a server without it). Named undertow or vertx,
     * its /stats must say it is that server; named anything else, it may have no /stats (404, or not JSON): its counts
     * and cost then read n/a.
     */
    public static RunningServer connect(String name, URI base, Duration readyTimeout) {
        RunningServer server = new RunningServer(name, base);
        server.awaitHealthy(readyTimeout);
        if (!ServerKind.NAMES.contains(name)) {
            server.hasStats = server.http.hasStats();
            return server;
        }
        String says = server.stats().server();
        if (!name.equals(says)) {
            throw new Failure("--targets: " + name + " at " + base + " is not the " + name
                    + " server: its /stats says '" + says + "'");
        }
        return server;
    }

    /**
     * {@code undertow=http://undertow:8080,vertx=http://vertx:8081}, in the order given; any names of letters, digits
     * and dashes ({@code a=http://127.0.0.1:8080,b=http://127.0.0.1:8081}: one server against a copy of itself).
     */
    public static Map<String, URI> parseTargets(String list) {
        Map<String, URI> targets = new LinkedHashMap<>();
        for (String entry : list.split(",", -1)) {
            int equals = entry.indexOf('=');
            if (equals < 0) {
                throw new UsageException("--targets: expected NAME=URL[,NAME=URL...], got '" + entry.trim() + "'");
            }
            String name = entry.substring(0, equals).trim();
            if (!NAME.matcher(name).matches()) {
                throw new UsageException("--targets: '" + name + "' is no name: give letters, digits and dashes");
            }
            if (targets.containsKey(name)) {
                throw new UsageException("--targets: " + name + " is given twice");
            }
            targets.put(name, baseUrl(name, entry.substring(equals + 1).trim()));
        }
        return targets;
    }

    /** http://HOST[:PORT][/] as http://HOST:PORT. */
    private static URI baseUrl(String name, String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new UsageException("--targets: " + name + ": not a URL: " + url);
        }
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        if (!"http".equalsIgnoreCase(uri.getScheme())
                || uri.getHost() == null
                || !(path.isEmpty() || path.equals("/"))
                || uri.getRawQuery() != null
                || uri.getRawFragment() != null
                || uri.getRawUserInfo() != null) {
            throw new UsageException(
                    "--targets: " + name + ": must be an http:// base URL (host and port, no path), got " + url);
        }
        return URI.create("http://" + uri.getHost() + ":" + (uri.getPort() < 0 ? 80 : uri.getPort()));
    }

    private void awaitHealthy(Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        int status = http.status("/health");
        while (!up(status) && System.nanoTime() < deadline) {
            ServerHttp.sleep(500);
            status = http.status("/health");
        }
        if (!up(status)) {
            throw new Failure("--targets: " + name + " at " + base + " did not answer /health with 200 within "
                    + limit.toSeconds() + " s (" + (status < 0 ? "no answer" : "last answer " + status) + ")");
        }
    }

    /** 404: a server without /health, which answered, so is up; ours answer 200 (503 while they drain). */
    private boolean up(int status) {
        return status == 200 || (status == 404 && !ServerKind.NAMES.contains(name));
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public URI base() {
        return base;
    }

    /** Not compare's: its process is on another host, or at least not known. */
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
        return hasStats ? http.stats(false) : Stats.unreported();
    }

    @Override
    public Stats statsWithThreadClasses() {
        return hasStats ? http.stats(true) : Stats.unreported();
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
