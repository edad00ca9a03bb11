package dev.threadbench.loadtest.cluster;

import dev.threadbench.loadtest.cluster.messages.AgentReport;
import dev.threadbench.loadtest.cluster.messages.Claim;
import dev.threadbench.loadtest.cluster.messages.ClaimAnswer;
import dev.threadbench.loadtest.cluster.messages.ClusterMessage;
import dev.threadbench.loadtest.cluster.messages.Heartbeat;
import dev.threadbench.loadtest.cluster.messages.Refusal;
import dev.threadbench.loadtest.cluster.messages.Release;
import dev.threadbench.loadtest.cluster.messages.RunAccepted;
import dev.threadbench.loadtest.cluster.messages.RunOrder;
import dev.threadbench.loadtest.cluster.messages.RunStatus;
import dev.threadbench.loadtest.cluster.messages.StopRun;
import dev.threadbench.loadtest.runner.LoadResult;
import dev.threadbench.loadtest.runner.LoadRunner;
import dev.threadbench.loadtest.runner.LoadShape;
import dev.threadbench.loadtest.runner.LoadSpec;
import dev.threadbench.loadtest.runner.Progress;
import io.vertx.core.eventbus.Message;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A load generator in the cluster: it takes orders from one compare at a time (the one that claimed it), runs
 * its share of each run on the embedded runner, one run after another, and reports what it measured until compare
 * acknowledges it. It refuses an order that is not signed with the cluster key, one it has seen before, a stale one,
 * and one for a request or target it does not send ({@link OrderCheck}); it loads the addresses it checked. Its load
 * stops when compare says so, when compare leaves the cluster, or when compare has been silent for the failure timeout:
 * no orphan load on a server.
 */
final class Agent implements AutoCloseable {

    /** How often an unacknowledged report is sent again. */
    private static final long REPORT_RETRY_MILLIS = 1000;

    private final ClusterNode node;
    private final PrintStream out;
    private final OrderCheck orders;
    /** Without a heartbeat from compare for this long, a running load stops. */
    private final Duration silence;

    private final ExecutorService runs = Executors.newSingleThreadExecutor(r -> {
        Thread thread = new Thread(r, "agent-run");
        thread.setDaemon(true);
        return thread;
    });
    /** The compare whose orders this agent takes; null: free. Guarded by this. */
    private ClusterNode.Member compare;
    /** The run under way; null: idle. Guarded by this. */
    private Running running;

    private static final class Running {
        final String runId;
        final LoadRunner runner;
        volatile long lastHeardNanos = System.nanoTime();

        Running(String runId, LoadRunner runner) {
            this.runId = runId;
            this.runner = runner;
        }
    }

    Agent(ClusterNode node, PrintStream out, AllowedTargets allowed) {
        this.node = node;
        this.out = out;
        this.orders = new OrderCheck(node.nodeId(), allowed);
        this.silence = node.settings().failureTimeout();
        node.bus().consumer(ClusterMessage.agentAddress(node.nodeId()), this::say, this::handle);
        node.onMemberLeft(this::memberLeft);
        node.vertx().setPeriodic(500, id -> checkSilence());
    }

    private void handle(ClusterMessage body, Message<ClusterMessage> message) {
        switch (body) {
            case Claim claim -> node.bus().reply(message, claim(claim));
            case Release release -> release(release.compareNode());
            case RunOrder order -> {
                AllowedTargets.Checked checked = orders.check(order);
                String forbidden = checked.refusal();
                if (forbidden != null) {
                    say("refused run " + order.runId() + ": " + forbidden);
                    node.bus().refuse(message, FORBIDDEN, forbidden);
                    return;
                }
                String refusal;
                try {
                    refusal = accept(order, checked.pinned());
                } catch (OrderNotPrepared e) {
                    say("refused run " + order.runId() + ": " + e.getMessage());
                    node.bus().refuse(message, NOT_PREPARED, e.getMessage());
                    return;
                }
                if (refusal == null) {
                    node.bus().reply(message, new RunAccepted(order.runId()));
                } else {
                    node.bus().refuse(message, BUSY, refusal);
                }
            }
            case Heartbeat heartbeat ->
                node.bus().reply(message, new RunStatus(heartbeat.runId(), heard(heartbeat.runId())));
            case StopRun stop -> stop(stop.runId(), stop.reason());
            default -> {
                if (message.replyAddress() != null) {
                    node.bus()
                            .refuse(
                                    message,
                                    400,
                                    "an agent takes no " + body.getClass().getSimpleName());
                }
            }
        }
    }

