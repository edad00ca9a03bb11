package dev.threadbench.undertow;

import dev.threadbench.common.HttpLimits;
import dev.threadbench.common.OnDemandThreadPool;
import dev.threadbench.common.RequestLimits;
import dev.threadbench.common.ServerMain;
import dev.threadbench.common.ServerOptions;
import dev.threadbench.common.Sizing;
import dev.threadbench.common.Strategy;
import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.Version;
import java.net.InetSocketAddress;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import org.xnio.OptionMap;
import org.xnio.Options;
import org.xnio.Xnio;
import org.xnio.XnioWorker;

/** The page on Undertow: {@code java -jar undertow-server.jar [options]}. */
public final class UndertowServer implements ServerMain.Started {

    static final ServerOptions.Defaults DEFAULTS = new ServerOptions.Defaults("undertow", 8080, Strategy.BLOCKING);
    static final ServerMain.Framework FRAMEWORK =
            new ServerMain.Framework("Undertow", Version.getVersionString(), "io.undertow", "org.xnio", "org.jboss");

    private final Undertow undertow;
    private final XnioWorker worker;
    private final ExecutorService workers;
    private final ExecutorService virtualThreads;
    private final String threads;

    public static void main(String[] args) {
        ServerMain.run(DEFAULTS, FRAMEWORK, args, UndertowServer::start);
    }

    static UndertowServer start(ServerMain.Setup setup) {
        ServerOptions options = setup.options();
        return start(
                setup,
                virtualThreads ->
                        DelayStrategies.of(options.strategy(), options.delayMs(), options.work(), virtualThreads));
    }

    /**
     * Starts listening, with the delay {@code delay} makes on the virtual threads; throws when the address cannot be
     * bound.
     */
    static UndertowServer start(ServerMain.Setup setup, Function<Executor, DelayStrategies.Delay> delay) {
        ServerOptions options = setup.options();
        int ioThreads = Sizing.ioThreads();
        int coreWorkers = OnDemandThreadPool.coreFor(options.workers());
        ExecutorService workers = OnDemandThreadPool.create(
                coreWorkers,
                options.workers(),
                Thread.ofPlatform().name("undertow-worker-", 1).factory());
        // Our own XNIO worker, so that Undertow.stop() closes only the listener and in-flight requests finish.
        XnioWorker worker = createWorker(
                workers,
                OptionMap.builder()
                        .set(Options.WORKER_NAME, "undertow")
                        .set(Options.WORKER_IO_THREADS, ioThreads)
                        .set(Options.TCP_NODELAY, true)
                        .set(Options.CORK, true)
                        .getMap());
        ExecutorService virtualThreads = Executors.newVirtualThreadPerTaskExecutor();
        int connectionLimit = AcceptAtLimit.install();
        Undertow undertow = Undertow.builder()
                .setWorker(worker)
                .addHttpListener(options.port(), options.host())
                .setSocketOption(Options.BACKLOG, HttpLimits.ACCEPT_BACKLOG)
                .setSocketOption(Options.CONNECTION_HIGH_WATER, connectionLimit)
                .setSocketOption(Options.CONNECTION_LOW_WATER, connectionLimit)
                .setServerOption(UndertowOptions.MAX_HEADER_SIZE, RequestLimits.PARSER_HEAD_BYTES)
                .setServerOption(UndertowOptions.MAX_HEADERS, RequestLimits.PARSER_HEADER_COUNT)
                .setServerOption(UndertowOptions.REQUEST_PARSE_TIMEOUT, (int) HttpLimits.HEADER_READ_TIMEOUT.toMillis())
                .setServerOption(UndertowOptions.NO_REQUEST_TIMEOUT, (int) HttpLimits.IDLE_TIMEOUT.toMillis())
                .setServerOption(UndertowOptions.IDLE_TIMEOUT, (int) HttpLimits.IDLE_TIMEOUT.toMillis())
                .setHandler(Routes.root(setup, delay.apply(virtualThreads)))
                .build();
        try {
            undertow.start();
        } catch (RuntimeException e) {
            worker.shutdownNow();
            workers.shutdownNow();
            throw e;
        }
        String threads = String.format(
                "io-threads=%d (%s) workers=%d (started on demand, %d kept idle)",
                ioThreads, Sizing.ioThreadsRule(), options.workers(), coreWorkers);
        return new UndertowServer(undertow, worker, workers, virtualThreads, threads);
    }

    private UndertowServer(
            Undertow undertow,
            XnioWorker worker,
            ExecutorService workers,
            ExecutorService virtualThreads,
            String threads) {
        this.undertow = undertow;
        this.worker = worker;
        this.workers = workers;
        this.virtualThreads = virtualThreads;
        this.threads = threads;
    }

    /**
     * XNIO's own task pool would be jboss-threads' executor, which on JDK 24+ prints sun.misc.Unsafe
     * warnings; the shared on-demand pool also gives both servers the same worker-thread behaviour.
     */
    private static XnioWorker createWorker(ExecutorService workers, OptionMap options) {
        try {
            return Xnio.getInstance(Undertow.class.getClassLoader())
                    .createWorkerBuilder()
                    .populateFromOptions(options)
                    .setExternalExecutorService(workers)
                    .build();
        } catch (RuntimeException e) {
            workers.shutdownNow();
            throw e;
        }
    }

    @Override
    public int port() {
        return ((InetSocketAddress) undertow.getListenerInfo().get(0).getAddress()).getPort();
    }

    @Override
    public String threads() {
        return threads;
    }

    /** With an external worker, Undertow.stop() closes the listening channel and nothing else. */
    @Override
    public void stopAccepting() {
        undertow.stop();
    }

    @Override
    public void close() {
        worker.shutdownNow();
        workers.shutdownNow();
        virtualThreads.shutdownNow();
    }
}
