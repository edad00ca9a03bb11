package dev.threadbench.common;

/**
 * Applies {@link HttpLimits} to a parsed request head, the same way on both servers: Undertow answers
 * every parse limit with a bare 400 and Vert.x has no header-count limit, so neither framework's own
 * parser can give both servers the same 414 and 431. The parsers are set four times looser
 * ({@link #PARSER_HEAD_BYTES}, {@link #PARSER_HEADER_COUNT}), as a memory guard only; a request beyond
 * that ceiling gets the parser's bare 400. Undertow's parser counts the whole head against its
 * ceiling; Vert.x's head guard (in vertx-server) counts the same way, so the ceiling falls at the
 * same byte on both.
 */
public final class RequestLimits {

    /** Most bytes of a request head (request line, header lines, the empty line) a parser takes. */
    public static final int PARSER_HEAD_BYTES = 4 * (HttpLimits.MAX_URI_LENGTH + HttpLimits.MAX_HEADER_SIZE);
    /** Most header fields a parser takes. */
    public static final int PARSER_HEADER_COUNT = 4 * HttpLimits.MAX_HEADERS;
    /** Longest method name Undertow's parser takes (not configurable there); Vert.x's guard holds to it too. */
    public static final int PARSER_METHOD_LENGTH = 33;

    private RequestLimits() {}

    /**
     * The refusal for a request head, or null when it is within the limits.
     *
     * @param targetLength length of the request target as sent (path and query)
     * @param headerCount number of header fields
     * @param headerBytes bytes of all header fields, as counted by {@link #fieldBytes}
     */
    public static FixedResponse check(int targetLength, int headerCount, long headerBytes) {
        if (targetLength > HttpLimits.MAX_URI_LENGTH) {
            return FixedResponse.URI_TOO_LONG;
        }
        if (headerCount > HttpLimits.MAX_HEADERS || headerBytes > HttpLimits.MAX_HEADER_SIZE) {
            return FixedResponse.HEADERS_TOO_LARGE;
        }
        return null;
    }

    /** Bytes one header field takes on the wire: {@code name: value CRLF}. */
    public static int fieldBytes(int nameLength, int valueLength) {
        return nameLength + 2 + valueLength + 2;
    }
}
