package dev.threadbench.loadtest.runner;

import java.net.ConnectException;
import java.net.SocketException;
import java.nio.channels.ClosedChannelException;
import java.util.Locale;
import java.util.concurrent.TimeoutException;

/** Why a request failed; every failed request is counted under exactly one cause. */
public enum FailureCause {
    /** An answer came, with a status outside 200-299. */
    NON_2XX("non2xx"),
    /** No answer (or no further bytes of it) within the timeout, or the connection could not be made in time. */
    TIMEOUT("timeout"),
    /** The connection was refused. */
    REFUSED("refused"),
    /** The connection was reset or closed before an answer began. */
    RESET("reset"),
    /** The answer began but its body ended short of its Content-Length (or the connection closed mid-body). */
    SHORT_BODY("shortBody"),
    /** Anything else; the message of the first one is kept in the run's result. */
    OTHER("other");

    private final String key;

    FailureCause(String key) {
        this.key = key;
    }

    /** The name used in results.json and the terminal. */
    public String key() {
        return key;
    }

    /**
     * Classifies a client-side failure. {@code answerStarted}: the status line and headers had arrived,
     * so a broken connection means a short body rather than a reset.
     */
    public static FailureCause of(Throwable failure, boolean answerStarted) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof TimeoutException || t.getClass().getSimpleName().contains("Timeout")) {
                return TIMEOUT;
            }
            if (t instanceof ConnectException) {
                return String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT).contains("timed out")
                        ? TIMEOUT
                        : REFUSED;
            }
        }
        String message = String.valueOf(failure.getMessage()).toLowerCase(Locale.ROOT);
        boolean broken = failure instanceof SocketException
                || failure instanceof ClosedChannelException
                || failure.getClass().getSimpleName().equals("HttpClosedException")
                || message.contains("reset")
                || message.contains("closed")
                || message.contains("broken pipe");
        if (broken) {
            return answerStarted ? SHORT_BODY : RESET;
        }
        return OTHER;
    }
}
