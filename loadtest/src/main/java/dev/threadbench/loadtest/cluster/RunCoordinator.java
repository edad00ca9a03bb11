package dev.threadbench.loadtest.cluster;

import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.cluster.messages.AgentReport;
import dev.threadbench.loadtest.cluster.messages.ClusterMessage;
import dev.threadbench.loadtest.cluster.messages.ReportReceived;
import dev.threadbench.loadtest.cluster.messages.RunOrder;
import dev.threadbench.loadtest.cluster.messages.StopRun;
import dev.threadbench.loadtest.engine.Engine.CannotGoOn;
import dev.threadbench.loadtest.engine.Engine.RunLost;
import dev.threadbench.loadtest.engine.Engine.Timing;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.plan.Plan;
import dev.threadbench.loadtest.runner.LoadRunner;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * compare's side of each run on its agents: it splits the run into signed orders, starts the agents together ("start
 * in X ms", measured on each agent's own clock), watches them with heartbeats, marks the measured window, and assembles
 * their reports into one result. An agent that leaves, falls silent, fails or refuses fails the run, and every agent
 * of the run is told to stop.
 */
final class RunCoordinator implements AutoCloseable {

    /** How far ahead of now the agents are told to start: time for every order to arrive first. */
    static final long START_IN_MILLIS = 500;

    /**
     * An agent's answers that the same order would get again: refused, not preparable, or not trusted (another key, or
     * a clock outside the replay window); compare stops on them rather than retry.
     */
    private static final java.util.Set<Integer> NEVER_TAKEN =
            java.util.Set.of(Agent.FORBIDDEN, Agent.NOT_PREPARED, SignedBus.UNTRUSTED);

    private final ClusterNode node;
    /** How long an agent may take to answer an order: the failure timeout, which a busy host does not trip. */
    private final long answerMillis;
    /** compare or run: the lines this prints start with it. */
    private final String command;

    private final PrintStream out;
    private final Map<String, CompletableFuture<AgentReport>> reports = new ConcurrentHashMap<>();
    private final MessageConsumer<ClusterMessage> consumer;
    /** The agents of the run under way, by node id: one leaving fails it. */
    private volatile Map<String, ClusterNode.Member> inRun = Map.of();
    /** Why the run under way failed, once it has. */
    private volatile CompletableFuture<String> lost = new CompletableFuture<>();

    RunCoordinator(ClusterNode node, String command, PrintStream out) {
        this.node = node;
        this.answerMillis = node.settings().failureTimeout().toMillis();
        this.command = command;
        this.out = out;
        this.consumer = node.bus()
                .consumer(
                        ClusterMessage.compareAddress(node.nodeId()),
                        line -> {
                            out.println(command + ": " + line);
                            out.flush();
                        },
                        this::handle);
        node.onMemberLeft(nodeId -> {
            ClusterNode.Member agent = inRun.get(nodeId);
            if (agent != null) {
                lost.complete("agent " + agent.label() + " left the cluster mid-run");
            }
        });
    }

    /** Each agent its order, one after the other; when each was sent and answered, on this JVM's clock. */
    private List<CompletableFuture<ClusterMessage>> send(
            List<ClusterNode.Member> team, List<RunOrder> orders, RunWatch watch, long[] sentAt, long[] acceptedAt) {
        List<CompletableFuture<ClusterMessage>> answers = new ArrayList<>();
        for (int i = 0; i < team.size(); i++) {
            sentAt[i] = System.nanoTime();
            int agent = i;
            answers.add(node.bus()
                    .request(ClusterMessage.agentAddress(team.get(i).nodeId()), orders.get(i), answerMillis)
                    .andThen(answer -> {
                        acceptedAt[agent] = System.nanoTime();
                        if (answer.succeeded()) {
                            watch.accepted(agent);
                        }
                    })
                    .toCompletionStage()
                    .toCompletableFuture());
        }
        return answers;
    }

    /** Each agent's report, to come: registered under the run and the agent before any order goes out. */
    private CompletableFuture<AgentReport>[] pending(String runId, List<ClusterNode.Member> team) {
        @SuppressWarnings("unchecked")
        CompletableFuture<AgentReport>[] pending = new CompletableFuture[team.size()];
        for (int i = 0; i < team.size(); i++) {
            pending[i] = new CompletableFuture<>();
            reports.put(runId + "/" + team.get(i).nodeId(), pending[i]);
        }
        return pending;
    }

