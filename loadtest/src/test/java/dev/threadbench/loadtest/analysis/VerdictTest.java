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
    void serversWithinEachOthersSpreadAreNotCalledDifferentButCpuPerRequestIs() {
        List<String> lines = Verdict.lines(Cell.of(ResultsFixtures.threeRounds().runs()));
        assertEquals(
                List.of("C=2000 undertow/blocking vs vertx/timer: req/s 9,994 (9,960-10,003) vs 9,985 (9,950-9,990):"
                        + " no difference (ranges overlap; medians 0.1 % apart); srv CPU us/req 61.5 (61.5-61.7) vs"
                        + " 35.7 (35.0-36.1): vertx/timer 42 % less (the ranges do not overlap)"),
                lines);
    }

    @Test
    void rangesThatDoNotOverlapButLieUnderOnePercentApartAreNotNamedADifference() {
        List<Run> runs = new ArrayList<>();
        double[] undertow = {9996, 9998, 9997};
        double[] vertx = {9999, 10001, 10000};
        for (int round = 0; round < 3; round++) {
            runs.add(ResultsFixtures.withCpu(
                    ResultsFixtures.run("undertow", "blocking", 2000, round, undertow[round], false, true),
                    3.0 + 0.01 * round));
            runs.add(ResultsFixtures.withCpu(
                    ResultsFixtures.run("vertx", "timer", 2000, round, vertx[round], false, true), 5.0 + 0.01 * round));
        }
        List<String> lines = Verdict.lines(Cell.of(runs));
        assertEquals(1, lines.size());
        assertTrue(
                lines.getFirst()
                        .contains("req/s 9,997 (9,996-9,998) vs 10,000 (9,999-10,001): no difference worth naming"
                                + " (0.03 % apart: the ranges do not overlap, but that is under 1 %)"),
                lines.getFirst());
        assertTrue(
                lines.getFirst().endsWith(": undertow/blocking 40 % less (the ranges do not overlap)"),
                lines.getFirst());
    }

    /** Undertow's and Vert.x's rounds at 4,000 connections: req/s and server CPU us/req, round by round. */
    private static String verdictOf(double[] undertowRps, double[] vertxRps, double[] undertowCpu, double[] vertxCpu) {
        List<Run> runs = new ArrayList<>();
        for (int round = 0; round < undertowRps.length; round++) {
            runs.add(ResultsFixtures.withCpu(
                    ResultsFixtures.run("undertow", "blocking", 4000, round, undertowRps[round], false, true),
                    undertowCpu[round] * undertowRps[round] * 20 / 1e6));
            runs.add(ResultsFixtures.withCpu(
                    ResultsFixtures.run("vertx", "timer", 4000, round, vertxRps[round], false, true),
                    vertxCpu[round] * vertxRps[round] * 20 / 1e6));
        }
        List<String> lines = Verdict.lines(Cell.of(runs));
        assertEquals(1, lines.size());
        return lines.getFirst();
    }

    @Test
    void rangesThatOverlapAreNoDifferenceHoweverFarApartTheMediansAre() {
        double[] sameCpu = {30, 30.5, 31};
        String touching =
                verdictOf(new double[] {9990, 10000, 10010}, new double[] {10005, 10030, 10031}, sameCpu, sameCpu);
        assertTrue(
                touching.contains(
                        "req/s 10,000 (9,990-10,010) vs 10,030 (10,005-10,031): no difference (ranges overlap; medians"
                                + " 0.3 % apart)"),
                "10,005 lies below 10,010: the ranges overlap, whatever the medians: " + touching);
        String wide = verdictOf(
                new double[] {15000, 15000, 15000},
                new double[] {15000, 15000, 15000},
                new double[] {100, 110, 120},
                new double[] {115, 135, 136});
        assertTrue(
                wide.endsWith(
                        "srv CPU us/req 110.0 (100.0-120.0) vs 135.0 (115.0-136.0): no difference (ranges overlap)"),
                "medians 19 % apart, but 115 lies below 120: " + wide);
        String apart = verdictOf(
                new double[] {15000, 15000, 15000},
                new double[] {15000, 15000, 15000},
                new double[] {100, 110, 111},
                new double[] {112, 113, 150});
        assertTrue(
                apart.endsWith("srv CPU us/req 110.0 (100.0-111.0) vs 113.0 (112.0-150.0): undertow/blocking 3 % less"
                        + " (the ranges do not overlap)"),
                "112 above 111: apart, though a range is wider than the medians' gap: " + apart);
    }

    @Test
    void oneRoundIsNotJudgedAndAGeneratorBoundOneNeither() {
        List<String> lines = Verdict.lines(Cell.of(ResultsFixtures.results().runs()));
        assertEquals(2, lines.size());
        assertTrue(
                lines.get(0)
                        .startsWith(
                                "C=1000 undertow/blocking vs vertx/timer: req/s 4,950 vs 4,990: not judged: one round"
                                        + " has no spread (--repeat 3 or more); srv CPU us/req"),
                lines.get(0));
        assertTrue(
                lines.get(1).contains("req/s 9,800 vs 9,400: not judged: generator-bound in 1/1 rounds of vertx/timer"),
                lines.get(1));
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
                table.contains("verdict (a difference only where the rounds' ranges do not overlap, and 1 % or more):\n"
                        + "  C=2000 "),
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
                new ServerCost(5.0, 20.0, 15.0, 5.0, 30L, 0.8, 346.0, 20.0, 512.0, 4L, 1.0, 87.0, 21),
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
        assertTrue(html.contains("no difference (ranges overlap; medians 0.1 % apart)"), "the verdict");
        assertTrue(html.contains("\"cpuPinning\":{\"serverCpus\":\"0\",\"generatorCpus\":\"1\""), "the CPU sets");
    }
}
