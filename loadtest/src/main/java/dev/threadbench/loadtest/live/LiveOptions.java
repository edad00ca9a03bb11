package dev.threadbench.loadtest.live;

import dev.threadbench.loadtest.base.UsageException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** compare's live page: where it listens, or that it is off ({@link LivePage}). */
public final class LiveOptions {

    static final String LOOPBACK = "127.0.0.1";

    @Option(
            names = "--live",
            arity = "0..1",
            paramLabel = "ADDR:PORT",
            fallbackValue = "",
            description = "serve a live page of the comparison as it runs (default: when standard output is a"
                    + " terminal), on ADDR:PORT (default " + LOOPBACK + " and a free port; read-only figures)")
    private String live;

    @Option(names = "--no-live", description = "no live page, even on a terminal")
    private boolean noLive;

    @Option(
            names = "--live-linger",
            paramLabel = "S",
            defaultValue = "60",
            description = "after the end, keep serving the page and report.html this long if a browser opened it"
                    + " (default ${DEFAULT-VALUE} s; Ctrl-C leaves at once)")
    private int lingerSeconds;

    /** Where the page listens; null when it is off. */
    public InetSocketAddress address() {
        if (live != null && noLive) {
            throw new UsageException("--live, --no-live: one or the other");
        }
        if (noLive || (live == null && !stdoutIsTerminal())) {
            return null;
        }
        return parse(live == null ? "" : live);
    }

    public int lingerSeconds() {
        if (lingerSeconds < 0) {
            throw new UsageException("--live-linger: a number of seconds, 0 or more");
        }
        return lingerSeconds;
    }

    /** ADDR:PORT, :PORT, ADDR or nothing: loopback and a free port unless given. */
    static InetSocketAddress parse(String given) {
        String text = given.strip();
        int colon = text.lastIndexOf(':');
        String host = colon < 0 ? text : text.substring(0, colon);
        int port = 0;
        if (colon >= 0) {
            try {
                port = Integer.parseInt(text.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new UsageException("--live: ADDR:PORT, not '" + given + "'");
            }
            if (port < 0 || port > 65535) {
                throw new UsageException("--live: port " + port + " is not one (0-65535)");
            }
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        try {
            return new InetSocketAddress(InetAddress.getByName(host.isEmpty() ? LOOPBACK : host), port);
        } catch (UnknownHostException e) {
            throw new UsageException("--live: unknown address '" + host + "'");
        }
    }

    /** As {@code Progress.Sink.stderrIsTerminal} for standard output: not under CI, not redirected. */
    static boolean stdoutIsTerminal() {
        if (System.getenv("CI") != null) {
            return false;
        }
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/1")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }
}
