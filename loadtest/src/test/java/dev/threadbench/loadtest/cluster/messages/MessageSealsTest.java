package dev.threadbench.loadtest.cluster.messages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class MessageSealsTest {

    private static final String AGENT = "threadbench.agent.node-2";
    private static final long NOW = 1_800_000_000_000L;

    private final AtomicLong clock = new AtomicLong(NOW);
    private final UnaryOperator<byte[]> key = hmac();
    private final MessageSeals sender = new MessageSeals(key, clock::get);
    private final MessageSeals receiver = new MessageSeals(key, clock::get);

    private static UnaryOperator<byte[]> hmac() {
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        return data -> {
            try {
                Mac mac = Mac.getInstance("HmacSHA256");
                mac.init(new SecretKeySpec(secret, "HmacSHA256"));
                return mac.doFinal(data);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        };
    }

    private static String kind(ClusterMessage message) {
        return "a " + message.getClass().getSimpleName();
    }

    @Test
    void everyKindSealedWithTheKeyOpensAfterTheWireOnceAndNeverAgain() {
        MessageCodec codec = new MessageCodec();
        for (ClusterMessage message : MessageCodecTest.oneOfEachKind()) {
            ClusterMessage received = MessageCodecTest.roundTrip(codec, sender.seal(message, AGENT, null));
            MessageSeals.Opened opened = receiver.open(received, AGENT, null);
            assertNull(opened.refusal(), opened.refusal());
            assertEquals(message, opened.message());
            assertEquals(
                    kind(message) + " seen before (a replay)",
                    receiver.open(received, AGENT, null).refusal());
        }
    }

    @Test
    void everyKindForgedAlteredOrUnsignedIsRefused() {
        MessageSeals otherKey = new MessageSeals(hmac(), clock::get);
        MessageSeals insecure = new MessageSeals(null, clock::get);
        for (ClusterMessage message : MessageCodecTest.oneOfEachKind()) {
            String unsigned = kind(message)
                    + " not signed with this cluster's key (forged, altered, or from a node with another key)";
            assertEquals(
                    unsigned,
                    receiver.open(otherKey.seal(message, AGENT, null), AGENT, null)
                            .refusal());
            assertEquals(
                    unsigned,
                    receiver.open(insecure.seal(message, AGENT, null), AGENT, null)
                            .refusal());
            Sealed sealed = sender.seal(message, AGENT, null);
            // a forged Release with compare's node id, more load under an order's MAC, a report with other counts
            Sealed altered = new Sealed(
                    new Release("compare-node"),
                    sealed.to(),
                    null,
                    sealed.nonce(),
                    sealed.issuedAtMillis(),
                    sealed.mac());
            assertEquals(
                    "a Release not signed with this cluster's key (forged, altered, or from a node with another key)",
                    receiver.open(altered, AGENT, null).refusal());
            Sealed later = new Sealed(message, AGENT, null, sealed.nonce(), sealed.issuedAtMillis() + 1, sealed.mac());
            assertEquals(unsigned, receiver.open(later, AGENT, null).refusal(), "the issue time is under the MAC");
            assertNull(receiver.open(sealed, AGENT, null).refusal(), "a refused message's nonce is not spent");
        }
        assertEquals(
                "a message not sealed as this build seals them",
                receiver.open(new Release("compare-node"), AGENT, null).refusal());
    }

    @Test
    void aMessageOutsideTheWindowEitherWayIsRefused() {
        Sealed old = sender.seal(new Heartbeat("r1"), AGENT, null);
        Sealed ahead = sender.seal(new Heartbeat("r1"), AGENT, null);
        clock.set(NOW + 120_001);
        assertEquals(
                "a Heartbeat issued 120.0 s ago by its sender's clock, more than 120 s: held back, or the hosts' clocks"
                        + " disagree (synchronize them)",
                receiver.open(old, AGENT, null).refusal());
        clock.set(NOW - 180_500);
        assertEquals(
                "a Heartbeat issued 180.5 s ahead by its sender's clock, more than 120 s: held back, or the hosts'"
                        + " clocks disagree (synchronize them)",
                receiver.open(ahead, AGENT, null).refusal());
        clock.set(NOW + 119_000);
        assertNull(receiver.open(old, AGENT, null).refusal(), "within the window");
    }

    @Test
    void aMessageReplayedToAnotherAddressOrAsAnotherRequestsAnswerIsRefused() {
        Sealed heartbeat = sender.seal(new Heartbeat("r1"), AGENT, null);
        assertEquals(
                "a Heartbeat meant for threadbench.agent.node-2 (a replay elsewhere)",
                receiver.open(heartbeat, "threadbench.agent.node-3", null).refusal());
        Sealed answer = sender.seal(ClaimAnswer.ACCEPTED, null, "nonce-of-claim-1");
        assertEquals(
                "a ClaimAnswer meant for another request (a replay elsewhere)",
                receiver.open(answer, null, "nonce-of-claim-2").refusal());
        assertEquals(
                "a ClaimAnswer meant for another request (a replay elsewhere)",
                receiver.open(answer, AGENT, null).refusal(),
                "an answer is no request");
        assertNull(receiver.open(answer, null, "nonce-of-claim-1").refusal());
    }

    @Test
    void theNoncesRememberedAreThoseOfTheWindowOnly() {
        for (int i = 0; i < 1000; i++) {
            clock.addAndGet(10);
            assertNull(receiver.open(sender.seal(new Heartbeat("r1"), AGENT, null), AGENT, null)
                    .refusal());
        }
        assertEquals(1000, receiver.remembered());
        clock.addAndGet(MessageSeals.WINDOW.toMillis() - 4_995);
        assertEquals(500, receiver.remembered(), "those issued more than the window ago are forgotten");
        clock.addAndGet(10_000);
        assertEquals(0, receiver.remembered());
    }

    @Test
    void withoutAKeyMessagesGoUnsignedAndAreNotChecked() {
        MessageSeals insecure = new MessageSeals(null, clock::get);
        Sealed sealed = insecure.seal(new Release("compare-node"), AGENT, null);
        assertNull(sealed.mac());
        assertEquals(
                new Release("compare-node"), insecure.open(sealed, AGENT, null).message());
        assertEquals(
                new Release("compare-node"), insecure.open(sealed, AGENT, null).message(), "as before the key");
        assertTrue(insecure.remembered() == 0);
    }
}
