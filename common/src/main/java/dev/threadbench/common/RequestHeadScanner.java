package dev.threadbench.common;

/**
 * Reads the request heads of one connection a byte at a time, as they arrive, for a lenient parser
 * (Netty's, under Vert.x) to sit behind. It applies the part of Undertow's parser strictness that only
 * the raw bytes show, which a parsed request no longer does:
 * <ul>
 *   <li>the request line is {@code method SP target SP version CRLF}: single spaces, no empty line
 *       before it, a method of token characters no longer than {@link RequestLimits#PARSER_METHOD_LENGTH},
 *       a target of visible ASCII;</li>
 *   <li>the version is {@code HTTP/d.d}, and neither HTTP/2.0 (Undertow's parser refuses it) nor HTTP/0.9
 *       (which the rules refuse, and which Netty would answer with a 501); Undertow serves any other
 *       version as HTTP/1.1, so the caller does too;</li>
 *   <li>every line ends in CRLF, never a bare CR or LF;</li>
 *   <li>no head has both Content-Length and Transfer-Encoding (Netty drops the Content-Length, so the
 *       rules could no longer tell);</li>
 *   <li>a head is at most {@link RequestLimits#PARSER_HEAD_BYTES} bytes, the empty line included, with at
 *       most {@link RequestLimits#PARSER_HEADER_COUNT} fields, counted as Undertow counts them.</li>
 * </ul>
 * It also tells when a head is complete, so that a head trickled in too slowly can be cut off, and
 * whether request content follows it. Header fields themselves are left to the parser and to
 * {@link RequestRules}. Not thread-safe: one per connection, fed from its IO thread.
 */
public final class RequestHeadScanner {

    /** What the caller does after feeding a byte. */
    public enum Step {
        /** Nothing: keep feeding. */
        MORE,
        /** The head is complete and no content follows: the next byte starts the next head. */
        HEAD_COMPLETE,
        /**
         * The head is complete and content follows it. {@link RequestRules} refuses such a request and
         * closes the connection, so nothing after the head needs reading; feed no more.
         */
        CONTENT_FOLLOWS,
        /** The head is malformed or too large: answer a bare 400 and read no further; feed no more. */
        REFUSE
    }

    private enum State { METHOD, TARGET_START, TARGET, VERSION, LINE_FEED, LINE_START, NAME, VALUE, CONTENT_LENGTH, FINAL_LINE_FEED, DONE }

    private static final byte[] VERSION_PREFIX = {'H', 'T', 'T', 'P', '/'};
    private static final String CONTENT_LENGTH = "content-length";
    private static final String TRANSFER_ENCODING = "transfer-encoding";

    private State state = State.METHOD;
    private int headBytes;
    private int methodLength;
    private int versionIndex;
    private byte majorVersion;
    private int fields;
    private int nameLength;
    private boolean nameMayBeContentLength;
    private boolean nameMayBeTransferEncoding;
    private boolean contentFollows;
    private boolean sawContentLength;
    private boolean sawTransferEncoding;
    private boolean sawOtherVersion;

    /** True while a head has begun and is not complete yet. */
    public boolean inHead() {
        return headBytes > 0 && state != State.DONE;
    }

    /** True once a head on this connection had a version other than HTTP/1.0 and HTTP/1.1 (one to serve as 1.1). */
    public boolean sawOtherVersion() {
        return sawOtherVersion;
    }

    public Step feed(byte b) {
        if (state == State.DONE) {
            throw new IllegalStateException("the scanner refused or reached content; feed no more");
        }
        if (++headBytes > RequestLimits.PARSER_HEAD_BYTES) {
            return refuse();
        }
        return switch (state) {
            case METHOD -> method(b);
            case TARGET_START -> isVisible(b) ? to(State.TARGET) : refuse();
            case TARGET -> b == ' ' ? to(State.VERSION) : isVisible(b) ? Step.MORE : refuse();
            case VERSION -> version(b);
            case LINE_FEED -> b == '\n' ? to(State.LINE_START) : refuse();
            case LINE_START -> lineStart(b);
            case NAME -> name(b);
            case VALUE -> b == '\r' ? to(State.LINE_FEED) : b == '\n' ? refuse() : Step.MORE;
            case CONTENT_LENGTH -> contentLength(b);
            case FINAL_LINE_FEED -> b == '\n' ? headComplete() : refuse();
            case DONE -> throw new AssertionError();
        };
    }

