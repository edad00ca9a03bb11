package dev.threadbench.loadtest.runner;

import dev.threadbench.loadtest.plan.Plan;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpClientConnection;
import io.vertx.core.http.HttpConnectOptions;
import io.vertx.core.http.RequestOptions;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The embedded load generator: closed-loop slots on the Vert.x HTTP client.
 *
 * <p>The slots are split over {@code eventLoops} groups; each group lives on one event loop with its own
 * client, and each slot holds its own keep-alive connection (no pool, no pipelining), so a slot's
 * connection, callbacks and counters all stay on one thread. Each slot sends a request, waits for the
 * whole answer, checks it (status 2xx, body length = Content-Length), records it, and sends the next.
 */
public final class LoadRunner {

    /** Called at the measured window's edges (on a timer thread, or the caller's when counted). */
    public interface Phases {
        default void measureStarted() {}

        default void measureEnded() {}
    }

    private final LoadSpec spec;
    private final Phases phases;
    private final Progress.Sink progressSink;

    private final LongAdder completed = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final AtomicLong connections = new AtomicLong();
    private final AtomicLong ticketsLeft = new AtomicLong();

    private long startNanos;
    private long measureStartNanos;
    private long measureEndNanos;

    public LoadRunner(LoadSpec spec, Phases phases, Progress.Sink progressSink) {
        this.spec = spec;
        this.phases = phases;
        this.progressSink = progressSink;
    }

    public LoadResult run() {
        long warmupNanos = spec.shape().warmup().toNanos();
        long rampupNanos = spec.rampup().toNanos();
        VertxOptions options = new VertxOptions()
                .setEventLoopPoolSize(spec.eventLoops())
                .setPreferNativeTransport(true)
                .setBlockedThreadCheckInterval(1).setBlockedThreadCheckIntervalUnit(TimeUnit.HOURS);
        Vertx vertx = Vertx.vertx(options);
        Progress progress = null;
        try {
            List<Context> contexts = eventLoopContexts(vertx, spec.eventLoops());
            List<Group> groups = new ArrayList<>();
            for (int g = 0; g < spec.eventLoops(); g++) {
                int slots = spec.concurrency() / spec.eventLoops() + (g < spec.concurrency() % spec.eventLoops() ? 1 : 0);
                if (slots > 0) {
                    groups.add(new Group(vertx, contexts.get(g), slots));
                }
            }
            startNanos = System.nanoTime();
            switch (spec.shape()) {
                case LoadShape.Timed timed -> {
                    measureStartNanos = startNanos + rampupNanos + warmupNanos;
                    measureEndNanos = measureStartNanos + timed.duration().toNanos();
                }
                case LoadShape.Counted counted -> {
                    measureStartNanos = warmupNanos > 0 ? startNanos + rampupNanos + warmupNanos : startNanos;
                    measureEndNanos = Long.MAX_VALUE;
                    ticketsLeft.set(counted.iterations());
                }
            }
            CpuClock cpu = new CpuClock();
            Runnable atMeasureStart = () -> {
                cpu.start();
                phases.measureStarted();
            };
            if (measureStartNanos == startNanos) {
                atMeasureStart.run();
            }
            progress = new Progress(progressSink, this::progressSnapshot);
            int slotIndex = 0;
            for (Group group : groups) {
                for (int s = 0; s < group.slots; s++, slotIndex++) {
                    group.startSlot(rampupNanos * slotIndex / spec.concurrency());
                }
            }
            List<java.util.concurrent.Future<?>> edges = new ArrayList<>();
            if (measureStartNanos > startNanos) {
                edges.add(progress.at(measureStartNanos, atMeasureStart));
            }
            if (spec.shape() instanceof LoadShape.Timed) {
                edges.add(progress.at(measureEndNanos, () -> {
                    cpu.stop();
                    phases.measureEnded();
                }));
            }
            Tally total = new Tally();
            for (Group group : groups) {
                total.merge(group.done.join());
            }
            long endNanos = System.nanoTime();
            for (java.util.concurrent.Future<?> edge : edges) {
                awaitQuietly(edge);
            }
            if (spec.shape() instanceof LoadShape.Counted) {
                measureEndNanos = endNanos;
                cpu.stop();
                phases.measureEnded();
            }
            progress.close();
            double seconds = (measureEndNanos - measureStartNanos) / 1e9;
            return new LoadResult(total.measuredRequests, total.measuredSuccesses, total.failures(), seconds,
                    total.latencyMicros, total.sent, total.answered, connections.get(), cpu.seconds(),
                    (int) groups.stream().map(g -> g.thread).distinct().count(), vertx.isNativeTransportEnabled() ? "epoll" : "nio",
                    total.firstOtherFailure);
        } finally {
            if (progress != null) {
                progress.close();
            }
            vertx.close().toCompletionStage().toCompletableFuture().orTimeout(10, TimeUnit.SECONDS).exceptionally(e -> null).join();
        }
    }

