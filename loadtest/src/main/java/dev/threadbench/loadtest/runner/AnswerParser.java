package dev.threadbench.loadtest.runner;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One connection's HTTP/1.1 answers, read as they arrive and never kept: the status, the few headers that say
 * where the answer ends (Content-Length, Transfer-Encoding: chunked, Connection) and the body's length. A body
 * is counted, not copied, so an answer allocates nothing. Interim 1xx answers are skipped. Used on the
 * connection's event loop only.
 */
final class AnswerParser {

    /** The answer broke the protocol: the connection cannot be trusted for another request. */
    static final class Malformed extends RuntimeException {
        Malformed(String message) {
            super(message, null, false, false);
        }
    }

    private enum State {
        STATUS,
        HEADERS,
        BODY,
        CHUNK_SIZE,
        CHUNK_DATA,
        CHUNK_END,
        TRAILERS,
        UNTIL_CLOSE,
        DONE
    }

    private static final int MAX_LINE = 16 * 1024;

    /** Grown as long lines need, up to MAX_LINE: 10,000 connections each holding 16 kB would be 160 MB. */
    private byte[] line = new byte[256];

    private int lineLength;
    private State state = State.DONE;
    private boolean head;
    private int status;
    private long contentLength;
    private long bodyBytes;
    private long chunkLeft;
    private boolean chunked;
    private boolean keepAlive;
    private boolean headDone;

    /** A request was sent: what comes next is its answer. {@code head}: a HEAD request's, which has no body. */
    void expect(boolean head) {
        this.head = head;
        state = State.STATUS;
        lineLength = 0;
        headDone = false;
        startAnswer();
    }

    private void startAnswer() {
        status = 0;
        contentLength = -1;
        bodyBytes = 0;
        chunked = false;
        keepAlive = true;
    }

    /** Whether the status line and headers have all arrived. */
    boolean headDone() {
        return headDone;
    }

    /** Whether the answer is complete. */
    boolean done() {
        return state == State.DONE;
    }

    /** The body runs until the connection closes (no length given): its close completes the answer. */
    boolean untilClose() {
        return state == State.UNTIL_CLOSE;
    }

    /** The connection closed while reading an answer that ends with it: that answer is complete. */
    void closed() {
        if (state == State.UNTIL_CLOSE) {
            state = State.DONE;
            keepAlive = false;
        }
    }

    int status() {
        return status;
    }

    /** Whether the connection may carry the next request once this answer is complete. */
    boolean keepAlive() {
        return keepAlive;
    }

    /**
     * Reads what {@code in} holds of the answer; true once it is complete. Bytes after a complete answer (none
     * should come: one request at a time) leave {@link #keepAlive} false.
     *
     * @throws Malformed when the answer breaks the protocol
     */
    boolean read(ByteBuf in) {
        while (in.isReadable()) {
            switch (state) {
                case STATUS, HEADERS, CHUNK_SIZE, CHUNK_END, TRAILERS -> {
                    if (readLine(in)) {
                        line();
                    }
                }
                case BODY -> {
                    int n = (int) Math.min(in.readableBytes(), contentLength - bodyBytes);
                    in.skipBytes(n);
                    bodyBytes += n;
                    if (bodyBytes == contentLength) {
                        state = State.DONE;
                    }
                }
                case CHUNK_DATA -> {
                    int n = (int) Math.min(in.readableBytes(), chunkLeft);
                    in.skipBytes(n);
                    bodyBytes += n;
                    chunkLeft -= n;
                    if (chunkLeft == 0) {
                        state = State.CHUNK_END;
                    }
                }
                case UNTIL_CLOSE -> {
                    bodyBytes += in.readableBytes();
                    in.skipBytes(in.readableBytes());
                }
                case DONE -> {
                    keepAlive = false;
                    in.skipBytes(in.readableBytes());
                }
            }
            if (state == State.DONE) {
                if (in.isReadable()) {
                    keepAlive = false;
                    in.skipBytes(in.readableBytes());
                }
                return true;
            }
        }
        return false;
    }

    /** Copies up to the end of a line; true once the line (without its CRLF) is whole. */
    private boolean readLine(ByteBuf in) {
        int end = in.indexOf(in.readerIndex(), in.writerIndex(), (byte) '\n');
        int to = end < 0 ? in.writerIndex() : end;
        int n = to - in.readerIndex();
        if (lineLength + n > MAX_LINE) {
            throw new Malformed("an answer's line is longer than " + MAX_LINE + " bytes");
        }
        if (lineLength + n > line.length) {
            line = Arrays.copyOf(line, Math.min(MAX_LINE, Math.max(line.length * 2, lineLength + n)));
        }
        in.readBytes(line, lineLength, n);
        lineLength += n;
        if (end < 0) {
            return false;
        }
        in.skipBytes(1);
        if (lineLength > 0 && line[lineLength - 1] == '\r') {
            lineLength--;
        }
        return true;
    }