    private void say(String line) {
        out.println("agent " + node.name() + ": " + line);
        out.flush();
    }

    private synchronized ClaimAnswer claim(Claim claim) {
        if (!node.build().equals(claim.build())) {
            String why = Compatibility.buildConflict(
                    "agent " + node.name(), node.build(), "compare " + claim.compareName(), claim.build());
            out.println("agent " + node.name() + ": refused " + claim.compareName() + ": " + why);
            out.flush();
            return ClaimAnswer.refused(Refusal.OTHER_BUILD, why);
        }
        if (compare != null && !compare.nodeId().equals(claim.compareNode()) && node.present(compare.nodeId())) {
            return ClaimAnswer.refused(
                    Refusal.TAKEN_BY_ANOTHER_COMPARE,
                    "agent " + node.name() + " " + Refusal.TAKEN_BY_ANOTHER_COMPARE.description() + ", "
                            + compare.label());
        }
        if (compare == null || !compare.nodeId().equals(claim.compareNode())) {
            compare = new ClusterNode.Member(
                    claim.compareNode(),
                    ClusterNode.Role.COMPARE,
                    claim.compareName(),
                    claim.compareHost(),
                    claim.build(),
                    node.settings().keyFingerprint());
            out.println("agent " + node.name() + ": taking orders from " + compare.label());
            out.flush();
        }
        return ClaimAnswer.ACCEPTED;
    }

    private synchronized void release(String compareNode) {
        if (compare != null && compare.nodeId().equals(compareNode)) {
            stopRunning("compare released this agent");
            out.println("agent " + node.name() + ": released by " + compare.label() + ", free");
            out.flush();
            compare = null;
        }
    }

    /**
     * An order's failure code when the agent will never take it (unsigned, replayed, misdirected, a target not
     * allowed).
     */
    static final int FORBIDDEN = 403;
    /** An order's failure code when the agent is another compare's, or still busy. */
    static final int BUSY = 409;
    /** An order's failure code when it could not be made into a run (its reason says why). */
    static final int NOT_PREPARED = 422;

