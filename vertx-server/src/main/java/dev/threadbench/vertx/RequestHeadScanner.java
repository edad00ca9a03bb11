package dev.threadbench.vertx;

import dev.threadbench.common.RequestLimits;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads the request heads of one connection a line at a time, as they arrive, for Netty's decoder to
 * sit behind. Netty 4.2's decoder already refuses a bare CR or LF, a method of other than token
 * characters, forbidden bytes in header names and values, a header line without a colon, and a repeated
 * or malformed Content-Length. This adds the part of Undertow's parser strictness that Netty lacks and
 * that only the raw bytes show, which a parsed request no longer does:
 * <ul>
 *   <li>the request line is {@code method SP target SP version CRLF}: single spaces, no empty line or
 *       whitespace before it (Netty skips both), a method no longer than
 *       {@link RequestLimits#PARSER_METHOD_LENGTH}, a target of visible ASCII (Netty cuts it at a NUL);</li>
 *   <li>the version is {@code HTTP/d.d}, and neither HTTP/2.0 (Undertow's parser refuses it) nor HTTP/0.9
 *       (which the rules refuse, and which Netty would answer with a 501); Undertow serves any other
 *       version as HTTP/1.1, so the caller does too;</li>
 *   <li>every line ends in CRLF;</li>
 *   <li>no head has both Content-Length and Transfer-Encoding (Netty drops the Content-Length, so the
 *       rules could no longer tell);</li>
 *   <li>a head is at most {@link RequestLimits#PARSER_HEAD_BYTES} bytes, the empty line included, with at
 *       most {@link RequestLimits#PARSER_HEADER_COUNT} fields, counted as Undertow counts them.</li>
 * </ul>
 * It also tells when a head is complete, so that a head trickled in too slowly can be cut off, and
 * whether request content follows it. Only the request line is read byte by byte; of a header line,
 * only the name of a Content-Length or Transfer-Encoding field and that Content-Length's value. It reads
 * a byte array, not Netty's buffer: on Java 25 Netty has no Unsafe, and each {@code ByteBuf.getByte} goes
 * through a bounds check and a ByteBuffer, which made this scan several times dearer than one bulk copy. Not
 * thread-safe: one per connection, fed from its event loop.
 */
final class RequestHeadScanner {

    /** What the caller does after a line. */
    enum Step {
        /** Nothing: keep feeding. */
        MORE,
        /** The head is complete and no content follows: the next line starts the next head. */
        HEAD_COMPLETE,
        /**
         * The head is complete and content follows it. The rules refuse such a request and close the
         * connection, so nothing after the head needs reading; feed no more.
         */
        CONTENT_FOLLOWS,
        /** The head is malformed or too large: answer a bare 400 and read no further; feed no more. */
        REFUSE
    }

    private static final byte[] CONTENT_LENGTH = "content-length:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TRANSFER_ENCODING = "transfer-encoding:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] GET_THE_ROOT = "GET / HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII);
    /** The request line's version, d standing for a digit. */
    private static final byte[] VERSION_SHAPE = "HTTP/d.d".getBytes(StandardCharsets.US_ASCII);

    private boolean done;
    private boolean inHeaders;
    private int headBytes;
    private int partialBytes;
    private int fields;
    private boolean contentFollows;
    private boolean sawContentLength;
    private boolean sawTransferEncoding;
    private boolean sawOtherVersion;

    /** True while a head has begun and is not complete yet. */
    boolean inHead() {
        return !done && (headBytes > 0 || partialBytes > 0);
    }

    /** True once a head on this connection had a version other than HTTP/1.0 and HTTP/1.1 (one to serve as 1.1). */
    boolean sawOtherVersion() {
        return sawOtherVersion;
    }

    /** One complete line: the bytes of {@code buffer} from {@code start} up to {@code end}, its LF the last of them. */
    Step line(byte[] buffer, int start, int end) {
        checkNotDone();
        partialBytes = 0;
        headBytes += end - start;
        if (headBytes > RequestLimits.PARSER_HEAD_BYTES || end - start < 2 || buffer[end - 2] != '\r') {
            return refuse();
        }
        int cr = end - 2;
        if (!inHeaders) {
            if (isPlainGetOfTheRoot(buffer, start, end)) {
                inHeaders = true;
                return Step.MORE;
            }
            if (!isRequestLine(buffer, start, cr, true)) {
                return refuse();
            }
            int version = cr - VERSION_SHAPE.length;
            sawOtherVersion |= !isVersion(buffer, version, '1', '0') && !isVersion(buffer, version, '1', '1');
            inHeaders = true;
            return Step.MORE;
        }
        if (start == cr) {
            return headComplete();
        }
        byte first = buffer[start];
        if (first == ' ' || first == '\t') { // obs-fold: the previous field goes on, no new one
            return Step.MORE;
        }
        if (++fields > RequestLimits.PARSER_HEADER_COUNT) {
            return refuse();
        }
        if ((first | 0x20) == 'c' && startsWithIgnoreCase(buffer, start, cr, CONTENT_LENGTH)) {
            sawContentLength = true;
            // any value but zeros means content (a malformed one too: the request is refused)
            for (int i = start + CONTENT_LENGTH.length; i < cr; i++) {
                byte b = buffer[i];
                contentFollows |= b != ' ' && b != '\t' && b != '0';
            }
        } else if ((first | 0x20) == 't' && startsWithIgnoreCase(buffer, start, cr, TRANSFER_ENCODING)) {
            sawTransferEncoding = true;
            contentFollows = true;
        }
        return Step.MORE;
    }

    /**
     * The start of a line whose LF has not come yet, from {@code start} up to {@code end}: REFUSE as soon as
     * the head is too large, or the bytes so far can no longer begin a valid line, as Undertow's parser
     * refuses them at once rather than waiting for the rest.
     */
    Step partial(byte[] buffer, int start, int end) {
        checkNotDone();
        partialBytes = end - start;
        if (headBytes + partialBytes > RequestLimits.PARSER_HEAD_BYTES) {
            return refuse();
        }
        int cr = indexOf(buffer, start, end, (byte) '\r');
        boolean endsInCr = cr == end - 1;
        if (cr >= 0 && !endsInCr) { // a bare CR: the byte after it is no LF
            return refuse();
        }
        return inHeaders || isRequestLine(buffer, start, endsInCr ? cr : end, endsInCr) ? Step.MORE : refuse();
    }

    /** The request line of nearly every request, checked in one comparison. */
    private static boolean isPlainGetOfTheRoot(byte[] buffer, int start, int end) {
        return Arrays.equals(buffer, start, end, GET_THE_ROOT, 0, GET_THE_ROOT.length);
    }

    /** The index of the first {@code value} from {@code from} up to {@code end}, or -1. */
    static int indexOf(byte[] buffer, int from, int end, byte value) {
        for (int i = from; i < end; i++) {
            if (buffer[i] == value) {
                return i;
            }
        }
        return -1;
    }

    /**
     * {@code method SP target SP HTTP/d.d} up to {@code end}, its CR when {@code complete}; else the bytes
     * that have come of one, which must be the start of such a line.
     */
    private static boolean isRequestLine(byte[] buffer, int start, int end, boolean complete) {
        int methodEnd = visibleUntil(buffer, start, end);
        if (methodEnd - start > RequestLimits.PARSER_METHOD_LENGTH) {
            return false;
        }
        if (methodEnd == end) {
            return !complete;
        }
        int targetStart = methodEnd + 1;
        if (methodEnd == start || buffer[methodEnd] != ' ') {
            return false;
        }
        int targetEnd = visibleUntil(buffer, targetStart, end);
        if (targetEnd == end) {
            return !complete;
        }
        int version = targetEnd + 1;
        if (targetEnd == targetStart
                || buffer[targetEnd] != ' '
                || end - version > VERSION_SHAPE.length
                || (complete && end - version != VERSION_SHAPE.length)) {
            return false;
        }
        for (int i = version; i < end; i++) {
            byte b = buffer[i];
            byte shape = VERSION_SHAPE[i - version];
            if (shape == 'd' ? !isDigit(b) : b != shape) {
                return false;
            }
        }
        return !complete || !isVersion(buffer, version, '2', '0') && !isVersion(buffer, version, '0', '9');
    }

    /** The version starting at {@code version} is HTTP/major.minor. */
    private static boolean isVersion(byte[] buffer, int version, char major, char minor) {
        return buffer[version + 5] == major && buffer[version + 7] == minor;
    }

    private Step headComplete() {
        if (sawContentLength && sawTransferEncoding) {
            return refuse();
        }
        if (contentFollows) {
            done = true;
            return Step.CONTENT_FOLLOWS;
        }
        inHeaders = false;
        headBytes = 0;
        fields = 0;
        sawContentLength = false;
        return Step.HEAD_COMPLETE;
    }

    private Step refuse() {
        done = true;
        return Step.REFUSE;
    }

    private void checkNotDone() {
        if (done) {
            throw new IllegalStateException("the scanner refused or reached content; feed no more");
        }
    }

    /** The index of the first byte from {@code from} on that is not visible ASCII, or {@code end}. */
    private static int visibleUntil(byte[] buffer, int from, int end) {
        int i = from;
        while (i < end) {
            byte b = buffer[i];
            if (b <= ' ' || b >= 127) {
                break;
            }
            i++;
        }
        return i;
    }

    /** The line (up to its CR at {@code cr}) starts with {@code lowerCase}, ASCII letters in either case. */
    private static boolean startsWithIgnoreCase(byte[] buffer, int start, int cr, byte[] lowerCase) {
        if (cr - start < lowerCase.length) {
            return false;
        }
        for (int i = 0; i < lowerCase.length; i++) {
            byte b = buffer[start + i];
            if ((b >= 'A' && b <= 'Z' ? b + ('a' - 'A') : b) != lowerCase[i]) {
                return false;
            }
        }
        return true;
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }
}
