package dev.threadbench.loadtest.runner;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.vertx.core.Context;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.internal.VertxInternal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * The embedded load generator: closed-loop slots, each on its own connection, or, given a rate, the open
 * model: plan runs started on a schedule ({@link ArrivalSchedule}) on whichever slot is free.
 *
 * <p>The slots are split over {@code eventLoops} groups ({@link SlotGroup}); each group lives on one event loop
 * (Vert.x's, on the transport the spec asks for), and each slot holds its own keep-alive connection (no pool, no
 * pipelining), so a slot's connection, callbacks and counters all stay on one thread. The {@link MeasuredWindow} says
 * which requests count and marks its edges.
 */
public final class LoadRunner {

    /** Called at the measured window's edges (on the window's timer thread, or the caller's when counted). */
    public interface Phases {
        default void measureStarted() {}

        default void measureEnded() {}

        /** With a warm-up of steps ({@link LoadShape.Timed#warmupStep}): whether it may end now; asked at each step. */
        default boolean warmedUp() {
            return true;
        }
    }

    /** The load was stopped before it ended ({@link #abort}); nothing it measured is reported. */
    public static final class Aborted extends RuntimeException {
        Aborted(String reason) {
            super(reason, null, false, false);
        }
    }

    private final LoadSpec spec;
    private final Phases phases;
    private final Progress.Sink progressSink;
    private final CompletableFuture<Void> aborted = new CompletableFuture<>();

    public LoadRunner(LoadSpec spec, Phases phases, Progress.Sink progressSink) {
        this.spec = spec;
        this.phases = phases;
        this.progressSink = progressSink;
    }

    public LoadResult run() {
        if (aborted.isDone()) {
            awaitUnlessAborted(aborted);
        }
        GeneratorTransport.Started transport = spec.transport().start(why -> {
            synchronized (System.err) {
                System.err.println(why);
            }
        });
        Vertx vertx = Vertx.builder()
                .with(new VertxOptions()
                        .setEventLoopPoolSize(spec.eventLoops())
                        .setBlockedThreadCheckInterval(1)
                        .setBlockedThreadCheckIntervalUnit(TimeUnit.HOURS))
                .withTransport(transport.vertx())
                .build();
        List<StepExchange> steps = spec.steps().stream()
                .map(step -> StepExchange.of(step, spec.pinnedHosts()))
                .toList();
        try (MeasuredWindow window = new MeasuredWindow(spec.runShape(), spec.rampup(), phases)) {
            List<SlotGroup> groups = groups(vertx, steps, window);
            Tally total = new Tally();
            List<SecondBuckets> seconds = new ArrayList<>();
            window.open();
            try (Progress progress = new Progress(
                    progressSink,
                    () -> snapshot(window, groups),
                    () -> SecondSeries.latest(
                            groups.stream().map(g -> g.tally.seconds.latest()).toList()))) {
                start(groups, window);
                CompletableFuture<Void> allDone = CompletableFuture.allOf(
                        groups.stream().map(SlotGroup::done).toArray(CompletableFuture[]::new));
                try {
                    awaitUnlessAborted(allDone);
                } catch (Aborted e) {
                    groups.forEach(SlotGroup::stop);
                    throw e;
                }
                for (SlotGroup group : groups) {
                    total.merge(group.done().join());
                    seconds.add(group.done().join().seconds);
                }
                window.finish(System.nanoTime());
            }
            return result(total, window, groups, transport, seconds);
        } finally {
            CompletableFuture<Void> closed = vertx.close()
                    .toCompletionStage()
                    .toCompletableFuture()
                    .orTimeout(10, TimeUnit.SECONDS)
                    .exceptionally(e -> null)
                    .thenRun(() -> steps.forEach(StepExchange::release));
            if (!aborted.isDone()) {
                closed.join();
            } // aborted: its connections are closed already; the caller (an agent) is free for the next run at once
        }
    }