    /** An order that passed its checks but could not be made into a run: the agent answers with the reason. */
    static final class OrderNotPrepared extends RuntimeException {
        OrderNotPrepared(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Takes the order (null) or says why not. */
    private synchronized String accept(RunOrder order, Map<String, InetAddress> pinned) {
        if (compare == null || !compare.nodeId().equals(order.compareNode())) {
            return "agent " + node.name() + " takes orders only from the compare that claimed it";
        }
        if (running != null) {
            return "agent " + node.name() + " is still running " + running.runId;
        }
        long received = System.nanoTime();
        LoadRunner runner = prepare(order, pinned);
        running = new Running(order.runId(), runner);
        Running current = running;
        runs.execute(() -> execute(order, current, received));
        return null;
    }

    private void execute(RunOrder order, Running current, long receivedNanos) {
        long startAt = receivedNanos + TimeUnit.MILLISECONDS.toNanos(order.startInMillis());
        long wait = startAt - System.nanoTime();
        if (wait > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        double lateMs = Math.max(0, System.nanoTime() - startAt) / 1e6;
        AgentReport report;
        try {
            out.printf(
                    "agent %s: run %s: %,d connections against %s%n",
                    node.name(),
                    order.runId(),
                    order.connections(),
                    order.steps().getFirst().url());
            out.flush();
            report = report(order, current.runner.run(), lateMs);
        } catch (LoadRunner.Aborted e) {
            report = failed(order, lateMs, "stopped: " + e.getMessage());
        } catch (Throwable e) {
            // an Error too (out of memory, a class that does not load): the run is over either way, and compare must
            // hear so
            report = failed(order, lateMs, e.getClass().getSimpleName() + ": " + e.getMessage());
        } finally {
            synchronized (this) {
                if (running == current) {
                    running = null;
                }
            }
        }
        out.printf(
                "agent %s: run %s %s%n",
                node.name(),
                order.runId(),
                report.error() == null
                        ? String.format(
                                "done: %,d requests, %,d failed",
                                report.requests(), report.requests() - report.successes())
                        : report.error());
        out.flush();
        deliver(order.compareNode(), report, System.nanoTime() + 3 * silence.toNanos());
    }

    /**
     * Sends the report until compare acknowledges it, it leaves, or {@code deadlineNanos}: a report lost on the way is
     * sent again; compare fails the run naming this agent when none arrives.
     */
    private void deliver(String compareNode, AgentReport report, long deadlineNanos) {
        node.bus()
                .request(ClusterMessage.compareAddress(compareNode), report, REPORT_RETRY_MILLIS)
                .onComplete(answer -> {
                    if (answer.succeeded()) {
                        return;
                    }
                    if (System.nanoTime() < deadlineNanos && node.present(compareNode)) {
                        node.vertx()
                                .setTimer(REPORT_RETRY_MILLIS / 2, id -> deliver(compareNode, report, deadlineNanos));
                    } else {
                        out.printf(
                                "agent %s: run %s: compare did not acknowledge the report (%s)%n",
                                node.name(), report.runId(), answer.cause().getMessage());
                        out.flush();
                    }
                });
    }

    /** The order as a runner; else {@link OrderNotPrepared} naming the run and why (an Error too: it is answered). */
    static LoadRunner prepare(RunOrder order, Map<String, InetAddress> pinned) {
        try {
            return new LoadRunner(spec(order).pinned(pinned), new LoadRunner.Phases() {}, Progress.Sink.NONE);
        } catch (RuntimeException | Error e) {
            throw new OrderNotPrepared(
                    "cannot prepare run " + order.runId() + ": " + e.getClass().getSimpleName() + ": " + e.getMessage(),
                    e);
        }
    }

    private static LoadSpec spec(RunOrder order) {
        var timing = order.timing();
        Duration warmup = Duration.ofSeconds(timing.warmupSeconds());
        LoadShape shape = timing.durationSeconds() != null
                ? new LoadShape.Timed(warmup, Duration.ofSeconds(timing.durationSeconds()))
                : new LoadShape.Counted(warmup, timing.iterations());
        int loops = timing.eventLoops() > 0
                ? Math.min(timing.eventLoops(), order.connections())
                : LoadSpec.defaultEventLoops(order.connections());
        return new LoadSpec(
                order.steps(),
                order.connections(),
                Duration.ofSeconds(timing.rampupSeconds()),
                Duration.ofSeconds(timing.timeoutSeconds()),
                shape,
                loops,
                order.rate());
    }

    private AgentReport report(RunOrder order, LoadResult result, double lateMs) {
        ByteBuffer buffer = ByteBuffer.allocate(result.latencyMicros().getNeededByteBufferCapacity());
        int length = result.latencyMicros().encodeIntoCompressedByteBuffer(buffer);
        Map<String, Long> failures = new LinkedHashMap<>();
        result.failures().forEach((cause, count) -> failures.put(cause.name(), count));
        return new AgentReport(
                order.runId(),
                node.nodeId(),
                node.name(),
                node.host(),
                order.connections(),
                result.requests(),
                result.successes(),
                failures,
                result.durationSeconds(),
                Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length)),
                result.sent(),
                result.answered(),
                result.connectionsOpened(),
                result.generatorCpuSeconds(),
                Runtime.getRuntime().availableProcessors(),
                result.transport(),
                result.firstOtherFailure(),
                result.open(),
                lateMs,
                null,
                result.seconds());
    }

    private AgentReport failed(RunOrder order, double lateMs, String error) {
        return new AgentReport(
                order.runId(),
                node.nodeId(),
                node.name(),
                node.host(),
                order.connections(),
                0,
                0,
                Map.of(),
                0,
                null,
                0,
                0,
                0,
                0,
                Runtime.getRuntime().availableProcessors(),
                null,
                null,
                null,
                lateMs,
                error,
                null);
    }

    /** compare is there; whether this agent is running that run. */
    private synchronized boolean heard(String runId) {
        if (running != null && running.runId.equals(runId)) {
            running.lastHeardNanos = System.nanoTime();
            return true;
        }
        return false;
    }

    private synchronized void stop(String runId, String reason) {
        if (running != null && running.runId.equals(runId)) {
            stopRunning(reason);
        }
    }

    private synchronized void memberLeft(String nodeId) {
        if (compare != null && compare.nodeId().equals(nodeId)) {
            stopRunning("compare " + compare.label() + " left the cluster");
            out.println("agent " + node.name() + ": " + compare.label() + " left the cluster; free");
            out.flush();
            compare = null;
        }
    }

    private synchronized void checkSilence() {
        if (running != null && System.nanoTime() - running.lastHeardNanos > silence.toNanos()) {
            stopRunning("no word from compare for " + silence.toSeconds() + " s");
        }
    }

    /** Stops the load under way, if any (its report says why). */
    private synchronized void stopRunning(String reason) {
        if (running != null) {
            running.runner.abort(reason);
        }
    }

    @Override
    public void close() {
        stopRunning("the agent is stopping");
        runs.shutdown();
        try {
            runs.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
