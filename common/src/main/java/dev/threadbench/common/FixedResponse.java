package dev.threadbench.common;

import java.nio.charset.StandardCharsets;

/**
 * Every answer other than the page and {@code /stats}: both servers send the same status,
 * {@code Content-Type}, {@code Content-Length} and body, byte for byte.
 */
public enum FixedResponse {
    HEALTHY(200, "ok\n"),
    DRAINING(503, "draining\n"),
    NOT_FOUND(404, "not found\n"),
    METHOD_NOT_ALLOWED(405, "method not allowed (allowed: GET, HEAD)\n"),
    URI_TOO_LONG(414, "request target longer than " + HttpLimits.MAX_URI_LENGTH + " bytes\n"),
    HEADERS_TOO_LARGE(431, "more than " + HttpLimits.MAX_HEADERS + " request headers or "
            + HttpLimits.MAX_HEADER_SIZE + " bytes of them\n"),
    INTERNAL_ERROR(500, "internal server error\n");

    /** Content type of every fixed response. */
    public static final String CONTENT_TYPE = "text/plain; charset=utf-8";
    /** Content type of {@code GET /stats}. */
    public static final String STATS_CONTENT_TYPE = "application/json";
    /** The {@code Allow} header sent with 405. */
    public static final String ALLOW = "GET, HEAD";

    private final int status;
    private final byte[] body;

    FixedResponse(int status, String body) {
        this.status = status;
        this.body = body.getBytes(StandardCharsets.UTF_8);
    }

    public int status() {
        return status;
    }

    /** The body's bytes. Shared, never copied per request: callers must not modify the array. */
    public byte[] body() {
        return body;
    }

    public int length() {
        return body.length;
    }
}
