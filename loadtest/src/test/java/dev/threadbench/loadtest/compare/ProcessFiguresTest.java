package dev.threadbench.loadtest.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadbench.loadtest.model.ServerCost;
import dev.threadbench.loadtest.server.ProcessFigures;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The /stats "process" object read, absent or partial; and a window's cost computed from two of them. */
class ProcessFiguresTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    static ProcessFigures figures(
            long cpuMs, long threads, long threadsPeak, long rss, long rssPeak, long gcPauseMs, long switches) {
        return new ProcessFigures(
                cpuMs,
                cpuMs * 3 / 4,
                cpuMs / 4,
                threads,
                threadsPeak,
                300L << 20,
                1024L << 20,
                100L << 20,
                cpuMs / 100,
                gcPauseMs,
                rss,
                rssPeak,
                switches,
                switches / 10,
                cpuMs / 10,
                null);
    }

    @Test
    void theProcessObjectIsReadWithItsNullsAndAbsentFromOlderServers() throws Exception {
        ProcessFigures p = ProcessFigures.of(JSON.readTree("""
                {"server":"undertow","requests":5,"process":{"cpuMs":1200,"cpuUserMs":null,"cpuSystemMs":null,"threads":22,
                 "threadsPeak":30,"heapUsedBytes":1048576,"heapCommittedBytes":2097152,"heapAfterGcBytes":524288,"gcCount":3,
                 "gcPauseMs":14,"rssBytes":null,"rssPeakBytes":null,"voluntaryContextSwitches":null,"involuntaryContextSwitches":null}}
                """));
        assertNull(p.jitMs(), "a server from before the JIT figure");
        assertEquals(1200L, p.cpuMs());
        assertNull(p.cpuUserMs());
        assertEquals(30L, p.threadsPeak());
        assertEquals(524288L, p.heapAfterGcBytes());
        assertNull(p.rssBytes());
        assertNull(p.contextSwitches(), "off Linux");
        assertNull(ProcessFigures.of(JSON.readTree("{\"server\":\"undertow\",\"requests\":5}")), "an older server");
        assertNull(ProcessFigures.of(JSON.readTree("{\"process\":\"n/a\"}")));
    }

    @Test
    void aWindowsCostIsItsDeltasPerRequestAndItsPeaks() {
        // 2,000 ms of CPU over 10,000 requests: 200 us each, 150 user and 50 system
        CostSampler.Window window = new CostSampler.Window(
                figures(1_000, 20, 25, 400L << 20, 450L << 20, 100, 5_000),
                figures(3_000, 40, 8_335, 500L << 20, 1172L << 20, 150, 25_000),
                10.0,
                8_000,
                900L << 20,
                21);
        ServerCost cost = WindowCost.of(window, 10_000 / window.seconds());
        assertEquals(2.0, cost.cpuSeconds());
        assertEquals(200.0, cost.cpuMicrosPerRequest());
        assertEquals(150.0, cost.cpuUserMicrosPerRequest());
        assertEquals(50.0, cost.cpuSystemMicrosPerRequest());
        assertEquals(8_335L, cost.peakThreads(), "the peak since start rose in the window: exact");
        assertEquals(1172.0, cost.peakRssMb(), "likewise");
        assertEquals(2.2, cost.contextSwitchesPerRequest(), "(20,000 + 2,000) / 10,000");
        assertEquals(100.0, cost.heapAfterGcMb());
        assertEquals(5.0, cost.gcPauseMsPerSecond(), "50 ms over 10 s");
        assertEquals(20.0, cost.jitMsPerSecond(), "200 ms of compilation over 10 s");
        assertEquals(20L, cost.gcCount());
        assertEquals(21, cost.samples());
    }

    @Test
    void aPeakSetBeforeTheWindowIsNotItsOwnTheSamplesGiveIt() {
        assertEquals(8_000L, WindowCost.peak(9_000L, 9_000L, 8_000));
        assertEquals(9_500L, WindowCost.peak(9_000L, 9_500L, 8_000));
        assertEquals(8_000L, WindowCost.peak(null, null, 8_000), "no peak reported (RSS off Linux)");
        assertNull(WindowCost.peak(null, null, 0));
    }

    @Test
    void figuresTheServerCannotGiveStayNull() {
        ProcessFigures offLinux = new ProcessFigures(
                1_000L, null, null, 20L, 25L, 1L, 2L, 3L, 0L, 0L, null, null, null, null, null, null);
        ProcessFigures later = new ProcessFigures(
                2_000L, null, null, 20L, 25L, 1L, 2L, 3L, 0L, 0L, null, null, null, null, null, null);
        ServerCost cost = WindowCost.of(new CostSampler.Window(offLinux, later, 5.0, 20, 0, 11), 1_000 / 5.0);
        assertEquals(1000.0, cost.cpuMicrosPerRequest());
        assertNull(cost.cpuUserMicrosPerRequest());
        assertNull(cost.peakRssMb());
        assertNull(cost.contextSwitchesPerRequest());
        assertEquals(20L, cost.peakThreads());
    }

    @Test
    void theBillByThreadClassIsReadAndAWindowsIsItsDeltasPerRequest() throws Exception {
        ProcessFigures start = ProcessFigures.of(JSON.readTree("""
                {"process":{"cpuMs":1000,"threadClasses":{
                 "io":{"cpuMs":400.5,"userMs":300,"systemMs":100,"runQueueWaitMs":20.0,"voluntaryContextSwitches":50,
                       "involuntaryContextSwitches":5,"threads":2},
                 "jit":{"cpuMs":300.0,"userMs":300,"systemMs":0,"runQueueWaitMs":1.0,"voluntaryContextSwitches":9,
                        "involuntaryContextSwitches":1,"threads":2},
                 "exited":{"cpuMs":10.0,"userMs":10,"systemMs":0,"runQueueWaitMs":null,"voluntaryContextSwitches":3,
                           "involuntaryContextSwitches":0,"threads":0}}}}
                """));
        ProcessFigures end = ProcessFigures.of(JSON.readTree("""
                {"process":{"cpuMs":2000,"threadClasses":{
                 "io":{"cpuMs":1200.5,"userMs":900,"systemMs":300,"runQueueWaitMs":120.0,"voluntaryContextSwitches":850,
                       "involuntaryContextSwitches":45,"threads":2},
                 "jit":{"cpuMs":350.0,"userMs":350,"systemMs":0,"runQueueWaitMs":1.5,"voluntaryContextSwitches":19,
                        "involuntaryContextSwitches":1,"threads":3},
                 "exited":{"cpuMs":20.0,"userMs":20,"systemMs":0,"runQueueWaitMs":null,"voluntaryContextSwitches":4,
                           "involuntaryContextSwitches":0,"threads":0}}}}
                """));
        assertEquals(400.5, start.threadClasses().get("io").cpuMs());
        assertNull(start.threadClasses().get("exited").runQueueWaitMs());
        assertNull(figures(1, 1, 1, 1, 1, 1, 1).threadClasses(), "no bill unless asked for (/stats?threads)");
        // 10,000 requests in the window: io ran 800 ms (80 us each) and waited 100 ms (10 us each)
        var bill = WindowCost.threads(start.threadClasses(), end.threadClasses(), 10_000);
        assertEquals(80.0, bill.get("io").cpuMicrosPerRequest());
        assertEquals(10.0, bill.get("io").runQueueWaitMicrosPerRequest());
        assertEquals(600.0, bill.get("io").userMs());
        assertEquals(800L, bill.get("io").voluntaryContextSwitches());
        assertEquals(2L, bill.get("io").threads(), "the live threads at the window's end");
        assertEquals(5.0, bill.get("jit").cpuMicrosPerRequest());
        assertEquals(1.0, bill.get("exited").cpuMicrosPerRequest());
        assertNull(bill.get("exited").runQueueWaitMicrosPerRequest(), "unknown for threads that ended");
        assertNull(WindowCost.threads(null, end.threadClasses(), 10_000), "an edge without the bill");
    }

    @Test
    void theJitsRecentShareIsOverTheLastTwoSecondsOfReads() {
        long s = 1_000_000_000L;
        // reads every 500 ms (when, jit ms, cpu ms): 300 ms compiled in the first second, then 10 ms in each 500 ms
        // while the process spends 200 ms of CPU in each 500 ms
        List<long[]> reads = List.of(
                new long[] {0, 1000, 5000},
                new long[] {s / 2, 1150, 5200},
                new long[] {s, 1300, 5400},
                new long[] {3 * s / 2, 1310, 5600},
                new long[] {2 * s, 1320, 5800},
                new long[] {5 * s / 2, 1330, 6000},
                new long[] {3 * s, 1340, 6200});
        assertEquals(0.05, CostSampler.jitShare(reads, 2), 1e-9, "(1340 - 1300) ms of (6200 - 5400) ms");
        assertEquals(0.4, CostSampler.jitShare(reads.subList(0, 5), 2), 1e-9, "over the first 2 s: 320 of 800 ms");
        assertNull(CostSampler.jitShare(reads.subList(0, 3), 2), "1 s of reads: not yet");
        assertNull(CostSampler.jitShare(List.of(), 2));
        assertEquals(
                0.05,
                CostSampler.jitShare(
                        List.of(new long[] {s + 1_950_000_000L, 1340, 6200}, new long[] {s, 1300, 5400}), 2),
                1e-9,
                "a read 50 ms late still counts as 2 s apart");
        assertNull(
                CostSampler.jitShare(List.of(new long[] {3 * s, 1340, 6200}, new long[] {s, 1300, 6200}), 2),
                "no CPU over the span: no share, which the warm-up reads as not settled");
    }
}
