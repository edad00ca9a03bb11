package dev.threadbench.loadtest.cluster;

import dev.threadbench.loadtest.cluster.messages.RunOrder;
import dev.threadbench.loadtest.plan.Plan;
import java.time.Duration;
import java.util.Base64;
import java.util.HashSet;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Whether an agent takes an order, before it looks at whether it is free: signed with the cluster key, for this agent,
 * not seen before, recent, starting soon, asking for requests compare's plans allow ({@link RequestCheck}) to targets
 * the agent allows ({@link AllowedTargets}), whose addresses it pins for the runner.
 */
final class OrderCheck {

    /**
     * How old (by compare's clock against the agent's) an order may be: a held-back order goes stale; hosts whose
     * clocks are further apart than this refuse every order, naming the gap.
     */
    static final Duration ORDER_LIFETIME = Duration.ofMinutes(2);
    /** The longest "start in" an agent takes: compare asks for 500 ms; a distant start would outlive a DNS cache. */
    static final long MAX_START_IN_MILLIS = 60_000;

    private final ClusterKey key;
    private final String agentNode;
    private final AllowedTargets allowed;
    private final LongSupplier clockMillis;
    /** Every order's nonce this agent has taken (a few dozen bytes a run): an order seen before is a replay. */
    private final Set<String> nonces = new HashSet<>();

    /** @param key null: no MAC checked (--insecure) */
    OrderCheck(ClusterKey key, String agentNode, AllowedTargets allowed, LongSupplier clockMillis) {
        this.key = key;
        this.agentNode = agentNode;
        this.allowed = allowed;
        this.clockMillis = clockMillis;
    }

    /**
     * Why the agent will never take this order (one line), or the addresses it is to load: its MAC is not the cluster
     * key's, it is for another agent, taken before (a replay), stale, starts too late, asks for a request the agent
     * does not send, or a target is outside --allow-targets.
     */
    synchronized AllowedTargets.Checked check(RunOrder order) {
        if (key != null && !key.verify(order.signedContent(), tag(order.mac()))) {
            return AllowedTargets.Checked.refused(
                    "the order is not signed with this cluster's key (altered, or from a compare with another key)");
        }
        if (!agentNode.equals(order.agentNode())) {
            return AllowedTargets.Checked.refused("the order is for another agent");
        }
        long ageMillis = clockMillis.getAsLong() - order.issuedAtMillis();
        if (Math.abs(ageMillis) > ORDER_LIFETIME.toMillis()) {
            return AllowedTargets.Checked.refused(String.format(
                    "the order was issued %.1f s %s by compare's clock, more than %d s: a stale order, or the"
                            + " hosts' clocks disagree (synchronize them)",
                    Math.abs(ageMillis) / 1000.0, ageMillis > 0 ? "ago" : "ahead", ORDER_LIFETIME.toSeconds()));
        }
        if (order.startInMillis() < 0 || order.startInMillis() > MAX_START_IN_MILLIS) {
            return AllowedTargets.Checked.refused("the order starts in " + order.startInMillis()
                    + " ms; an agent starts within 0-" + MAX_START_IN_MILLIS + " ms of an order");
        }
        if (order.steps() == null || order.steps().isEmpty()) {
            return AllowedTargets.Checked.refused("the order has no request");
        }
        for (Plan.Step step : order.steps()) {
            String refusal = RequestCheck.refusal(step);
            if (refusal != null) {
                return AllowedTargets.Checked.refused(refusal);
            }
        }
        AllowedTargets.Checked targets = allowed.check(order.steps());
        if (targets.refusal() != null) {
            return targets;
        }
        // last: a refused order's nonce is not kept, so a replay of it is refused for its own reason again
        if (order.nonce() == null || !nonces.add(order.nonce())) {
            return AllowedTargets.Checked.refused("the order was taken before (a replay)");
        }
        return targets;
    }

    private static byte[] tag(String mac) {
        try {
            return mac == null ? null : Base64.getDecoder().decode(mac);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
