package dev.threadbench.loadtest.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.model.Limit;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.Spread;
import dev.threadbench.loadtest.model.SweepFixtures;
import dev.threadbench.loadtest.model.SweepPair;
import dev.threadbench.loadtest.report.ConsoleTable;
import dev.threadbench.loadtest.report.HtmlReport;
import dev.threadbench.loadtest.report.SweepTable;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The sweep's verdict: computed sentences with their figures, and no winner where the rounds' spread covers it. */
class SweepVerdictTest {

    private static final Results SWEEP = SweepFixtures.sweep(List.of());

    @Test
    void whoHoldsTheBoundWhereAndWhatStopsIt() {
        List<String> lines = Verdict.lines(SWEEP);
        String rule =
                "(in every round, every reading pooled: a round at >= 95 % of the bound without a failed request)";
        assertEquals(
                "undertow/blocking holds the bound " + rule
                        + " up to 1,000 connections, not at 2,000: breaking point 1,500;"
                        + " then the server's limit (its CPUs full in most rounds not held, in a minority at the held"
                        + " end; the generator not short of CPU time): at 2,000: 80.0 % of the bound,"
                        + " server CPU 99 % (99-99, full in 3/3), generator CPU 30 % (30-30, full in 0/3),"
                        + " accept-queue drops in 0/3, failed requests 0 (in 0/3); held end 1,000: 99.0 % of the"
                        + " bound, server CPU 50 % (50-50, full in 0/3), generator CPU 30 % (30-30, full in 0/3),"
                        + " accept-queue drops in 0/3, failed requests 0 (in 0/3).",
                lines.get(0));
        assertEquals(
                "undertow/timer holds the bound " + rule + " up to the largest swept concurrency, 2,000.",
                lines.get(1));
        assertTrue(
                lines.get(2)
                        .startsWith("vertx/timer holds the bound " + rule + " up to 1,000 connections; then no breaking"
                                + " point of its own: the generator's limit (its CPUs full in most rounds not held, in"
                                + " a minority at the held end; the server not short of CPU time): at 2,000: 90.0 % of"
                                + " the bound, server CPU 50 % (50-50, full in 0/3), generator CPU 95 %"
                                + " (95-95, full in 3/3)"),
                lines.get(2));
        assertEquals(
                "Breaking points: none set against another: only undertow/blocking, 1,500 (held 1,000, not held"
                        + " 2,000), has"
                        + " the server as its limit. Not compared, their limit not the server's: undertow/timer, not"
                        + " found: held at every"
                        + " concurrency, up to 2,000; vertx/timer, not found: generator limit at 2,000 (held 1,000).",
                lines.get(3));
    }

    @Test
    void costRatiosAgainstTheCheapestStrategyOnTheSameServer() {
        assertEquals(
                "On undertow at 2,000 connections: blocking costs 2.0x the CPU per request of timer (200.0 vs 100.0"
                        + " us, the ranges do not overlap).",
                Verdict.lines(SWEEP).get(4));
    }

    @Test
    void memoryPerThousandConnectionsSteepestFirstWithItsShareOfLiveData() {
        assertEquals(
                "Memory per 1,000 connections, peak RSS / heap after GC: undertow/blocking +100.0 MB / +0.5 MB,"
                        + " undertow/timer +20.0 MB / +1.0 MB, vertx/timer +20.0 MB / +1.0 MB. Of undertow/blocking's"
                        + " +100.0 MB per 1,000"
                        + " connections, live data (heap after GC) is +0.5 MB: the rest is heap the JVM committed"
                        + " because it may, and"
                        + " native memory (thread stacks, buffers).",
                Verdict.lines(SWEEP).get(5));
    }

