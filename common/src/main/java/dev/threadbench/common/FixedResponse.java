package dev.threadbench.common;

import java.nio.charset.StandardCharsets;

/**
 * Every answer other than the page and {@code /stats}: both servers send the same status,
 * {@code Content-Type}, {@code Content-Length} and body, byte for byte. A refusal also closes the
 * connection ({@link #closesConnection()}), so nothing the client sent after it is read as a request.
 */
public enum FixedResponse {
    HEALTH_UP(200, Type.JSON, "{\"status\":\"UP\"}", false),
    HEALTH_DRAINING(503, Type.JSON, "{\"status\":\"DRAINING\"}", false),
    /** A request to {@code /} after shutdown began. */
    DRAINING(503, Type.TEXT, "shutting down\n", true),
    NOT_FOUND(404, Type.TEXT, "not found\n", false),
    METHOD_NOT_ALLOWED(405, Type.TEXT, "method not allowed (allowed: GET, HEAD)\n", false),
    /** A malformed request: bare, with no type and no body, exactly as both frameworks' parsers send it. */
    BAD_REQUEST(400, null, "", true),
    /**
     * Request content: none of the endpoints takes any, so it is refused rather than read (see {@link RequestRules}).
     */
    CONTENT_TOO_LARGE(413, Type.TEXT, "request content is not accepted here\n", true),
    URI_TOO_LONG(414, Type.TEXT, "request target longer than " + HttpLimits.MAX_URI_LENGTH + " bytes\n", true),
    HEADERS_TOO_LARGE(
            431,
            Type.TEXT,
            "more than " + HttpLimits.MAX_HEADERS + " request headers or " + HttpLimits.MAX_HEADER_SIZE
                    + " bytes of them\n",
            true),
    /** A method this server does not know, CONNECT, or a transfer coding other than chunked. */
    NOT_IMPLEMENTED(501, Type.TEXT, "method or transfer coding not implemented\n", true),
    INTERNAL_ERROR(500, Type.TEXT, "internal server error\n", true);

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
    private final boolean closesConnection;

    FixedResponse(int status, String contentType, String body, boolean closesConnection) {
        this.status = status;
        this.contentType = contentType;
        this.body = body.getBytes(StandardCharsets.UTF_8);
        this.closesConnection = closesConnection;
    }

    public int status() {
        return status;
    }

    /** The {@code Content-Type}, or null for the bare 400, which has none. */
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

    /** Sent with {@code Connection: close}, and the connection is closed once it is out. */
    public boolean closesConnection() {
        return closesConnection;
    }
}
