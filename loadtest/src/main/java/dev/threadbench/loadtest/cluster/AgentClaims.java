package dev.threadbench.loadtest.cluster;

import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.cluster.messages.Claim;
import dev.threadbench.loadtest.cluster.messages.ClaimAnswer;
import dev.threadbench.loadtest.cluster.messages.ClusterMessage;
import dev.threadbench.loadtest.cluster.messages.Refusal;
import dev.threadbench.loadtest.cluster.messages.Release;
import dev.threadbench.loadtest.engine.Engine.CannotGoOn;
import io.vertx.core.eventbus.ReplyException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * compare's side of the claim protocol: the N agents it holds. It claims free agents of its build and key until there
 * are N, claims them again before every run (after a split cluster merges, an agent has let go of a compare it saw
 * leave), tops them up from free agents when some are gone, and releases them at the end.
 */
final class AgentClaims {

    private final ClusterNode node;
    private final int wanted;
    /** How long to wait for agents: at the start, and for agents to come back before a later run. */
    private final Duration agentsTimeout;
    /** How long an agent may take to answer a claim: the failure timeout, which a busy host does not trip. */
    private final long answerMillis;
    /** compare or run: the lines this prints start with it. */
    private final String command;

    private final PrintStream out;
    private final List<ClusterNode.Member> agents = new ArrayList<>();

    AgentClaims(ClusterNode node, int wanted, Duration agentsTimeout, String command, PrintStream out) {
        this.node = node;
        this.wanted = wanted;
        this.agentsTimeout = agentsTimeout;
        this.answerMillis = node.settings().failureTimeout().toMillis();
        this.command = command;
        this.out = out;
    }

    /**
     * Claims free agents until there are N, waiting until {@code deadlineNanos}; an agent of another build or key is
     * refused, one already taken by another compare means another compare is running: both refused with one line.
     */
    void claim(long deadlineNanos) {
        List<String> refused = new ArrayList<>();
        Set<String> silent = new HashSet<>();
        while (true) {
            agents.removeIf(agent -> !node.present(agent.nodeId()));
            for (ClusterNode.Member member : node.others()) {
                if (agents.size() >= wanted) {
                    break;
                }
                if (!member.agent()
                        || agents.stream().anyMatch(a -> a.nodeId().equals(member.nodeId()))
                        || refused.contains(member.nodeId())) {
                    continue;
                }
                String incompatible = Compatibility.refusal(node, member, command);
                if (incompatible != null) {
                    out.println(command + ": refused agent " + member.label() + ": " + incompatible);
                    out.flush();
                    refused.add(member.nodeId());
                    continue;
                }
                ClaimAnswer answer = ask(member);
                if (answer == null) {
                    silent.add(member.nodeId()); // it left, or did not answer: another may
                    continue;
                }
                silent.remove(member.nodeId());
                if (!answer.accepted()) {
                    if (answer.refusal() == Refusal.TAKEN_BY_ANOTHER_COMPARE) {
                        throw new UsageException(
                                "--agents: " + answer.description() + ": one compare or run at a time on these agents");
                    }
                    out.println(command + ": " + answer.description());
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
                throw tooFew(refused, silent);
            }
            sleep(250);
        }
    }

    private UsageException tooFew(List<String> refused, Set<String> silent) {
        String joined = agents.isEmpty()
                ? "none"
                : agents.stream().map(ClusterNode.Member::label).collect(Collectors.joining(", "));
        silent.removeIf(nodeId -> !node.present(nodeId));
        return new UsageException(String.format(
                Locale.ROOT,
                "--agents %d: only %d agent(s) joined in time (%s)%s%s",
                wanted,
                agents.size(),
                joined,
                refused.isEmpty() ? "" : ", " + refused.size() + " refused (see above)",
                silent.isEmpty()
                        ? ""
                        : ", " + silent.size() + " in the cluster did not answer on the event bus (is its"
                                + " --bus-port open to this host?)"));
    }

    /**
     * The claimed agents still present, each claimed again, topped up to N from free agents that have joined since or
     * come back within --agents-timeout; else compare stops.
     */
    List<ClusterNode.Member> team() {
        int before = agents.size();
        agents.removeIf(agent -> !node.present(agent.nodeId()));
        for (ClusterNode.Member agent : List.copyOf(agents)) {
            ClaimAnswer answer = ask(agent);
            if (answer == null) {
                agents.remove(agent);
            } else if (!answer.accepted()) {
                throw new CannotGoOn(
                        "agent " + agent.label() + " is no longer this " + command + "'s: " + answer.description());
            }
        }
        if (agents.size() < wanted) {
            try {
                if (agents.size() < before) {
                    out.printf(
                            Locale.ROOT,
                            "%s: %d of the %d agents gone; waiting up to %d s for them or others%n",
                            command,
                            before - agents.size(),
                            wanted,
                            agentsTimeout.toSeconds());
                    out.flush();
                }
                claim(System.nanoTime() + agentsTimeout.toNanos());
            } catch (UsageException e) {
                throw new CannotGoOn(String.format(
                        Locale.ROOT,
                        "%d of the %d agents left (%d remain): no further run can be made as asked (%s)",
                        Math.max(0, before - agents.size()),
                        wanted,
                        agents.size(),
                        e.getMessage()));
            }
        }
        return List.copyOf(agents);
    }

    /** The agent's answer to a claim; null when it left or did not answer within the failure timeout. */
    private ClaimAnswer ask(ClusterNode.Member member) {
        Claim claim = new Claim(node.build(), node.nodeId(), node.name(), node.host());
        try {
            ClusterMessage reply = node.bus()
                    .request(ClusterMessage.agentAddress(member.nodeId()), claim, answerMillis)
                    .toCompletionStage()
                    .toCompletableFuture()
                    .get(answerMillis + 1000, TimeUnit.MILLISECONDS);
            return reply instanceof ClaimAnswer answer ? answer : null;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ReplyException refused && refused.failureCode() == SignedBus.UNTRUSTED) {
                // the agent cannot trust this compare's messages (its clock, most often): say why, once
                return ClaimAnswer.refused(
                        Refusal.UNTRUSTED, "agent " + member.label() + " refused the claim: " + refused.getMessage());
            }
            return null;
        } catch (TimeoutException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** Lets every claimed agent go (it is free for another compare); whether there were any. */
    boolean releaseAll() {
        for (ClusterNode.Member agent : agents) {
            node.bus().send(ClusterMessage.agentAddress(agent.nodeId()), new Release(node.nodeId()));
        }
        return !agents.isEmpty();
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
