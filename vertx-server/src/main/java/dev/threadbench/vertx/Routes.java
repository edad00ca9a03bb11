package dev.threadbench.vertx;

import dev.threadbench.common.FixedResponse;
import dev.threadbench.common.GracefulShutdown;
import dev.threadbench.common.Page;
import dev.threadbench.common.RequestLimits;
import dev.threadbench.common.ServerStats;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.EnumMap;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/** The endpoints as a vertx-web Router: the page on {@code /}, {@code /health}, {@code /stats}, 404, 405. */
final class Routes {

    private static final Logger LOG = Logger.getLogger(Routes.class.getName());

    private static final CharSequence HTML = HttpHeaders.createOptimized(Page.CONTENT_TYPE);
    private static final CharSequence JSON = HttpHeaders.createOptimized(FixedResponse.Type.JSON);
    private static final CharSequence ALLOW = HttpHeaders.createOptimized(FixedResponse.ALLOW);
    private static final Map<FixedResponse, CharSequence> CONTENT_TYPES = new EnumMap<>(FixedResponse.class);
    private static final Map<FixedResponse, CharSequence> CONTENT_LENGTHS = new EnumMap<>(FixedResponse.class);
    private static final Map<FixedResponse, Buffer> BODIES = new EnumMap<>(FixedResponse.class);

    static {
        for (FixedResponse response : FixedResponse.values()) {
            CONTENT_TYPES.put(response, HttpHeaders.createOptimized(response.contentType()));
            CONTENT_LENGTHS.put(response, HttpHeaders.createOptimized(String.valueOf(response.length())));
            BODIES.put(response, Buffer.buffer(response.body()));
        }
    }

    private Routes() {}

    static Handler<HttpServerRequest> root(Vertx vertx, Page page, ServerStats stats, GracefulShutdown shutdown,
                                           DelayStrategies.Delay delay) {
        Handler<RoutingContext> pageHandler = page(page, stats, shutdown, delay);
        Handler<RoutingContext> healthHandler = health(shutdown);
        Handler<RoutingContext> statsHandler = stats(stats);
        Handler<RoutingContext> notFound = ctx -> send(ctx.response(), FixedResponse.NOT_FOUND);
        Router router = Router.router(vertx);
        router.get("/").handler(pageHandler);
        router.head("/").handler(pageHandler);
        // vertx-web lets "/health" match "/health/" too; Undertow's routing (and the contract) does not
        router.route("/health/").handler(notFound);
        router.route("/stats/").handler(notFound);
        router.get("/health").handler(healthHandler);
        router.head("/health").handler(healthHandler);
        router.get("/stats").handler(statsHandler);
        router.head("/stats").handler(statsHandler);
        router.errorHandler(405, ctx -> send(ctx.response(), FixedResponse.METHOD_NOT_ALLOWED));
        router.errorHandler(404, notFound);
        // a path vertx-web cannot decode (/%zz): the bare 400 Undertow's parser gives it, not vertx-web's "Bad Request"
        router.errorHandler(400, ctx -> badRequest(ctx.request()));
        router.errorHandler(500, ctx -> failed(ctx, ctx.failure()));
        return withinLimits(router);
    }

    /**
     * Counts the request; 9 in 10 are answered right here on the event loop, the Nth goes to the delay.
     * The page's bytes sit in one buffer built here, sliced per answer.
     */
    static Handler<RoutingContext> page(Page page, ServerStats stats, GracefulShutdown shutdown, DelayStrategies.Delay delay) {
        Buffer body = Buffer.buffer(page.bytes());
        CharSequence length = HttpHeaders.createOptimized(String.valueOf(page.length()));
        DelayStrategies.Answer answer = ctx -> {
            try {
                HttpServerResponse response = ctx.response();
                response.headers()
                        .add(HttpHeaders.CONTENT_TYPE, HTML)
                        .add(HttpHeaders.CONTENT_LENGTH, length);
                response.end(body);
            } catch (Throwable t) {
                failed(ctx, t);
            } finally {
                stats.completed();
            }
        };
        return ctx -> {
            if (shutdown.draining()) {
                sendAndClose(ctx.request(), FixedResponse.DRAINING);
            } else if (stats.admit()) {
                try {
                    delay.answerLater(ctx, answer);
                } catch (RuntimeException e) {
                    stats.completed();
                    throw e;
                }
            } else {
                answer.send(ctx);
            }
        };
    }

    static Handler<RoutingContext> health(GracefulShutdown shutdown) {
        return ctx -> send(ctx.response(), shutdown.draining() ? FixedResponse.HEALTH_DRAINING : FixedResponse.HEALTH_UP);
    }

    static Handler<RoutingContext> stats(ServerStats stats) {
        return ctx -> ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, JSON).end(stats.toJson());
    }

    /** HttpLimits checked on the parsed head: Vert.x has no header-count limit (see RequestLimits). */
    static Handler<HttpServerRequest> withinLimits(Handler<HttpServerRequest> next) {
        return request -> {
            MultiMap headers = request.headers();
            int headerCount = 0;
            long headerBytes = 0;
            for (Map.Entry<String, String> field : headers) {
                headerCount++;
                headerBytes += RequestLimits.fieldBytes(field.getKey().length(), field.getValue().length());
            }
            FixedResponse refusal = RequestLimits.check(request.uri().length(), headerCount, headerBytes);
            if (refusal != null) {
                sendAndClose(request, refusal);
            } else {
                next.handle(request);
            }
        };
    }

    /** What Vert.x's parser rejects (malformed, or beyond the parser ceiling): a bare 400, as Undertow's parser sends. */
    static void badRequest(HttpServerRequest request) {
        request.response().setStatusCode(400)
                .putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE)
                .putHeader(HttpHeaders.CONTENT_LENGTH, "0")
                .end()
                .onComplete(sent -> request.connection().close());
    }

    /** Anything a handler throws becomes the fixed 500, logged here once; never a stack trace to the client. */
    static void failed(RoutingContext ctx, Throwable failure) {
        LOG.log(Level.SEVERE, ctx.request().method() + " " + ctx.request().uri() + " failed", failure);
        HttpServerResponse response = ctx.response();
        if (response.headWritten()) {
            ctx.request().connection().close();
        } else {
            response.headers().clear();
            sendAndClose(ctx.request(), FixedResponse.INTERNAL_ERROR);
        }
    }

    static Future<Void> send(HttpServerResponse response, FixedResponse fixed) {
        response.setStatusCode(fixed.status());
        MultiMap headers = response.headers()
                .add(HttpHeaders.CONTENT_TYPE, CONTENT_TYPES.get(fixed))
                .add(HttpHeaders.CONTENT_LENGTH, CONTENT_LENGTHS.get(fixed));
        if (fixed == FixedResponse.METHOD_NOT_ALLOWED) {
            headers.add(HttpHeaders.ALLOW, ALLOW);
        }
        return response.end(BODIES.get(fixed));
    }

    /** Vert.x keeps the connection despite a {@code Connection: close} header, so close it once answered. */
    static void sendAndClose(HttpServerRequest request, FixedResponse fixed) {
        request.response().putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
        send(request.response(), fixed).onComplete(sent -> request.connection().close());
    }
}
