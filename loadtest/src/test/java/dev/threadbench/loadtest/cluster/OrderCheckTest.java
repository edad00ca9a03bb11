package dev.threadbench.loadtest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.threadbench.loadtest.cluster.messages.RunOrder;
import dev.threadbench.loadtest.engine.Engine;
import dev.threadbench.loadtest.plan.Plan;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OrderCheckTest {

    private static final long NOW = 1_800_000_000_000L;

    @TempDir
    Path dir;

    private static RunOrder order(String nonce, long issuedAt, long startIn, Plan.Step step) {
        return new RunOrder(
                "r1",
                "compare-node",
                "agent-node",
                nonce,
                issuedAt,
                List.of(step),
                10,
                null,
                new Engine.Timing(0, 0, null, 20L, 5, 1),
                startIn,
                null);
    }

    private static Plan.Step get(String url, Map<String, String> headers) {
        return new Plan.Step("GET /", "GET", URI.create(url), headers);
    }

    private static RunOrder order(String nonce, long issuedAt, long startIn) {
        return order(nonce, issuedAt, startIn, get("http://10.0.0.5:8080/", Map.of()));
    }

    private static OrderCheck check(ClusterKey key) {
        return new OrderCheck(key, "agent-node", AllowedTargets.parse("10.0.0.0/24:8080", false), () -> NOW);
    }

    @Test
    void aRecentOrderForAnAllowedTargetIsTakenOnceWithItsAddressPinned() throws Exception {
        OrderCheck check = check(null);
        AllowedTargets.Checked taken = check.check(order("n1", NOW - 5_000, 500));
        assertNull(taken.refusal());
        assertEquals(Map.of("10.0.0.5", InetAddress.getByName("10.0.0.5")), taken.pinned());
        assertEquals(
                "the order was taken before (a replay)",
                check.check(order("n1", NOW - 5_000, 500)).refusal());
    }

    @Test
    void anOrderStartingLaterThanTheCapIsRefused() {
        OrderCheck check = check(null);
        assertNull(check.check(order("n1", NOW, OrderCheck.MAX_START_IN_MILLIS)).refusal());
        assertEquals(
                "the order starts in 60001 ms; an agent starts within 0-60000 ms of an order",
                check.check(order("n2", NOW, 60_001)).refusal());
        assertEquals(
                "the order starts in -1 ms; an agent starts within 0-60000 ms of an order",
                check.check(order("n3", NOW, -1)).refusal());
    }

    @Test
    void anExpiredOrderOrOneFromTheFutureIsRefused() {
        OrderCheck check = check(null);
        assertEquals(
                "the order was issued 121.0 s ago by compare's clock, more than 120 s: a stale order, or the hosts'"
                        + " clocks disagree (synchronize them)",
                check.check(order("n1", NOW - 121_000, 500)).refusal());
        assertEquals(
                "the order was issued 180.5 s ahead by compare's clock, more than 120 s: a stale order, or the hosts'"
                        + " clocks disagree (synchronize them)",
                check.check(order("n2", NOW + 180_500, 500)).refusal());
        assertNull(check.check(order("n1", NOW - 119_000, 500)).refusal(), "a refused order's nonce is not spent");
    }

    @Test
    void aPlanHeaderWithHostOrCrLfIsRefusedBeforeAnyLoad() {
        OrderCheck check = check(null);
        assertEquals(
                "request GET /: header Host 'admin.internal' is not 10.0.0.5:8080, the URL's own",
                check.check(order("n1", NOW, 500, get("http://10.0.0.5:8080/", Map.of("Host", "admin.internal"))))
                        .refusal());
        assertEquals(
                "request GET /: header X-A has a CR, LF or NUL in its value",
                check.check(order("n2", NOW, 500, get("http://10.0.0.5:8080/", Map.of("X-A", "1\r\nGET /x HTTP/1.1"))))
                        .refusal());
        assertEquals(
                "request GET /: https://10.0.0.5:8080/ is not an http:// URL with a host",
                check.check(order("n3", NOW, 500, get("https://10.0.0.5:8080/", Map.of())))
                        .refusal());
        assertEquals(
                "target http://10.0.0.5:80 (10.0.0.5:80) is not in --allow-targets 10.0.0.0/24:8080",
                check.check(order("n4", NOW, 500, get("http://10.0.0.5/", Map.of())))
                        .refusal());
    }

    @Test
    void anOrderNotSignedWithTheKeyOrForAnotherAgentIsRefused() {
        Path file = dir.resolve("cluster.key");
        ClusterKey.generate(file);
        ClusterKey key = ClusterKey.read("--cluster-key", file);
        OrderCheck check = check(key);
        RunOrder order = order("n1", NOW, 500);
        RunOrder signed = order.withMac(Base64.getEncoder().encodeToString(key.mac(order.signedContent())));
        String unsigned =
                "the order is not signed with this cluster's key (altered, or from a compare with another key)";
        assertEquals(unsigned, check.check(order).refusal());
        RunOrder older = order("n1", NOW - 1, 500).withMac(signed.mac());
        assertEquals(unsigned, check.check(older).refusal(), "the issue time is under the MAC");
        assertNull(check.check(signed).refusal());
        assertEquals(
                "the order is for another agent",
                new OrderCheck(key, "other-node", AllowedTargets.parse("10.0.0.0/24", false), () -> NOW)
                        .check(signed)
                        .refusal());
    }
}