    @Test
    void figuresWithinTheRoundsSpreadAreNoMeasurableDifference() {
        List<SweepPair> pairs = SweepPairs.of(SweepFixtures.sweep(List.of()).runs(), List.of());
        SweepPair undertowTimer = pairs.get(1);
        SweepPair likeIt = new SweepPair(
                "undertow",
                "virtual",
                null,
                2000,
                null,
                Limit.NONE,
                "held",
                null,
                null,
                1.0,
                20.0,
                2000,
                new Spread(101, 99, 103, 3),
                null,
                null,
                null,
                null,
                null);
        assertEquals(
                "On undertow at 2,000 connections: virtual and timer: no measurable difference (101.0 vs 100.0 us,"
                        + " ranges overlap).",
                SweepVerdict.costs(List.of(undertowTimer, likeIt)));
        SweepPair oneRound = new SweepPair(
                "undertow",
                "virtual",
                null,
                2000,
                null,
                Limit.NONE,
                "held",
                null,
                null,
                1.0,
                20.0,
                2000,
                new Spread(150, 150, 150, 1),
                null,
                null,
                null,
                null,
                null);
        assertEquals(
                "On undertow at 2,000 connections: virtual costs 1.5x the CPU per request of timer (150.0 vs 100.0 us;"
                        + " one round: no spread to judge it by).",
                SweepVerdict.costs(List.of(undertowTimer, oneRound)));
    }

    /** An undertow pair held up to 2,000 whose CPU per request there is {@code cpu}. */
    private static SweepPair costing(String strategy, Spread cpu) {
        return new SweepPair(
                "undertow",
                strategy,
                null,
                2000,
                null,
                Limit.NONE,
                "held",
                null,
                null,
                1.0,
                20.0,
                2000,
                cpu,
                null,
                null,
                null,
                null,
                null);
    }

    @Test
    void costsApartByLessThanOnePercentAreNotNamedAsTheVerdictsAreNot() {
        SweepPair timer = costing("timer", new Spread(100, 99.9, 100.1, 3));
        assertEquals(
                "On undertow at 2,000 connections: virtual and timer: no difference worth naming (100.5 vs 100.0 us:"
                        + " the ranges do not overlap, but that is under 1 %).",
                SweepVerdict.costs(List.of(timer, costing("virtual", new Spread(100.5, 100.3, 100.7, 3)))));
        assertEquals(
                "On undertow at 2,000 connections: virtual costs 1.0x the CPU per request of timer (101.5 vs 100.0 us,"
                        + " the ranges do not overlap).",
                SweepVerdict.costs(List.of(timer, costing("virtual", new Spread(101.5, 101.3, 101.7, 3)))),
                "1.5 %: named");
    }

    @Test
    void theServersAreSetAgainstEachOtherOnlyAtTheConcurrencyNearest2000() {
        List<String> lines = Verdict.lines(SWEEP);
        assertEquals(13, lines.size(), String.join("\n", lines));
        assertEquals("C=2000 undertow/timer vs vertx/timer:", lines.get(6));
        assertTrue(lines.get(7).startsWith("  req/s"), lines.get(7));
    }

    @Test
    void theConsoleAndThePageCarryThePairsAndTheCurves() {
        String table = ConsoleTable.render(SWEEP);
        assertTrue(
                table.matches("(?s).*\nundertow\\s+blocking\\s+\\+0\\.5\\s+\\+100\\.0\\s+200\\.0"
                        + " \\(198\\.0-202\\.0\\)\\s+2,000\\s+160\\.0 / 40\\.0"
                        + "\\s+1,500 \\(held 1,000, not held 2,000\\)\\s+server\n.*"),
                table);
        assertTrue(table.contains("\nvertx     timer "), table);
        assertTrue(
                table.matches("(?s).*\nvertx\\s+timer\\s.*\\s+not found: generator limit at 2,000 \\(held"
                        + " 1,000\\)\\s+generator\n.*"),
                table);
        String html = HtmlReport.render(SWEEP);
        assertTrue(
                html.contains("\"pairs\":[{\"server\":\"undertow\",\"strategy\":\"blocking\",\"breakingPoint\":1500,"
                        + "\"heldAt\":1000,\"notHeldAt\":2000,\"limit\":\"server\""),
                "the pairs");
        assertTrue(html.contains("curve('curve-rss', 'Peak RSS'"), "the curves");
        assertTrue(
                html.contains("\"readings\":[\"1,500 (held 1,000, not held 2,000)\""), "each breaking point in words");
    }