    private void line() {
        int length = lineLength;
        lineLength = 0;
        switch (state) {
            case STATUS -> status(length);
            case HEADERS -> {
                if (length == 0) {
                    headersEnd();
                } else {
                    header(length);
                }
            }
            case CHUNK_SIZE -> {
                chunkLeft = chunkSize(length);
                state = chunkLeft == 0 ? State.TRAILERS : State.CHUNK_DATA;
            }
            case CHUNK_END -> {
                if (length != 0) {
                    throw new Malformed("a chunk is longer than its size");
                }
                state = State.CHUNK_SIZE;
            }
            case TRAILERS -> {
                if (length == 0) {
                    state = State.DONE;
                }
            }
            default -> throw new IllegalStateException(state.name());
        }
    }

    /** HTTP/1.x NNN reason: three digits, then a space before the reason (or nothing: "HTTP/1.1 200"). */
    private void status(int length) {
        if (length < 12 || !startsWith(0, length, "HTTP/1.") || line[8] != ' ') {
            throw new Malformed("not an HTTP/1.x status line: " + text(0, Math.min(length, 64)));
        }
        if (length > 12 && line[12] != ' ') {
            throw new Malformed("not a status code: " + text(9, Math.min(length - 9, 16)));
        }
        int code = 0;
        for (int i = 9; i < 12; i++) {
            int digit = line[i] - '0';
            if (digit < 0 || digit > 9) {
                throw new Malformed("not a status code: " + text(9, 3));
            }
            code = code * 10 + digit;
        }
        status = code;
        keepAlive = line[7] != '0'; // HTTP/1.0 closes unless it says keep-alive
        state = State.HEADERS;
    }

    private void header(int length) {
        int colon = -1;
        for (int i = 0; i < length; i++) {
            if (line[i] == ':') {
                colon = i;
                break;
            }
        }
        if (colon <= 0) {
            throw new Malformed("not a header: " + text(0, Math.min(length, 64)));
        }
        int from = colon + 1;
        while (from < length && (line[from] == ' ' || line[from] == '\t')) {
            from++;
        }
        int to = length;
        while (to > from && (line[to - 1] == ' ' || line[to - 1] == '\t')) {
            to--;
        }
        if (nameIs(colon, "content-length")) {
            if (contentLength >= 0) {
                // two lengths: which one ends the body is a guess, and a wrong guess misreads every later answer
                throw new Malformed("Content-Length given twice");
            }
            contentLength = number(from, to);
        } else if (nameIs(colon, "transfer-encoding")) {
            chunked = containsIgnoreCase(from, to, "chunked");
        } else if (nameIs(colon, "connection")) {
            if (containsIgnoreCase(from, to, "close")) {
                keepAlive = false;
            } else if (containsIgnoreCase(from, to, "keep-alive")) {
                keepAlive = true;
            }
        }
    }

    private void headersEnd() {
        if (status >= 100 && status < 200) {
            state = State.STATUS; // an interim answer: the real one follows
            startAnswer();
            return;
        }
        headDone = true;
        if (head || status == 204 || status == 304) {
            state = State.DONE;
        } else if (chunked) {
            state = State.CHUNK_SIZE;
        } else if (contentLength >= 0) {
            state = contentLength == 0 ? State.DONE : State.BODY;
        } else {
            state = State.UNTIL_CLOSE;
            keepAlive = false;
        }
    }

    /**
     * A 2xx status and, unless a HEAD request's, a body as long as its Content-Length (a body cut short never
     * completes: the connection's close fails it as a short body).
     */
    FailureCause check() {
        if (status < 200 || status > 299) {
            return FailureCause.NON_2XX;
        }
        if (!head && !chunked && contentLength >= 0 && bodyBytes != contentLength) {
            return FailureCause.SHORT_BODY;
        }
        return null;
    }

    private long chunkSize(int length) {
        long size = 0;
        int digits = 0;
        for (int i = 0; i < length && line[i] != ';' && line[i] != ' '; i++, digits++) {
            int d = Character.digit(line[i], 16);
            if (d < 0 || digits == 15) {
                throw new Malformed("not a chunk size: " + text(0, Math.min(length, 32)));
            }
            size = size * 16 + d;
        }
        if (digits == 0) {
            throw new Malformed("an empty chunk size");
        }
        return size;
    }

    private long number(int from, int to) {
        if (to == from || to - from > 18) {
            throw new Malformed("not a Content-Length: " + text(from, to - from));
        }
        long n = 0;
        for (int i = from; i < to; i++) {
            int digit = line[i] - '0';
            if (digit < 0 || digit > 9) {
                throw new Malformed("not a Content-Length: " + text(from, to - from));
            }
            n = n * 10 + digit;
        }
        return n;
    }

    private boolean nameIs(int length, String lowerName) {
        if (length != lowerName.length()) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if ((line[i] | 0x20) != lowerName.charAt(i) && line[i] != lowerName.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private boolean containsIgnoreCase(int from, int to, String lowerWord) {
        for (int start = from; start + lowerWord.length() <= to; start++) {
            int i = 0;
            while (i < lowerWord.length() && Character.toLowerCase((char) line[start + i]) == lowerWord.charAt(i)) {
                i++;
            }
            if (i == lowerWord.length()) {
                return true;
            }
        }
        return false;
    }

    private boolean startsWith(int from, int length, String prefix) {
        if (length < prefix.length()) {
            return false;
        }
        for (int i = 0; i < prefix.length(); i++) {
            if (line[from + i] != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private String text(int from, int length) {
        return new String(line, from, length, StandardCharsets.ISO_8859_1);
    }
}