    /**
     * One context per event loop. Deployments are spread over the event loops in turn; asking
     * getOrCreateContext() from this thread would hand back the same context, and so one core, each time.
     */
    private static List<Context> eventLoopContexts(Vertx vertx, int count) {
        List<Context> contexts = java.util.Collections.synchronizedList(new ArrayList<>());
        vertx.deployVerticle(() -> context -> {
            contexts.add(context);
            return Future.succeededFuture();
        }, new io.vertx.core.DeploymentOptions().setInstances(count)).toCompletionStage().toCompletableFuture().join();
        return List.copyOf(contexts);
    }

    private static void awaitQuietly(java.util.concurrent.Future<?> edge) {
        try {
            edge.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("measurement edge failed", e.getCause());
        }
    }

    private Progress.Snapshot progressSnapshot() {
        long now = System.nanoTime();
        double left;
        if (spec.shape() instanceof LoadShape.Timed) {
            left = Math.max(0, (measureEndNanos - now) / 1e9);
        } else {
            left = Double.NaN;
        }
        return new Progress.Snapshot(now, completed.sum(), failed.sum(), left, ticketsLeft.get(),
                now < measureStartNanos ? "warm-up" : "measuring");
    }

    /** One plan run's permission to go on; null: the slot stops. */
    private enum Ticket { WARMUP, MEASURED, BY_COMPLETION }

    private Ticket nextTicket(long now) {
        return switch (spec.shape()) {
            case LoadShape.Timed t -> now < measureEndNanos ? Ticket.BY_COMPLETION : null;
            case LoadShape.Counted c -> {
                if (now < measureStartNanos) {
                    yield Ticket.WARMUP;
                }
                yield ticketsLeft.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0 ? Ticket.MEASURED : null;
            }
        };
    }

    /** The slots of one event loop, their client and their counts. */
    private final class Group {
        final Vertx vertx;
        final Context context;
        final int slots;
        final HttpClientAgent client;
        final List<RequestOptions> requests;
        final List<HttpConnectOptions> endpoints;
        final Tally tally = new Tally();
        final CompletableFuture<Tally> done = new CompletableFuture<>();
        int running;
        /** The event loop thread the group ran on, to prove the groups were spread over the loops. */
        volatile String thread;

        Group(Vertx vertx, Context context, int slots) {
            this.vertx = vertx;
            this.context = context;
            this.slots = slots;
            this.running = slots;
            int timeoutMillis = (int) Math.min(Integer.MAX_VALUE, spec.timeout().toMillis());
            HttpClientOptions clientOptions = new HttpClientOptions()
                    .setKeepAlive(true)
                    .setPipelining(false)
                    .setTcpNoDelay(true)
                    .setConnectTimeout(timeoutMillis);
            this.client = vertx.createHttpClient(clientOptions);
            this.requests = spec.steps().stream().map(step -> requestOptions(step, timeoutMillis)).toList();
            this.endpoints = requests.stream().map(r -> new HttpConnectOptions().setHost(r.getHost()).setPort(r.getPort())
                    .setConnectTimeout(timeoutMillis)).toList();
        }

        void startSlot(long delayNanos) {
            context.runOnContext(v -> {
                thread = Thread.currentThread().getName();
                Slot slot = new Slot();
                long delayMillis = TimeUnit.NANOSECONDS.toMillis(delayNanos);
                if (delayMillis > 0) {
                    vertx.setTimer(delayMillis, id -> nextPlanRun(slot));
                } else {
                    nextPlanRun(slot);
                }
            });
        }

        /**
         * One closed-loop client and its own connection, taken from no pool: a pool as large as the
         * slots would scan its connections on every request. A broken connection is replaced by the
         * next request's.
         */
        private final class Slot {
            HttpClientConnection connection;
            HttpConnectOptions connectedTo;
        }

        private void nextPlanRun(Slot slot) {
            Ticket ticket = nextTicket(System.nanoTime());
            if (ticket == null) {
                if (slot.connection != null) {
                    slot.connection.close();
                }
                slotFinished();
            } else {
                send(slot, 0, ticket);
            }
        }

        private void slotFinished() {
            if (--running == 0) {
                done.complete(tally);
            }
        }

        private Future<HttpClientConnection> connection(Slot slot, int step) {
            HttpConnectOptions endpoint = endpoints.get(step);
            if (slot.connection != null && slot.connectedTo == endpoint) {
                return Future.succeededFuture(slot.connection);
            }
            if (slot.connection != null) {
                slot.connection.close();
            }
            slot.connection = null;
            return client.connect(endpoint).andThen(connected -> {
                if (connected.succeeded()) {
                    HttpClientConnection connection = connected.result();
                    connections.incrementAndGet();
                    slot.connection = connection;
                    slot.connectedTo = endpoint;
                    connection.closeHandler(v -> {
                        if (slot.connection == connection) {
                            slot.connection = null;
                        }
                    });
                }
            });
        }

