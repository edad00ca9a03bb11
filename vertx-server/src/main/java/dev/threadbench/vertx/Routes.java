package dev.threadbench.vertx;

import dev.threadbench.common.CpuWork;
import dev.threadbench.common.FixedResponse;
import dev.threadbench.common.GracefulShutdown;
import dev.threadbench.common.Page;
import dev.threadbench.common.PrometheusText;
import dev.threadbench.common.RequestRules;
import dev.threadbench.common.ServerMain;
import dev.threadbench.common.ServerStats;
import io.netty.buffer.Unpooled;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.internal.buffer.BufferInternal;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The endpoints as a vertx-web Router: the page on {@code /}, {@code /health}, {@code /stats}, {@code /metrics}, 404,
 * 405.
 */
final class Routes {

    private static final Logger LOG = Logger.getLogger(Routes.class.getName());

    private static final CharSequence HTML = HttpHeaders.createOptimized(Page.CONTENT_TYPE);
    private static final CharSequence JSON = HttpHeaders.createOptimized(FixedResponse.Type.JSON);
    private static final CharSequence PROMETHEUS = HttpHeaders.createOptimized(PrometheusText.CONTENT_TYPE);
    private static final CharSequence ALLOW = HttpHeaders.createOptimized(FixedResponse.ALLOW);
    private static final Map<FixedResponse, CharSequence> CONTENT_TYPES = new EnumMap<>(FixedResponse.class);
    private static final Map<FixedResponse, CharSequence> CONTENT_LENGTHS = new EnumMap<>(FixedResponse.class);
    private static final Map<FixedResponse, Buffer> BODIES = new EnumMap<>(FixedResponse.class);

    static {
        for (FixedResponse response : FixedResponse.values()) {
            if (response.contentType() != null) {
                CONTENT_TYPES.put(response, HttpHeaders.createOptimized(response.contentType()));
            }
            CONTENT_LENGTHS.put(response, HttpHeaders.createOptimized(String.valueOf(response.length())));
            BODIES.put(response, Buffer.buffer(response.body()));
        }
    }

    private Routes() {}

    static Handler<HttpServerRequest> root(Vertx vertx, ServerMain.Setup setup, DelayStrategies.Delay delay) {
        Handler<HttpServerRequest> pageHandler = page(setup, delay);
        Handler<RoutingContext> healthHandler = health(setup.shutdown());
        Handler<RoutingContext> statsHandler = stats(setup.stats());
        Handler<RoutingContext> metricsHandler = metrics(setup.stats());
        Handler<RoutingContext> notFound = ctx -> send(ctx.request(), FixedResponse.NOT_FOUND);
        Router router = Router.router(vertx);
        // vertx-web lets "/health" match "/health/" too; Undertow's routing (and the contract) does not
        router.route("/health/").handler(notFound);
        router.route("/stats/").handler(notFound);
        router.route("/metrics/").handler(notFound);
        router.get("/health").handler(healthHandler);
        router.head("/health").handler(healthHandler);
        router.get("/stats").handler(statsHandler);
        router.head("/stats").handler(statsHandler);
        router.get("/metrics").handler(metricsHandler);
        router.head("/metrics").handler(metricsHandler);
        router.errorHandler(405, ctx -> send(ctx.request(), FixedResponse.METHOD_NOT_ALLOWED));
        router.errorHandler(404, notFound);
        // whatever vertx-web itself refuses that the rules let through: the bare 400, not vertx-web's "Bad Request"
        router.errorHandler(400, ctx -> badRequest(ctx.request()));
        router.errorHandler(500, ctx -> failed(ctx.request(), ctx.failure()));
        // The page, nearly every request, skips the Router's per-request RoutingContext. The rules have
        // already refused a path the Router would normalise to "/", so this is the very match it would make.
        return checked(request -> {
            if (!request.uri().equals("/") && !request.path().equals("/")) { // "/" as sent needs no parsing
                router.handle(request);
            } else if (request.method() == HttpMethod.GET || request.method() == HttpMethod.HEAD) {
                try {
                    pageHandler.handle(request);
                } catch (Throwable t) {
                    failed(request, t);
                }
            } else {
                send(request, FixedResponse.METHOD_NOT_ALLOWED);
            }
        });
    }

    /**
     * The counter says how each request is answered: FAST right here on the event loop, after its --work-us, DELAYED
     * through the delay, which does the work on the thread that waited. The page's bytes sit in one direct buffer
     * built here, duplicated per answer. A request stays in flight until its answer is written (or the write failed),
     * so a drain waits for the bytes to go out.
     */
    static Handler<HttpServerRequest> page(ServerMain.Setup setup, DelayStrategies.Delay delay) {
        Page page = setup.options().page();
        ServerStats stats = setup.stats();
        CpuWork work = setup.options().work();
        // direct memory, as the socket takes it: a heap buffer would be copied into a new direct one per answer
        Buffer body = BufferInternal.buffer(
                Unpooled.unreleasableBuffer(Unpooled.directBuffer(page.length()).writeBytes(page.bytes())));
        // read-only, so that every answer shares it and Vert.x encodes it once
        // (vertx.cacheImmutableHttpResponseHeaders)
        MultiMap headers = HttpHeaders.headers()
                .add(HttpHeaders.CONTENT_TYPE, HTML)
                .add(HttpHeaders.CONTENT_LENGTH, HttpHeaders.createOptimized(String.valueOf(page.length())))
                .copy(false);
        Handler<AsyncResult<Void>> countWhenWritten = written -> stats.completed();
        DelayStrategies.Answer answer = request -> {
            Future<Void> written;
            try {
                HttpServerResponse response = request.response();
                response.headers().setAll(headers);
                written = response.end(body);
            } catch (Throwable t) {
                stats.completed();
                failed(request, t);
                return;
            }
            if (written.isComplete()) { // the usual case: written to the socket within end(), no listener needed
                stats.completed();
            } else {
                written.onComplete(countWhenWritten);
            }
        };
        return request -> {
            if (setup.shutdown().draining()) {
                send(request, FixedResponse.DRAINING);
                return;
            }
            stats.started();
            switch (setup.counter().next()) {
                case FAST -> {
                    work.run();
                    answer.send(request);
                }
                case DELAYED -> {
                    try {
                        delay.answerLater(request, answer);
                    } catch (RuntimeException e) {
                        stats.completed();
                        throw e;
                    }
                }
            }
        };
    }

