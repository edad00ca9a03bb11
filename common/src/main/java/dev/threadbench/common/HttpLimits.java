package dev.threadbench.common;

import java.time.Duration;

/** The strictness both servers are configured to, from this one place, so they refuse alike. */
public final class HttpLimits {
    /** Longest request target (URI) accepted; longer gets 414. */
    public static final int MAX_URI_LENGTH = 4096;
    /** Most bytes in all request headers together; more gets 431. */
    public static final int MAX_HEADER_SIZE = 8192;
    /** Most request header fields; more gets 431. */
    public static final int MAX_HEADERS = 100;
    /** A request head not complete this long after its first byte: the connection is closed (slowloris). */
    public static final Duration HEADER_READ_TIMEOUT = Duration.ofSeconds(10);
    /** A connection with no request under way (an idle keep-alive one) is closed after this. */
    public static final Duration IDLE_TIMEOUT = Duration.ofSeconds(60);
    /** Accept backlog, sized for bursts of thousands of new connections. */
    public static final int ACCEPT_BACKLOG = 16_384;

    private HttpLimits() {}
}
