package dev.threadbench.loadtest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.threadbench.loadtest.cluster.messages.AgentReport;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunCoordinatorTest {

    @Test
    void theStartSkewIsTheMostTwoAgentsStartsMayDifferAndNoneForOneAgent() {
        AgentReport onTime = new AgentReport(
                "run",
                "a1-node",
                "a1",
                "198.18.0.3",
                100,
                0,
                0,
                Map.of(),
                10.0,
                null,
                50,
                40,
                100,
                0,
                2,
                "epoll",
                null,
                null,
                0.4,
                null,
                null);
        long ms = 1_000_000;
        // orders sent at 0 and 1 ms, accepted at 2 and 4 ms, both agents on time: a2 may start 4 ms after a1, a1 1 ms
        // after a2
        assertEquals(
                4.0,
                RunCoordinator.skewMs(new long[] {0, ms}, new long[] {2 * ms, 4 * ms}, List.of(onTime, onTime)),
                1e-9);
        assertEquals(0.0, RunCoordinator.skewMs(new long[] {0}, new long[] {3 * ms}, List.of(onTime)), 1e-9);
    }

    @Test
    void connectionsAreSplitEvenlyWithTheRemainderSpread() {
        assertEquals(List.of(334, 333, 333), RunCoordinator.split(1000, 3));
        assertEquals(List.of(1000, 1000), RunCoordinator.split(2000, 2));
        assertEquals(List.of(1, 1), RunCoordinator.split(2, 2));
    }
}
