package dev.threadbench.loadtest.cluster;

import dev.threadbench.loadtest.BuildInfo;
import dev.threadbench.loadtest.RunFailure;
import dev.threadbench.loadtest.UsageException;
import dev.threadbench.loadtest.cluster.messages.AgentReport;
import dev.threadbench.loadtest.cluster.messages.Claim;
import dev.threadbench.loadtest.cluster.messages.ClaimAnswer;
import dev.threadbench.loadtest.cluster.messages.ClusterMessage;
import dev.threadbench.loadtest.cluster.messages.Heartbeat;
import dev.threadbench.loadtest.cluster.messages.MessageCodec;
import dev.threadbench.loadtest.cluster.messages.Release;
import dev.threadbench.loadtest.cluster.messages.ReportReceived;
import dev.threadbench.loadtest.cluster.messages.RunOrder;
import dev.threadbench.loadtest.cluster.messages.RunStatus;
import dev.threadbench.loadtest.cluster.messages.StopRun;
import dev.threadbench.loadtest.engine.EmbeddedEngine;
import dev.threadbench.loadtest.engine.Engine;
import dev.threadbench.loadtest.engine.Outcome;
import dev.threadbench.loadtest.plan.Plan;
import dev.threadbench.loadtest.report.Results;
import dev.threadbench.loadtest.runner.LoadResult;
import dev.threadbench.loadtest.runner.LoadRunner;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.shareddata.AsyncMap;
import io.vertx.core.shareddata.Lock;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * compare's side of the cluster: it claims N agents, splits each run's connections (and rate, and iterations) over
 * them, starts them together ("start in X ms", measured on each agent's own clock), keeps them alive with heartbeats,
 * marks the measured window's edges on its own clock for the server's cost, and merges what they report into one
 * result (one latency histogram). An agent that leaves mid-run fails that run ({@link Engine.RunLost}); fewer than N
 * agents before a run stops the compare ({@link Engine.CannotGoOn}).
 */
public final class ClusterEngine implements Engine, AutoCloseable {

    /** How far ahead of now the agents are told to start: time for every order to arrive first. */
    static final long START_IN_MILLIS = 500;
    static final long HEARTBEAT_MILLIS = 1000;
    private static final SecureRandom RANDOM = new SecureRandom();

    /** The cluster-wide lock a compare or run holds while it has agents: one at a time per cluster. */
    static final String LOCK = "threadbench.compare";

    private final ClusterNode node;
    /** How long an agent may take to answer a claim or an order: the failure timeout, which a busy host does not trip. */
    private final long answerMillis;
    private final int wanted;
    /** How long to wait for agents: at the start, and for agents to come back before a later run. */
    private final Duration agentsTimeout;
    private Lock lock;
    /** compare or run: the lines this prints start with it. */
    private final String command;
    private final PrintStream out;
    private final List<ClusterNode.Member> agents = new ArrayList<>();
    private final Map<String, CompletableFuture<AgentReport>> reports = new ConcurrentHashMap<>();
    private final MessageConsumer<ClusterMessage> consumer;
    /** The agents of the run under way, by node id: one leaving fails it. */
    private volatile Map<String, ClusterNode.Member> inRun = Map.of();
    private volatile CompletableFuture<String> lost = new CompletableFuture<>();

    private ClusterEngine(ClusterNode node, int wanted, Duration agentsTimeout, String command, PrintStream out) {
        this.node = node;
        this.answerMillis = node.settings().failureTimeout().toMillis();
        this.wanted = wanted;
        this.agentsTimeout = agentsTimeout;
        this.command = command;
        this.out = out;
        this.consumer = node.vertx().eventBus().consumer(ClusterMessage.controllerAddress(node.nodeId()), this::handle);
        node.onMemberLeft(nodeId -> {
            ClusterNode.Member agent = inRun.get(nodeId);
            if (agent != null) {
                lost.complete("agent " + agent.label() + " left the cluster mid-run");
            }
        });
    }

    /**
     * Joins the cluster and claims {@code request.agents()} agents, waiting up to its timeout for them; {@code command}
     * (compare, run) names this node and starts its lines.
     */
    public static ClusterEngine connect(AgentsOptions.Request request, PrintStream out, String command) {
        return connect(request, out, command, BuildInfo.get().buildId());
    }

    /** The same, as a node of {@code build}. */
    static ClusterEngine connect(AgentsOptions.Request request, PrintStream out, String command, String build) {
        String name = command + "-" + request.cluster().host() + "-" + ManagementFactory.getRuntimeMXBean().getPid();
        ClusterNode node = ClusterNode.join(request.cluster(), "compare", name, build);
        out.printf(Locale.ROOT, "%s: joined the cluster at %s; waiting up to %d s for %d agent(s)%n", command, node.clusterAddress(),
                request.timeout().toSeconds(), request.agents());
        out.flush();
        ClusterEngine engine = new ClusterEngine(node, request.agents(), request.timeout(), command, out);
        try {
            engine.lock();
            engine.claim(System.nanoTime() + request.timeout().toNanos());
            return engine;
        } catch (RuntimeException e) {
            engine.close();
            throw e;
        }
    }

    @Override
    public String name() {
        return "cluster";
    }

    /** The agents taking this compare's orders. */
    public List<ClusterNode.Member> agents() {
        return List.copyOf(agents);
    }

    /**
     * Takes the cluster-wide lock (Hazelcast's, released when its holder leaves the cluster) and names this node its holder;
     * another compare or run holding it is refused in one line naming it.
     */
    private void lock() {
        AsyncMap<String, String> holders = await(node.vertx().sharedData().<String, String>getAsyncMap(LOCK));
        try {
            lock = node.vertx().sharedData().getLockWithTimeout(LOCK, 2000).toCompletionStage().toCompletableFuture()
                    .get(10, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            String holder = await(holders.get("holder"));
            throw new UsageException("--agents: another compare or run has this cluster (" + (holder == null ? "unknown" : holder)
                    + "): one compare or run at a time on these agents");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailure("interrupted");
        }
        await(holders.put("holder", node.name() + " (" + node.host() + ")"));
    }

    private static <T> T await(io.vertx.core.Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new RunFailure("the cluster did not answer: " + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailure("interrupted");
        }
    }

    /**
     * Claims free agents until there are N, waiting until {@code deadlineNanos}; an agent of another build is refused,
     * one already taken by another compare means another compare is running: both refused with one line.
     */
    private void claim(long deadlineNanos) {
        List<String> refused = new ArrayList<>();
        Set<String> silent = new HashSet<>();
        while (true) {
            agents.removeIf(agent -> !node.present(agent.nodeId()));
            for (ClusterNode.Member member : node.others()) {
                if (agents.size() >= wanted) {
                    break;
                }
                if (!member.agent() || agents.stream().anyMatch(a -> a.nodeId().equals(member.nodeId()))
                        || refused.contains(member.nodeId())) {
                    continue;
                }
                if (!node.build().equals(member.build())) {
                    out.println(command + ": refused agent " + member.label() + ": "
                            + new VersionConflictException("this compare", node.build(), "it", member.build()).getMessage());
                    out.flush();
                    refused.add(member.nodeId());
                    continue;
                }
                String key = node.settings().keyFingerprint();
                if (!key.equals(member.key())) {
                    out.println(command + ": refused agent " + member.label() + ": it " + keyLabel(member.key()) + ", this " + command + " "
                            + keyLabel(key) + ": give every node the same --cluster-key");
                    out.flush();
                    refused.add(member.nodeId());
                    continue;
                }
                ClaimAnswer answer = request(member, new Claim(node.build(), node.nodeId(), node.name(), node.host()), ClaimAnswer.class);
                if (answer == null) {
                    silent.add(member.nodeId()); // it left, or did not answer: another may
                    continue;
                }
                silent.remove(member.nodeId());
                if (answer.refusal() != null) {
                    if (answer.refusal().contains("taken by another compare")) {
                        throw new UsageException("--agents: " + answer.refusal() + ": one compare or run at a time on these agents");
                    }
                    out.println(command + ": " + answer.refusal());
                    refused.add(member.nodeId());
                    continue;
                }
                agents.add(member);
                out.printf(Locale.ROOT, "%s: agent %d/%d: %s%n", command, agents.size(), wanted, member.label());
                out.flush();
            }
            if (agents.size() >= wanted) {
                return;
            }
            if (System.nanoTime() >= deadlineNanos) {
                String joined = agents.isEmpty() ? "none" : agents.stream().map(ClusterNode.Member::label).collect(Collectors.joining(", "));
                silent.removeIf(nodeId -> !node.present(nodeId));
                throw new UsageException(String.format(Locale.ROOT, "--agents %d: only %d agent(s) joined in time (%s)%s%s", wanted,
                        agents.size(), joined, refused.isEmpty() ? "" : ", " + refused.size() + " refused (see above)",
                        silent.isEmpty() ? "" : ", " + silent.size() + " in the cluster did not answer on the event bus (is its --bus-port"
                                + " open to this host?)"));
            }
            sleep(250);
        }
    }

    private static String keyLabel(String fingerprint) {
        return "none".equals(fingerprint) ? "runs without a cluster key (--insecure)" : "uses cluster key " + fingerprint;
    }

    @Override
    public Outcome run(URI target, int concurrency, Timing timing, LoadRunner.Phases phases) {
        return outcome(runShares(steps(target), concurrency, null, timing, phases));
    }

    @Override
    public Outcome runAtRate(URI target, int connections, double rate, Timing timing, LoadRunner.Phases phases) {
        return outcome(runShares(steps(target), connections, rate, timing, phases));
    }

    @Override
    public PlanRun runPlan(List<Plan.Step> steps, int connections, Double rate, Timing timing,
                           LoadRunner.Phases phases) {
        Merged merged = runShares(steps, connections, rate, timing, phases);
        return new PlanRun(merged.total(), outcome(merged));
    }

    private static List<Plan.Step> steps(URI target) {
        return List.of(new Plan.Step("GET /", "GET", target, Map.of()));
    }

    private static Outcome outcome(Merged merged) {
        return EmbeddedEngine.outcome(merged.total()).inCluster(merged.agents(), merged.coordination());
    }

    /** What the agents measured of one run, merged, each agent's share, and what coordinating it cost. */
    public record Merged(LoadResult total, List<Results.AgentRun> agents, Results.Coordination coordination) {}

    /**
     * One run on the agents: {@code connections} (and {@code rate}, and a counted run's iterations) split evenly, the
     * remainder spread; phases marked on this JVM's clock from the start it gave them.
     */
    public Merged runShares(List<Plan.Step> steps, int connections, Double rate, Timing timing, LoadRunner.Phases phases) {
        List<ClusterNode.Member> team = team();
        int n = team.size();
        if (connections < n) {
            throw new UsageException("--concurrency: " + connections + " connection(s) cannot be split over " + n + " agents");
        }
        long messagesBefore = node.codec().messages();
        long bytesBefore = node.codec().bytes();
        String runId = UUID.randomUUID().toString().substring(0, 8);
        lost = new CompletableFuture<>();
        inRun = team.stream().collect(Collectors.toMap(ClusterNode.Member::nodeId, m -> m));
        CompletableFuture<AgentReport>[] pending = new CompletableFuture[n];
        long[] sentAt = new long[n];
        long[] acceptedAt = new long[n];
        List<ClusterNode.Member> accepted = new ArrayList<>();
        List<Integer> shares = split(connections, n);
        List<Integer> iterationShares = timing.iterations() == null ? null : split(timing.iterations(), n);
        for (int i = 0; i < n; i++) {
            pending[i] = new CompletableFuture<>();
            reports.put(runId + "/" + team.get(i).nodeId(), pending[i]);
        }
        // heartbeats from before the first order: no agent's silence clock runs while the others are still being ordered
        Watch watch = new Watch(runId, team, pending);
        long heartbeat = node.vertx().setPeriodic(HEARTBEAT_MILLIS, id -> watch.beat());
        try {
            List<CompletableFuture<Message<ClusterMessage>>> answers = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                Timing share = timing.iterations() == null ? timing : new Timing(timing.rampupSeconds(), timing.warmupSeconds(),
                        null, (long) iterationShares.get(i), timing.timeoutSeconds(), timing.eventLoops());
                RunOrder order = signed(new RunOrder(runId, node.nodeId(), team.get(i).nodeId(), nonce(), steps, shares.get(i),
                        rate == null ? null : rate * shares.get(i) / connections, share, START_IN_MILLIS, null));
                sentAt[i] = System.nanoTime();
                int agent = i;
                answers.add(node.vertx().eventBus().<ClusterMessage>request(ClusterMessage.agentAddress(team.get(i).nodeId()), order,
                        MessageCodec.options().setSendTimeout(answerMillis)).andThen(answer -> {
                            acceptedAt[agent] = System.nanoTime();
                            if (answer.succeeded()) {
                                watch.accepted(agent);
                            }
                        }).toCompletionStage().toCompletableFuture());
            }
            long startNanos = sentAt[0] + TimeUnit.MILLISECONDS.toNanos(START_IN_MILLIS);
            for (int i = 0; i < n; i++) {
                try {
                    answers.get(i).get(answerMillis + 1000, TimeUnit.MILLISECONDS);
                    accepted.add(team.get(i));
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof ReplyException reply && reply.failureCode() == Agent.FORBIDDEN) {
                        out.println(command + ": agent " + team.get(i).label() + " refused the run: " + reply.getMessage());
                        out.flush();
                        throw new CannotGoOn("agent " + team.get(i).label() + " refused the run: " + reply.getMessage());
                    }
                    throw new RunLost("agent " + team.get(i).label() + " did not take the run: " + e.getCause().getMessage());
                } catch (TimeoutException e) {
                    throw new RunLost("agent " + team.get(i).label() + " did not take the run: no answer in " + answerMillis + " ms");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new RunLost("interrupted");
                }
            }
            Window window = new Window(phases, startNanos, timing);
            try {
                List<AgentReport> done = awaitReports(team, pending, window);
                double skewMs = skewMs(sentAt, acceptedAt, done);
                Results.Coordination coordination = new Results.Coordination(Math.round(skewMs * 10) / 10.0,
                        node.codec().messages() - messagesBefore, node.codec().bytes() - bytesBefore);
                return new Merged(AgentReports.merge(done), AgentReports.perAgent(done), coordination);
            } finally {
                window.close();
            }
        } catch (RuntimeException e) {
            // every agent of the run, not only those that took it before the failure: an order may still be on its way
            team.forEach(agent -> node.vertx().eventBus().send(ClusterMessage.agentAddress(agent.nodeId()),
                    new StopRun(runId, "the run failed: " + e.getMessage()), MessageCodec.options()));
            awaitStopped(team, accepted, pending);
            throw e;
        } finally {
            node.vertx().cancelTimer(heartbeat);
            inRun = Map.of();
            team.forEach(agent -> reports.remove(runId + "/" + agent.nodeId()));
        }
    }

    /** The order with its MAC under the cluster key; as it is with none (--insecure). */
    private RunOrder signed(RunOrder order) {
        ClusterKey key = node.settings().key();
        return key == null ? order : order.withMac(Base64.getEncoder().encodeToString(key.mac(order.signedContent())));
    }

    private static String nonce() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }

    /**
     * The run's heartbeats, each answered by the agent's {@link RunStatus}: an agent that answers none for the failure
     * timeout, or that is done but whose report has not come within it, fails the run naming it. So a run ends on a bounded
     * deadline whatever is lost: a host gone silent, a report dropped. Its state is touched on one event-loop thread.
     */
    private final class Watch {
        private final String runId;
        private final List<ClusterNode.Member> team;
        private final CompletableFuture<AgentReport>[] pending;
        private final long[] lastAnswerNanos;
        private final long[] acceptedNanos;
        private final long[] doneSinceNanos;
        private final long timeoutNanos = node.settings().failureTimeout().toNanos();

        Watch(String runId, List<ClusterNode.Member> team, CompletableFuture<AgentReport>[] pending) {
            this.runId = runId;
            this.team = team;
            this.pending = pending;
            this.lastAnswerNanos = new long[team.size()];
            this.acceptedNanos = new long[team.size()];
            this.doneSinceNanos = new long[team.size()];
            java.util.Arrays.fill(lastAnswerNanos, System.nanoTime());
        }

        void accepted(int agent) {
            acceptedNanos[agent] = System.nanoTime();
        }

        void beat() {
            long now = System.nanoTime();
            for (int i = 0; i < team.size(); i++) {
                if (pending[i].isDone()) {
                    continue;
                }
                ClusterNode.Member agent = team.get(i);
                if (now - lastAnswerNanos[i] > timeoutNanos) {
                    lost.complete("agent " + agent.label() + " has not answered for " + TimeUnit.NANOSECONDS.toSeconds(now - lastAnswerNanos[i])
                            + " s");
                } else if (doneSinceNanos[i] != 0 && now - doneSinceNanos[i] > timeoutNanos) {
                    lost.complete("agent " + agent.label() + " finished run " + runId + " but its report did not arrive within "
                            + TimeUnit.NANOSECONDS.toSeconds(timeoutNanos) + " s");
                }
                int index = i;
                long sent = now;
                node.vertx().eventBus().<ClusterMessage>request(ClusterMessage.agentAddress(agent.nodeId()), new Heartbeat(runId),
                        MessageCodec.options().setSendTimeout(HEARTBEAT_MILLIS)).onSuccess(reply -> {
                    lastAnswerNanos[index] = System.nanoTime();
                    boolean running = reply.body() instanceof RunStatus status && status.running();
                    // "not running" counts once the agent took the order before this heartbeat left
                    if (!running && acceptedNanos[index] != 0 && acceptedNanos[index] < sent && doneSinceNanos[index] == 0) {
                        doneSinceNanos[index] = System.nanoTime();
                    }
                });
            }
        }
    }

    /**
     * After a failed run, the stopped agents' last reports, for at most the answer timeout: an agent takes no new
     * order while its load is still stopping, so the next run is not sent before they are free.
     */
    private void awaitStopped(List<ClusterNode.Member> team, List<ClusterNode.Member> accepted, CompletableFuture<AgentReport>[] pending) {
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

    /**
     * The claimed agents still present, each claimed again (after a split cluster merges, an agent has let go of this
     * compare, which it saw leave), topped up to N from free agents that have joined since or come back within
     * --agents-timeout; else compare stops.
     */
    private List<ClusterNode.Member> team() {
        int before = agents.size();
        agents.removeIf(agent -> !node.present(agent.nodeId()));
        for (ClusterNode.Member agent : List.copyOf(agents)) {
            ClaimAnswer answer = request(agent, new Claim(node.build(), node.nodeId(), node.name(), node.host()), ClaimAnswer.class);
            if (answer == null) {
                agents.remove(agent);
            } else if (answer.refusal() != null) {
                throw new CannotGoOn("agent " + agent.label() + " is no longer this " + command + "'s: " + answer.refusal());
            }
        }
        if (agents.size() < wanted) {
            try {
                if (agents.size() < before) {
                    out.printf(Locale.ROOT, "%s: %d of the %d agents gone; waiting up to %d s for them or others%n", command,
                            before - agents.size(), wanted, agentsTimeout.toSeconds());
                    out.flush();
                }
                claim(System.nanoTime() + agentsTimeout.toNanos());
            } catch (UsageException e) {
                throw new CannotGoOn(String.format(Locale.ROOT, "%d of the %d agents left (%d remain): no further run can be"
                        + " made as asked", Math.max(0, before - agents.size()), wanted, agents.size()));
            }
        }
        return List.copyOf(agents);
    }

    /** Every agent's report; an agent that leaves, or reports a failure, fails the run. */
    private List<AgentReport> awaitReports(List<ClusterNode.Member> team, CompletableFuture<AgentReport>[] pending, Window window) {
        CompletableFuture<Void> all = CompletableFuture.allOf(pending);
        try {
            CompletableFuture.anyOf(all, lost).get(window.reportsDueMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new RunLost("the agents did not report within " + window.reportsDueMillis() / 1000 + " s of the run's start");
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

    private void handle(Message<ClusterMessage> message) {
        if (message.body() instanceof AgentReport report) {
            message.reply(new ReportReceived(report.runId()), MessageCodec.options());
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

    private <T extends ClusterMessage> T request(ClusterNode.Member member, ClusterMessage message, Class<T> answer) {
        DeliveryOptions options = MessageCodec.options().setSendTimeout(answerMillis);
        try {
            Message<ClusterMessage> reply = node.vertx().eventBus().<ClusterMessage>request(
                    ClusterMessage.agentAddress(member.nodeId()), message, options).toCompletionStage().toCompletableFuture()
                    .get(answerMillis + 1000, TimeUnit.MILLISECONDS);
            return answer.cast(reply.body());
        } catch (ExecutionException | TimeoutException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Releases the agents (they are free for another compare) and leaves the cluster. */
    @Override
    public void close() {
        for (ClusterNode.Member agent : agents) {
            node.vertx().eventBus().send(ClusterMessage.agentAddress(agent.nodeId()), new Release(node.nodeId()), MessageCodec.options());
        }
        consumer.unregister();
        sleep(agents.isEmpty() ? 0 : 200); // let the releases go out before the event bus closes
        if (lock != null) {
            lock.release();
        }
        node.close();
    }

    /**
     * The measured window on this JVM's clock: the agents start together at {@code startNanos}, measure after their
     * ramp-up and warm-up, for the duration (or, counted, until the last one reports). Its edges sample the server.
     */
    private static final class Window implements AutoCloseable {
        private final LoadRunner.Phases phases;
        private final long measureStartNanos;
        private final Timing timing;
        private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
                    Thread thread = new Thread(r, "cluster-window");
                    thread.setDaemon(true);
                    return thread;
                });
        private boolean started;
        private boolean ended;

        Window(LoadRunner.Phases phases, long startNanos, Timing timing) {
            this.phases = phases;
            this.timing = timing;
            // as the runner's own window: a counted load without warm-up measures from its first request
            boolean countedFromStart = timing.durationSeconds() == null && timing.warmupSeconds() == 0;
            this.measureStartNanos = countedFromStart ? startNanos
                    : startNanos + TimeUnit.SECONDS.toNanos(timing.rampupSeconds() + (long) timing.warmupSeconds());
            timer.schedule(this::start, measureStartNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (timing.durationSeconds() != null) {
                timer.schedule(this::end, measureStartNanos + TimeUnit.SECONDS.toNanos(timing.durationSeconds()) - System.nanoTime(),
                        TimeUnit.NANOSECONDS);
            }
        }

        private synchronized void start() {
            started = true;
            phases.measureStarted();
        }

        private synchronized void end() {
            if (started && !ended) {
                ended = true;
                phases.measureEnded();
            }
        }

        /** How long after now the reports may take: the whole run, its drain, and a margin. */
        long reportsDueMillis() {
            if (timing.durationSeconds() == null) {
                return TimeUnit.DAYS.toMillis(1);
            }
            long untilEnd = TimeUnit.NANOSECONDS.toMillis(measureStartNanos - System.nanoTime()) + timing.durationSeconds() * 1000L;
            return Math.max(0, untilEnd) + timing.timeoutSeconds() * 1000L + 30_000;
        }

        /** A counted window ends with the last report; a failed run ends the window if it had started. */
        @Override
        public void close() {
            timer.shutdownNow();
            end();
        }
    }
}
