package dev.threadbench.loadtest.cluster.messages;

/**
 * Why an agent refuses a {@link Claim}: the wire carries the name; {@link ClaimAnswer#description()} says it in one
 * line naming both sides, for printing.
 */
public enum Refusal {

    /** compare runs another build than the agent: their messages and runners may not mean the same thing. */
    OTHER_BUILD("runs another build"),
    /** Another compare, still in the cluster, has claimed the agent: one compare or run at a time on it. */
    TAKEN_BY_ANOTHER_COMPARE("is taken by another compare"),
    /** The agent dropped the claim unread: not signed with its key, or issued outside its replay window. */
    UNTRUSTED("refused the claim");

    private final String description;

    Refusal(String description) {
        this.description = description;
    }

    /** The reason in a few words, as "the agent ...". */
    public String description() {
        return description;
    }
}
