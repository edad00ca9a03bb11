package dev.threadbench.common;

import java.nio.charset.StandardCharsets;

/**
 * Every answer other than the page and {@code /stats}: both servers send the same status,
 * {@code Content-Type}, {@code Content-Length} and body, byte for byte.
 */
public enum FixedResponse {
    HEALTH_UP(200, Type.JSON, "{\"status\":\"UP\"}"),
    HEALTH_DRAINING(503, Type.JSON, "{\"status\":\"DRAINING\"}"),
    /** A request to {@code /} after shutdown began; sent with {@code Connection: close}. */
    DRAINING(503, Type.TEXT, "shutting down\n"),
    NOT_FOUND(404, Type.TEXT, "not found\n"),
    METHOD_NOT_ALLOWED(405, Type.TEXT, "method not allowed (allowed: GET, HEAD)\n"),
    URI_TOO_LONG(414, Type.TEXT, "request target longer than " + HttpLimits.MAX_URI_LENGTH + " bytes\n"),
    HEADERS_TOO_LARGE(431, Type.TEXT, "more than " + HttpLimits.MAX_HEADERS + " request headers or "
            + HttpLimits.MAX_HEADER_SIZE + " bytes of them\n"),
    INTERNAL_ERROR(500, Type.TEXT, "internal server error\n");

    /** Content types of the fixed responses and of {@code /stats}. */
    public static final class Type {
        public static final String TEXT = "text/plain; charset=utf-8";
        public static final String JSON = "application/json";

        private Type() {}
    }

    /** The {@code Allow} header sent with 405. */
    public static final String ALLOW = "GET, HEAD";

    private final int status;
    private final String contentType;
    private final byte[] body;

    FixedResponse(int status, String contentType, String body) {
        this.status = status;
        this.contentType = contentType;
        this.body = body.getBytes(StandardCharsets.UTF_8);
    }

    public int status() {
        return status;
    }

    public String contentType() {
        return contentType;
    }

    /** The body's bytes. Shared, never copied per request: callers must not modify the array. */
    public byte[] body() {
        return body;
    }

    public int length() {
        return body.length;
    }
}
