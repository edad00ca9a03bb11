package dev.threadbench.vertx;

import dev.threadbench.common.FrameworkLogging;
import dev.threadbench.common.GracefulShutdown;
import dev.threadbench.common.HttpLimits;
import dev.threadbench.common.OnDemandThreadPool;
import dev.threadbench.common.RequestHeadScanner;
import dev.threadbench.common.RequestLimits;
import dev.threadbench.common.ServerOptions;
import dev.threadbench.common.ServerOptions.Defaults;
import dev.threadbench.common.ServerStats;
import dev.threadbench.common.Sizing;
import dev.threadbench.common.StartupFailure;
import dev.threadbench.common.StartupLine;
import dev.threadbench.common.Strategy;
import io.vertx.core.DeploymentOptions;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ByteProcessor;
import io.netty.util.concurrent.ScheduledFuture;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.impl.HttpServerConnection;
import io.vertx.core.http.HttpServerOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** The page on Vert.x: {@code java -jar vertx-server.jar [options]}. One instance of this verticle per event loop. */
public final class VertxServer extends VerticleBase {

    /** Loggers of the framework and its libraries: WARNING and above only. */
    static final String[] FRAMEWORK_LOGGERS = {"io.vertx", "io.netty"};

    private final ServerOptions options;
    private final ServerStats stats;
    private final GracefulShutdown shutdown;
    private final DelayStrategies.Delay delay;
    private final List<HttpServer> servers;

    public static void main(String[] args) {
        System.setProperty("vertx.cacheImmutableHttpResponseHeaders", "true"); // see Routes.page
        System.setProperty("vertx.disableWebsockets", "true"); // no WebSocket here: no upgrade check or extension handler per request
        ServerOptions options = ServerOptions.parseOrExit(new Defaults("vertx", 8081, Strategy.TIMER), args);
        FrameworkLogging.quiet(FRAMEWORK_LOGGERS);
        Sizing.fileDescriptorWarning("vertx").ifPresent(System.err::println);
        ServerStats stats = new ServerStats("vertx", options.strategy(), options.delayEvery());
        GracefulShutdown shutdown = new GracefulShutdown();
        Deployment deployment = null;
        try {
            deployment = start(options, stats, shutdown);
        } catch (Exception e) {
            StartupFailure.exit("vertx", options, e);
        }
        System.out.println(StartupLine.of("Vert.x", version(), deployment.port(), options, deployment.threads));
        shutdown.install("vertx", stats, Duration.ofMillis(options.delayMs()), deployment);
    }

    /** Starts Vert.x and listens; throws when the address cannot be bound. */
    static Deployment start(ServerOptions options, ServerStats stats, GracefulShutdown shutdown) {
        int eventLoops = Sizing.ioThreads();
        // The worker pool is an OnDemandThreadPool: see OnDemandWorkerPools, a service provider.
        Vertx vertx = Vertx.vertx(new VertxOptions()
                .setPreferNativeTransport(true)
                .setEventLoopPoolSize(eventLoops)
                .setWorkerPoolSize(options.workers()));
        List<HttpServer> servers = new CopyOnWriteArrayList<>();
        try {
            DelayStrategies.Delay delay = DelayStrategies.of(vertx, options.strategy(), options.delayMs()).await();
            vertx.deployVerticle(() -> new VertxServer(options, stats, shutdown, delay, servers),
                    new DeploymentOptions().setInstances(eventLoops)).await();
        } catch (Exception e) { // await() rethrows a bind failure as it is: a (checked) BindException
            vertx.close();
            throw e;
        }
        String threads = String.format("event-loops=%d (%s, %s) verticles=%d workers=%d (started on demand, %d kept idle)",
                eventLoops, Sizing.ioThreadsRule(), vertx.isNativeTransportEnabled() ? "epoll" : "nio", eventLoops, options.workers(),
                OnDemandThreadPool.coreFor(options.workers()));
        return new Deployment(vertx, servers, Duration.ofMillis(options.delayMs()).plus(GracefulShutdown.GRACE), threads);
    }

    VertxServer(ServerOptions options, ServerStats stats, GracefulShutdown shutdown, DelayStrategies.Delay delay,
                List<HttpServer> servers) {
        this.options = options;
        this.stats = stats;
        this.shutdown = shutdown;
        this.delay = delay;
        this.servers = servers;
    }

    @Override
    public Future<?> start() {
        HttpServer server = vertx.createHttpServer(httpOptions())
                .connectionHandler(connection -> {
                    HeadGuard.install(connection);
                    AcceptFailures.watch(connection);
                })
                .requestHandler(Routes.root(vertx, options.page(), stats, shutdown, delay))
                .invalidRequestHandler(Routes::badRequest);
        servers.add(server);
        // Vert.x gives each instance its own random port for 0; a negative port is one random port they share
        return server.listen(options.port() == 0 ? -1 : options.port(), options.host());
    }

