package dev.threadbench.loadtest.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.model.Hold;
import dev.threadbench.loadtest.model.Limit;
import dev.threadbench.loadtest.model.Note;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.ResultsFixtures;
import dev.threadbench.loadtest.model.Run;
import dev.threadbench.loadtest.model.SweepFixtures;
import dev.threadbench.loadtest.model.SweepPair;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Memory per 1,000 connections, CPU at 2000 and breaking points, from a sweep's cells. */
class SweepPairsTest {

    private static List<SweepPair> pairs(List<Results.Skipped> skipped) {
        Results results = SweepFixtures.sweep(skipped);
        return SweepPairs.of(results.runs(), results.skipped());
    }

    @Test
    void theSlopeIsTheLeastSquaresLine() {
        assertEquals(2.0, SweepPairs.slope(List.of(new double[] {1, 3}, new double[] {2, 5}, new double[] {3, 7})));
        assertEquals(
                0.4,
                SweepPairs.slope(
                        List.of(new double[] {0, 0}, new double[] {2, 2}, new double[] {4, 1}, new double[] {6, 3})),
                1e-9,
                "a noisy line: the least-squares fit, not the end points");
        assertNull(SweepPairs.slope(List.of(new double[] {1000, 3})));
        assertNull(SweepPairs.slope(List.of(new double[] {1000, 3}, new double[] {1000, 5})));
    }

    @Test
    void eachPairGetsItsMemoryPerThousandConnectionsAndCpuAt2000() {
        List<SweepPair> pairs = pairs(List.of());
        assertEquals(
                List.of("undertow/blocking", "undertow/timer", "vertx/timer"),
                pairs.stream().map(SweepPair::label).toList());
        SweepPair blocking = pairs.getFirst();
        assertEquals(0.5, blocking.heapMbPer1000());
        assertEquals(100.0, blocking.rssMbPer1000());
        assertEquals(2000, blocking.cpuConcurrency());
        assertEquals(200.0, blocking.cpuMicrosPerRequest().median(), 1e-9);
        assertEquals(160.0, blocking.cpuUserMicrosPerRequest().median(), 1e-9);
        assertEquals(20.0, pairs.get(1).rssMbPer1000());
    }

    @Test
    void theBreakingPointIsTheLargestConcurrencyHeldAndSaysWhatStoppedIt() {
        List<SweepPair> pairs = pairs(List.of());
        SweepPair blocking = pairs.get(0);
        assertEquals(1000, blocking.heldAt());
        assertEquals(2000, blocking.notHeldAt());
        assertEquals(1500, blocking.breakingPoint(), "between the two, readable");
        assertEquals(Limit.SERVER, blocking.limit());
        assertEquals(2000, blocking.limitAt());
        assertDetailStartsWith(
                blocking,
                "the server's limit (its CPUs full in most rounds not held, in a minority at the held end; the"
                        + " generator not short of CPU time): at 2,000: 80.0 % of the bound");
        assertEquals("1,500 (held 1,000, not held 2,000)", blocking.reading());
        assertEquals(2000, pairs.get(1).heldAt());
        assertNull(pairs.get(1).notHeldAt());
        assertNull(pairs.get(1).breakingPoint());
        assertEquals(Limit.NONE, pairs.get(1).limit());
        assertEquals(
                "not found: held at every concurrency, up to 2,000",
                pairs.get(1).reading());
        SweepPair vertx = pairs.get(2);
        assertEquals(1000, vertx.heldAt());
        assertEquals(2000, vertx.notHeldAt());
        assertNull(vertx.breakingPoint(), "the generator's limit is never the server's breaking point");
        assertEquals(Limit.GENERATOR, vertx.limit());
        assertDetailStartsWith(
                vertx,
                "the generator's limit (its CPUs full in most rounds not held, in a minority at the held end; the"
                        + " server not short of CPU time): at 2,000:"
                        + " 90.0 % of the bound, server CPU 50 % (50-50, full in 0/3), generator CPU"
                        + " 95 % (95-95, full in 3/3)");
        assertEquals("not found: generator limit at 2,000 (held 1,000)", vertx.reading());
    }

