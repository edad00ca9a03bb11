package dev.threadbench.loadtest.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.analysis.Cell;
import dev.threadbench.loadtest.analysis.Verdict;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.ResultsFixtures;
import dev.threadbench.loadtest.model.Run;
import dev.threadbench.loadtest.model.ServerCost;
import dev.threadbench.loadtest.model.Spread;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server's CPU bill by thread class in the table, the verdict, results.json and the page. */
class ThreadBillTest {

    @Test
    void theRequestCpuIsIoWorkerAndCarrierWithTheJitAndGcApart() {
        Cell undertow = Cell.of(ResultsFixtures.billed().runs()).getFirst();
        assertTrue(undertow.billed());
        assertEquals(new Spread(40.0, 39.5, 41.0, 3), undertow.requestCpuMicrosPerRequest());
        assertEquals(
                43.5,
                undertow.serverCpuMicrosPerRequest().median(),
                1e-9,
                "the whole process: + gc 1, jit 2, other 0.5");
        ServerCost cost = undertow.runs().getFirst().serverSide().cost();
        assertEquals(2.0 / 43.5, cost.classShare("jit"), 1e-9);
        assertEquals(12.0, cost.requestRunQueueWaitMicrosPerRequest(), 1e-9);
    }

    @Test
    void theVerdictJudgesTheRequestCpuAndNamesTheJitAndGcShares() {
        List<String> lines = Verdict.lines(Cell.of(ResultsFixtures.billed().runs()));
        String cpu = lines.stream()
                .filter(l -> l.startsWith("  request CPU us/req"))
                .findFirst()
                .orElseThrow();
        assertTrue(cpu.startsWith("  request CPU us/req 40.0 (39.5-41.0) vs 30.4 (30.0-30.8): too few rounds"), cpu);
        assertTrue(
                cpu.endsWith("medians 24.0 % apart; apart: JIT 5 % and GC 2 % of undertow/blocking's CPU,"
                        + " JIT 20 % and GC 4 % of vertx/timer's)"),
                cpu);
    }

    @Test
    void olderResultsWithoutTheBillKeepTheWholeProcesssCpu() {
        Cell cell = Cell.of(ResultsFixtures.threeRounds().runs()).getFirst();
        assertFalse(cell.billed());
        assertEquals(cell.serverCpuMicrosPerRequest(), cell.requestCpuMicrosPerRequest());
        assertTrue(
                Verdict.lines(ResultsFixtures.threeRounds()).stream().anyMatch(l -> l.startsWith("  srv CPU us/req ")));
        assertFalse(ConsoleTable.render(ResultsFixtures.threeRounds()).contains("by thread class"));
    }

    @Test
    void theTableShowsTheRequestCpuAndEachClassPerRequest() {
        String table = ConsoleTable.render(ResultsFixtures.billed());
        assertTrue(
                table.contains("srv us/req: the server's request CPU, its io, worker and carrier threads'"
                        + " CPU time per request"),
                table);
        assertTrue(table.contains("server CPU by thread class, us per request"), table);
        String undertowRow = table.lines()
                .filter(l -> l.matches("^ *1000 +blocking +undertow +32\\.0 .*"))
                .findFirst()
                .orElse(null);
        assertTrue(undertowRow != null, table);
        assertEquals(
                List.of(
                        "1000",
                        "blocking",
                        "undertow",
                        "32.0",
                        "8.0",
                        "0.0",
                        "40.0",
                        "1.0",
                        "2.0",
                        "0.5",
                        "0.0",
                        "4.6",
                        "2.3",
                        "12.0",
                        "40.0"),
                List.of(undertowRow.trim().split(" +")));
        assertTrue(table.contains("srv us/req 3.8 %"), "the request CPU's spread: " + table);
    }

    @Test
    void resultsJsonCarriesEachRunsClassesAndReadsThemBack(@TempDir Path dir) {
        Path file = dir.resolve("results.json");
        ResultsJson.write(ResultsFixtures.billed(), file);
        Results back = ResultsJson.read(file);
        Run run = back.runs().getFirst();
        assertEquals(
                ResultsFixtures.billed().runs().getFirst().serverSide().cost().threads(),
                run.serverSide().cost().threads());
        assertEquals(
                List.of("io", "worker", "carrier", "gc", "jit", "other", "exited"),
                List.copyOf(run.serverSide().cost().threads().keySet()));
        assertEquals(40.0, run.generatorSide().threads().get("io").runQueueWaitMicrosPerRequest());
        assertNull(
                ResultsFixtures.results().runs().getFirst().serverSide().cost(), "the older fixture: no cost, no bill");
    }

    @Test
    void thePageStacksEachRunsClasses() {
        String page = HtmlReport.render(ResultsFixtures.billed());
        assertTrue(page.contains("id=\"thread-class-bars\""));
        assertTrue(page.contains("\"threads\":{\"io\":{\"cpuMs\""), "each run's bill inlined for the bars");
    }

    @Test
    void aStarvedRunIsFlaggedInTheTable() {
        Results billed = ResultsFixtures.billed();
        java.util.List<Run> runs = new java.util.ArrayList<>(billed.runs());
        Run first = runs.getFirst();
        runs.set(
                0,
                ResultsFixtures.flat(
                        first.server(),
                        first.strategy(),
                        first.concurrency(),
                        first.engine(),
                        first.round(),
                        first.load().requests(),
                        first.load().failed(),
                        first.load().durationSeconds(),
                        first.load().requestsPerSecond(),
                        first.load().bound(),
                        first.load().ratioToBound(),
                        first.latency().latencyMs(),
                        first.serverSide().cpuSeconds(),
                        first.serverSide().cpuMicrosPerRequest(),
                        first.serverSide().cpuShare(),
                        first.serverSide().peakRssMb(),
                        first.generatorSide().cpuSeconds(),
                        first.generatorSide().cpuShare(),
                        first.serverSide().cpuBound(),
                        first.generatorSide().cpuBound(),
                        first.reconciliation(),
                        first.load().connectionsOpened(),
                        first.serverSide().exitCode(),
                        first.latency().percentiles(),
                        List.of("server starved: its request threads ..."),
                        first.serverSide().cost(),
                        first.open(),
                        first.cluster().agents(),
                        first.cluster().coordination(),
                        first.timeline(),
                        first.generatorSide().threads(),
                        4.0,
                        null,
                        null));
        String table = ConsoleTable.render(new Results(billed.environment(), billed.settings(), runs));
        assertTrue(table.contains("STARVED 1/3"), table);
        assertTrue(
                table.contains("STARVED: the server's request threads or the generator's event loops waited"), table);
        assertFalse(ConsoleTable.render(billed).contains("STARVED"));
    }
}
