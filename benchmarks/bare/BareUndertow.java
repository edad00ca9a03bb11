import io.undertow.Undertow;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The smallest idiomatic Undertow server for the page, the yardstick scripts/bench-bare holds the
 * project's server to: the same page, counter and every-Nth delay, and nothing else (no request rules,
 * no routing, no statistics, no graceful shutdown). Run with the project's jar on the class path:
 *
 *   java -cp undertow-server/target/undertow-server.jar benchmarks/bare/BareUndertow.java PORT DELAY_EVERY
 *
 * DELAY_EVERY 0 turns the delay off.
 */
public final class BareUndertow implements HttpHandler {

    private static final long DELAY_MS = 2000;
    private static final String CONTENT_TYPE = "text/html; charset=utf-8";

    private final ByteBuffer page;
    private final int delayEvery;
    private final AtomicLong requests = new AtomicLong();

    private BareUndertow(byte[] page, int delayEvery) {
        this.page = ByteBuffer.allocateDirect(page.length).put(page).flip();
        this.delayEvery = delayEvery;
    }

    public static void main(String[] args) throws IOException {
        int port = Integer.parseInt(args[0]);
        int delayEvery = Integer.parseInt(args[1]);
        byte[] page;
        try (InputStream in = ClassLoader.getSystemResourceAsStream("hello.html")) {
            page = in.readAllBytes();
        }
        Undertow.builder()
                .setIoThreads(Runtime.getRuntime().availableProcessors()) // one per core, as the project's server
                .addHttpListener(port, "127.0.0.1")
                .setHandler(new BareUndertow(page, delayEvery))
                .build()
                .start();
        System.out.println("BareUndertow listening on http://127.0.0.1:" + port + " delay every " + delayEvery);
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) {
        long n = requests.incrementAndGet();
        if (delayEvery > 0 && n % delayEvery == 0) {
            // Undertow's own way to run blocking work: a worker thread sleeps
            exchange.dispatch(() -> {
                try {
                    Thread.sleep(DELAY_MS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                send(exchange);
            });
        } else {
            send(exchange);
        }
    }

    private void send(HttpServerExchange exchange) {
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, CONTENT_TYPE);
        exchange.getResponseSender().send(page.duplicate());
    }
}