    @Test
    void aServerAtFullCpuInMostRoundsIsTheLimitEvenWhereTheGeneratorWasOnceToo() {
        List<Run> runs = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            for (int c : SweepFixtures.CONCURRENCIES) {
                boolean top = c == 2000;
                runs.add(SweepFixtures.run(
                        "undertow",
                        "blocking",
                        c,
                        round,
                        new SweepFixtures.Point(top ? 0.7 : 0.99, 0, 100, 10, 10, top && round == 0, top)));
            }
        }
        SweepPair pair = SweepPairs.of(runs, List.of()).getFirst();
        assertEquals(1000, pair.heldAt());
        assertEquals(1500, pair.breakingPoint());
        assertEquals(Limit.SERVER, pair.limit());
        assertDetailStartsWith(
                pair,
                "the server's limit (its CPUs full in most rounds not held, in a minority at the held end; the"
                        + " generator not short of CPU time): at 2,000: 70.0 % of the bound, server CPU 99 % (99-99,"
                        + " full in 3/3), generator CPU 30 % (30-95, full in 1/3)");
    }

    @Test
    void aConcurrencyTheMachineCouldNotHoldIsTheLimitOfAPairThatHeldEveryOther() {
        SweepPair timer = pairs(List.of(new Results.Skipped(5000, "the descriptor limit (ulimit -n) is 4,096")))
                .get(1);
        assertEquals(2000, timer.heldAt());
        assertNull(timer.breakingPoint());
        assertEquals(Limit.MACHINE, timer.limit());
        assertEquals(5000, timer.limitAt());
        assertEquals(
                "the machine's limit: 5,000 not run: the descriptor limit (ulimit -n) is 4,096", timer.limitDetail());
        assertEquals("not found: machine limit at 5,000 (held 2,000)", timer.reading());
    }

    @Test
    void aLowerConcurrencyThatFellShortDoesNotMoveTheBreakingPointButIsNamed() {
        List<Run> runs = SweepFixtures.pair(
                "vertx", "virtual", c -> new SweepFixtures.Point(c == 500 ? 0.94 : 0.99, 0, 100, 10, 10, false));
        SweepPair pair = SweepPairs.of(runs, List.of()).getFirst();
        assertEquals(2000, pair.heldAt());
        assertEquals(Limit.NONE, pair.limit());
        assertEquals("held at the largest swept concurrency, 2,000", pair.limitDetail());
        assertEquals("500 (94.0 % of the bound, 0 failed)", pair.shortBelow());
        assertEquals(
                "vertx/virtual holds the bound (in every round, every reading pooled: a round at >= 95 %"
                        + " of the bound without a failed request) up to the largest swept concurrency, 2,000"
                        + " (short of it or failures below, at 500 (94.0 % of the bound, 0 failed)).",
                SweepVerdict.holding(pair));
    }

    @Test
    void failuresBreakEvenAtTheBound() {
        Cell failing = Cell.of(List.of(SweepFixtures.run(
                        "vertx", "virtual", 500, 0, new SweepFixtures.Point(1.0, 3, 100, 10, 10, false))))
                .getFirst();
        assertEquals(false, SweepPairs.holds(failing));
    }

    @Test
    void narrowedInTheBreakingPointIsANumberBetweenTheLastHeldAndTheFirstNotHeld() {
        List<Run> runs = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            for (int c : List.of(5000, 10000, 7500, 6300, 6900, 6600)) {
                runs.add(SweepFixtures.run(
                        "undertow",
                        "blocking",
                        c,
                        round,
                        new SweepFixtures.Point(c <= 6600 ? 0.99 : 0.8, 0, 100, 10, 10, false, c > 6600)));
            }
        }
        SweepPair pair = SweepPairs.of(runs, List.of()).getFirst();
        assertEquals(6600, pair.heldAt());
        assertEquals(6900, pair.notHeldAt());
        assertEquals(6800, pair.breakingPoint());
        assertEquals("6,800 (held 6,600, not held 6,900)", pair.reading());
        assertEquals(300 / 6600.0, pair.interval(), 1e-9);
        assertTrue(pair.serverLimited());
    }

    /** The pair's limit detail begins with {@code prefix}; the whole detail is the message when it does not. */
    private static void assertDetailStartsWith(SweepPair pair, String prefix) {
        assertTrue(pair.limitDetail().startsWith(prefix), pair.limitDetail());
    }

    /** undertow/blocking over the fixtures' concurrencies, 3 rounds, each round at 2000 given by {@code top}. */
    private static SweepPair breakingAt2000(java.util.function.IntFunction<Run> top) {
        List<Run> runs = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            for (int c : List.of(250, 500, 1000)) {
                runs.add(SweepFixtures.run(
                        "undertow", "blocking", c, round, new SweepFixtures.Point(0.99, 0, 100, 10, 10, false)));
            }
            runs.add(top.apply(round));
        }
        return SweepPairs.of(runs, List.of()).getFirst();
    }

    private static Run at2000(int round, boolean generatorFull, boolean serverFull) {
        return SweepFixtures.run(
                "undertow",
                "blocking",
                2000,
                round,
                new SweepFixtures.Point(0.8, 0, 100, 10, 10, generatorFull, serverFull));
    }

    @Test
    void aServerFullInOnlyOneRoundOfThreeIsNotTheServersLimitButUnexplainedWithItsEvidence() {
        SweepPair pair = breakingAt2000(round -> at2000(round, false, round == 0));
        assertEquals(Limit.UNEXPLAINED, pair.limit());
        assertNull(pair.breakingPoint(), "no breaking point of the server's own without evidence");
        assertEquals("unexplained: not held at 2,000 (held 1,000)", pair.reading());
        assertEquals(
                "unexplained (in most rounds not held neither side's CPUs full nor its threads starved, no worker"
                        + " pool full, no accept-queue drops): at 2,000: 80.0 %"
                        + " of the bound, server CPU 50 % (50-99, full in 1/3), generator CPU 30 % (30-30, full in"
                        + " 0/3), accept-queue drops"
                        + " in 0/3, failed requests 0 (in 0/3); held end 1,000: 99.0 % of the bound, server CPU 50 %"
                        + " (50-50, full in 0/3), generator CPU 30 % (30-30, full in 0/3), accept-queue drops in 0/3,"
                        + " failed requests 0 (in 0/3)",
                pair.limitDetail());
        assertEquals(false, pair.serverLimited());
    }

    @Test
    void bothSidesFullIsUnexplainedAndTheGeneratorAloneIsTheGenerators() {
        SweepPair both = breakingAt2000(round -> at2000(round, true, true));
        assertEquals(Limit.UNEXPLAINED, both.limit());
        assertDetailStartsWith(
                both,
                "unexplained (both sides short in most rounds not held: the server's CPUs full; the generator's CPUs"
                        + " full)");
        assertEquals(
                Limit.GENERATOR,
                breakingAt2000(round -> at2000(round, round > 0, false)).limit(),
                "2/3 rounds: most");
        assertEquals(
                Limit.UNEXPLAINED,
                breakingAt2000(round -> at2000(round, round == 0, false)).limit(),
                "1/3: not most");
    }

    @Test
    void aWorkerPoolHeldByDelayedRequestsIsTheServersLimitWhereTheGeneratorWasNotShort() {
        SweepPair pair =
                breakingAt2000(round -> at2000(round, false, false).inPhase(Run.Phase.GRID, round == 2 ? 0.5 : 0.97));
        assertEquals(Limit.SERVER, pair.limit());
        assertEquals(1500, pair.breakingPoint());
        assertDetailStartsWith(
                pair,
                "the server's limit (its worker pool held by delayed requests in most rounds not held, in a minority"
                        + " at the held end; the generator not short of CPU time): at 2,000: 80.0 % of the bound,"
                        + " server CPU 50 % (50-50, full in 0/3), generator CPU 30 % (30-30, full in 0/3),"
                        + " worker pool 97 % (50-97, full in 2/3)");
    }

    @Test
    void aFullWorkerPoolBesideAGeneratorShortOfCpuTimeIsUnexplained() {
        SweepPair pair =
                breakingAt2000(round -> at2000(round, true, false).inPhase(Run.Phase.GRID, round == 2 ? 0.5 : 0.97));
        assertEquals(Limit.UNEXPLAINED, pair.limit(), "the generator's CPUs full in 3/3: the pool does not outrank it");
        assertNull(pair.breakingPoint());
        assertDetailStartsWith(
                pair,
                "unexplained (both sides short in most rounds not held: the server's worker pool held by delayed"
                        + " requests; the generator's CPUs full)");
    }

    /** undertow/blocking: 250 and 500 held, then 1,000 and 2,000 as the test gives them, 3 rounds. */
    private static SweepPair heldEndAndTop(
            java.util.function.IntFunction<Run> at1000, java.util.function.IntFunction<Run> at2000) {
        List<Run> runs = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            for (int c : List.of(250, 500)) {
                runs.add(SweepFixtures.run(
                        "undertow", "blocking", c, round, new SweepFixtures.Point(0.99, 0, 100, 10, 10, false)));
            }
            runs.add(at1000.apply(round));
            runs.add(at2000.apply(round));
        }
        return SweepPairs.of(runs, List.of()).getFirst();
    }

    private static Run heldAt1000(int round) {
        return SweepFixtures.run(
                "undertow", "blocking", 1000, round, new SweepFixtures.Point(0.99, 0, 100, 10, 10, false));
    }

    @Test
    void evidenceAlsoShownAtTheHeldEndDoesNotNameTheServerButAMinorityThereStillDoes() {
        String starved = Note.SERVER_STARVED.write("its request threads waited 90.0 us per request on the run queue");
        SweepPair both = heldEndAndTop(
                round -> withNote(heldAt1000(round), starved), round -> withNote(at2000(round, false, false), starved));
        assertEquals(1000, both.heldAt());
        assertEquals(Limit.UNEXPLAINED, both.limit(), "starved in 3/3 where it held too: it separates nothing");
        assertNull(both.breakingPoint());
        assertDetailStartsWith(
                both,
                "unexplained (the server's threads starved of CPU time in most rounds not held, but at the held end"
                        + " too: it does not tell them apart): at 2,000");
        assertTrue(both.limitDetail().contains("; held end 1,000: 99.0 % of the bound"), both.limitDetail());
        assertTrue(both.limitDetail().contains("starved in 3/3"), both.limitDetail());

        SweepPair minority = heldEndAndTop(
                round -> round == 0 ? withNote(heldAt1000(round), starved) : heldAt1000(round),
                round -> withNote(at2000(round, false, false), starved));
        assertEquals(Limit.SERVER, minority.limit(), "starved in 1/3 at the held end, 3/3 not held: clearly weaker");
        assertEquals(1500, minority.breakingPoint());

        SweepPair two = heldEndAndTop(
                round -> round < 2 ? withNote(heldAt1000(round), starved) : heldAt1000(round),
                round -> withNote(at2000(round, false, false), starved));
        assertEquals(Limit.UNEXPLAINED, two.limit(), "starved in 2/3 at the held end: not a minority");
    }

    @Test
    void aPoolFullAtAHeldEndRightAtItsSizeStillLetsTheFullPoolAboveNameTheServer() {
        SweepPair pair = heldEndAndTop(
                round -> heldAt1000(round).inPhase(Run.Phase.GRID, 0.95),
                round -> at2000(round, false, false).inPhase(Run.Phase.GRID, 0.97));
        assertEquals(Limit.SERVER, pair.limit(), "at 1,000 the full pool gave 99 % of the bound: it sufficed there");
        assertDetailStartsWith(pair, "the server's limit (its worker pool held by delayed requests in most rounds not");
        assertTrue(pair.limitDetail().contains("held end 1,000: 99.0 % of the bound"), pair.limitDetail());
        assertTrue(
                pair.limitDetail()
                        .endsWith("worker pool 95 % (95-95, full in 3/3), accept-queue drops in 0/3, failed"
                                + " requests 0 (in 0/3)"),
                pair.limitDetail());
    }

    @Test
    void aPointMissedOnlyThroughFailedRequestsIsNotLabelledByCpuEvidence() {
        SweepPair pair = breakingAt2000(round -> SweepFixtures.run(
                "undertow", "blocking", 2000, round, new SweepFixtures.Point(0.99, 5, 100, 10, 10, false, true)));
        assertEquals(2000, pair.notHeldAt(), "99 % of the bound, but failures in every round");
        assertEquals(Limit.UNEXPLAINED, pair.limit(), "the server's CPUs full in 3/3, but they did not stop it");
        assertNull(pair.breakingPoint());
        assertDetailStartsWith(
                pair,
                "unexplained (failed requests: most rounds not held reached the rate and failed only through failed"
                        + " requests, which CPU time does not explain): at 2,000: 99.0 % of the bound");
        assertTrue(pair.limitDetail().contains("failed requests 15 (in 3/3)"), pair.limitDetail());
    }

    @Test
    void theEvidenceIsReadWhereHoldingFirstFailedNotAtTheDeeperNotHeldEnd() {
        List<Run> runs = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            for (int c : List.of(250, 500, 1000)) {
                runs.add(SweepFixtures.run(
                        "undertow", "blocking", c, round, new SweepFixtures.Point(0.99, 0, 100, 10, 10, false)));
            }
            // 1,500: held in rounds 1 and 2; round 0 fell short with the server's CPUs full
            runs.add(SweepFixtures.run(
                    "undertow",
                    "blocking",
                    1500,
                    round,
                    new SweepFixtures.Point(round == 0 ? 0.8 : 0.99, 0, 100, 10, 10, false, round == 0)));
            // 2,000, deeper: both sides full, which alone would leave it unexplained
            runs.add(at2000(round, true, true));
        }
        SweepPair pair = SweepPairs.of(runs, List.of()).getFirst();
        assertEquals(1000, pair.heldAt());
        assertEquals(2000, pair.notHeldAt());
        assertEquals(1500, pair.limitAt(), "the band's lowest: where a round first did not hold");
        assertEquals(Limit.SERVER, pair.limit());
        assertDetailStartsWith(
                pair,
                "the server's limit (its CPUs full in most rounds not held, in a minority at the held end; the"
                        + " generator not short of CPU time): at 1,500 (the 1 of its 3 rounds not held): 79.2 % of"
                        + " the bound, server CPU 99 % (full in 1/1), generator CPU 30 % (full in 0/1)");
    }

    @Test
    void aPairThatHeldNowhereHasNoHeldEndToSetItsEvidenceAgainst() {
        List<Run> runs = SweepFixtures.pair(
                "undertow", "blocking", c -> new SweepFixtures.Point(0.5, 0, 100, 10, 10, false, true));
        SweepPair pair = SweepPairs.of(runs, List.of()).getFirst();
        assertNull(pair.heldAt());
        assertEquals(250, pair.notHeldAt());
        assertNull(pair.breakingPoint());
        assertEquals(Limit.UNEXPLAINED, pair.limit());
        assertDetailStartsWith(pair, "unexplained (it held nowhere: no held end to set the evidence against)");
        assertEquals("unexplained: not held at 250", pair.reading());
    }

    @Test
    void aPairWhoseEndRunsWereAllLostInASweepThatMeasuredEndsIsUnconfirmed() {
        List<Run> runs = new ArrayList<>(readings(Map.of(5000, 0.99, 10000, 0.99, 11000, 0.8), Map.of()));
        runs.add(SweepFixtures.run("undertow", "timer", 250, 0, new SweepFixtures.Point(0.99, 0, 100, 10, 10, false))
                .inPhase(Run.Phase.ENDS, null));
        SweepPair lost = SweepPairs.of(runs, List.of()).stream()
                .filter(p -> p.label().equals("vertx/timer"))
                .findFirst()
                .orElseThrow();
        assertEquals(10000, lost.heldAt());
        assertEquals(Limit.SERVER, lost.limit());
        assertNull(lost.breakingPoint(), "its ends were never measured again");
        assertEquals(false, lost.serverLimited());
        assertEquals("not both measured again", lost.ends().verdict());
        assertEquals("unconfirmed: held 10,000 and not held 11,000 not both measured again", lost.reading());

        SweepPair before = SweepPairs.of(readings(Map.of(5000, 0.99, 10000, 0.99, 11000, 0.8), Map.of()), List.of())
                .getFirst();
        assertEquals(
                10500, before.breakingPoint(), "a sweep that measured no end again (before they were) still reads");
    }

    @Test
    void aConcurrencyBelowTheHeldEndHeldInNoRoundMakesThePairNonMonotone() {
        SweepPair pair = SweepPairs.of(
                        readings(Map.of(2000, 0.99, 5000, 0.8, 10000, 0.99, 11000, 0.8), Map.of()), List.of())
                .getFirst();
        assertEquals(10000, pair.heldAt());
        assertEquals(List.of(5000), pair.notHeldBelow());
        assertTrue(pair.nonMonotone());
        assertNull(pair.breakingPoint());
        assertEquals(false, pair.serverLimited());
        assertEquals(
                "non-monotone: held 10,000, not held 11,000, and below the held end not held at 5,000", pair.reading());
        assertTrue(pair.shortBelow().startsWith("5,000 (80.0 % of the bound"), pair.shortBelow());

        List<Run> once = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            for (int c : List.of(2000, 5000, 10000, 11000)) {
                double ratio = c == 11000 || (c == 5000 && round == 0) ? 0.8 : 0.99;
                once.add(SweepFixtures.run(
                        "vertx",
                        "timer",
                        c,
                        round,
                        new SweepFixtures.Point(ratio, 0, 100, 10, 10, false, ratio < 0.95)));
            }
        }
        SweepPair mixed = SweepPairs.of(once, List.of()).getFirst();
        assertNull(mixed.notHeldBelow(), "held in 2 of 3 rounds below: listed, not a reversal");
        assertEquals(10500, mixed.breakingPoint());
    }

    @Test
    void requestThreadsStarvedInMostRoundsAreTheServersLimitThoughItsCpusReadFullInOne() {
        String starved = Note.SERVER_STARVED.write("its request threads waited 90.0 us per request on the run queue");
        SweepPair pair = breakingAt2000(round -> withNote(at2000(round, false, round == 0), starved));
        assertEquals(Limit.SERVER, pair.limit());
        assertEquals(1500, pair.breakingPoint());
        assertDetailStartsWith(
                pair,
                "the server's limit (its threads starved of CPU time in most rounds not held, in a minority at the"
                        + " held end; the generator not short of CPU time): at 2,000: 80.0 % of the bound, server CPU"
                        + " 50 % (50-99, full in 1/3, starved in 3/3), generator CPU 30 % (30-30, full in 0/3)");
        assertEquals(
                Limit.SERVER,
                breakingAt2000(round -> round == 2
                                ? withNote(at2000(round, false, false), starved)
                                : at2000(round, false, round == 0))
                        .limit(),
                "full in round 1, starved in round 3: short of CPU time in 2/3");
        assertEquals(
                Limit.UNEXPLAINED,
                breakingAt2000(round -> round == 2
                                ? withNote(at2000(round, false, false), starved)
                                : at2000(round, false, false))
                        .limit(),
                "starved in 1/3 only");
    }

    @Test
    void starvedEventLoopsAreTheGeneratorsLimitAndBothSidesShortAreUnexplained() {
        String generatorStarved = Note.GENERATOR_STARVED.write("its event loops waited 30.0 us per request");
        SweepPair generator = breakingAt2000(round -> withNote(at2000(round, false, false), generatorStarved));
        assertEquals(Limit.GENERATOR, generator.limit());
        assertDetailStartsWith(generator, "the generator's limit (its threads starved of CPU time in most rounds not");
        SweepPair both = breakingAt2000(round -> withNote(at2000(round, false, true), generatorStarved));
        assertEquals(Limit.UNEXPLAINED, both.limit());
        assertDetailStartsWith(
                both,
                "unexplained (both sides short in most rounds not held: the server's CPUs full; the generator's"
                        + " threads starved of CPU time)");
        assertNull(both.breakingPoint());
    }

    @Test
    void acceptQueueDropsInMostRoundsAreTheMachinesLimit() {
        SweepPair pair = breakingAt2000(round -> {
            Run run = at2000(round, false, true);
            return round == 0 ? run : withNote(run, Note.KERNEL_DROPS.write("1,200 connection attempts dropped"));
        });
        assertEquals(Limit.MACHINE, pair.limit());
        assertNull(pair.breakingPoint());
        assertTrue(pair.limitDetail().contains("accept-queue drops in 2/3"), pair.limitDetail());
    }

    private static Run withNote(Run r, String note) {
        return ResultsFixtures.flat(
                r.server(),
                r.strategy(),
                r.concurrency(),
                r.engine(),
                r.round(),
                r.load().requests(),
                r.load().failed(),
                r.load().durationSeconds(),
                r.load().requestsPerSecond(),
                r.load().bound(),
                r.load().ratioToBound(),
                r.latency().latencyMs(),
                r.serverSide().cpuSeconds(),
                r.serverSide().cpuMicrosPerRequest(),
                r.serverSide().cpuShare(),
                r.serverSide().peakRssMb(),
                r.generatorSide().cpuSeconds(),
                r.generatorSide().cpuShare(),
                r.serverSide().cpuBound(),
                r.generatorSide().cpuBound(),
                r.reconciliation(),
                r.load().connectionsOpened(),
                r.serverSide().exitCode(),
                r.latency().percentiles(),
                List.of(note),
                r.serverSide().cost(),
                r.open(),
                r.cluster().agents(),
                r.cluster().coordination(),
                r.timeline(),
                r.generatorSide().threads(),
                r.load().warmupSeconds(),
                r.phase(),
                r.serverSide().workerPoolShare());
    }

    @Test
    void aRoundWithAFailedRequestDoesNotHoldSoOneInThreeLeavesThePointHeldInSomeRoundsOnly() {
        java.util.function.IntFunction<Cell> failingIn = failing -> Cell.of(java.util.stream.IntStream.range(0, 3)
                        .mapToObj(round -> SweepFixtures.run(
                                "vertx",
                                "virtual",
                                500,
                                round,
                                new SweepFixtures.Point(0.99, round < failing ? 2 : 0, 100, 10, 10, false)))
                        .toList())
                .getFirst();
        assertEquals(Hold.HELD, SweepPairs.hold(failingIn.apply(0)));
        assertEquals(Hold.MIXED, SweepPairs.hold(failingIn.apply(1)), "held in 2 of 3 rounds: not in every one");
        assertEquals(false, SweepPairs.holds(failingIn.apply(1)));
        assertEquals(Hold.NOT_HELD, SweepPairs.hold(failingIn.apply(3)), "99 % of the bound, failures in every round");
        assertEquals(1, failingIn.apply(1).failedRounds());
    }

    /** Vert.x timer's grid 5,000 and 10,000 held, its narrowing 11,000 not; each reading again as the test gives. */
    private static List<Run> readingsAgain(Map<Integer, Double> again) {
        return readings(Map.of(5000, 0.99, 10000, 0.99, 11000, 0.8), again);
    }

    /**
     * Vert.x timer's first readings ({@code first}: concurrency to share of the bound, 3 rounds, the server's CPUs full
     * where it did not hold), the grid's below 11,000 and the narrowing's from it, and its readings again.
     */
    private static List<Run> readings(Map<Integer, Double> first, Map<Integer, Double> again) {
        List<Run> runs = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            for (Map.Entry<Integer, Double> e : new TreeMap<>(first).entrySet()) {
                runs.add(SweepFixtures.run(
                                "vertx",
                                "timer",
                                e.getKey(),
                                round,
                                new SweepFixtures.Point(e.getValue(), 0, 100, 10, 10, false, e.getValue() < 0.95))
                        .inPhase(e.getKey() >= 11000 ? Run.Phase.NARROWING : Run.Phase.GRID, null));
            }
            for (Map.Entry<Integer, Double> e : new TreeMap<>(again).entrySet()) {
                runs.add(SweepFixtures.run(
                                "vertx",
                                "timer",
                                e.getKey(),
                                round,
                                new SweepFixtures.Point(e.getValue(), 0, 100, 10, 10, false, e.getValue() < 0.95))
                        .inPhase(Run.Phase.ENDS, null));
            }
        }
        return runs;
    }

    @Test
    void endsMeasuredAgainAreSetBesideTheFirstReadingAndAgreeingTheyGiveTheBreakingPoint() {
        SweepPair agree = SweepPairs.of(readingsAgain(Map.of(10000, 0.98, 11000, 0.81)), List.of())
                .getFirst();
        assertEquals(10000, agree.heldAt(), "the ends measured again are not mixed into the first readings");
        assertEquals(11000, agree.notHeldAt());
        assertEquals(10500, agree.breakingPoint());
        assertTrue(agree.serverLimited());
        assertEquals(false, agree.nonMonotone());
        assertEquals("agree", agree.ends().verdict());
        assertEquals(
                "held 10,000: 99.0 % (grid, 3 rounds), again 98.0 % (ends, 3 rounds); not held 11,000: 80.0 %"
                        + " (narrowing,"
                        + " 3 rounds), again 81.0 % (ends, 3 rounds)",
                agree.ends().describe());
        assertTrue(agree.limitDetail().contains("full in 6/6"), "the limit from both readings' rounds: " + agree);
        assertEquals(
                List.of(),
                Cell.of(List.of(SweepFixtures.run(
                                "vertx", "timer", 10000, 0, new SweepFixtures.Point(0.99, 0, 100, 10, 10, false))
                        .inPhase(Run.Phase.ENDS, null))),
                "the tables' cells leave the ends measured again out");
    }

    @Test
    void aHeldEndNotHeldAgainWidensTheIntervalToTheNextHeldBelowWhichIsMeasuredAgainInTurn() {
        SweepPair widened = SweepPairs.of(readingsAgain(Map.of(10000, 0.808, 11000, 0.82)), List.of())
                .getFirst();
        assertEquals(5000, widened.heldAt(), "10,000 read held once and not held again: no end");
        assertEquals(11000, widened.notHeldAt());
        assertTrue(widened.nonMonotone());
        assertNull(widened.breakingPoint(), "no number before the new held end is measured again");
        assertEquals(false, widened.serverLimited(), "not set against another pair");
        assertEquals("unconfirmed, other readings disagree", widened.ends().verdict());
        assertEquals("unconfirmed: held 5,000 and not held 11,000 not both measured again", widened.reading());
        assertTrue(
                SweepVerdict.holding(widened)
                        .contains("; its ends measured again, UNCONFIRMED, OTHER READINGS DISAGREE: held 5,000: 99.0 %"
                                + " (grid, 3 rounds), again not measured"),
                SweepVerdict.holding(widened));

        SweepPair confirmed = SweepPairs.of(readingsAgain(Map.of(5000, 0.99, 10000, 0.808, 11000, 0.82)), List.of())
                .getFirst();
        assertEquals(5000, confirmed.heldAt());
        assertEquals(11000, confirmed.notHeldAt());
        assertEquals(8000, confirmed.breakingPoint(), "a number for the wider interval both of whose ends repeat");
        assertTrue(confirmed.serverLimited());
        assertTrue(confirmed.nonMonotone(), "the reading that disagrees is shown, not smoothed over");
        assertEquals("agree, other readings disagree", confirmed.ends().verdict());
        assertTrue(
                confirmed
                        .ends()
                        .describe()
                        .endsWith("; read otherwise the second time: 10,000: 99.0 % (grid, 3 rounds), again 80.8 %"
                                + " (ends, 3 rounds)"),
                confirmed.ends().describe());
    }

    @Test
    void aNotHeldEndHeldAgainWidensTheIntervalUpwards() {
        SweepPair pair = SweepPairs.of(
                        readings(
                                Map.of(5000, 0.99, 10000, 0.99, 11000, 0.8, 12000, 0.7),
                                Map.of(10000, 0.99, 11000, 0.97)),
                        List.of())
                .getFirst();
        assertEquals(10000, pair.heldAt());
        assertEquals(12000, pair.notHeldAt(), "11,000 read not held once and held again: no end");
        assertNull(pair.ends().notHeldAgain(), "12,000 still to be measured again");
        assertTrue(pair.nonMonotone());
    }

    @Test
    void aConcurrencyHeldInSomeRoundsOnlyIsNeitherEndButTheBandBetweenThemShown() {
        List<Run> runs = new ArrayList<>();
        double[][] tenThousand = {{0.99, 0.99, 0.8}, {0.99, 0.8, 0.8}};
        for (int round = 0; round < 3; round++) {
            for (int reading = 0; reading < 2; reading++) {
                Run.Phase phase = reading == 0 ? Run.Phase.GRID : Run.Phase.ENDS;
                for (int c : List.of(5000, 10000, 11000)) {
                    double ratio = c == 5000 ? 0.99 : c == 11000 ? 0.8 : tenThousand[reading][round];
                    runs.add(SweepFixtures.run(
                                    "vertx",
                                    "timer",
                                    c,
                                    round,
                                    new SweepFixtures.Point(ratio, 0, 100, 10, 10, false, ratio < 0.95))
                            .inPhase(c == 11000 && reading == 0 ? Run.Phase.NARROWING : phase, null));
                }
            }
        }
        SweepPair pair = SweepPairs.of(runs, List.of()).getFirst();
        assertEquals(5000, pair.heldAt());
        assertEquals(11000, pair.notHeldAt(), "10,000 held in 3 of 6 rounds: not an end");
        assertEquals(List.of(new SweepPair.Share(10000, 3, 6)), pair.band());
        assertTrue(pair.ends().agree(), "both ends alike twice: " + pair.ends().describe());
        assertEquals(8000, pair.breakingPoint(), "the band's middle");
        assertTrue(
                pair.endsReading().endsWith("; held in some rounds only: 10,000 (held in 3 of 6 rounds)"),
                pair.endsReading());
        assertTrue(
                pair.ends().describe().contains("not held 11,000: 80.0 % (narrowing, 3 rounds), again 80.0 %"),
                pair.ends().describe());
        Cell first = Cell.of(runs).stream()
                .filter(c -> c.concurrency() == 10000)
                .findFirst()
                .orElseThrow();
        assertTrue(
                SweepPairs.reading(first).describe().endsWith(" % (grid, 3 rounds, held in 2)"),
                SweepPairs.reading(first).describe());
    }

    @Test
    void withNothingAboveHeldInNoRoundTheFirstAboveIsTheEndAndNoNumber() {
        SweepPair pair = SweepPairs.of(
                        readings(
                                Map.of(5000, 0.99, 10000, 0.99, 11000, 0.8),
                                Map.of(5000, 0.99, 10000, 0.8, 11000, 0.97)),
                        List.of())
                .getFirst();
        assertEquals(5000, pair.heldAt());
        assertEquals(10000, pair.notHeldAt(), "held in 3 of 6 rounds, and nothing above held in none");
        assertEquals(false, pair.ends().agree(), "10,000 held in some rounds: no end that did not hold");
        assertEquals("disagree (non-monotone)", pair.ends().verdict());
        assertNull(pair.breakingPoint());
        assertTrue(
                pair.ends().describe().contains("read otherwise the second time: 11,000"),
                pair.ends().describe());
    }

    @Test
    void aReadingOtherwiseAboveTheIntervalIsStillShownWhenTheIntervalMovesDown() {
        SweepPair pair = SweepPairs.of(
                        readings(
                                Map.of(2000, 0.99, 5000, 0.8, 10000, 0.99, 11000, 0.8), Map.of(10000, 0.8, 11000, 0.8)),
                        List.of())
                .getFirst();
        assertEquals(2000, pair.heldAt());
        assertEquals(5000, pair.notHeldAt());
        assertTrue(pair.nonMonotone(), "10,000 held once, above the new interval");
        assertTrue(
                pair.ends()
                        .describe()
                        .endsWith("read otherwise the second time: 10,000: 99.0 % (grid, 3 rounds),"
                                + " again 80.0 % (ends, 3 rounds)"),
                pair.ends().describe());
    }

    @Test
    void theLowestHeldReadOtherwiseLeavesNoHeldEndButShowsBothReadings() {
        SweepPair pair = SweepPairs.of(readings(Map.of(250, 0.99, 500, 0.8), Map.of(250, 0.8, 500, 0.8)), List.of())
                .getFirst();
        assertNull(pair.heldAt());
        assertEquals(500, pair.notHeldAt(), "the first not held the first time, whose second reading agrees");
        assertNull(pair.breakingPoint());
        assertTrue(pair.nonMonotone());
        assertTrue(
                pair.endsReading()
                        .startsWith("ends measured again, UNCONFIRMED, OTHER READINGS DISAGREE: held at none; not held"
                                + " 500:"),
                pair.endsReading());
        assertTrue(pair.endsReading().contains("read otherwise the second time: 250: 99.0 %"), pair.endsReading());
    }

    @Test
    void readableNumbersBetweenTwoConcurrenciesStayInTheMiddleThird() {
        assertEquals(8000, ReadableNumber.between(5000, 10000));
        assertEquals(1500, ReadableNumber.between(1000, 2000));
        assertEquals(800, ReadableNumber.between(500, 1000));
        assertEquals(6800, ReadableNumber.between(6600, 6900));
        assertEquals(1050, ReadableNumber.between(1000, 1110));
        assertEquals(11, ReadableNumber.between(10, 12));
        assertNull(ReadableNumber.between(10, 11), "nothing whole between");
        assertEquals("10", ReadableNumber.percent(0.1));
        assertEquals("2.5", ReadableNumber.percent(0.025));
    }
}
