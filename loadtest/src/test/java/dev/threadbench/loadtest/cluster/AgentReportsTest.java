package dev.threadbench.loadtest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.threadbench.loadtest.cluster.messages.AgentReport;
import dev.threadbench.loadtest.model.LatencySummary;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.runner.FailureCause;
import dev.threadbench.loadtest.runner.LoadResult;
import dev.threadbench.loadtest.runner.SecondSeries;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class AgentReportsTest {

    private static Histogram histogram() {
        return new Histogram(1, 3_600_000_000L, 3);
    }

    private static AgentReport report(
            String name, Histogram latency, long requests, Map<String, Long> failures, double cpu) {
        ByteBuffer buffer = ByteBuffer.allocate(latency.getNeededByteBufferCapacity());
        int length = latency.encodeIntoCompressedByteBuffer(buffer);
        long failed = failures.values().stream().mapToLong(Long::longValue).sum();
        return new AgentReport(
                "run",
                name + "-node",
                name,
                "198.18.0.3",
                100,
                requests,
                requests - failed,
                failures,
                10.0,
                Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length)),
                requests + 50,
                requests + 40,
                100,
                cpu,
                2,
                "epoll",
                null,
                null,
                0.4,
                null,
                null);
    }

    @Test
    void theMergedPercentilesAreThoseOfOneHistogramHoldingEverySample() {
        // two agents that saw very different latencies: averaging their p99s would be far from the truth
        Random random = new Random(42);
        Histogram fast = histogram();
        Histogram slow = histogram();
        Histogram all = histogram();
        for (int i = 0; i < 90_000; i++) {
            long micros = 100 + random.nextInt(400);
            fast.recordValue(micros);
            all.recordValue(micros);
        }
        for (int i = 0; i < 10_000; i++) {
            long micros = random.nextInt(10) == 0 ? 2_000_000 + random.nextInt(5_000) : 300 + random.nextInt(2_000);
            slow.recordValue(micros);
            all.recordValue(micros);
        }
        LoadResult merged = AgentReports.merge(List.of(
                report("a1", fast, 90_000, Map.of(), 3.0),
                report("a2", slow, 10_000, Map.of("TIMEOUT", 3L, "RESET", 1L), 1.0)));

        LatencySummary expected = LatencySummary.of(all);
        LatencySummary actual = LatencySummary.of(merged.latencyMicros());
        assertEquals(all.getTotalCount(), merged.latencyMicros().getTotalCount());
        assertEquals(expected.p50(), actual.p50());
        assertEquals(expected.p90(), actual.p90());
        assertEquals(expected.p99(), actual.p99());
        assertEquals(expected.p999(), actual.p999());
        assertEquals(expected.max(), actual.max());
        assertEquals(expected.mean(), actual.mean(), 1e-9);
    }

    @Test
    void countsAndFailuresByCauseAreSummedAndEachAgentKeepsItsOwnGeneratorCpu() {
        Histogram one = histogram();
        one.recordValue(1000);
        List<AgentReport> reports = List.of(
                report("a1", one, 1000, Map.of("TIMEOUT", 2L), 3.0),
                report("a2", one, 500, Map.of("TIMEOUT", 1L, "NON_2XX", 4L), 1.0));

        LoadResult merged = AgentReports.merge(reports);
        assertEquals(1500, merged.requests());
        assertEquals(1493, merged.successes());
        assertEquals(3, merged.failures().get(FailureCause.TIMEOUT));
        assertEquals(4, merged.failures().get(FailureCause.NON_2XX));
        assertEquals(0, merged.failures().get(FailureCause.RESET));
        assertEquals(1580, merged.answered());
        assertEquals(1600, merged.sent());
        assertEquals(4.0, merged.generatorCpuSeconds(), 1e-9);
        assertEquals(150.0, merged.requestsPerSecond(), 1e-9);

        List<Results.AgentRun> agents = AgentReports.perAgent(reports);
        assertEquals(
                List.of("a1", "a2"), agents.stream().map(Results.AgentRun::name).toList());
        assertEquals(0.15, agents.get(0).generatorCpuShare(), 1e-9, "3 s of CPU over 10 s on 2 CPUs");
        assertEquals(0.05, agents.get(1).generatorCpuShare(), 1e-9);
        assertEquals(5, agents.get(1).failed());
        assertEquals(100.0, agents.get(0).requestsPerSecond(), 1e-9);
    }

    private static String encoded(Histogram histogram) {
        ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        return Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length));
    }

    private static AgentReport withSeconds(AgentReport r, SecondSeries seconds) {
        return new AgentReport(
                r.runId(),
                r.agentNode(),
                r.agent(),
                r.host(),
                r.connections(),
                r.requests(),
                r.successes(),
                r.failures(),
                r.durationSeconds(),
                r.histogram(),
                r.sent(),
                r.answered(),
                r.connectionsOpened(),
                r.generatorCpuSeconds(),
                r.cpus(),
                r.transport(),
                r.firstOtherFailure(),
                r.open(),
                r.startLateMs(),
                r.error(),
                seconds);
    }

    @Test
    void eachSecondIsTheAgentsHistogramsAddedNotTheirPercentilesAveraged() {
        Histogram fast = new Histogram(1, 3_600_000_000L, 2);
        Histogram slow = new Histogram(1, 3_600_000_000L, 2);
        for (int i = 0; i < 90; i++) {
            fast.recordValue(400);
        }
        for (int i = 0; i < 10; i++) {
            slow.recordValue(2_001_000);
        }
        Histogram one = histogram();
        one.recordValue(1000);
        AgentReport a1 = withSeconds(
                report("a1", one, 90, Map.of(), 1.0),
                new SecondSeries(2.0, 18.0, Arrays.asList(encoded(fast), null), List.of(0L, 0L)));
        AgentReport a2 = withSeconds(
                report("a2", one, 10, Map.of(), 1.0),
                new SecondSeries(2.0, 18.0, Arrays.asList(encoded(slow), encoded(slow)), List.of(0L, 3L)));

        List<SecondSeries.Second> seconds =
                AgentReports.merge(List.of(a1, a2)).seconds().seconds();
        assertEquals(100, seconds.get(0).requests());
        assertEquals(0.4, seconds.get(0).p50Ms(), 0.01, "the merged median is a fast answer");
        assertEquals(2001, seconds.get(0).p99Ms(), 25, "and its p99 a delayed one, though agent a1 saw none");
        assertEquals(10, seconds.get(1).requests());
        assertEquals(3, seconds.get(1).failed());
    }
}
