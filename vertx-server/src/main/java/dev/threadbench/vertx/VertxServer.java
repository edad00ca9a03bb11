package dev.threadbench.vertx;

import dev.threadbench.common.GracefulShutdown;
import dev.threadbench.common.HttpLimits;
import dev.threadbench.common.OnDemandThreadPool;
import dev.threadbench.common.RequestLimits;
import dev.threadbench.common.ServerMain;
import dev.threadbench.common.ServerOptions;
import dev.threadbench.common.Sizing;
import dev.threadbench.common.Strategy;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.internal.VertxBootstrap;
import io.vertx.core.transport.Transport;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * The page on Vert.x: {@code java -jar vertx-server.jar [options]}. One HTTP server per event loop, on the one port.
 */
public final class VertxServer implements ServerMain.Started {

    static final ServerOptions.Defaults DEFAULTS = new ServerOptions.Defaults("vertx", 8081, Strategy.TIMER);
    static final ServerMain.Framework FRAMEWORK = new ServerMain.Framework("Vert.x", version(), "io.vertx", "io.netty");

    private final Vertx vertx;
    private final List<HttpServer> servers;
    private final Duration drainLimit;
    private final String threads;

    public static void main(String[] args) {
        ServerMain.run(DEFAULTS, FRAMEWORK, args, VertxServer::start);
    }

    static VertxServer start(ServerMain.Setup setup) {
        ServerOptions options = setup.options();
        return start(setup, vertx -> DelayStrategies.of(vertx, options.strategy(), options.delayMs(), options.work()));
    }

    /** Starts Vert.x and listens, with the delay {@code delay} makes on it; throws when the address cannot be bound. */
    static VertxServer start(ServerMain.Setup setup, Function<Vertx, Future<DelayStrategies.Delay>> delay) {
        System.setProperty("vertx.cacheImmutableHttpResponseHeaders", "true"); // see Routes.page
        System.setProperty(
                "vertx.disableWebsockets",
                "true"); // no WebSocket here: no upgrade check or extension handler per request
        ServerOptions options = setup.options();
        int eventLoops = Sizing.ioThreads();
        Transport transport = Transport.nativeTransport(); // epoll on Linux, Vert.x's recommended transport
        Vertx vertx = VertxBootstrap.create()
                .options(new VertxOptions().setEventLoopPoolSize(eventLoops).setWorkerPoolSize(options.workers()))
                .transport((transport != null ? transport : Transport.NIO).implementation())
                // the worker pool (the blocking strategy's) is an OnDemandThreadPool, as on Undertow, rather than
                // Vert.x's fixed pool, which starts a thread per task until all --workers exist and keeps them;
                // Vert.x's thread factory still makes the threads, so they stay Vert.x worker threads
                .executorServiceFactory((threadFactory, concurrency, maxConcurrency) -> OnDemandThreadPool.create(
                        OnDemandThreadPool.coreFor(maxConcurrency), maxConcurrency, threadFactory))
                .init()
                .vertx();
        List<HttpServer> servers = new CopyOnWriteArrayList<>();
        try {
            DelayStrategies.Delay waits = delay.apply(vertx).await();
            vertx.deployVerticle(
                            () -> context -> listen(context.owner(), setup, waits, servers),
                            new DeploymentOptions().setInstances(eventLoops))
                    .await();
        } catch (Exception e) { // await() rethrows a bind failure as it is: a (checked) BindException
            vertx.close();
            throw e;
        }
        String threads = String.format(
                "event-loops=%d (%s, %s) verticles=%d workers=%d (started on demand, %d kept idle)",
                eventLoops,
                Sizing.ioThreadsRule(),
                vertx.isNativeTransportEnabled() ? "epoll" : "nio",
                eventLoops,
                options.workers(),
                OnDemandThreadPool.coreFor(options.workers()));
        return new VertxServer(
                vertx, servers, Duration.ofMillis(options.delayMs()).plus(GracefulShutdown.GRACE), threads);
    }

    /** One event loop's HTTP server, started from its verticle. */
    private static Future<HttpServer> listen(
            Vertx vertx, ServerMain.Setup setup, DelayStrategies.Delay delay, List<HttpServer> servers) {
        HttpServer server = vertx.createHttpServer(httpOptions())
                .connectionHandler(connection -> {
                    HeadGuard.install(connection);
                    AcceptAtLimit.watch(connection);
                })
                .requestHandler(Routes.root(vertx, setup, delay))
                .invalidRequestHandler(Routes::badRequest);
        servers.add(server);
        int port = setup.options().port();
        // Vert.x gives each instance its own random port for 0; a negative port is one random port they share
        return server.listen(port == 0 ? -1 : port, setup.options().host());
    }

    /**
     * HTTP/1.1 only, as on Undertow: no h2c upgrade, no HTTP/2 with prior knowledge. The idle timeout is the
     * HeadGuard's.
     */
    private static HttpServerOptions httpOptions() {
        return new HttpServerOptions()
                .setHttp2ClearTextEnabled(false)
                .setAcceptBacklog(HttpLimits.ACCEPT_BACKLOG)
                .setMaxInitialLineLength(RequestLimits.PARSER_HEAD_BYTES)
                .setMaxHeaderSize(RequestLimits.PARSER_HEAD_BYTES);
    }

    /** The version of the vertx-core jar on the class path. */
    private static String version() {
        try (InputStream in = Vertx.class.getClassLoader().getResourceAsStream("META-INF/vertx/vertx-version.txt")) {
            return in == null ? "(unknown version)" : new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private VertxServer(Vertx vertx, List<HttpServer> servers, Duration drainLimit, String threads) {
        this.vertx = vertx;
        this.servers = servers;
        this.drainLimit = drainLimit;
        this.threads = threads;
    }

    @Override
    public int port() {
        return servers.get(0).actualPort();
    }

    @Override
    public String threads() {
        return threads;
    }

    List<HttpServer> servers() {
        return servers;
    }

    /**
     * Vert.x's graceful shutdown: the listener closes at once, idle connections too, and a busy one
     * once its response is out. Not awaited: GracefulShutdown waits for the in-flight count instead.
     */
    @Override
    public void stopAccepting() {
        servers.forEach(server -> server.shutdown(drainLimit.toMillis(), TimeUnit.MILLISECONDS));
    }

    @Override
    public void close() {
        try {
            vertx.close().await(GracefulShutdown.GRACE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            System.err.println("vertx-server: Vert.x did not close within " + GracefulShutdown.GRACE);
        }
    }
}
