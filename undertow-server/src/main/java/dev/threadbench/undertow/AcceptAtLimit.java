package dev.threadbench.undertow;

import dev.threadbench.common.AcceptStallLog;
import dev.threadbench.common.ConnectionBudget;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Accepting at the file-descriptor limit, Undertow's way (Vert.x's: its own {@code AcceptAtLimit}). Keeps Undertow
 * from running out of file descriptors on accept, where XNIO recovers badly: after a
 * failed accept it stops accepting for 250 ms, then 1, 4, 16 and 30 s as failures repeat, and only a
 * successful accept resets that; connections closing in between do not end it. So the listener gets
 * XNIO's own connection limit instead ({@code Options.CONNECTION_HIGH_WATER} and {@code _LOW_WATER},
 * both the {@link ConnectionBudget}): XNIO stops accepting when that many connections are open and
 * starts again as soon as one closes.
 * <p>
 * XNIO tells of those stops and starts only in its debug log; they are taken from there (and not
 * printed) into an {@link AcceptStallLog}. Each start lets in at most one connection that was waiting,
 * so the log's count of connections accepted late is an upper bound here.
 */
final class AcceptAtLimit {

    /** Logs each stop and start at the limit, at debug level. */
    static final String XNIO_LIMIT_LOGGER = "org.xnio.nio.tcp.server.connection-limit";
    /** XNIO logs a stop at the limit only when this one logs debug too. */
    private static final String XNIO_SERVER_LOGGER = "org.xnio.nio.tcp.server";

    private static final String STOPPED = "Total open connections reach high water limit";
    private static final String STARTED = "Connection freed, resuming accept connections";

    /** Held here: java.util.logging keeps loggers only weakly, and would forget their levels. */
    private static Logger limitLogger;

    private static Logger serverLogger;
    private static Stalls stalls;

    private AcceptAtLimit() {}

    /** This process's connection limit, its stops and starts reported from now on (after FrameworkLogging.quiet). */
    static synchronized int install() {
        ConnectionBudget budget = ConnectionBudget.ofThisProcess();
        if (stalls == null) {
            stalls = new Stalls(new AcceptStallLog("undertow"));
            serverLogger = Logger.getLogger(XNIO_SERVER_LOGGER);
            serverLogger.setLevel(Level.FINE);
            limitLogger = Logger.getLogger(XNIO_LIMIT_LOGGER);
            limitLogger.setLevel(Level.FINE);
            limitLogger.setUseParentHandlers(false);
            limitLogger.addHandler(stalls);
        }
        stalls.reason = "all " + budget.connections()
                + " connections the file descriptor limit allows are open (ulimit -n " + budget.descriptorLimit() + ")";
        return budget.connections();
    }

    private static final class Stalls extends Handler {
        private final AcceptStallLog log;
        private volatile String reason;

        Stalls(AcceptStallLog log) {
            this.log = log;
        }

        @Override
        public void publish(LogRecord record) {
            String message = record.getMessage();
            if (message == null) {
                return;
            }
            if (message.startsWith(STOPPED)) {
                log.stopped(reason);
            } else if (message.startsWith(STARTED)) {
                log.resumed();
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    }
}
