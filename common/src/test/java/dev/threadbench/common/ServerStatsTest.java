package dev.threadbench.common;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ServerStatsTest {

    @Test
    void countsAdmittedAndInFlight() {
        ServerStats stats = new ServerStats("undertow", Strategy.TIMER, 2);
        stats.admit();
        stats.admit();
        stats.admit();
        stats.completed();
        assertEquals(3, stats.requests());
        assertEquals(1, stats.delayed());
        assertEquals(2, stats.inFlight());
        assertEquals("{\"server\":\"undertow\",\"strategy\":\"timer\",\"requests\":3,\"delayed\":1,\"inFlight\":2}",
                stats.toJson());
    }
}
