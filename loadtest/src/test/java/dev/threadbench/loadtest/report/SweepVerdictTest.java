package dev.threadbench.loadtest.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The sweep's verdict: computed sentences with their figures, and no winner where the rounds' spread covers it. */
class SweepVerdictTest {

    private static final Results SWEEP = SweepFixtures.sweep(List.of());

    @Test
    void whoHoldsTheBoundWhereAndWhatStopsIt() {
        List<String> lines = Verdict.lines(SWEEP);
        assertEquals("undertow/blocking holds the bound (>= 95 %, no failures) up to 1,000 connections; then the server's limit:"
                + " at 2,000 80.0 % of the bound, 0 failed.", lines.get(0));
        assertEquals("undertow/timer holds the bound (>= 95 %, no failures) up to the largest swept concurrency, 2,000.", lines.get(1));
        assertTrue(lines.get(2).startsWith("vertx/timer holds the bound (>= 95 %, no failures) up to 1,000 connections; then the"
                + " generator's limit: at 2,000 it was generator-bound in 3/3 rounds"), lines.get(2));
    }

    @Test
    void costRatiosAgainstTheCheapestStrategyOnTheSameServer() {
        assertEquals("On undertow at 2,000 connections: blocking costs 2.0x the CPU per request of timer (200.0 vs 100.0 us).",
                Verdict.lines(SWEEP).get(3));
    }

    @Test
    void memoryPerThousandConnectionsSteepestFirstWithItsShareOfLiveData() {
        assertEquals("Memory per 1,000 connections, peak RSS / heap after GC: undertow/blocking +100.0 MB / +0.5 MB,"
                + " undertow/timer +20.0 MB / +1.0 MB, vertx/timer +20.0 MB / +1.0 MB. Of undertow/blocking's +100.0 MB per 1,000"
                + " connections, live data (heap after GC) is +0.5 MB: the rest is heap the JVM committed because it may, and"
                + " native memory (thread stacks, buffers).", Verdict.lines(SWEEP).get(4));
    }

    @Test
    void figuresWithinTheRoundsSpreadAreNoMeasurableDifference() {
        List<SweepPair> pairs = SweepPair.of(Cell.of(SweepFixtures.sweep(List.of()).runs()), List.of());
        SweepPair undertowTimer = pairs.get(1);
        SweepPair likeIt = new SweepPair("undertow", "virtual", 1.0, 20.0, 2000, new Spread(101, 99, 103, 3), null, null, 2000,
                "none", "held", null);
        assertEquals("On undertow at 2,000 connections: virtual and timer: no measurable difference (101.0 vs 100.0 us, within"
                + " the rounds' spread).", SweepVerdict.costs(List.of(undertowTimer, likeIt)));
        SweepPair oneRound = new SweepPair("undertow", "virtual", 1.0, 20.0, 2000, new Spread(150, 150, 150, 1), null, null, 2000,
                "none", "held", null);
        assertEquals("On undertow at 2,000 connections: virtual costs 1.5x the CPU per request of timer (150.0 vs 100.0 us;"
                + " one round: no spread to judge it by).", SweepVerdict.costs(List.of(undertowTimer, oneRound)));
    }

    @Test
    void theServersAreSetAgainstEachOtherOnlyAtTheConcurrencyNearest2000() {
        List<String> lines = Verdict.lines(SWEEP);
        assertEquals(6, lines.size(), String.join("\n", lines));
        assertTrue(lines.get(5).startsWith("C=2000 undertow/timer vs vertx/timer: req/s"), lines.get(5));
    }

    @Test
    void theConsoleAndThePageCarryThePairsAndTheCurves() {
        String table = ConsoleTable.render(SWEEP);
        assertTrue(table.matches("(?s).*\nundertow\\s+blocking\\s+\\+0\\.5\\s+\\+100\\.0\\s+200\\.0 \\(198\\.0-202\\.0\\)\\s+2,000\\s+160\\.0 / 40\\.0"
                + "\\s+1,000\\s+server\n.*"), table);
        String html = HtmlReport.render(SWEEP);
        assertTrue(html.contains("\"pairs\":[{\"server\":\"undertow\",\"strategy\":\"blocking\",\"heapMbPer1000\":0.5"), "the pairs");
        assertTrue(html.contains("curve('curve-rss', 'Peak RSS'"), "the curves");
    }
}