        private void send(Slot slot, int step, Ticket ticket) {
            RequestOptions options = requests.get(step);
            boolean head = options.getMethod() == HttpMethod.HEAD;
            long start = System.nanoTime();
            tally.sent++;
            HttpClientConnection open = slot.connection != null && slot.connectedTo == endpoints.get(step) ? slot.connection : null;
            if (open != null) {
                exchange(open, slot, step, ticket, start, options, head);
            } else {
                connection(slot, step).onComplete(connected -> {
                    if (connected.failed()) {
                        finish(slot, step, ticket, start, FailureCause.of(connected.cause(), false), connected.cause());
                    } else {
                        exchange(connected.result(), slot, step, ticket, start, options, head);
                    }
                });
            }
        }

        /** One request and its whole answer on the slot's connection; plain callbacks, no future chains, per request. */
        private void exchange(HttpClientConnection connection, Slot slot, int step, Ticket ticket, long start,
                              RequestOptions options, boolean head) {
            connection.request(options).onComplete(created -> {
                if (created.failed()) {
                    finish(slot, step, ticket, start, FailureCause.of(created.cause(), false), created.cause());
                    return;
                }
                created.result().send().onComplete(answer -> {
                    if (answer.failed()) {
                        finish(slot, step, ticket, start, FailureCause.of(answer.cause(), false), answer.cause());
                        return;
                    }
                    HttpClientResponse response = answer.result();
                    tally.answered++;
                    response.body().onComplete(body -> {
                        if (body.failed()) {
                            finish(slot, step, ticket, start, FailureCause.of(body.cause(), true), body.cause());
                        } else {
                            finish(slot, step, ticket, start, check(response, body.result(), head), null);
                        }
                    });
                });
            });
        }

        private void finish(Slot slot, int step, Ticket ticket, long start, FailureCause failure, Throwable cause) {
            long end = System.nanoTime();
            boolean measured = switch (ticket) {
                case WARMUP -> false;
                case MEASURED -> true;
                case BY_COMPLETION -> end >= measureStartNanos && end < measureEndNanos;
            };
            if (measured) {
                tally.recordMeasured((end - start) / 1000, failure);
                if (failure == FailureCause.OTHER && tally.firstOtherFailure == null && cause != null) {
                    tally.firstOtherFailure = cause.getClass().getName() + ": " + cause.getMessage();
                }
            }
            completed.increment();
            if (failure != null) {
                failed.increment();
                if (failure != FailureCause.NON_2XX && slot.connection != null) {
                    // the connection's state is unknown after a broken exchange: start the next on a new one
                    slot.connection.close();
                    slot.connection = null;
                }
            }
            if (step + 1 < requests.size()) {
                if (ticket == Ticket.BY_COMPLETION && end >= measureEndNanos) {
                    if (slot.connection != null) {
                        slot.connection.close();
                    }
                    slotFinished();
                } else {
                    send(slot, step + 1, ticket);
                }
            } else {
                nextPlanRun(slot);
            }
        }
    }

    /** A 2xx status and, when the answer states a Content-Length, a body of exactly that many bytes. */
    static FailureCause check(HttpClientResponse response, Buffer body, boolean head) {
        int status = response.statusCode();
        if (status < 200 || status > 299) {
            return FailureCause.NON_2XX;
        }
        String contentLength = response.getHeader("Content-Length");
        if (!head && contentLength != null) {
            try {
                if (Long.parseLong(contentLength.trim()) != body.length()) {
                    return FailureCause.SHORT_BODY;
                }
            } catch (NumberFormatException e) {
                return FailureCause.OTHER;
            }
        }
        return null;
    }

    static RequestOptions requestOptions(Plan.Step step, int timeoutMillis) {
        String path = step.url().getRawPath() == null || step.url().getRawPath().isEmpty() ? "/" : step.url().getRawPath();
        if (step.url().getRawQuery() != null) {
            path += "?" + step.url().getRawQuery();
        }
        int port = step.url().getPort() > 0 ? step.url().getPort() : 80;
        RequestOptions options = new RequestOptions()
                .setMethod(HttpMethod.valueOf(step.method()))
                .setHost(step.url().getHost())
                .setPort(port)
                .setURI(path)
                .setIdleTimeout(timeoutMillis);
        step.headers().forEach(options::putHeader);
        return options;
    }

    /** CPU time of this whole JVM over the measured window. */
    private static final class CpuClock {
        private final com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        private volatile long startCpu = -1;
        private volatile long stopCpu = -1;

        void start() {
            startCpu = os.getProcessCpuTime();
        }

        void stop() {
            if (stopCpu < 0) {
                stopCpu = os.getProcessCpuTime();
            }
        }

        double seconds() {
            return startCpu < 0 || stopCpu < 0 ? 0 : (stopCpu - startCpu) / 1e9;
        }
    }
}