    /** HTTP/1.1 only, as on Undertow: no h2c upgrade, no HTTP/2 with prior knowledge. */
    private static HttpServerOptions httpOptions() {
        return new HttpServerOptions()
                .setHttp2ClearTextEnabled(false)
                .setAcceptBacklog(HttpLimits.ACCEPT_BACKLOG)
                .setIdleTimeout((int) HttpLimits.IDLE_TIMEOUT.toSeconds())
                .setIdleTimeoutUnit(TimeUnit.SECONDS)
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

    /**
     * Sits in front of Netty's HTTP decoder on every connection and passes the raw bytes on through a
     * RequestHeadScanner: the strictness Undertow's parser has and Netty's lacks (refused as a request
     * whose decoding failed, so Vert.x answers it in turn with Routes.badRequest), Undertow's head read
     * timeout (Vert.x has no such setting: the connection is closed, as Undertow closes it), and content
     * after a head dropped unread, since RequestRules refuses it and closes the connection. Vert.x has
     * no public hook for this; its own extensions reach the pipeline the same way.
     */
    static final class HeadGuard extends ChannelInboundHandlerAdapter implements ByteProcessor {
        private static final ChannelHandler SERVED_AS_HTTP_1_1 = new ServedAsHttp11();

        private final RequestHeadScanner scanner = new RequestHeadScanner();
        private boolean discarding;
        private boolean servingAsHttp11;
        private long readStartedNanos;
        private long headStartedNanos;
        private RequestHeadScanner.Step step;
        private ScheduledFuture<?> headTimeout;

        static void install(HttpConnection connection) {
            ChannelPipeline pipeline = ((HttpServerConnection) connection).channelHandlerContext().pipeline();
            pipeline.addBefore("httpDecoder", "headGuard", new HeadGuard());
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!(msg instanceof ByteBuf bytes)) {
                ctx.fireChannelRead(msg);
                return;
            }
            if (discarding) {
                bytes.release();
                return;
            }
            readStartedNanos = System.nanoTime();
            int end = bytes.writerIndex();
            for (int from = bytes.readerIndex(); from < end; ) {
                int at = bytes.forEachByte(from, end - from, this);
                if (at < 0) {
                    break;
                }
                if (step != RequestHeadScanner.Step.REFUSE && scanner.sawOtherVersion() && !servingAsHttp11) {
                    // rare, so off the common path: only this connection's pipeline gets the extra handler
                    ctx.pipeline().addAfter("httpDecoder", "servedAsHttp11", SERVED_AS_HTTP_1_1);
                    servingAsHttp11 = true;
                }
                switch (step) {
                    case HEAD_COMPLETE -> cancelHeadTimeout();
                    case CONTENT_FOLLOWS -> {
                        forwardUpTo(ctx, bytes, at + 1);
                        return;
                    }
                    case REFUSE -> {
                        forwardUpTo(ctx, bytes, at);
                        ctx.fireChannelRead(refusedRequest());
                        ctx.fireChannelRead(LastHttpContent.EMPTY_LAST_CONTENT);
                        return;
                    }
                    case MORE -> throw new AssertionError();
                }
                from = at + 1;
            }
            if (scanner.inHead() && headTimeout == null) {
                long left = HttpLimits.HEADER_READ_TIMEOUT.toNanos() - (readStartedNanos - headStartedNanos);
                headTimeout = ctx.executor().schedule(() -> ctx.close(), left, TimeUnit.NANOSECONDS);
            }
            ctx.fireChannelRead(bytes);
        }

        /** Feeds one byte; stops the scan of the buffer at any step but MORE. */
        @Override
        public boolean process(byte b) {
            if (!scanner.inHead()) {
                headStartedNanos = readStartedNanos;
            }
            step = scanner.feed(b);
            return step == RequestHeadScanner.Step.MORE;
        }

        /** Passes on the bytes before {@code end} and reads nothing after them. */
        private void forwardUpTo(ChannelHandlerContext ctx, ByteBuf bytes, int end) {
            cancelHeadTimeout();
            discarding = true;
            if (end > bytes.readerIndex()) {
                ctx.fireChannelRead(bytes.retainedSlice(bytes.readerIndex(), end - bytes.readerIndex()));
            }
            bytes.release();
        }

        private static HttpRequest refusedRequest() {
            HttpRequest refused = new DefaultHttpRequest(io.netty.handler.codec.http.HttpVersion.HTTP_1_1, HttpMethod.GET, "/");
            refused.setDecoderResult(DecoderResult.failure(new IllegalArgumentException("malformed request head")));
            return refused;
        }

        private void cancelHeadTimeout() {
            if (headTimeout != null) {
                headTimeout.cancel(false);
                headTimeout = null;
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            cancelHeadTimeout();
            ctx.fireChannelInactive();
        }
    }

    /** Behind the decoder: a version the scanner let through other than 1.0 is served as 1.1, as Undertow does (Vert.x would answer 501). */
    @ChannelHandler.Sharable
    private static final class ServedAsHttp11 extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpRequest request && request.decoderResult().isSuccess()
                    && request.protocolVersion() != io.netty.handler.codec.http.HttpVersion.HTTP_1_0) {
                request.setProtocolVersion(io.netty.handler.codec.http.HttpVersion.HTTP_1_1);
            }
            ctx.fireChannelRead(msg);
        }
    }

    /** The running deployment, as the graceful shutdown sees it. */
    static final class Deployment implements GracefulShutdown.Server {
        private final Vertx vertx;
        private final List<HttpServer> servers;
        private final Duration drainLimit;
        private final String threads;

        private Deployment(Vertx vertx, List<HttpServer> servers, Duration drainLimit, String threads) {
            this.vertx = vertx;
            this.servers = servers;
            this.drainLimit = drainLimit;
            this.threads = threads;
        }

        int port() {
            return servers.get(0).actualPort();
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
}
