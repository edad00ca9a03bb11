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
    /** A client that has not sent a whole request head by then is cut off. */
    public static final Duration HEADER_READ_TIMEOUT = Duration.ofSeconds(10);
    /** An idle keep-alive connection is closed after this. */
    public static final Duration IDLE_TIMEOUT = Duration.ofSeconds(60);
    /** Accept backlog, sized for bursts of thousands of new connections. */
    public static final int ACCEPT_BACKLOG = 16_384;

    private HttpLimits() {}
}
