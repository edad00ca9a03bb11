package dev.threadbench.loadtest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.threadbench.loadtest.cluster.messages.RunOrder;
import dev.threadbench.loadtest.engine.Engine;
import dev.threadbench.loadtest.plan.Plan;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AgentTest {

    @Test
    void anOrderThatCannotBeMadeIntoARunIsAnsweredWithItsReason() {
        RunOrder order = new RunOrder(
                "r1",
                "compare-node",
                "agent-node",
                List.of(new Plan.Step("GET /", "GET", URI.create("http://10.0.0.5:8080/"), Map.of())),
                10,
                -1.0,
                new Engine.Timing(0, 0, 5, null, 5, 1),
                500);
        Agent.OrderNotPrepared refused =
                assertThrows(Agent.OrderNotPrepared.class, () -> Agent.prepare(order, Map.of()));
        assertEquals(
                "cannot prepare run r1: IllegalArgumentException: rate must be a positive number of requests/s, got"
                        + " -1.0",
                refused.getMessage());
    }
}
