package dev.threadbench.loadtest.cluster.messages;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

/**
 * One node's seals on what it sends ({@link Sealed}) and its checks on what it receives: the MAC under the cluster key,
 * the address, the answered request, the replay window and the nonces seen within it. Without a key (--insecure)
 * messages are sealed without a MAC and nothing is checked.
 */
public final class MessageSeals {

    /**
     * How far a message's issue time may be from the receiver's clock either way: a held-back message goes stale, and
     * hosts whose clocks are further apart than this refuse each other's messages, naming the gap.
     */
    public static final Duration WINDOW = Duration.ofMinutes(2);

    private static final SecureRandom RANDOM = new SecureRandom();

    private final UnaryOperator<byte[]> mac;
    private final LongSupplier clockMillis;
    /**
     * The nonce of every message taken within the window, with its issue time: older ones are forgotten, since the
     * window refuses them anyway, so the store holds at most two windows' messages.
     */
    private final Map<String, Long> seen = new HashMap<>();

    private long forgottenAtMillis;

    /** @param mac HMAC-SHA256 under the cluster key; null: no key (--insecure), nothing signed nor checked */
    public MessageSeals(UnaryOperator<byte[]> mac, LongSupplier clockMillis) {
        this.mac = mac;
        this.clockMillis = clockMillis;
    }

    /** What was received: the message, or why it is refused (one line) and nothing else. */
    public record Opened(ClusterMessage message, String refusal) {

        static Opened refused(String refusal) {
            return new Opened(null, refusal);
        }
    }

    /** {@code message} for {@code to}, or as the answer to the request whose nonce is {@code inReplyTo}. */
    public Sealed seal(ClusterMessage message, String to, String inReplyTo) {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        Sealed unsigned = new Sealed(
                message, to, inReplyTo, Base64.getEncoder().encodeToString(bytes), clockMillis.getAsLong(), null);
        return mac == null
                ? unsigned
                : unsigned.withMac(Base64.getEncoder().encodeToString(mac.apply(unsigned.signedContent())));
    }

    /**
     * The message inside {@code body}, received on {@code to} (null for an answer) or as the answer to the request
     * whose nonce is {@code inReplyTo}; or why not: not sealed with this cluster's key, for another address or
     * request, outside the window, or seen before.
     */
    public synchronized Opened open(ClusterMessage body, String to, String inReplyTo) {
        if (!(body instanceof Sealed sealed) || sealed.message() == null || sealed.message() instanceof Sealed) {
            return Opened.refused("a message not sealed as this build seals them");
        }
        if (mac == null) {
            return new Opened(sealed.message(), null);
        }
        String kind = "a " + sealed.message().getClass().getSimpleName();
        if (!verified(sealed)) {
            return Opened.refused(kind + " not signed with this cluster's key (forged, altered, or from a node"
                    + " with another key)");
        }
        if (!Objects.equals(to, sealed.to()) || !Objects.equals(inReplyTo, sealed.inReplyTo())) {
            return Opened.refused(kind + " meant for " + (sealed.to() != null ? sealed.to() : "another request")
                    + " (a replay elsewhere)");
        }
        long now = clockMillis.getAsLong();
        long ageMillis = now - sealed.issuedAtMillis();
        if (Math.abs(ageMillis) > WINDOW.toMillis()) {
            return Opened.refused(String.format(
                    "%s issued %.1f s %s by its sender's clock, more than %d s: held back, or the hosts' clocks"
                            + " disagree (synchronize them)",
                    kind, Math.abs(ageMillis) / 1000.0, ageMillis > 0 ? "ago" : "ahead", WINDOW.toSeconds()));
        }
        forgetOutsideWindow(now);
        if (sealed.nonce() == null || seen.putIfAbsent(sealed.nonce(), sealed.issuedAtMillis()) != null) {
            return Opened.refused(kind + " seen before (a replay)");
        }
        return new Opened(sealed.message(), null);
    }

    /** How many nonces this node remembers now. */
    public synchronized int remembered() {
        forgetOutsideWindow(clockMillis.getAsLong());
        return seen.size();
    }

    private boolean verified(Sealed sealed) {
        try {
            return sealed.mac() != null
                    && MessageDigest.isEqual(
                            mac.apply(sealed.signedContent()),
                            Base64.getDecoder().decode(sealed.mac()));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private void forgetOutsideWindow(long now) {
        // at most once a second: the sweep is over every nonce remembered
        if (now - forgottenAtMillis >= 1000 || now < forgottenAtMillis) {
            forgottenAtMillis = now;
            seen.values().removeIf(issuedAt -> now - issuedAt > WINDOW.toMillis());
        }
    }
}
