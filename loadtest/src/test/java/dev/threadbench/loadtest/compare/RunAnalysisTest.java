package dev.threadbench.loadtest.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.engine.Outcome;
import dev.threadbench.loadtest.host.CpuPinning;
import dev.threadbench.loadtest.host.CpuSet;
import dev.threadbench.loadtest.model.Note;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.Run;
import dev.threadbench.loadtest.model.ServerCost;
import dev.threadbench.loadtest.model.ThreadClassCost;
import dev.threadbench.loadtest.server.Target;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class RunAnalysisTest {

    /** Servers on CPU 0, the generator on CPU 1. */
    private static final CpuPinning PINNED = CpuPinning.decide(
            new CpuPinning.Request(null, null, false, false),
            CpuSet.of(0, 1),
            Optional.of("/usr/bin/taskset"),
            CpuSet::of);

    /** A server at a URL, as --targets reaches one. */
    private static final Target RUNNING = new Target() {
        @Override
        public String name() {
            return "vertx";
        }

        @Override
        public URI base() {
            return URI.create("http://vertx:8081");
        }

        @Override
        public String frameworkVersion() {
            return null;
        }

        @Override
        public Stats stats() {
            throw new UnsupportedOperationException();
        }

        @Override
        public OptionalInt stop(Duration grace) {
            return OptionalInt.empty();
        }

        @Override
        public void close() {}
    };

    private static Outcome outcome(long answered, double generatorCpuSeconds) {
        return new Outcome(
                new Outcome.Window(answered, new Results.Failed(0, 0, 0, 0, 0, 0, 0), 10, answered / 10.0, 20L),
                new Run.Latencies(new Results.Latency(1.0, 2.0, 2001.0, 2002.0, 2003.0, 200.0), List.of()),
                generatorCpuSeconds,
                new Outcome.Answers(answered, 0),
                List.of(),
                null);
    }

    @Test
    void theBoundIsFiveTimesTheConcurrencyWithTheDefaults() {
        assertEquals(5000.0, RunAnalysis.bound(1000, 10, 2000));
        assertEquals(10000.0, RunAnalysis.bound(2000, 10, 2000));
        assertEquals(1000.0, RunAnalysis.bound(20, 10, 200));
        assertNull(RunAnalysis.bound(1000, 0, 2000), "no delay, no bound");
    }

    @Test
    void theServersCountIsSetAgainstTheAnswersAndItsRatioToTheBound() {
        List<String> problems = new ArrayList<>();
        Run run = RunAnalysis.analyse(
                new RunAnalysis.Readings(
                        RUNNING,
                        20,
                        "embedded",
                        2,
                        outcome(9000, 0.1),
                        new Target.Stats("vertx", "timer", 1000, 100, 0, null),
                        new Target.Stats("vertx", "timer", 10_000, 1000, 0, null),
                        null,
                        null,
                        null),
                10,
                200,
                PINNED,
                problems);
        assertEquals(2, run.round());
        assertEquals("exact", run.reconciliation().verdict().id());
        assertEquals(1000.0, run.load().bound());
        assertEquals(0.9, run.load().ratioToBound());
        assertFalse(run.generatorSide().cpuBound());
        assertEquals(0.01, run.generatorSide().cpuShare(), "0.1 s over 10 s on its 1 CPU");
        assertNull(run.serverSide().cpuSeconds());
        assertNull(run.serverSide().cpuMicrosPerRequest());
        assertNull(run.serverSide().cpuShare());
        assertFalse(run.serverSide().cpuBound());
        assertTrue(
                run.notes()
                        .getFirst()
                        .startsWith("server CPU, peak RSS and cost n/a: vertx at http://vertx:8081 reports no"
                                + " process figures on its /stats"),
                run.notes().toString());
        assertEquals(List.of(), problems);
    }

    @Test
    void aGeneratorUsingNinetyPercentOfItsCpusAndAServerDelayingOtherwiseAreFlagged() {
        List<String> problems = new ArrayList<>();
        Run run = RunAnalysis.analyse(
                new RunAnalysis.Readings(
                        RUNNING,
                        20,
                        "embedded",
                        0,
                        outcome(9000, 9.0),
                        new Target.Stats("vertx", "timer", 0, 0, 0, null),
                        new Target.Stats("vertx", "timer", 9000, 450, 0, null),
                        null,
                        null,
                        null),
                10,
                200,
                PINNED,
                problems);
        assertTrue(run.generatorSide().cpuBound(), "9 s of CPU over 10 s on its 1 CPU");
        assertTrue(
                run.notes().stream()
                        .anyMatch(
                                note -> note.startsWith("generator-bound: the load generator used 90 % of its 1 CPUs")),
                run.notes().toString());
        assertEquals(
                List.of("--delay-every 10 does not match vertx at http://vertx:8081: its /stats counts 450 delayed of"
                        + " 9000"
                        + " requests, not 900; give the servers' own setting (the bound depends on it)"),
                problems);
    }

    @Test
    void theServersOwnCostGivesItsCpuAndPeakRssWhetherOrNotCompareStartedIt() {
        ServerCost cost =
                new ServerCost(9.5, 1055.6, 800.0, 255.6, 8335L, 2.5, 1172.0, 310.2, 1024.0, 12L, 3.4, 12.5, 21, null);
        Run run = RunAnalysis.analyse(
                new RunAnalysis.Readings(
                        RUNNING,
                        20,
                        "embedded",
                        0,
                        outcome(9000, 0.1),
                        new Target.Stats("vertx", "timer", 0, 0, 0, null),
                        new Target.Stats("vertx", "timer", 9000, 900, 0, null),
                        cost,
                        null,
                        null),
                10,
                200,
                PINNED,
                new ArrayList<>());
        assertEquals(9.5, run.serverSide().cpuSeconds());
        assertEquals(1055.6, run.serverSide().cpuMicrosPerRequest(), "9.5 s over 9000 requests");
        assertEquals(0.95, run.serverSide().cpuShare(), "9.5 s over 10 s on its 1 CPU");
        assertTrue(run.serverSide().cpuBound());
        assertEquals(1172.0, run.serverSide().peakRssMb());
        assertSame(cost, run.serverSide().cost());
        assertTrue(
                run.notes().stream().noneMatch(note -> note.contains("n/a")),
                run.notes().toString());
    }

    @Test
    void aServerCompilingInTheWindowIsNotedOnlyWhenTheJitIsATenthOfItsCpuOrMore() {
        // 20 us a request at 5,000 requests/s: 100 ms of server CPU per second
        assertEquals(
                "JIT compiling: 87 ms per second of the window, up to 87 % of the server's CPU there, which its CPU"
                        + " per request includes",
                RunAnalysis.compiling(cost(20.0, 87.0), 5000));
        assertEquals(
                "JIT compiling: 250 ms per second of the window, up to 100 % of the server's CPU there, which its"
                        + " CPU per request includes",
                RunAnalysis.compiling(cost(20.0, 250.0), 5000),
                "the JIT's time is elapsed time: it can exceed the CPU");
        assertNull(RunAnalysis.compiling(cost(20.0, 9.9), 5000), "under a tenth");
        assertNull(RunAnalysis.compiling(cost(20.0, null), 5000), "a server from before the JIT figure");
    }

    @Test
    void theJitsShareIsItsCompilerThreadsCpuWhereTheServerGivesItsBillByThreadClass() {
        // 300 ms of compile time a second (elapsed, waits for the CPU included) on a core the requests keep busy,
        // while the compiler threads ran 60 ms of the window's 800 ms of CPU: 7.5 %, under a tenth, no note
        assertNull(RunAnalysis.compiling(billed(300.0, 60.0, 740.0), 5000), "the compiler threads' CPU, not its time");
        assertEquals(
                "JIT compiling: its compiler threads used 15 % of the server's CPU in the window, which its CPU per"
                        + " request includes",
                RunAnalysis.compiling(billed(20.0, 120.0, 680.0), 5000));
    }

    private static ServerCost billed(double jitMsPerSecond, double jitCpuMs, double requestCpuMs) {
        return new ServerCost(
                0.8,
                160.0,
                null,
                null,
                20L,
                null,
                null,
                null,
                null,
                0L,
                0.0,
                jitMsPerSecond,
                3,
                Map.of(
                        "io", new ThreadClassCost(requestCpuMs, null, null, null, null, null, 1L, null, null),
                        "jit", new ThreadClassCost(jitCpuMs, null, null, null, null, null, 2L, null, null)));
    }

    private static ServerCost cost(double microsPerRequest, Double jitMsPerSecond) {
        return new ServerCost(
                1.0, microsPerRequest, null, null, 20L, null, null, null, null, 0L, 0.0, jitMsPerSecond, 3, null);
    }

    @Test
    void aClosedLoopReadingAboveTheBoundIsNotedAsAnArtefactWithItsCause() {
        // 20 connections, 1 in 10 held 200 ms: a bound of 1,000 req/s; 10,210 answers in 10 s read 102.1 %
        Run run = RunAnalysis.analyse(
                new RunAnalysis.Readings(
                        RUNNING,
                        20,
                        "embedded",
                        0,
                        outcome(10_210, 0.1),
                        new Target.Stats("vertx", "timer", 0, 0, 0, null),
                        new Target.Stats("vertx", "timer", 10_210, 1021, 0, null),
                        null,
                        null,
                        null),
                10,
                200,
                2,
                PINNED,
                new ArrayList<>());
        assertEquals(1.021, run.load().ratioToBound());
        assertTrue(
                run.notes()
                        .contains(
                                "above the bound: 102.1 % of it, more than C closed-loop clients can get: a measurement"
                                        + " artefact, not a result: the window's edges caught more delayed answers"
                                        + " than its share (they come in waves one"
                                        + " delay period apart; a stall just before the window that released a wave"
                                        + " inside it does the same)"),
                run.notes().toString());
        Run atBound = RunAnalysis.analyse(
                new RunAnalysis.Readings(
                        RUNNING,
                        20,
                        "embedded",
                        0,
                        outcome(10_040, 0.1),
                        new Target.Stats("vertx", "timer", 0, 0, 0, null),
                        new Target.Stats("vertx", "timer", 10_040, 1004, 0, null),
                        null,
                        null,
                        null),
                10,
                200,
                2,
                PINNED,
                new ArrayList<>());
        assertTrue(atBound.notes().stream().noneMatch(n -> n.startsWith("above the bound")), "100.4 % is no artefact");
    }

    @Test
    void notPinnedEachSideIsMeasuredAgainstHalfTheMachine() {
        CpuPinning unpinned = CpuPinning.unpinned(CpuSet.of(0, 1, 2, 3), "--no-pin");
        Run run = RunAnalysis.analyse(
                new RunAnalysis.Readings(
                        RUNNING,
                        20,
                        "embedded",
                        0,
                        outcome(9000, 17.0),
                        new Target.Stats("vertx", "timer", 0, 0, 0, null),
                        new Target.Stats("vertx", "timer", 9000, 900, 0, null),
                        null,
                        null,
                        null),
                10,
                200,
                unpinned,
                new ArrayList<>());
        assertEquals(0.85, run.generatorSide().cpuShare(), "1.7 cores of half of 4");
        assertFalse(run.generatorSide().cpuBound());
    }

    @Test
    void requestThreadsThatWaitedOnTheRunQueueAsLongAsTheyRanAreFlaggedStarved() {
        java.util.Map<String, ThreadClassCost> busy = java.util.Map.of(
                "io", new ThreadClassCost(null, null, null, null, null, null, 2L, 20.0, 4.0),
                "worker", new ThreadClassCost(null, null, null, null, null, null, 9_000L, 30.0, 56.0),
                "jit", new ThreadClassCost(null, null, null, null, null, null, 2L, 5.0, 500.0));
        assertEquals(
                "server starved: its request threads (io, worker, carrier) waited 60.0 us per request on the run queue,"
                        + " 1.2 x the 50.0 us they ran: more threads wanted its CPUs than it had",
                RunAnalysis.starved(Note.SERVER_STARVED, busy));
        assertTrue(RunAnalysis.starved(
                        Note.GENERATOR_STARVED,
                        java.util.Map.of("io", new ThreadClassCost(null, null, null, null, null, null, 1L, 10.0, 12.5)))
                .startsWith("generator starved: its event loops waited 12.5 us per request"));
        assertNull(
                RunAnalysis.starved(
                        Note.SERVER_STARVED,
                        java.util.Map.of(
                                "io", new ThreadClassCost(null, null, null, null, null, null, 1L, 40.0, 39.0))),
                "a wait shorter than the run: not starved; the JIT's wait does not count");
        assertNull(RunAnalysis.starved(Note.SERVER_STARVED, null), "no bill");
    }
}
