package dev.threadbench.loadtest.cluster;

import dev.threadbench.loadtest.base.BuildInfo;
import dev.threadbench.loadtest.engine.EmbeddedEngine;
import dev.threadbench.loadtest.engine.Engine;
import dev.threadbench.loadtest.engine.Outcome;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.plan.Plan;
import dev.threadbench.loadtest.runner.LoadResult;
import dev.threadbench.loadtest.runner.LoadRunner;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * compare's side of the cluster: it holds the cluster's lock ({@link ClusterLock}), claims N agents
 * ({@link AgentClaims}), and has each run made on them and their reports merged into one result, one latency histogram
 * ({@link RunCoordinator}). An agent that leaves mid-run fails that run ({@link Engine.RunLost}); fewer than N agents
 * before a run stops the compare ({@link Engine.CannotGoOn}).
 */
public final class ClusterEngine implements Engine, AutoCloseable {

    private final ClusterNode node;
    private final AgentClaims claims;
    private final RunCoordinator runs;
    private ClusterLock lock;

    private ClusterEngine(ClusterNode node, AgentsOptions.Request request, String command, PrintStream out) {
        this.node = node;
        this.claims = new AgentClaims(node, request.agents(), request.timeout(), command, out);
        this.runs = new RunCoordinator(node, command, out);
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
        String name = command + "-" + request.cluster().host() + "-"
                + ManagementFactory.getRuntimeMXBean().getPid();
        String insecure = request.cluster().insecureWarning(command);
        if (insecure != null) {
            out.println(insecure);
            out.flush();
        }
        ClusterNode node = ClusterNode.join(request.cluster(), ClusterNode.Role.COMPARE, name, build);
        out.printf(
                Locale.ROOT,
                "%s: joined the cluster at %s; waiting up to %d s for %d agent(s)%n",
                command,
                node.clusterAddress(),
                request.timeout().toSeconds(),
                request.agents());
        out.flush();
        ClusterEngine engine = new ClusterEngine(node, request, command, out);
        try {
            engine.lock = ClusterLock.take(node);
            engine.claims.claim(System.nanoTime() + request.timeout().toNanos());
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

    @Override
    public Outcome run(URI target, int concurrency, Timing timing, LoadRunner.Phases phases) {
        return outcome(runShares(steps(target), concurrency, null, timing, phases));
    }

    @Override
    public Outcome runAtRate(URI target, int connections, double rate, Timing timing, LoadRunner.Phases phases) {
        return outcome(runShares(steps(target), connections, rate, timing, phases));
    }

    @Override
    public PlanRun runPlan(
            List<Plan.Step> steps, int connections, Double rate, Timing timing, LoadRunner.Phases phases) {
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
     * One run on the agents, claimed again (and topped up) first: {@code connections} (and {@code rate}, and a counted
     * run's iterations) split evenly, the remainder spread; phases marked on this JVM's clock from the start it gave
     * them.
     */
    public Merged runShares(
            List<Plan.Step> steps, int connections, Double rate, Timing timing, LoadRunner.Phases phases) {
        return runs.run(claims.team(), steps, connections, rate, timing, phases);
    }

    /** Releases the agents (they are free for another compare) and leaves the cluster. */
    @Override
    public void close() {
        boolean released = claims.releaseAll();
        runs.close();
        if (released) {
            AgentClaims.sleep(200); // let the releases go out before the event bus closes
        }
        if (lock != null) {
            lock.close();
        }
        node.close();
    }
}
