package dev.threadbench.undertow;

import dev.threadbench.common.CpuWork;
import dev.threadbench.common.FixedResponse;
import dev.threadbench.common.GracefulShutdown;
import dev.threadbench.common.Page;
import dev.threadbench.common.PrometheusText;
import dev.threadbench.common.RequestRules;
import dev.threadbench.common.ServerMain;
import dev.threadbench.common.ServerStats;
import io.undertow.Handlers;
import io.undertow.io.IoCallback;
import io.undertow.io.Sender;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HeaderMap;
import io.undertow.util.HeaderValues;
import io.undertow.util.Headers;
import io.undertow.util.Methods;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.xnio.IoUtils;

/**
 * The endpoints as Undertow handlers: the page on {@code /}, {@code /health}, {@code /stats}, {@code /metrics}, 404,
 * 405.
 */
final class Routes {

    private static final Logger LOG = Logger.getLogger(Routes.class.getName());

    private Routes() {}

    static HttpHandler root(ServerMain.Setup setup, DelayStrategies.Delay delay) {
        HttpHandler pageHandler = page(setup, delay);
        HttpHandler healthHandler = health(setup.shutdown());
        HttpHandler statsHandler = stats(setup.stats());
        HttpHandler metricsHandler = metrics(setup.stats());
        HttpHandler router = Handlers.routing()
                .get("/health", healthHandler)
                .add(Methods.HEAD, "/health", healthHandler)
                .get("/stats", statsHandler)
                .add(Methods.HEAD, "/stats", statsHandler)
                .get("/metrics", metricsHandler)
                .add(Methods.HEAD, "/metrics", metricsHandler)
                .setInvalidMethodHandler(exchange -> send(exchange, FixedResponse.METHOD_NOT_ALLOWED))
                .setFallbackHandler(exchange -> send(exchange, FixedResponse.NOT_FOUND));
        // The page, nearly every request, skips the routing table's lookups. The rules have already
        // refused a path that names "/" only once normalised, so this is the very match it would make.
        return checked(guarded(exchange -> {
            if (!exchange.getRelativePath().equals("/")) {
                router.handleRequest(exchange);
            } else if (exchange.getRequestMethod().equals(Methods.GET)
                    || exchange.getRequestMethod().equals(Methods.HEAD)) {
                pageHandler.handleRequest(exchange);
            } else {
                send(exchange, FixedResponse.METHOD_NOT_ALLOWED);
            }
        }));
    }

    /**
     * The counter says how each request is answered: FAST right here on the IO thread, after its --work-us, DELAYED
     * through the delay, which does the work on the thread that waited. The page's bytes sit in one direct buffer
     * built here, duplicated per answer. A request stays in flight until its answer is written (or the write failed),
     * so a drain waits for the bytes to go out.
     */
    static HttpHandler page(ServerMain.Setup setup, DelayStrategies.Delay delay) {
        Page page = setup.options().page();
        ServerStats stats = setup.stats();
        CpuWork work = setup.options().work();
        ByteBuffer body =
                ByteBuffer.allocateDirect(page.length()).put(page.bytes()).flip();
        String length = String.valueOf(page.length());
        IoCallback countWhenWritten = new IoCallback() {
            @Override
            public void onComplete(HttpServerExchange exchange, Sender sender) {
                stats.completed();
                IoCallback.END_EXCHANGE.onComplete(exchange, sender);
            }

            @Override
            public void onException(HttpServerExchange exchange, Sender sender, IOException failure) {
                stats.completed();
                IoCallback.END_EXCHANGE.onException(exchange, sender, failure);
            }
        };
        DelayStrategies.Answer answer = exchange -> {
            try {
                exchange.getResponseHeaders()
                        .put(Headers.CONTENT_TYPE, Page.CONTENT_TYPE)
                        .put(Headers.CONTENT_LENGTH, length);
                exchange.getResponseSender().send(body.duplicate(), countWhenWritten);
            } catch (Throwable t) {
                stats.completed();
                failed(exchange, t);
            }
        };
        return exchange -> {
            if (setup.shutdown().draining()) {
                send(exchange, FixedResponse.DRAINING);
                return;
            }
            stats.started();
            switch (setup.counter().next()) {
                case FAST -> {
                    work.run();
                    answer.send(exchange);
                }
                case DELAYED -> {
                    try {
                        delay.answerLater(exchange, answer);
                    } catch (RuntimeException e) {
                        stats.completed();
                        throw e;
                    }
                }
            }
        };
    }