    private static SweepPair pair(String label, Integer breakingPoint, int heldAt, Integer notHeldAt, String limit) {
        String[] names = label.split("/");
        return new SweepPair(
                names[0],
                names[1],
                breakingPoint,
                heldAt,
                notHeldAt,
                Limit.of(limit),
                limit + "'s limit",
                notHeldAt,
                null,
                null,
                null,
                2000,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    @Test
    void breakingPointsAreSetAgainstEachOtherOnlyWhereBothAreTheServersOwn() {
        SweepPair blocking = pair("undertow/blocking", 6900, 6560, 7190, "server");
        SweepPair virtual = pair("undertow/virtual", 13000, 12500, 13700, "server");
        SweepPair close = pair("vertx/blocking", 7000, 6800, 7300, "server");
        SweepPair timer = pair("vertx/timer", null, 9500, 10000, "generator");
        assertEquals(
                "Breaking points where the server itself is the limit: undertow/blocking 6,900 (held 6,560, not held"
                        + " 7,190),"
                        + " vertx/blocking 7,000 (held 6,800, not held 7,300), undertow/virtual 13,000 (held 12,500,"
                        + " not held 13,700):"
                        + " vertx/blocking and undertow/blocking: not told apart (their intervals overlap);"
                        + " undertow/virtual holds 1.9x the"
                        + " connections undertow/blocking does. Not compared, their limit not the server's:"
                        + " vertx/timer, not found:"
                        + " generator limit at 10,000 (held 9,500).",
                SweepVerdict.breakingPoints(List.of(blocking, virtual, close, timer)));
        assertEquals(
                "Breaking points: none set against another: no pair has the server as its limit. Not compared, their"
                        + " limit"
                        + " not the server's: vertx/timer, not found: generator limit at 10,000 (held 9,500);"
                        + " undertow/timer, not found:"
                        + " machine limit at 20,000 (held 19,000).",
                SweepVerdict.breakingPoints(List.of(
                        timer,
                        new SweepPair(
                                "undertow",
                                "timer",
                                null,
                                19000,
                                null,
                                Limit.MACHINE,
                                "the machine's limit",
                                20000,
                                null,
                                null,
                                null,
                                2000,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null))));
        assertEquals(null, SweepVerdict.breakingPoints(List.of(blocking)), "one pair: nothing to set it against");
    }

    @Test
    void theReadmesTableCarriesEachBreakingPointItsIntervalAndLimit() {
        String table = SweepTable.markdown(SweepPairs.of(SWEEP));
        assertEquals(
                "| server, strategy | breaking point | held at | not held at | limit | ends measured again |"
                        + " peak RSS MB per 1,000 connections | server CPU µs/request (at C) |",
                table.lines().findFirst().orElseThrow());
        assertEquals(
                "| undertow, blocking | 1,500 | 1,000 | 2,000 | the server's limit (its CPUs full in most rounds not"
                        + " held, in a minority at the held end; the generator not short of CPU time): at 2,000: 80.0 %"
                        + " of the bound, server CPU 99 % (99-99, full in 3/3), generator CPU 30 % (30-30, full in"
                        + " 0/3), accept-queue drops in 0/3, failed requests 0 (in 0/3); held end 1,000: 99.0 % of"
                        + " the bound, server CPU 50 % (50-50, full in 0/3), generator CPU 30 % (30-30, full in 0/3),"
                        + " accept-queue drops in 0/3, failed requests 0 (in 0/3) | - | +100.0 | 200.0"
                        + " (198.0–202.0) (2,000) |",
                table.lines().toList().get(2));
        assertTrue(
                table.lines()
                        .toList()
                        .get(4)
                        .startsWith("| vertx, timer | not found: generator limit at 2,000 | 1,000 | 2,000 |"
                                + " the generator's limit (its CPUs full"),
                table);
        assertEquals("", SweepTable.markdown(List.of()));
    }
}