    private Step method(byte b) {
        if (b == ' ' && methodLength > 0) {
            return to(State.TARGET_START);
        }
        return RequestRules.isTokenChar(b) && ++methodLength <= RequestLimits.PARSER_METHOD_LENGTH ? Step.MORE : refuse();
    }

    /** "HTTP/" DIGIT "." DIGIT CR, but not 2.0 or 0.9. */
    private Step version(byte b) {
        int index = versionIndex++;
        if (index < VERSION_PREFIX.length) {
            return b == VERSION_PREFIX[index] ? Step.MORE : refuse();
        }
        if (index == VERSION_PREFIX.length) {
            majorVersion = b;
            return isDigit(b) ? Step.MORE : refuse();
        }
        if (index == VERSION_PREFIX.length + 1) {
            return b == '.' ? Step.MORE : refuse();
        }
        if (index == VERSION_PREFIX.length + 2) {
            boolean refused = !isDigit(b) || (majorVersion == '2' && b == '0') || (majorVersion == '0' && b == '9');
            sawOtherVersion |= majorVersion != '1' || b > '1';
            return refused ? refuse() : Step.MORE;
        }
        return b == '\r' ? to(State.LINE_FEED) : refuse();
    }

    private Step lineStart(byte b) {
        if (b == '\r') {
            return to(State.FINAL_LINE_FEED);
        }
        if (b == ' ' || b == '\t') { // obs-fold: the previous field goes on, no new one
            return to(State.VALUE);
        }
        if (b == '\n' || ++fields > RequestLimits.PARSER_HEADER_COUNT) {
            return refuse();
        }
        nameLength = 0;
        nameMayBeContentLength = true;
        nameMayBeTransferEncoding = true;
        state = State.NAME;
        return name(b);
    }

    private Step name(byte b) {
        if (b == ':') {
            if (nameMayBeTransferEncoding && nameLength == TRANSFER_ENCODING.length()) {
                sawTransferEncoding = true;
                contentFollows = true;
            }
            if (nameMayBeContentLength && nameLength == CONTENT_LENGTH.length()) {
                sawContentLength = true;
                return to(State.CONTENT_LENGTH);
            }
            return to(State.VALUE);
        }
        if (b == '\r' || b == '\n') { // a field without a colon: the parser refuses it
            return b == '\r' ? to(State.LINE_FEED) : refuse();
        }
        int lower = b >= 'A' && b <= 'Z' ? b + ('a' - 'A') : b;
        nameMayBeContentLength &= nameLength < CONTENT_LENGTH.length() && CONTENT_LENGTH.charAt(nameLength) == lower;
        nameMayBeTransferEncoding &= nameLength < TRANSFER_ENCODING.length() && TRANSFER_ENCODING.charAt(nameLength) == lower;
        nameLength++;
        return Step.MORE;
    }

    /** Any Content-Length value but zeros means content (a malformed one too: the request is refused). */
    private Step contentLength(byte b) {
        if (b == '\r') {
            return to(State.LINE_FEED);
        }
        if (b == '\n') {
            return refuse();
        }
        if (b != ' ' && b != '\t' && b != '0') {
            contentFollows = true;
        }
        return Step.MORE;
    }

    private Step headComplete() {
        if (sawContentLength && sawTransferEncoding) {
            return refuse();
        }
        if (contentFollows) {
            state = State.DONE;
            return Step.CONTENT_FOLLOWS;
        }
        state = State.METHOD;
        headBytes = 0;
        methodLength = 0;
        versionIndex = 0;
        fields = 0;
        sawContentLength = false;
        return Step.HEAD_COMPLETE;
    }

    private Step to(State next) {
        state = next;
        return Step.MORE;
    }

    private Step refuse() {
        state = State.DONE;
        return Step.REFUSE;
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    private static boolean isVisible(byte b) {
        return b > ' ' && b < 127;
    }

}
