package dev.threadbench.common;

import com.sun.management.UnixOperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.Optional;

/** Thread and file-descriptor sizing, one rule for both servers. */
public final class Sizing {

    /** Connections a server should be able to hold open: the largest benchmark level. */
    public static final int CONNECTIONS = 10_000;
    /** Descriptors beyond the connections: the JVM's jars, the listener, epoll, pipes. */
    public static final int DESCRIPTOR_MARGIN = 1_000;

    private Sizing() {}

    /** IO threads (Undertow) and event loops (Vert.x): one per core, on both. */
    public static int ioThreads() {
        return Runtime.getRuntime().availableProcessors();
    }

    /** How the IO thread count was chosen, for the startup line. */
    public static String ioThreadsRule() {
        return "one per core";
    }

    /** A warning line when this process may not open enough descriptors for {@link #CONNECTIONS}. */
    public static Optional<String> fileDescriptorWarning(String server) {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (!(os instanceof UnixOperatingSystemMXBean unix)) {
            return Optional.empty();
        }
        return fileDescriptorWarning(server, unix.getMaxFileDescriptorCount());
    }

    static Optional<String> fileDescriptorWarning(String server, long limit) {
        long needed = CONNECTIONS + DESCRIPTOR_MARGIN;
        if (limit >= needed) {
            return Optional.empty();
        }
        return Optional.of(server + "-server: WARNING: file descriptor limit (ulimit -n) is " + limit
                + ", below the " + needed + " needed for " + CONNECTIONS
                + " connections; raise it (ulimit -n " + needed + " or more) or expect refused connections");
    }
}
