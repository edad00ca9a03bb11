package dev.threadbench.loadtest.cluster.messages;

/**
 * An agent's answer to a {@link Claim}.
 *
 * @param refusal     null when the agent is now the caller's; else why not
 * @param description null when accepted; else the refusal in one line, naming the agent and compare
 */
public record ClaimAnswer(Refusal refusal, String description) implements ClusterMessage {

    /** The agent takes orders from the caller alone. */
    public static final ClaimAnswer ACCEPTED = new ClaimAnswer(null, null);

    public static ClaimAnswer refused(Refusal refusal, String description) {
        return new ClaimAnswer(refusal, description);
    }

    public boolean accepted() {
        return refusal == null;
    }
}