    static HttpHandler health(GracefulShutdown shutdown) {
        return exchange ->
                send(exchange, shutdown.draining() ? FixedResponse.HEALTH_DRAINING : FixedResponse.HEALTH_UP);
    }

    /**
     * Answered on the IO thread, like every route but a delayed page: the process figures it adds are a few
     * bean reads, a getrusage call and two tiny /proc/self files, which are kernel memory, not disk. With
     * {@code ?threads}, the bill by thread class too, on the stats reader's own thread: three /proc files per
     * thread (about 0.4 s at 10,000 threads) would hold up every connection of the IO thread meanwhile, and on
     * a worker they would be billed as request CPU.
     */
    static HttpHandler stats(ServerStats stats) {
        return new HttpHandler() {
            @Override
            public void handleRequest(HttpServerExchange exchange) {
                boolean threadClasses = exchange.getQueryParameters().containsKey("threads");
                if (threadClasses && exchange.isInIoThread()) {
                    exchange.dispatch(stats.threadReader(), this);
                    return;
                }
                exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, FixedResponse.Type.JSON);
                exchange.getResponseSender().send(stats.toJson(threadClasses));
            }
        };
    }

    /** Prometheus's text, always with the bill by thread class: on the stats reader's thread, as /stats?threads. */
    static HttpHandler metrics(ServerStats stats) {
        return new HttpHandler() {
            @Override
            public void handleRequest(HttpServerExchange exchange) {
                if (exchange.isInIoThread()) {
                    exchange.dispatch(stats.threadReader(), this);
                    return;
                }
                exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, PrometheusText.CONTENT_TYPE);
                exchange.getResponseSender().send(stats.toPrometheus());
            }
        };
    }

    /**
     * The shared RequestRules, on the head as Undertow parsed it: Undertow's parser and Host check refuse
     * much of it first, with the same bare 400; what they let through is refused here as on Vert.x.
     */
    static HttpHandler checked(HttpHandler next) {
        return exchange -> {
            String query = exchange.getQueryString();
            String target = query.isEmpty() ? exchange.getRequestURI() : exchange.getRequestURI() + '?' + query;
            RequestRules.Head head = RequestRules.head(
                    exchange.getRequestMethod().toString(),
                    target,
                    exchange.getProtocol().toString());
            HeaderMap headers = exchange.getRequestHeaders();
            for (long at = headers.fastIterateNonEmpty(); at != -1L; at = headers.fiNextNonEmpty(at)) {
                HeaderValues field = headers.fiCurrent(at);
                String name = field.getHeaderName().toString();
                for (int i = 0; i < field.size(); i++) {
                    head.header(name, field.get(i));
                }
            }
            FixedResponse verdict = head.verdict();
            if (verdict != null) {
                send(exchange, verdict);
            } else {
                next.handleRequest(exchange);
            }
        };
    }

    /** Anything a handler throws becomes the fixed 500, logged here once; never a stack trace to the client. */
    static HttpHandler guarded(HttpHandler next) {
        return exchange -> {
            try {
                next.handleRequest(exchange);
            } catch (Throwable t) {
                failed(exchange, t);
            }
        };
    }

    static void failed(HttpServerExchange exchange, Throwable failure) {
        LOG.log(Level.SEVERE, exchange.getRequestMethod() + " " + exchange.getRequestURI() + " failed", failure);
        if (exchange.isResponseStarted()) {
            IoUtils.safeClose(exchange.getConnection());
        } else {
            exchange.getResponseHeaders().clear();
            send(exchange, FixedResponse.INTERNAL_ERROR);
        }
    }

    static void send(HttpServerExchange exchange, FixedResponse response) {
        exchange.setStatusCode(response.status());
        HeaderMap headers = exchange.getResponseHeaders().put(Headers.CONTENT_LENGTH, response.length());
        if (response.contentType() != null) {
            headers.put(Headers.CONTENT_TYPE, response.contentType());
        }
        if (response == FixedResponse.METHOD_NOT_ALLOWED) {
            headers.put(Headers.ALLOW, FixedResponse.ALLOW);
        }
        if (response.closesConnection()) {
            exchange.setPersistent(false);
        }
        exchange.getResponseSender().send(ByteBuffer.wrap(response.body()));
    }
}
