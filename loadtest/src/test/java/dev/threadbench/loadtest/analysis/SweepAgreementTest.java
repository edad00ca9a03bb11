package dev.threadbench.loadtest.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.model.Limit;
import dev.threadbench.loadtest.model.Spread;
import dev.threadbench.loadtest.model.SweepPair;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Two sweeps set against each other: their pairs' intervals, the pairs' order, the machine's pace. */
class SweepAgreementTest {

    private static SweepPair pair(String strategy, Integer heldAt, Integer notHeldAt, Limit limit) {
        return pair(strategy, heldAt, notHeldAt, limit, null);
    }

    /** A pair with its CPU per request at 2,000 connections ({@code cpu}, null for none). */
    private static SweepPair pair(String strategy, Integer heldAt, Integer notHeldAt, Limit limit, Spread cpu) {
        return new SweepPair(
                "vertx", strategy, null, heldAt, notHeldAt, limit, "", notHeldAt, null, null, null, 2000, cpu, null,
                null, null, null, null);
    }

    @Test
    void twoSweepsAgreeWhenEveryPairsIntervalsOverlapWhateverTheirLabels() {
        List<SweepPair> first =
                List.of(pair("blocking", 3200, 3500, Limit.SERVER), pair("timer", 10000, 11000, Limit.SERVER));
        List<SweepPair> second =
                List.of(pair("blocking", 3400, 3700, Limit.UNEXPLAINED), pair("timer", 9000, 10500, Limit.SERVER));
        assertEquals(
                "agree: every pair's intervals overlap (2 pairs), and where two pairs' intervals are apart (1 time),"
                        + " they"
                        + " come in the same order in both",
                SweepAgreement.agree(first, second));
    }

    @Test
    void twoSweepsDisagreeOnIntervalsApartAndOnPairsInTheOppositeOrder() {
        List<SweepPair> first =
                List.of(pair("timer", 7500, 8000, Limit.SERVER), pair("virtual", 9000, 9500, Limit.SERVER));
        List<SweepPair> second =
                List.of(pair("timer", 10000, 11000, Limit.SERVER), pair("virtual", 5500, 6000, Limit.SERVER));
        String agree = SweepAgreement.agree(first, second);
        assertTrue(
                agree.startsWith("disagree: vertx/timer intervals apart: 7,500-8,000 and 10,000-11,000; vertx/virtual"
                        + " intervals apart: 9,000-9,500 and 5,500-6,000; vertx/timer and vertx/virtual in"
                        + " the opposite order"),
                agree);
        assertEquals(
                "disagree: vertx/timer held at every concurrency in one sweep only",
                SweepAgreement.agree(
                        List.of(pair("timer", 10000, null, Limit.NONE)),
                        List.of(pair("timer", 9000, 10000, Limit.SERVER))));
    }

    private static SweepPair paced(String strategy, double median, double min, double max) {
        return pair(strategy, 4000, 5000, Limit.SERVER, new Spread(median, min, max, 3));
    }

    @Test
    void aPaceThatMovedInOneBuildIsTheMachinesAndInTwoBuildsIsNotToldApart() {
        List<SweepPair> before = List.of(paced("blocking", 40, 39, 41), paced("timer", 30, 29, 31));
        List<SweepPair> slower = List.of(paced("blocking", 50, 49, 51), paced("timer", 37.5, 36.5, 38.5));
        assertEquals(
                "CPU per request at 2,000 connections: 1.25x the baseline's (median of 2 pairs, 1.25x-1.25x), beyond"
                        + " the rounds' spread in 2: one build in both, so the machine ran slower, and a breaking"
                        + " point its server's core sets comes lower by about as much",
                SweepAgreement.pace(before, slower, true));
        assertTrue(
                SweepAgreement.pace(slower, before, true)
                        .endsWith("the machine ran faster, and a breaking point its"
                                + " server's core sets comes higher by about as much"),
                SweepAgreement.pace(slower, before, true));
        assertTrue(SweepAgreement.pace(before, slower, false)
                .endsWith(": the builds differ, so the machine's pace and the code's cost are not told apart"));
    }

    @Test
    void aPaceWithinTheRoundsSpreadIsTheSame() {
        List<SweepPair> before = List.of(paced("blocking", 40, 36, 44), paced("timer", 30, 29, 31));
        List<SweepPair> after = List.of(paced("blocking", 42, 38, 46), paced("timer", 34, 33, 35));
        assertEquals(
                "CPU per request at 2,000 connections: 1.09x the baseline's (median of 2 pairs, 1.05x-1.13x), beyond"
                        + " the rounds' spread in 1: the same pace as far as the rounds show",
                SweepAgreement.pace(before, after, true));
        assertEquals(
                null, SweepAgreement.pace(List.of(pair("timer", 1, 2, Limit.SERVER)), after, true), "no CPU figure");
    }
}
