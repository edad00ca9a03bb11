package dev.threadbench.loadtest.runner;

import dev.threadbench.loadtest.plan.Plan;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What one plan step sends, encoded once: every slot writes the same bytes (a read-only view of them), so a
 * request costs no encoding. {@code remote} is resolved once, when the load is set up, unless the host was pinned to
 * an address already (an agent resolves a target once, checks every address, and connects to one of those).
 */
record StepExchange(InetSocketAddress remote, ByteBuf request, boolean head) {

    /** Methods that carry a body: sent with an empty one, its length stated, as the Vert.x client did. */
    private static final Set<String> WITH_BODY = Set.of("POST", "PUT", "PATCH");

    static StepExchange of(Plan.Step step, Map<String, InetAddress> pinnedHosts) {
        String host = step.url().getHost();
        int port = step.port();
        String path = step.url().getRawPath() == null || step.url().getRawPath().isEmpty()
                ? "/"
                : step.url().getRawPath();
        if (step.url().getRawQuery() != null) {
            path += "?" + step.url().getRawQuery();
        }
        String method = step.method().toUpperCase(Locale.ROOT);
        StringBuilder head = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\n");
        boolean hostGiven = false;
        boolean lengthGiven = false;
        for (Map.Entry<String, String> header : step.headers().entrySet()) {
            hostGiven |= header.getKey().equalsIgnoreCase("host");
            lengthGiven |= header.getKey().equalsIgnoreCase("content-length");
            head.append(header.getKey()).append(": ").append(header.getValue()).append("\r\n");
        }
        if (!hostGiven) {
            head.append("host: ").append(step.hostHeader()).append("\r\n");
        }
        if (!lengthGiven && WITH_BODY.contains(method)) {
            head.append("content-length: 0\r\n");
        }
        head.append("\r\n");
        byte[] bytes = head.toString().getBytes(StandardCharsets.ISO_8859_1);
        ByteBuf request =
                Unpooled.unreleasableBuffer(Unpooled.directBuffer(bytes.length).writeBytes(bytes));
        InetAddress pinned = pinnedHosts.get(host);
        InetSocketAddress remote =
                pinned != null ? new InetSocketAddress(pinned, port) : new InetSocketAddress(host, port);
        return new StepExchange(remote, request, method.equals("HEAD"));
    }

    /** Frees the encoded bytes, once no slot writes them any more. */
    void release() {
        request.unwrap().release();
    }

    /** The request's bytes, to write once: a view that leaves the encoded bytes as they are. */
    ByteBuf bytes() {
        return request.duplicate();
    }
}
