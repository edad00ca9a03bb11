package dev.threadbench.loadtest.cluster;

import dev.threadbench.loadtest.cluster.messages.RunOrder;
import dev.threadbench.loadtest.plan.Plan;

/**
 * Whether an agent takes an order, before it looks at whether it is free: for this agent, starting soon, asking for
 * requests compare's plans allow ({@link RequestCheck}) to targets the agent allows ({@link AllowedTargets}), whose
 * addresses it pins for the runner.
 */
final class OrderCheck {

    /** The longest "start in" an agent takes: compare asks for 500 ms; a distant start would outlive a DNS cache. */
    static final long MAX_START_IN_MILLIS = 60_000;

    private final String agentNode;
    private final AllowedTargets allowed;

    OrderCheck(String agentNode, AllowedTargets allowed) {
        this.agentNode = agentNode;
        this.allowed = allowed;
    }

    /**
     * Why the agent will never take this order (one line), or the addresses it is to load: it is for another agent,
     * starts too late, asks for a request the agent does not send, or a target is outside --allow-targets. Its seal
     * (the MAC, the replay window, the nonce) was checked on arrival, as every message's is ({@link SignedBus}).
     */
    AllowedTargets.Checked check(RunOrder order) {
        if (!agentNode.equals(order.agentNode())) {
            return AllowedTargets.Checked.refused("the order is for another agent");
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
        return allowed.check(order.steps());
    }
}