    static Handler<RoutingContext> health(GracefulShutdown shutdown) {
        return ctx ->
                send(ctx.request(), shutdown.draining() ? FixedResponse.HEALTH_DRAINING : FixedResponse.HEALTH_UP);
    }

    /**
     * On the event loop: the process figures are bean reads, a getrusage call and two tiny /proc/self files. With
     * {@code ?threads}, the bill by thread class too, on the stats reader's own thread: three /proc files per
     * thread (about 0.4 s at 10,000 threads) would hold up every connection of the event loop meanwhile, and on
     * a worker they would be billed as request CPU.
     */
    static Handler<RoutingContext> stats(ServerStats stats) {
        return ctx -> {
            if (!ctx.queryParams().contains("threads")) {
                ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, JSON).end(stats.toJson(false));
                return;
            }
            Context loop = ctx.vertx().getOrCreateContext();
            Future.fromCompletionStage(
                            CompletableFuture.supplyAsync(() -> stats.toJson(true), stats.threadReader()), loop)
                    .onComplete(json -> {
                        if (json.succeeded()) {
                            ctx.response()
                                    .putHeader(HttpHeaders.CONTENT_TYPE, JSON)
                                    .end(json.result());
                        } else {
                            ctx.fail(json.cause());
                        }
                    });
        };
    }

    /** Prometheus's text, always with the bill by thread class: on the stats reader's thread, as /stats?threads. */
    static Handler<RoutingContext> metrics(ServerStats stats) {
        return ctx -> {
            Context loop = ctx.vertx().getOrCreateContext();
            Future.fromCompletionStage(CompletableFuture.supplyAsync(stats::toPrometheus, stats.threadReader()), loop)
                    .onComplete(text -> {
                        if (text.succeeded()) {
                            ctx.response()
                                    .putHeader(HttpHeaders.CONTENT_TYPE, PROMETHEUS)
                                    .end(text.result());
                        } else {
                            ctx.fail(text.cause());
                        }
                    });
        };
    }

    /**
     * The shared RequestRules, on the head as Netty parsed it, before vertx-web sees it (which would serve
     * "/a/../" as "/", and whose Host check fails on a percent-encoded name). The HeadGuard has already
     * refused what only the raw bytes show.
     */
    static Handler<HttpServerRequest> checked(Handler<HttpServerRequest> next) {
        return request -> {
            RequestRules.Head head = RequestRules.head(
                    request.method().name(),
                    request.uri(),
                    request.version() == HttpVersion.HTTP_1_0 ? "HTTP/1.0" : "HTTP/1.1");
            request.headers().forEach(head::header);
            FixedResponse verdict = head.verdict();
            if (verdict != null) {
                send(request, verdict);
            } else {
                next.handle(request);
            }
        };
    }

    /**
     * What Vert.x's parser or the head guard refuses (malformed, or beyond the parser ceiling): the bare 400, as
     * Undertow's parser sends.
     */
    static void badRequest(HttpServerRequest request) {
        send(request, FixedResponse.BAD_REQUEST);
    }

    /** Anything a handler throws becomes the fixed 500, logged here once; never a stack trace to the client. */
    static void failed(HttpServerRequest request, Throwable failure) {
        LOG.log(Level.SEVERE, request.method() + " " + request.uri() + " failed", failure);
        HttpServerResponse response = request.response();
        if (response.headWritten()) {
            request.connection().close();
        } else {
            response.headers().clear();
            send(request, FixedResponse.INTERNAL_ERROR);
        }
    }

    /**
     * Sends a fixed response; one that closes the connection is sent with {@code Connection: close}, then closes it.
     */
    static void send(HttpServerRequest request, FixedResponse fixed) {
        HttpServerResponse response = request.response().setStatusCode(fixed.status());
        MultiMap headers = response.headers().add(HttpHeaders.CONTENT_LENGTH, CONTENT_LENGTHS.get(fixed));
        if (fixed.contentType() != null) {
            headers.add(HttpHeaders.CONTENT_TYPE, CONTENT_TYPES.get(fixed));
        }
        if (fixed == FixedResponse.METHOD_NOT_ALLOWED) {
            headers.add(HttpHeaders.ALLOW, ALLOW);
        }
        if (fixed.closesConnection()) {
            // Vert.x keeps the connection despite a Connection: close header, so close it once answered
            headers.add(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
            response.end(BODIES.get(fixed))
                    .onComplete(sent -> request.connection().close());
        } else {
            response.end(BODIES.get(fixed));
        }
    }
}
