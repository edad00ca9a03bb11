package dev.threadbench.loadtest.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.ResultsFixtures;
import dev.threadbench.loadtest.model.Run;
import dev.threadbench.loadtest.model.ServerCost;
import dev.threadbench.loadtest.model.Spread;
import dev.threadbench.loadtest.report.ConsoleTable;
import dev.threadbench.loadtest.report.HtmlReport;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class VerdictTest {

    @Test
    void roundsMakeOneCellEachWithItsMedianAndRange() {
        List<Cell> cells = Cell.of(ResultsFixtures.threeRounds().runs());
        assertEquals(2, cells.size());
        Cell undertow = cells.getFirst();
        assertEquals("undertow/blocking", undertow.label());
        assertEquals(List.of(0, 1, 2), undertow.runs().stream().map(Run::round).toList());
        assertEquals(new Spread(9994, 9960, 10003, 3), undertow.requestsPerSecond());
        assertEquals(2, undertow.medianRun().round(), "the round with the median requests/s: 9,994");
        assertEquals("exact", undertow.counts());
    }

    @Test
    void threeRoundsASideAreTooFewToNameADifferenceAndTheVerdictSaysSo() {
        List<String> lines = Verdict.lines(Cell.of(ResultsFixtures.threeRounds().runs()));
        assertEquals("C=2000 undertow/blocking vs vertx/timer:", lines.getFirst());
        String cpu = lines.stream()
                .filter(l -> l.startsWith("  srv CPU us/req"))
                .findFirst()
                .orElseThrow();
        assertTrue(
                cpu.matches("  srv CPU us/req 61.5 \\(61.5-61.7\\) vs 35.7 \\(35.0-36.1\\): too few rounds to name a"
                        + " difference at 5 % over \\d+ tests: need [4-9] rounds a side \\(3 vs 3 give p >= 0.10;"
                        + " medians 42.0 % apart\\)"),
                "the ranges lie apart, but 3 vs 3 rounds cannot give p under 0.1: " + cpu);
    }

    /** One pair at 4,000 connections or two (4,000 and 8,000): req/s and server CPU us/req, round by round. */
    private static List<Verdict.Judgment> judged(
            double[] undertowRps, double[] vertxRps, double[] undertowCpu, double[] vertxCpu, boolean twoCells) {
        List<Run> runs = new ArrayList<>();
        for (int concurrency : twoCells ? new int[] {4000, 8000} : new int[] {4000}) {
            for (int round = 0; round < undertowRps.length; round++) {
                runs.add(ResultsFixtures.withCpu(
                        ResultsFixtures.run(
                                "undertow", "blocking", concurrency, round, undertowRps[round], false, true),
                        undertowCpu[round] * undertowRps[round] * 20 / 1e6));
                runs.add(ResultsFixtures.withCpu(
                        ResultsFixtures.run("vertx", "timer", concurrency, round, vertxRps[round], false, true),
                        vertxCpu[round] * vertxRps[round] * 20 / 1e6));
            }
        }
        return Verdict.judgments(Verdict.pairs(Cell.of(runs)));
    }

    private static Verdict.Judgment cpu(List<Verdict.Judgment> judgments) {
        return judgments.stream()
                .filter(j -> j.figure().equals("srv CPU us/req"))
                .findFirst()
                .orElseThrow();
    }

    private static final double[] SAME_RPS = {15000, 15000, 15000, 15000, 15000, 15000};

    @Test
    void sixRoundsASideWhoseRangesLieApartAreNamedWithWhatWasTested() {
        Verdict.Judgment cpu = cpu(judged(
                SAME_RPS,
                SAME_RPS,
                new double[] {30, 30.5, 31, 30.2, 30.8, 30.4},
                new double[] {40, 41, 40.5, 40.2, 40.8, 40.4},
                false));
        assertEquals(Verdict.Outcome.DIFFERENT, cpu.outcome());
        assertEquals("undertow/blocking", cpu.named());
        assertTrue(
                cpu.words()
                        .matches("undertow/blocking 25 % less \\(rank-sum over 6 vs 6 rounds, Holm over \\d+ tests:"
                                + " p = 0.0022, adjusted 0.0\\d+\\)"),
                cpu.words());
    }

    @Test
    void rangesThatOverlapAreNoDifferenceAndSayHowLargeOneTheRoundsCouldHaveNamed() {
        List<Verdict.Judgment> touching = judged(
                new double[] {9990, 10000, 10010, 9995, 10005, 10002},
                new double[] {10005, 10030, 10031, 10020, 10025, 10028},
                new double[] {30, 30, 30, 30, 30, 30},
                new double[] {30, 30, 30, 30, 30, 30},
                false);
        Verdict.Judgment rps = touching.getFirst();
        assertEquals("req/s", rps.figure());
        assertEquals(Verdict.Outcome.NO_DIFFERENCE, rps.outcome(), "10,005 lies below 10,010: " + rps.words());
        Verdict.Judgment wide = cpu(judged(
                SAME_RPS,
                SAME_RPS,
                new double[] {100, 110, 120, 105, 112, 118},
                new double[] {115, 135, 136, 130, 133, 119},
                false));
        assertEquals(Verdict.Outcome.NO_DIFFERENCE, wide.outcome(), "115 and 119 lie below 120: " + wide.words());
        assertTrue(wide.p() > 0.003, "two rounds of one side among the other's: p " + wide.p());
        assertTrue(
                wide.words()
                        .matches("no difference \\(rank-sum over 6 vs 6 rounds, Holm over \\d+ tests: p = [0-9.]+,"
                                + " adjusted [0-9.]+; these rounds could have named about [0-9.]+ % or more\\)"),
                wide.words());
        assertTrue(wide.detectable() > 10, "ranges 20 wide around 111: " + wide.detectable());
    }

    /**
     * One round above two of the other side's: U = 2, p = 8 / 924 = 0.0087, under 0.05 alone, but not among the
     * verdict's other tests (Holm: the smallest p times their number).
     */
    @Test
    void holmKeepsAFigureSignificantAloneFromBeingNamedAmongTheVerdictsOtherTests() {
        List<Verdict.Judgment> judgments = judged(
                SAME_RPS,
                SAME_RPS,
                new double[] {30, 31, 32, 33, 34, 35.5},
                new double[] {34.5, 35, 36, 37, 38, 39},
                true);
        Verdict.Judgment cpu = cpu(judgments);
        assertEquals(8 / 924.0, cpu.p(), 1e-9);
        assertTrue(cpu.tests() >= 6, "tests " + cpu.tests());
        assertEquals(Math.min(1, cpu.tests() * cpu.p()), cpu.adjusted(), 1e-9, "the smallest p, times the tests");
        assertEquals(Verdict.Outcome.NO_DIFFERENCE, cpu.outcome(), cpu.words());
        assertTrue(judgments.stream().noneMatch(j -> j.outcome() == Verdict.Outcome.DIFFERENT), "nothing named");
    }

    /**
     * Six rounds whose RSS lies apart: named when compare started a fresh server for every round, not judged when one
     * process of each served them all (--targets), where the rounds repeat one reading of the process.
     */
    @Test
    void figuresOfTheProcessAreNotJudgedWhenOneProcessServedEveryRound() {
        List<Run> runs = new ArrayList<>();
        for (int round = 0; round < 6; round++) {
            runs.add(ResultsFixtures.withRss(
                    ResultsFixtures.run("undertow", "blocking", 2000, round, 10000, false, true), 300 + round));
            runs.add(ResultsFixtures.withRss(
                    ResultsFixtures.run("vertx", "timer", 2000, round, 10000, false, true), 400 + round));
        }
        List<Verdict.Pair> pairs = Verdict.pairs(Cell.of(runs));
        Verdict.Judgment fresh = rss(Verdict.judgments(pairs, false));
        assertEquals(Verdict.Outcome.DIFFERENT, fresh.outcome(), fresh.words());
        List<Verdict.Judgment> running = Verdict.judgments(pairs, true);
        Verdict.Judgment once = rss(running);
        assertEquals(Verdict.Outcome.NOT_JUDGED, once.outcome());
        assertTrue(once.words().startsWith("not judged: one process of each served every round"), once.words());
        int tested = (int) running.stream().filter(j -> j.p() != null).count();
        assertTrue(
                running.stream().filter(j -> j.p() != null).allMatch(j -> j.tests() == tested),
                "Holm corrects over the figures tested only");
        assertTrue(
                running.stream()
                        .filter(j -> List.of("peak threads", "heap after GC MB").contains(j.figure()))
                        .allMatch(j -> j.p() == null),
                "no figure of the process is tested");
    }

    private static Verdict.Judgment rss(List<Verdict.Judgment> judgments) {
        return judgments.stream()
                .filter(j -> j.figure().equals("RSS MB"))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void significantButUnderOnePercentIsNotNamed() {
        Verdict.Judgment rps = judged(
                        new double[] {9996, 9998, 9997, 9996.5, 9997.5, 9998.5},
                        new double[] {9999, 10001, 10000, 9999.5, 10000.5, 10001.5},
                        new double[] {30, 30, 30, 30, 30, 30},
                        new double[] {30, 30, 30, 30, 30, 30},
                        false)
                .getFirst();
        assertEquals(Verdict.Outcome.NO_DIFFERENCE, rps.outcome());
        assertTrue(
                rps.words().startsWith("no difference worth naming (0.03 % apart, under 1 %; rank-sum"), rps.words());
    }

    @Test
    void oneRoundIsNotJudgedAndAGeneratorBoundOneNeither() {
        List<String> lines = Verdict.lines(Cell.of(ResultsFixtures.results().runs()));
        assertEquals("C=1000 undertow/blocking vs vertx/timer:", lines.get(0));
        assertEquals("  req/s 4,950 vs 4,990: not judged: one round has no spread (--repeat 6 or more)", lines.get(1));
        assertTrue(
                lines.stream()
                        .anyMatch(l -> l.contains(
                                "req/s 9,800 vs 9,400: not judged: generator-bound in 1/1 rounds of vertx/timer")),
                String.join("\n", lines));
    }

    @Test
    void theTableShowsTheSpreadNextToEachFigureAndTheVerdictUnderIt() {
        String table = ConsoleTable.render(ResultsFixtures.threeRounds());
        String[] lines = table.split("\n");
        assertTrue(lines[0].contains("rounds") && lines[0].contains("srv us/req"), lines[0]);
        assertTrue(
                lines[2].matches("2000\\s+blocking\\s+undertow\\s+embedded\\s+3\\s+9,994"
                        + " \\(9,960-10,003\\)\\s+10,000\\s+99\\.9%.*"),
                lines[2]);
        assertTrue(lines[2].contains(" 61.5 (61.5-61.7) "), lines[2]);
        assertTrue(table.contains("rounds: each cell's figures are the median of its rounds"), table);
        assertTrue(
                table.contains("spread over the rounds, (max - min) / median:\n  C=2000 undertow/blocking: req/s 0.4 %,"
                        + " srv us/req 0.3 % (3 rounds)\n"),
                table);
        assertTrue(
                table.contains("verdict (exact rank-sum test per figure and pair, Holm-corrected over all of them"
                        + " (family-wise 5 %), and 1 % or more):\n  C=2000 "),
                table);
    }

    @Test
    void aServerStillCompilingIsFlaggedJitInTheTableWithItsLegend() {
        Run run = ResultsFixtures.run("vertx", "timer", 1000, 4998, false);
        Run compiling = ResultsFixtures.flat(
                run.server(),
                run.strategy(),
                run.concurrency(),
                run.engine(),
                run.round(),
                run.load().requests(),
                run.load().failed(),
                run.load().durationSeconds(),
                run.load().requestsPerSecond(),
                run.load().bound(),
                run.load().ratioToBound(),
                run.latency().latencyMs(),
                run.serverSide().cpuSeconds(),
                run.serverSide().cpuMicrosPerRequest(),
                run.serverSide().cpuShare(),
                run.serverSide().peakRssMb(),
                run.generatorSide().cpuSeconds(),
                run.generatorSide().cpuShare(),
                run.serverSide().cpuBound(),
                run.generatorSide().cpuBound(),
                run.reconciliation(),
                run.load().connectionsOpened(),
                run.serverSide().exitCode(),
                run.latency().percentiles(),
                run.notes(),
                // 20 us a request at 4,998 requests/s is 100 ms of server CPU a second, 87 of them compiling
                new ServerCost(5.0, 20.0, 15.0, 5.0, 30L, 0.8, 346.0, 20.0, 512.0, 4L, 1.0, 87.0, 21, null),
                run.open(),
                null,
                null,
                null);
        Results results = new Results(
                ResultsFixtures.threeRounds().environment(),
                ResultsFixtures.threeRounds().settings(),
                List.of(compiling));
        String table = ConsoleTable.render(results);
        assertTrue(table.split("\n")[2].matches(".* exact +JIT"), table);
        assertTrue(
                table.contains("JIT: the server's JIT compiled for a tenth or more of its CPU in the window"), table);
        assertFalse(ConsoleTable.render(ResultsFixtures.threeRounds()).contains("JIT:"), "no such run, no legend");
    }

    @Test
    void thePageCarriesTheCellsAndTheVerdict() {
        String html = HtmlReport.render(ResultsFixtures.threeRounds());
        assertTrue(
                html.contains("\"requestsPerSecond\":{\"median\":9994.0,\"min\":9960.0,\"max\":10003.0,\"n\":3}"),
                "the cells");
        assertTrue(html.contains("too few rounds to name a difference at 5 % over"), "the verdict");
        assertTrue(html.contains("\"cpuPinning\":{\"serverCpus\":\"0\",\"generatorCpus\":\"1\""), "the CPU sets");
    }
}
