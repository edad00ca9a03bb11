package dev.threadbench.loadtest.live;

import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.report.HtmlReport;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * compare's live page: a small HTTP server on a Vert.x of its own (one event loop, apart from the generator's) that
 * serves the page, the chart library from the jar, and once a second one JSON snapshot of the {@link LiveBoard} to
 * every viewer by server-sent events. Bounded: a viewer whose socket still holds {@link #VIEWER_QUEUE_BYTES} misses
 * that second (its next snapshot is whole), so a slow or stuck browser never holds memory or the generator. At the end
 * it serves report.html too, until compare exits. Read-only: GET of four paths, nothing else.
 */
public final class LivePage implements AutoCloseable {

    static final int VIEWER_QUEUE_BYTES = 64 * 1024;
    static final long TICK_MS = 1000;

    private final Vertx vertx;
    private final HttpServer server;
    private final LiveBoard board;
    private final String url;
    /** On loopback, the Host names a request may carry: a page elsewhere cannot reach it by renaming itself here. */
    private final Set<String> hosts;

    private final List<HttpServerResponse> viewers = new ArrayList<>(); // the page's thread only
    private volatile boolean everViewed;
    private volatile Path report;
    private boolean closedStreams; // the page's thread only

    private LivePage(Vertx vertx, LiveBoard board, InetSocketAddress address) {
        this.vertx = vertx;
        this.board = board;
        String page = page();
        String echarts = HtmlReport.echartsScript();
        // HTTP/1.1 only: an h2c upgrade would leave the Host check without its header
        this.server = vertx.createHttpServer(new HttpServerOptions().setHttp2ClearTextEnabled(false))
                .requestHandler(request -> serve(request, page, echarts));
        try {
            server.listen(address.getPort(), address.getAddress().getHostAddress())
                    .toCompletionStage()
                    .toCompletableFuture()
                    .join();
        } catch (CompletionException e) {
            vertx.close();
            throw new UsageException(
                    "--live: cannot listen on " + address + ": " + e.getCause().getMessage());
        }
        String host = address.getAddress().getHostAddress();
        String authority = (host.contains(":") ? "[" + host + "]" : host) + ":" + server.actualPort();
        this.url = "http://" + authority + "/";
        this.hosts =
                address.getAddress().isLoopbackAddress() ? Set.of(authority, "localhost:" + server.actualPort()) : null;
        vertx.setPeriodic(TICK_MS, id -> tick());
    }

    /** The page on {@code address}; null when it is off (null address). */
    public static LivePage start(InetSocketAddress address, LiveBoard board) {
        if (address == null) {
            return null;
        }
        Vertx vertx = Vertx.builder()
                .with(new VertxOptions()
                        .setEventLoopPoolSize(1)
                        .setWorkerPoolSize(1)
                        .setInternalBlockingPoolSize(1))
                .build();
        return new LivePage(vertx, board, address);
    }

    public String url() {
        return url;
    }

    /** The comparison ended: report.html is served from here, and the streams close with a last snapshot. */
    public void finished(Path reportHtml) {
        report = reportHtml;
        board.finish();
    }

    /**
     * Stops serving; first, when a browser opened the page, keeps report.html served {@code lingerSeconds} (saying so
     * on {@code out}).
     */
    public void close(int lingerSeconds, PrintStream out) {
        if (everViewed && lingerSeconds > 0 && board.finished()) {
            out.printf("live: %sreport.html stays served %d s more (Ctrl-C: now)%n", url, lingerSeconds);
            out.flush();
            try {
                Thread.sleep(TimeUnit.SECONDS.toMillis(lingerSeconds));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        close();
    }

    @Override
    public void close() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    private void serve(HttpServerRequest request, String page, String echarts) {
        HttpServerResponse response = request.response();
        if (hosts != null && !hosts.contains(request.getHeader("Host"))) {
            response.setStatusCode(403).end("this page answers on " + url + " only\n");
            return;
        }
        if (!"GET".equals(request.method().name())) {
            response.setStatusCode(405).putHeader("Allow", "GET").end();
            return;
        }
        switch (request.path()) {
            case "/" -> send(response, "text/html; charset=utf-8", page);
            case "/echarts.min.js" -> send(response, "text/javascript; charset=utf-8", echarts);
            case "/events" -> subscribe(response);
            case "/report.html" -> sendReport(response);
            default -> response.setStatusCode(404).end("not found\n");
        }
    }

    private static void send(HttpServerResponse response, String type, String body) {
        response.putHeader("Content-Type", type)
                .putHeader("Cache-Control", "no-store")
                .end(body);
    }

    private void sendReport(HttpServerResponse response) {
        Path file = report;
        if (file == null || !Files.isRegularFile(file)) {
            response.setStatusCode(404).end("report.html is written when the comparison ends\n");
            return;
        }
        response.putHeader("Content-Type", "text/html; charset=utf-8").sendFile(file.toString());
    }

    /** A new viewer: the current run's seconds so far and the snapshot now, then one a second. */
    private void subscribe(HttpServerResponse response) {
        everViewed = true;
        response.setChunked(true)
                .setWriteQueueMaxSize(VIEWER_QUEUE_BYTES)
                .putHeader("Content-Type", "text/event-stream")
                .putHeader("Cache-Control", "no-store");
        response.write(event("history", board.history().encode()));
        response.write(event("snapshot", board.state().encode()));
        if (closedStreams) {
            response.end(event("finished", "{}"));
            return;
        }
        viewers.add(response);
        response.closeHandler(v -> viewers.remove(response));
        response.exceptionHandler(e -> viewers.remove(response));
    }

    /** Once a second: one snapshot, encoded once, to every viewer whose socket has room; at the end, the last. */
    private void tick() {
        if (closedStreams) {
            return;
        }
        boolean finished = board.finished();
        Buffer snapshot = event("snapshot", board.snapshot().encode());
        for (HttpServerResponse viewer : List.copyOf(viewers)) {
            if (finished) {
                viewer.write(snapshot);
                viewer.end(event("finished", "{}"));
            } else if (!viewer.writeQueueFull()) {
                viewer.write(snapshot);
            }
        }
        if (finished) {
            viewers.clear();
            closedStreams = true;
        }
    }

    private static Buffer event(String name, String data) {
        return Buffer.buffer("event: " + name + "\ndata: " + data + "\n\n", "UTF-8");
    }

    private static String page() {
        try (InputStream in = LivePage.class.getResourceAsStream("live-page.html")) {
            if (in == null) {
                throw new IllegalStateException("live-page.html is missing from the loadtest jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
