package dev.threadbench.loadtest.cluster;

import dev.threadbench.loadtest.cluster.messages.AgentReport;
import dev.threadbench.loadtest.cluster.messages.Claim;
import dev.threadbench.loadtest.cluster.messages.ClaimAnswer;
import dev.threadbench.loadtest.cluster.messages.ClusterMessage;
import dev.threadbench.loadtest.cluster.messages.Heartbeat;
import dev.threadbench.loadtest.cluster.messages.MessageCodec;
import dev.threadbench.loadtest.cluster.messages.Release;
import dev.threadbench.loadtest.cluster.messages.RunAccepted;
import dev.threadbench.loadtest.cluster.messages.RunOrder;
import dev.threadbench.loadtest.cluster.messages.StopRun;
import dev.threadbench.loadtest.runner.LoadResult;
import dev.threadbench.loadtest.runner.LoadRunner;
import dev.threadbench.loadtest.runner.LoadShape;
import dev.threadbench.loadtest.runner.LoadSpec;
import dev.threadbench.loadtest.runner.Progress;
import io.vertx.core.eventbus.Message;
import java.io.PrintStream;
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
 * its share of each run on the embedded runner, one run after another, and reports what it measured. Its load
 * stops when compare says so, when compare leaves the cluster, or when compare has been silent for
 * {@link #SILENCE}: no orphan load on a server.
 */
final class Agent implements AutoCloseable {

    /** Without a heartbeat from compare for this long, a running load stops. */
    static final Duration SILENCE = Duration.ofSeconds(3);

    private final ClusterNode node;
    private final PrintStream out;
    private final ExecutorService runs = Executors.newSingleThreadExecutor(r -> {
        Thread thread = new Thread(r, "agent-run");
        thread.setDaemon(true);
        return thread;
    });
    /** The compare whose orders this agent takes; null: free. Guarded by this. */
    private ClusterNode.Member controller;
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

    Agent(ClusterNode node, PrintStream out) {
        this.node = node;
        this.out = out;
        node.vertx().eventBus().<ClusterMessage>consumer(ClusterMessage.agentAddress(node.nodeId()), this::handle);
        node.onMemberLeft(this::memberLeft);
        node.vertx().setPeriodic(500, id -> checkSilence());
    }

    private void handle(Message<ClusterMessage> message) {
        switch (message.body()) {
            case Claim claim -> message.reply(claim(claim), MessageCodec.options());
            case Release release -> release(release.controllerNode());
            case RunOrder order -> {
                String refusal = accept(order);
                if (refusal == null) {
                    message.reply(new RunAccepted(order.runId()), MessageCodec.options());
                } else {
                    message.fail(409, refusal);
                }
            }
            case Heartbeat heartbeat -> heard(heartbeat.runId());
            case StopRun stop -> stop(stop.runId(), stop.reason());
            default -> message.fail(400, "an agent takes no " + message.body().getClass().getSimpleName());
        }
    }

    private synchronized ClaimAnswer claim(Claim claim) {
        if (!node.build().equals(claim.build())) {
            String why = new VersionConflictException("agent " + node.name(), node.build(), "compare " + claim.controllerName(),
                    claim.build()).getMessage();
            out.println("agent " + node.name() + ": refused " + claim.controllerName() + ": " + why);
            out.flush();
            return new ClaimAnswer(node.build(), why);
        }
        if (controller != null && !controller.nodeId().equals(claim.controllerNode()) && node.present(controller.nodeId())) {
            return new ClaimAnswer(node.build(), "agent " + node.name() + " is taken by another compare, " + controller.label());
        }
        if (controller == null || !controller.nodeId().equals(claim.controllerNode())) {
            controller = new ClusterNode.Member(claim.controllerNode(), "compare", claim.controllerName(), claim.controllerHost(),
                    claim.build());
            out.println("agent " + node.name() + ": taking orders from " + controller.label());
            out.flush();
        }
        return new ClaimAnswer(node.build(), null);
    }

    private synchronized void release(String controllerNode) {
        if (controller != null && controller.nodeId().equals(controllerNode)) {
            stopRunning("compare released this agent");
            out.println("agent " + node.name() + ": released by " + controller.label() + ", free");
            out.flush();
            controller = null;
        }
    }

    /** Takes the order (null) or says why not. */
    private synchronized String accept(RunOrder order) {
        if (controller == null || !controller.nodeId().equals(order.controllerNode())) {
            return "agent " + node.name() + " takes orders only from the compare that claimed it";
        }
        if (running != null) {
            return "agent " + node.name() + " is still running " + running.runId;
        }
        long received = System.nanoTime();
        LoadRunner runner = new LoadRunner(spec(order), new LoadRunner.Phases() {}, Progress.Sink.NONE);
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
            out.printf("agent %s: run %s: %,d connections against %s%n", node.name(), order.runId(), order.connections(),
                    order.steps().getFirst().url());
            out.flush();
            report = report(order, current.runner.run(), lateMs);
        } catch (LoadRunner.Aborted e) {
            report = failed(order, lateMs, "stopped: " + e.getMessage());
        } catch (RuntimeException e) {
            report = failed(order, lateMs, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        synchronized (this) {
            if (running == current) {
                running = null;
            }
        }
        out.printf("agent %s: run %s %s%n", node.name(), order.runId(), report.error() == null
                ? String.format("done: %,d requests, %,d failed", report.requests(), report.requests() - report.successes())
                : report.error());
        out.flush();
        node.vertx().eventBus().send(ClusterMessage.controllerAddress(order.controllerNode()), report, MessageCodec.options());
    }

    static LoadSpec spec(RunOrder order) {
        var timing = order.timing();
        Duration warmup = Duration.ofSeconds(timing.warmupSeconds());
        LoadShape shape = timing.durationSeconds() != null
                ? new LoadShape.Timed(warmup, Duration.ofSeconds(timing.durationSeconds()))
                : new LoadShape.Counted(warmup, timing.iterations());
        int loops = timing.eventLoops() > 0 ? Math.min(timing.eventLoops(), order.connections())
                : LoadSpec.defaultEventLoops(order.connections());
        return new LoadSpec(order.steps(), order.connections(), Duration.ofSeconds(timing.rampupSeconds()),
                Duration.ofSeconds(timing.timeoutSeconds()), shape, loops, order.rate());
    }

    private AgentReport report(RunOrder order, LoadResult result, double lateMs) {
        ByteBuffer buffer = ByteBuffer.allocate(result.latencyMicros().getNeededByteBufferCapacity());
        int length = result.latencyMicros().encodeIntoCompressedByteBuffer(buffer);
        Map<String, Long> failures = new LinkedHashMap<>();
        result.failures().forEach((cause, count) -> failures.put(cause.name(), count));
        return new AgentReport(order.runId(), node.nodeId(), node.name(), node.host(), order.connections(), result.requests(), result.successes(),
                failures, result.durationSeconds(), Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length)),
                result.sent(), result.answered(), result.connectionsOpened(), result.clientCpuSeconds(),
                Runtime.getRuntime().availableProcessors(), result.transport(), result.firstOtherFailure(), result.open(), lateMs, null,
                result.seconds());
    }

    private AgentReport failed(RunOrder order, double lateMs, String error) {
        return new AgentReport(order.runId(), node.nodeId(), node.name(), node.host(), order.connections(), 0, 0, Map.of(), 0, null, 0, 0, 0, 0,
                Runtime.getRuntime().availableProcessors(), null, null, null, lateMs, error, null);
    }

    private synchronized void heard(String runId) {
        if (running != null && running.runId.equals(runId)) {
            running.lastHeardNanos = System.nanoTime();
        }
    }

    private synchronized void stop(String runId, String reason) {
        if (running != null && running.runId.equals(runId)) {
            stopRunning(reason);
        }
    }

    private synchronized void memberLeft(String nodeId) {
        if (controller != null && controller.nodeId().equals(nodeId)) {
            stopRunning("compare " + controller.label() + " left the cluster");
            out.println("agent " + node.name() + ": " + controller.label() + " left the cluster; free");
            out.flush();
            controller = null;
        }
    }

    private synchronized void checkSilence() {
        if (running != null && System.nanoTime() - running.lastHeardNanos > SILENCE.toNanos()) {
            stopRunning("no word from compare for " + SILENCE.toSeconds() + " s");
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
