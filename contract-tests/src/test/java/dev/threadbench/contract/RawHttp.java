package dev.threadbench.contract;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

/** Bytes sent over a plain socket exactly as given, and what came back, for requests no HTTP client would send. */
final class RawHttp {

    /** How a raw exchange ended. */
    enum Ending {
        /** A whole response arrived (status line, header, Content-Length bytes of body). */
        RESPONSE,
        /** The server closed the connection (FIN) before a whole response. */
        CLOSED,
        /** The server reset the connection before a whole response. */
        RESET,
        /** Nothing more came within the timeout: a hang. */
        TIMEOUT
    }

    /** The outcome of one exchange: how it ended, the first response's status (or 0), and every byte received. */
    record Outcome(Ending ending, int status, String head, byte[] received, boolean closedAfterResponse) {

        String text() {
            return new String(received, StandardCharsets.ISO_8859_1);
        }

        @Override
        public String toString() {
            return ending == Ending.RESPONSE
                    ? status + (closedAfterResponse ? " (then closed)" : "")
                    : ending + (received.length > 0 ? " after " + received.length + " bytes" : "");
        }
    }

    private final String host;
    private final int port;

    RawHttp(String baseUrl) {
        URI uri = URI.create(baseUrl);
        this.host = uri.getHost();
        this.port = uri.getPort();
    }

    /** A plain {@code GET path} of HTTP/1.1, as every client sends it. */
    static byte[] get(String path) {
        return ("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    Socket connect(Duration readTimeout) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress(host, port), 5_000);
        socket.setSoTimeout((int) readTimeout.toMillis());
        socket.setTcpNoDelay(true);
        return socket;
    }

    /**
     * Sends {@code request} on a new connection and reads one response. {@code headRequest}: the
     * response has no body whatever its Content-Length says. When the response closes the connection
     * ({@code Connection: close}), waits for the close too.
     */
    Outcome exchange(byte[] request, boolean headRequest, Duration timeout) {
        try (Socket socket = connect(timeout)) {
            try {
                socket.getOutputStream().write(request);
                socket.getOutputStream().flush();
            } catch (SocketException refusedWhileSending) {
                // the server may refuse and close before all was sent: what it answered is still to be read
            }
            return read(socket.getInputStream(), headRequest);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot connect to " + host + ":" + port, e);
        }
    }

    /** Reads one response from {@code in}; see {@link Outcome}. */
    static Outcome read(InputStream in, boolean headRequest) {
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        byte[] buffer = new byte[16_384];
        try {
            while (true) {
                Parsed parsed = Parsed.of(received.toByteArray(), headRequest);
                if (parsed != null) {
                    boolean closed = parsed.closes && awaitClose(in);
                    return new Outcome(Ending.RESPONSE, parsed.status, parsed.head, received.toByteArray(), closed);
                }
                int n = in.read(buffer);
                if (n < 0) {
                    return new Outcome(Ending.CLOSED, 0, "", received.toByteArray(), false);
                }
                received.write(buffer, 0, n);
            }
        } catch (SocketTimeoutException e) {
            return new Outcome(Ending.TIMEOUT, 0, "", received.toByteArray(), false);
        } catch (IOException reset) {
            Parsed parsed = Parsed.of(received.toByteArray(), headRequest);
            return parsed != null
                    ? new Outcome(Ending.RESPONSE, parsed.status, parsed.head, received.toByteArray(), true)
                    : new Outcome(Ending.RESET, 0, "", received.toByteArray(), false);
        }
    }

    /** True once the server closes (or resets) the connection; false if it sends more or keeps it open. */
    private static boolean awaitClose(InputStream in) {
        try {
            return in.read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    /** A whole response at the start of the bytes received, or null while it is incomplete. */
    private record Parsed(int status, String head, boolean closes) {

        static Parsed of(byte[] bytes, boolean headRequest) {
            String text = new String(bytes, StandardCharsets.ISO_8859_1);
            int end = text.indexOf("\r\n\r\n");
            if (end < 0) {
                return null;
            }
            String head = text.substring(0, end);
            String[] statusLine = head.split("\r\n", 2)[0].split(" ", 3);
            int status =
                    statusLine.length >= 2 && statusLine[1].matches("\\d{3}") ? Integer.parseInt(statusLine[1]) : -1;
            long length = 0;
            boolean closes = false;
            for (String line : head.split("\r\n")) {
                String lower = line.toLowerCase(Locale.ROOT);
                if (lower.startsWith("content-length:")) {
                    length = Long.parseLong(
                            lower.substring("content-length:".length()).strip());
                } else if (lower.startsWith("connection:") && lower.contains("close")) {
                    closes = true;
                }
            }
            long whole = end + 4 + (headRequest ? 0 : length);
            return bytes.length >= whole ? new Parsed(status, head, closes) : null;
        }
    }
}
