import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The smallest idiomatic Vert.x server for the page, the yardstick scripts/bench-bare holds the
 * project's server to: a TechEmpower-style verticle per event loop with the same page, counter and
 * every-Nth delay, and nothing else (no request rules, no head guard, no router, no statistics, no
 * graceful shutdown). Run with the project's jar on the class path:
 *
 *   java -cp vertx-server/target/vertx-server.jar benchmarks/bare/BareVertx.java PORT DELAY_EVERY
 *
 * DELAY_EVERY 0 turns the delay off.
 */
public final class BareVertx extends VerticleBase {

    private static final long DELAY_MS = 2000;
    private static final AtomicLong REQUESTS = new AtomicLong();

    private final int port;
    private final int delayEvery;
    private final Buffer page;
    private final MultiMap headers;

    private BareVertx(int port, int delayEvery, byte[] page) {
        this.port = port;
        this.delayEvery = delayEvery;
        this.page = Buffer.buffer(page); // public API only: this file is the framework as a user writes it
        this.headers = HttpHeaders.headers()
                .add(HttpHeaders.CONTENT_TYPE, HttpHeaders.createOptimized("text/html; charset=utf-8"))
                .add(HttpHeaders.CONTENT_LENGTH, HttpHeaders.createOptimized(String.valueOf(page.length)))
                .copy(false);
    }

    public static void main(String[] args) throws IOException {
        // the same framework settings as the project's server
        System.setProperty("vertx.cacheImmutableHttpResponseHeaders", "true");
        System.setProperty("vertx.disableWebsockets", "true");
        int port = Integer.parseInt(args[0]);
        int delayEvery = Integer.parseInt(args[1]);
        byte[] page;
        try (InputStream in = ClassLoader.getSystemResourceAsStream("hello.html")) {
            page = in.readAllBytes();
        }
        int eventLoops = Runtime.getRuntime().availableProcessors(); // one per core, as the project's server
        Vertx vertx =
                Vertx.vertx(new VertxOptions().setPreferNativeTransport(true).setEventLoopPoolSize(eventLoops));
        vertx.deployVerticle(
                        () -> new BareVertx(port, delayEvery, page), new DeploymentOptions().setInstances(eventLoops))
                .await();
        System.out.println("BareVertx listening on http://127.0.0.1:" + port + " delay every " + delayEvery);
    }

    @Override
    public Future<?> start() {
        return vertx.createHttpServer(new HttpServerOptions().setHttp2ClearTextEnabled(false))
                .requestHandler(this::handle)
                .listen(port, "127.0.0.1");
    }

    private void handle(HttpServerRequest request) {
        long n = REQUESTS.incrementAndGet();
        if (delayEvery > 0 && n % delayEvery == 0) {
            vertx.setTimer(DELAY_MS, id -> send(request)); // Vert.x's own way to wait: the event loop answers later
        } else {
            send(request);
        }
    }

    private void send(HttpServerRequest request) {
        request.response().headers().setAll(headers);
        request.response().end(page);
    }
}
