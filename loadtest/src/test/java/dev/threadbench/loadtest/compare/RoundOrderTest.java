package dev.threadbench.loadtest.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.threadbench.loadtest.compare.CompareSettings.Planned;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RoundOrderTest {

    private static List<String> order(CompareSettings.Runs settings, int round) {
        return settings.order(round).stream()
                .map(p -> p.server() + (p.strategy() == null ? "" : "/" + p.strategy()))
                .toList();
    }

    private static CompareSettings.Runs settings(List<Planned> planned, int rounds) {
        return new CompareSettings.Runs(
                planned, Map.of(), "default", List.of(1000), List.of(CompareSettings.Load.closed(1000)), rounds);
    }

    @Test
    void theServersTakeTurnsGoingFirst() {
        CompareSettings.Runs two = settings(List.of(new Planned("undertow", null), new Planned("vertx", null)), 4);
        assertEquals(List.of("undertow", "vertx"), order(two, 0));
        assertEquals(List.of("vertx", "undertow"), order(two, 1));
        assertEquals(List.of("undertow", "vertx"), order(two, 2));
        assertEquals(List.of("vertx", "undertow"), order(two, 3));
    }

    @Test
    void withMoreServersOrStrategiesEachRoundReversesTheOneBefore() {
        CompareSettings.Runs three = settings(
                List.of(
                        new Planned("undertow", "blocking"),
                        new Planned("undertow", "virtual"),
                        new Planned("vertx", "timer")),
                2);
        assertEquals(List.of("undertow/blocking", "undertow/virtual", "vertx/timer"), order(three, 0));
        assertEquals(List.of("vertx/timer", "undertow/virtual", "undertow/blocking"), order(three, 1));
    }
}
