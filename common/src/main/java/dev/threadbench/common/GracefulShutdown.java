package dev.threadbench.common;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGTERM (or SIGINT) drains the server: {@code /health} turns 503 at once, the listener stops
 * accepting, every request already admitted (delayed ones included) is answered, then the process
 * exits 0. A second signal, or a drain that outlives the delay plus {@link #GRACE}, forces exit 1.
 *
 * <p>Signal handlers rather than a shutdown hook, because a JVM already running its hooks ignores a
 * second SIGTERM.
 */
public final class GracefulShutdown {

    /** Time allowed beyond the configured delay for the last answers to be written. */
    public static final Duration GRACE = Duration.ofSeconds(5);

    /** What a server does to stop; both run on the shutdown thread. */
    public interface Server {
        /** Close the listening socket(s); connections already open may finish their requests. */
        void stopAccepting();

        /** Release everything else once no request is in flight. */
        void close();
    }

    private final AtomicInteger signals = new AtomicInteger();
    private volatile boolean draining;

    /** True from the first signal on: {@code /health} answers 503 and new requests to {@code /} get 503. */
    public boolean draining() {
        return draining;
    }

    /** Installs the TERM and INT handlers for a running server. */
    public void install(String name, ServerStats stats, Duration delay, Server server) {
        SignalHandler handler = signal -> {
            if (signals.incrementAndGet() > 1) {
                System.err.println(name + ": second SIG" + signal.getName() + ", exiting now");
                Runtime.getRuntime().halt(1);
            }
            // not a daemon like the signal thread it comes from: the JVM must not end (with 0) before drain() decides
            Thread.ofPlatform()
                    .name("graceful-shutdown")
                    .daemon(false)
                    .start(() -> drain(name, stats, delay.plus(GRACE), server));
        };
        Signal.handle(new Signal("TERM"), handler);
        Signal.handle(new Signal("INT"), handler);
    }

    private void drain(String name, ServerStats stats, Duration limit, Server server) {
        draining = true;
        server.stopAccepting();
        long deadline = System.nanoTime() + limit.toNanos();
        System.out.println(name + ": draining " + stats.inFlight() + " in-flight request(s)");
        while (stats.inFlight() > 0 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        long left = stats.inFlight();
        server.close();
        if (left > 0) {
            System.err.println(
                    name + ": " + left + " request(s) still in flight after " + limit.toMillis() + " ms, exiting");
            Runtime.getRuntime().halt(1);
        }
        System.out.println(name + ": stopped after " + stats.requests() + " request(s)");
        System.exit(0);
    }
}
