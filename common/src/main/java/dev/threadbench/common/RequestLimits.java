package dev.threadbench.common;

/**
 * Applies {@link HttpLimits} to a parsed request head, the same way on both servers: Undertow answers
 * every parse limit with a bare 400 and Vert.x has no header-count limit, so neither framework's own
 * parser can give both servers the same 414 and 431. The parsers are set four times looser
 * ({@link #PARSER_HEAD_BYTES}, {@link #PARSER_HEADER_COUNT}), as a memory guard only; a request beyond
 * that ceiling gets the parser's bare 400.
 */
public final class RequestLimits {

    /** Longest request line, and most header bytes, the frameworks' own parsers take. */
    public static final int PARSER_HEAD_BYTES = 4 * (HttpLimits.MAX_URI_LENGTH + HttpLimits.MAX_HEADER_SIZE);
    /** Most header fields the frameworks' own parsers take (where they have such a limit). */
    public static final int PARSER_HEADER_COUNT = 4 * HttpLimits.MAX_HEADERS;

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