    /** The connections shared out over the event loops as evenly as they go, one group per loop. */
    private List<SlotGroup> groups(Vertx vertx, List<StepExchange> steps, MeasuredWindow window) {
        List<Context> contexts = eventLoopContexts(vertx, spec.eventLoops());
        ChannelFactory<? extends Channel> channels =
                ((VertxInternal) vertx).transport().channelFactory(false);
        List<SlotGroup> groups = new ArrayList<>();
        int firstSlot = 0;
        for (int g = 0; g < spec.eventLoops(); g++) {
            int slots = spec.concurrency() / spec.eventLoops() + (g < spec.concurrency() % spec.eventLoops() ? 1 : 0);
            if (slots > 0) {
                groups.add(new SlotGroup(
                        contexts.get(g), channels, new SlotGroup.Slots(slots, firstSlot), spec, steps, window));
                firstSlot += slots;
            }
        }
        return groups;
    }

    /** The open model's arrivals, shared out over the groups; else each connection's start, spread over the ramp-up. */
    private void start(List<SlotGroup> groups, MeasuredWindow window) {
        if (spec.open()) {
            for (int g = 0; g < groups.size(); g++) {
                groups.get(g)
                        .startOpen(new ArrivalSchedule(
                                window.startNanos(), spec.rate(), g, groups.size(), window.measureEndNanos()));
            }
            return;
        }
        long rampupNanos = spec.rampup().toNanos();
        int slotIndex = 0;
        for (SlotGroup group : groups) {
            for (int s = 0; s < group.slots(); s++, slotIndex++) {
                group.startSlot(rampupNanos * slotIndex / spec.concurrency());
            }
        }
    }

    private LoadResult result(
            Tally total,
            MeasuredWindow window,
            List<SlotGroup> groups,
            GeneratorTransport.Started transport,
            List<SecondBuckets> seconds) {
        return new LoadResult(
                total.measuredRequests,
                total.measuredSuccesses,
                total.failures(),
                window.seconds(),
                total.latencyMicros,
                total.sent,
                total.answered,
                total.connectionsOpened,
                window.cpuSeconds(),
                (int) groups.stream().map(SlotGroup::thread).distinct().count(),
                transport.transport().key(),
                total.firstOtherFailure,
                spec.open()
                        ? new LoadResult.Open(
                                spec.rate(),
                                spec.concurrency(),
                                total.sentInWindow,
                                total.completedInWindow,
                                total.late,
                                total.unsent,
                                total.maxLateNanos / 1e6)
                        : null,
                SecondSeries.of(window.measureStartSecond(), window.measureEndSecond(), seconds));
    }

    /**
     * Stops the load from any thread: {@link #run} closes every connection at once (so the server sees no more
     * requests from it) and throws {@link Aborted}.
     */
    public void abort(String reason) {
        aborted.completeExceptionally(new Aborted(reason));
    }

    private void awaitUnlessAborted(CompletableFuture<?> allDone) {
        try {
            CompletableFuture.anyOf(allDone, aborted).join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof Aborted stopped) {
                throw new Aborted(stopped.getMessage());
            }
            throw e;
        }
    }

    /**
     * One context per event loop. Deployments are spread over the event loops in turn; asking
     * getOrCreateContext() from this thread would hand back the same context, and so one core, each time.
     */
    private static List<Context> eventLoopContexts(Vertx vertx, int count) {
        List<Context> contexts = Collections.synchronizedList(new ArrayList<>());
        vertx.deployVerticle(
                        () -> context -> {
                            contexts.add(context);
                            return Future.succeededFuture();
                        },
                        new DeploymentOptions().setInstances(count))
                .toCompletionStage()
                .toCompletableFuture()
                .join();
        return List.copyOf(contexts);
    }

    private static Progress.Snapshot snapshot(MeasuredWindow window, List<SlotGroup> groups) {
        long now = System.nanoTime();
        long completed = groups.stream().mapToLong(g -> g.completed.sum()).sum();
        long failed = groups.stream().mapToLong(g -> g.failed.sum()).sum();
        return new Progress.Snapshot(
                now, completed, failed, window.secondsLeft(now), window.ticketsLeft(), window.phase(now));
    }
}
