package dev.threadbench.loadtest.host;

import dev.threadbench.common.HttpLimits;
import dev.threadbench.loadtest.model.Note;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Connections the kernel dropped because a listening socket's accept queue was full: {@code ListenOverflows} in
 * /proc/net/netstat, counted for this network namespace, so for the servers compare starts on this host. A dropped
 * connection's client sends its SYN again after 1 s, then 3 s: a server that accepts late loses whole seconds of those
 * clients. The queue holds the smaller of the servers' backlog and {@code net.core.somaxconn} (4,096 by default).
 */
public final class ListenDrops {

    public static final Path NETSTAT = Path.of("/proc/net/netstat");
    public static final Path SOMAXCONN = Path.of("/proc/sys/net/core/somaxconn");

    private ListenDrops() {}

    /** The count so far; null where it cannot be read (not Linux). */
    public static Long read() {
        try {
            return count(Files.readString(NETSTAT));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * {@code ListenOverflows} from the text of /proc/net/netstat (a line of names, then one of values); null: absent.
     */
    public static Long count(String netstat) {
        List<String> lines =
                netstat.lines().filter(line -> line.startsWith("TcpExt:")).toList();
        if (lines.size() < 2) {
            return null;
        }
        List<String> names = List.of(lines.get(0).trim().split("\\s+"));
        String[] values = lines.get(1).trim().split("\\s+");
        int at = names.indexOf("ListenOverflows");
        return at < 0 || at >= values.length ? null : Long.parseLong(values[at]);
    }

    /** net.core.somaxconn; null where it cannot be read. */
    public static Integer somaxconn() {
        try {
            // not Files.readString: a /proc/sys file reports size 0 and gives it only its first byte
            return Integer.parseInt(Files.readAllLines(SOMAXCONN).getFirst().trim());
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The run's note for {@code drops} connections dropped during it; null for none. */
    public static String note(long drops, Integer somaxconn) {
        if (drops <= 0) {
            return null;
        }
        int queue = somaxconn == null ? HttpLimits.ACCEPT_BACKLOG : Math.min(somaxconn, HttpLimits.ACCEPT_BACKLOG);
        return Note.KERNEL_DROPS.write(String.format(
                Locale.ROOT,
                "%,d connection attempts dropped at the server's full accept queue (%,d long%s),"
                        + " each retried by its client after 1 s or more",
                drops,
                queue,
                somaxconn != null && somaxconn < HttpLimits.ACCEPT_BACKLOG
                        ? String.format(
                                Locale.ROOT,
                                ": net.core.somaxconn %,d cuts the servers' %,d",
                                somaxconn,
                                HttpLimits.ACCEPT_BACKLOG)
                        : ""));
    }

    /**
     * Before the runs: a line when {@code net.core.somaxconn} cuts the servers' backlog and the largest concurrency
     * opens more connections than it holds; null otherwise.
     */
    public static String cutBacklog(int largestConcurrency, Integer somaxconn) {
        if (somaxconn == null || somaxconn >= HttpLimits.ACCEPT_BACKLOG || largestConcurrency <= somaxconn) {
            return null;
        }
        return String.format(
                Locale.ROOT,
                "net.core.somaxconn is %,d: it cuts the servers' accept backlog of %,d, and %,d connections"
                        + " opening while a busy server accepts late may be dropped and retried after 1 s (each run"
                        + " says how many);"
                        + " as root: sysctl -w net.core.somaxconn=%d",
                somaxconn,
                HttpLimits.ACCEPT_BACKLOG,
                largestConcurrency,
                HttpLimits.ACCEPT_BACKLOG);
    }
}