    /** Each agent's order: its share of the connections (and rate, and a counted run's iterations). */
    private List<RunOrder> orders(
            String runId,
            List<ClusterNode.Member> team,
            List<Plan.Step> steps,
            int connections,
            Double rate,
            Timing timing) {
        List<Integer> shares = split(connections, team.size());
        List<Integer> iterationShares = timing.iterations() == null ? null : split(timing.iterations(), team.size());
        List<RunOrder> orders = new ArrayList<>();
        for (int i = 0; i < team.size(); i++) {
            orders.add(new RunOrder(
                    runId,
                    node.nodeId(),
                    team.get(i).nodeId(),
                    steps,
                    shares.get(i),
                    rate == null ? null : rate * shares.get(i) / connections,
                    timing.iterations() == null ? timing : countedShare(timing, iterationShares.get(i)),
                    START_IN_MILLIS));
        }
        return orders;
    }

    /** A counted run's timing for an agent that sends {@code iterations} of the run's requests. */
    private static Timing countedShare(Timing timing, long iterations) {
        return new Timing(
                timing.rampupSeconds(),
                timing.warmupSeconds(),
                null,
                iterations,
                timing.timeoutSeconds(),
                timing.eventLoops());
    }

    /**
     * One run on {@code team}: {@code connections} (and {@code rate}, and a counted run's iterations) split evenly, the
     * remainder spread; phases marked on this JVM's clock from the start it gave them.
     */
    ClusterEngine.Merged run(
            List<ClusterNode.Member> team,
            List<Plan.Step> steps,
            int connections,
            Double rate,
            Timing timing,
            LoadRunner.Phases phases) {
        int n = team.size();
        if (connections < n) {
            throw new UsageException(
                    "--concurrency: " + connections + " connection(s) cannot be split over " + n + " agents");
        }
        long messagesBefore = node.codec().messages();
        long bytesBefore = node.codec().bytes();
        String runId = UUID.randomUUID().toString().substring(0, 8);
        CompletableFuture<String> runLost = new CompletableFuture<>();
        lost = runLost;
        inRun = team.stream().collect(Collectors.toMap(ClusterNode.Member::nodeId, m -> m));
        CompletableFuture<AgentReport>[] pending = pending(runId, team);
        long[] sentAt = new long[n];
        long[] acceptedAt = new long[n];
        List<ClusterNode.Member> accepted = new ArrayList<>();
        List<RunOrder> orders = orders(runId, team, steps, connections, rate, timing);
        // heartbeats from before the first order: no agent's silence clock runs while others are being ordered
        RunWatch watch = new RunWatch(node, runId, team, pending, runLost);
        long heartbeat = node.vertx().setPeriodic(RunWatch.HEARTBEAT_MILLIS, id -> watch.beat());
        try {
            List<CompletableFuture<ClusterMessage>> answers = send(team, orders, watch, sentAt, acceptedAt);
            long startNanos = sentAt[0] + TimeUnit.MILLISECONDS.toNanos(START_IN_MILLIS);
            for (int i = 0; i < n; i++) {
                awaitAccepted(team.get(i), answers.get(i));
                accepted.add(team.get(i));
            }
            try (ClusterWindow window = new ClusterWindow(phases, startNanos, timing)) {
                List<AgentReport> done = awaitReports(team, pending, window, runLost);
                Results.Coordination coordination = new Results.Coordination(
                        Math.round(skewMs(sentAt, acceptedAt, done) * 10) / 10.0,
                        node.codec().messages() - messagesBefore,
                        node.codec().bytes() - bytesBefore);
                return new ClusterEngine.Merged(AgentReports.merge(done), AgentReports.perAgent(done), coordination);
            }
        } catch (RuntimeException e) {
            // every agent of the run, not only those that took it before the failure: an order may still be on its way
            team.forEach(agent -> node.bus()
                    .send(
                            ClusterMessage.agentAddress(agent.nodeId()),
                            new StopRun(runId, "the run failed: " + e.getMessage())));
            awaitStopped(team, accepted, pending);
            throw e;
        } finally {
            node.vertx().cancelTimer(heartbeat);
            inRun = Map.of();
            team.forEach(agent -> reports.remove(runId + "/" + agent.nodeId()));
        }
    }

