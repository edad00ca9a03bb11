package dev.threadbench.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ServerStatsTest {

    @Test
    void countsStartedAndInFlight() {
        RequestCounter counter = new RequestCounter(2);
        ServerStats stats = new ServerStats("undertow", Strategy.TIMER, counter);
        for (int i = 0; i < 3; i++) {
            counter.next();
            stats.started();
        }
        stats.completed();
        assertEquals(3, stats.requests());
        assertEquals(1, stats.delayed());
        assertEquals(2, stats.inFlight());
        String json = stats.toJson();
        String counts = "{\"server\":\"undertow\",\"strategy\":\"timer\",\"requests\":3,\"delayed\":1,\"inFlight\":2";
        assertTrue(json.startsWith(counts + ",\"process\":{\"cpuMs\":") && json.endsWith("}}"), json);
    }
}
