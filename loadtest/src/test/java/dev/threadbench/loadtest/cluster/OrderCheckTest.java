package dev.threadbench.loadtest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.threadbench.loadtest.cluster.messages.RunOrder;
import dev.threadbench.loadtest.engine.Engine;
import dev.threadbench.loadtest.plan.Plan;
import java.net.InetAddress;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OrderCheckTest {

    private static RunOrder order(long startIn, Plan.Step step) {
        return new RunOrder(
                "r1",
                "compare-node",
                "agent-node",
                List.of(step),
                10,
                null,
                new Engine.Timing(0, 0, null, 20L, 5, 1),
                startIn);
    }

    private static Plan.Step get(String url, Map<String, String> headers) {
        return new Plan.Step("GET /", "GET", URI.create(url), headers);
    }

    private static RunOrder order(long startIn) {
        return order(startIn, get("http://10.0.0.5:8080/", Map.of()));
    }

    private static OrderCheck check() {
        return new OrderCheck("agent-node", AllowedTargets.parse("10.0.0.0/24:8080", false));
    }

    @Test
    void anOrderForAnAllowedTargetIsTakenWithItsAddressPinned() throws Exception {
        AllowedTargets.Checked taken = check().check(order(500));
        assertNull(taken.refusal());
        assertEquals(Map.of("10.0.0.5", InetAddress.getByName("10.0.0.5")), taken.pinned());
    }

    @Test
    void anOrderStartingLaterThanTheCapIsRefused() {
        OrderCheck check = check();
        assertNull(check.check(order(OrderCheck.MAX_START_IN_MILLIS)).refusal());
        assertEquals(
                "the order starts in 60001 ms; an agent starts within 0-60000 ms of an order",
                check.check(order(60_001)).refusal());
        assertEquals(
                "the order starts in -1 ms; an agent starts within 0-60000 ms of an order",
                check.check(order(-1)).refusal());
    }

    @Test
    void aPlanHeaderWithHostOrCrLfIsRefusedBeforeAnyLoad() {
        OrderCheck check = check();
        assertEquals(
                "request GET /: header Host 'admin.internal' is not 10.0.0.5:8080, the URL's own",
                check.check(order(500, get("http://10.0.0.5:8080/", Map.of("Host", "admin.internal"))))
                        .refusal());
        assertEquals(
                "request GET /: header X-A has a CR, LF or NUL in its value",
                check.check(order(500, get("http://10.0.0.5:8080/", Map.of("X-A", "1\r\nGET /x HTTP/1.1"))))
                        .refusal());
        assertEquals(
                "request GET /: https://10.0.0.5:8080/ is not an http:// URL with a host",
                check.check(order(500, get("https://10.0.0.5:8080/", Map.of()))).refusal());
        assertEquals(
                "target http://10.0.0.5:80 (10.0.0.5:80) is not in --allow-targets 10.0.0.0/24:8080",
                check.check(order(500, get("http://10.0.0.5/", Map.of()))).refusal());
    }

    @Test
    void anOrderForAnotherAgentIsRefused() {
        assertEquals(
                "the order is for another agent",
                new OrderCheck("other-node", AllowedTargets.parse("10.0.0.0/24", false))
                        .check(order(500))
                        .refusal());
    }
}
