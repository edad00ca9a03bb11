package dev.threadbench.loadtest.cluster;

/**
 * Whether compare and an agent can work together, checked on both sides before a claim: the same build (their
 * messages and runners may otherwise not mean the same thing) and the same cluster key. Each refusal is one line
 * naming both sides.
 */
final class Compatibility {

    private Compatibility() {}

    /** {@code other} runs another build than {@code self}, said in one line naming both. */
    static String buildConflict(String self, String selfBuild, String other, String otherBuild) {
        return other + " runs build " + otherBuild + ", " + self + " runs " + selfBuild
                + ": run one build on every host";
    }

    /**
     * Why {@code command} (compare, run) on {@code node} refuses the agent {@code member}, said after "refused agent
     * NAME: "; null when their builds and keys are the same.
     */
    static String refusal(ClusterNode node, ClusterNode.Member member, String command) {
        if (!node.build().equals(member.build())) {
            return buildConflict("this " + command, node.build(), "it", member.build());
        }
        String key = node.settings().keyFingerprint();
        if (!key.equals(member.key())) {
            return "it " + keyLabel(member.key()) + ", this " + command + " " + keyLabel(key)
                    + ": give every node the same --cluster-key";
        }
        return null;
    }

    private static String keyLabel(String fingerprint) {
        return ClusterSettings.NO_KEY.equals(fingerprint)
                ? "runs without a cluster key (--insecure)"
                : "uses cluster key " + fingerprint;
    }
}