    /** The agent took its order; else the run fails, and an order it will never take stops compare. */
    private void awaitAccepted(ClusterNode.Member agent, CompletableFuture<ClusterMessage> answer) {
        try {
            answer.get(answerMillis + 1000, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ReplyException reply && NEVER_TAKEN.contains(reply.failureCode())) {
                out.println(command + ": agent " + agent.label() + " refused the run: " + reply.getMessage());
                out.flush();
                throw new CannotGoOn("agent " + agent.label() + " refused the run: " + reply.getMessage());
            }
            throw new RunLost("agent " + agent.label() + " did not take the run: "
                    + e.getCause().getMessage());
        } catch (TimeoutException e) {
            throw new RunLost("agent " + agent.label() + " did not take the run: no answer in " + answerMillis + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunLost("interrupted");
        }
    }

    /**
     * After a failed run, the stopped agents' last reports, for at most the answer timeout: an agent takes no new
     * order while its load is still stopping, so the next run is not sent before they are free.
     */
    private void awaitStopped(
            List<ClusterNode.Member> team,
            List<ClusterNode.Member> accepted,
            CompletableFuture<AgentReport>[] pending) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(answerMillis);
        for (int i = 0; i < team.size(); i++) {
            if (!accepted.contains(team.get(i))) {
                continue;
            }
            while (!pending[i].isDone() && node.present(team.get(i).nodeId()) && System.nanoTime() < deadline) {
                try {
                    pending[i].get(50, TimeUnit.MILLISECONDS);
                } catch (TimeoutException | ExecutionException e) {
                    // not yet, or gone: the loop's conditions decide
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** Every agent's report; an agent that leaves, or reports a failure, fails the run. */
    private static List<AgentReport> awaitReports(
            List<ClusterNode.Member> team,
            CompletableFuture<AgentReport>[] pending,
            ClusterWindow window,
            CompletableFuture<String> lost) {
        CompletableFuture<Void> all = CompletableFuture.allOf(pending);
        try {
            CompletableFuture.anyOf(all, lost).get(window.reportsDueMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new RunLost(
                    "the agents did not report within " + window.reportsDueMillis() / 1000 + " s of the run's start");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunLost("interrupted");
        }
        if (lost.isDone() && !all.isDone()) {
            throw new RunLost(lost.join() + "; the run is failed and the other agents stopped");
        }
        List<AgentReport> done = new ArrayList<>();
        for (int i = 0; i < team.size(); i++) {
            AgentReport report = pending[i].join();
            if (report.error() != null) {
                throw new RunLost("agent " + team.get(i).label() + ": " + report.error());
            }
            done.add(report);
        }
        return done;
    }

    /**
     * The most two agents' starts may have been apart: agent i got its order between its send and its accept (on this
     * JVM's clock), and began its load START_IN_MILLIS plus its own lateness after that; 0 for one agent.
     */
    static double skewMs(long[] sentAt, long[] acceptedAt, List<AgentReport> reports) {
        double most = 0;
        for (int i = 0; i < sentAt.length; i++) {
            for (int j = 0; j < sentAt.length; j++) {
                if (i != j) {
                    double latestOfI = acceptedAt[i] / 1e6 + reports.get(i).startLateMs();
                    double earliestOfJ = sentAt[j] / 1e6 + reports.get(j).startLateMs();
                    most = Math.max(most, latestOfI - earliestOfJ);
                }
            }
        }
        return most;
    }

    /** {@code total} in {@code parts} as even as can be, the remainder one each to the first. */
    static List<Integer> split(long total, int parts) {
        List<Integer> shares = new ArrayList<>();
        for (int i = 0; i < parts; i++) {
            shares.add((int) (total / parts + (i < total % parts ? 1 : 0)));
        }
        return shares;
    }

    private void handle(ClusterMessage body, Message<ClusterMessage> message) {
        if (body instanceof AgentReport report) {
            node.bus().reply(message, new ReportReceived(report.runId()));
            CompletableFuture<AgentReport> waiting = reports.get(report.runId() + "/" + report.agentNode());
            if (waiting != null) {
                waiting.complete(report);
                if (report.error() != null) {
                    // one agent's failure fails the run: the others stop now, not at the window's end
                    lost.complete("agent " + report.agent() + " (" + report.host() + "): " + report.error());
                }
            }
        }
    }

    /** Takes no more reports. */
    @Override
    public void close() {
        consumer.unregister();
    }
}
