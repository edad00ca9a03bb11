package dev.threadbench.loadtest.cluster.messages;

/**
 * A message as it travels between nodes: every {@link ClusterMessage} goes inside one, sealed by {@link MessageSeals}.
 * With a cluster key the MAC covers everything here but itself, so that a message cannot be forged, altered, replayed
 * to the same node (its nonce), to another address (its {@code to}) or as the answer to another request
 * ({@code inReplyTo}), nor held back past the replay window ({@code issuedAtMillis}).
 *
 * @param to             the address it was sent to; null for an answer
 * @param inReplyTo      for an answer, the nonce of the request it answers; else null
 * @param nonce          128 random bits, new for every message
 * @param issuedAtMillis when the sender sealed it, on its clock (epoch milliseconds)
 * @param mac            HMAC-SHA256 under the cluster key of {@link #signedContent()}, base64; null without a key
 *                       (--insecure)
 */
public record Sealed(ClusterMessage message, String to, String inReplyTo, String nonce, long issuedAtMillis, String mac)
        implements ClusterMessage {

    /**
     * What the MAC covers: every field but the MAC, in one canonical JSON encoding (properties and map keys sorted).
     */
    public byte[] signedContent() {
        return MessageCodec.canonical(withMac(null));
    }

    public Sealed withMac(String newMac) {
        return new Sealed(message, to, inReplyTo, nonce, issuedAtMillis, newMac);
    }
}
