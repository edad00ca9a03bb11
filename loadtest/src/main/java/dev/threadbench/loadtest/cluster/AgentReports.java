package dev.threadbench.loadtest.cluster;

import dev.threadbench.loadtest.cluster.messages.AgentReport;
import dev.threadbench.loadtest.model.LatencySummary;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.runner.FailureCause;
import dev.threadbench.loadtest.runner.LoadResult;
import dev.threadbench.loadtest.runner.SecondSeries;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;

/**
 * The agents' reports of one run as one result: counts and failures by cause summed, latency one histogram built with
 * {@link Histogram#add} from each agent's (percentiles are never averaged), and so each second's
 * ({@link SecondSeries#merge}); each agent's generator CPU kept.
 */
final class AgentReports {

    private AgentReports() {}

    static LoadResult merge(List<AgentReport> reports) {
        Histogram latency = null;
        long requests = 0;
        long successes = 0;
        long sent = 0;
        long answered = 0;
        long opened = 0;
        double cpu = 0;
        double seconds = 0;
        Map<FailureCause, Long> failures = new EnumMap<>(FailureCause.class);
        for (FailureCause cause : FailureCause.values()) {
            failures.put(cause, 0L);
        }
        for (AgentReport report : reports) {
            Histogram histogram = histogram(report);
            if (latency == null) {
                latency = histogram;
            } else {
                latency.add(histogram);
            }
            requests += report.requests();
            successes += report.successes();
            sent += report.sent();
            answered += report.answered();
            opened += report.connectionsOpened();
            cpu += report.generatorCpuSeconds();
            // a timed window is the same length on every agent; a counted one lasts until the last agent is done
            seconds = Math.max(seconds, report.durationSeconds());
            report.failures().forEach((cause, count) -> failures.merge(FailureCause.valueOf(cause), count, Long::sum));
        }
        String transports = reports.stream()
                .map(AgentReport::transport)
                .filter(Objects::nonNull)
                .distinct()
                .collect(Collectors.joining("+"));
        String firstOther = reports.stream()
                .map(AgentReport::firstOtherFailure)
                .filter(Objects::nonNull)
                .findFirst()
                .orElse(null);
        return new LoadResult(
                requests,
                successes,
                failures,
                seconds,
                latency,
                sent,
                answered,
                opened,
                cpu,
                reports.size(),
                transports,
                firstOther,
                open(reports),
                SecondSeries.merge(reports.stream().map(AgentReport::seconds).toList()));
    }

    /** The open model's figures added up: rates and counts summed, the latest lateness kept. */
    private static LoadResult.Open open(List<AgentReport> reports) {
        if (reports.stream().anyMatch(r -> r.open() == null)) {
            return null;
        }
        return new LoadResult.Open(
                reports.stream().mapToDouble(r -> r.open().targetRate()).sum(),
                reports.stream().mapToInt(r -> r.open().connections()).sum(),
                reports.stream().mapToLong(r -> r.open().sentInWindow()).sum(),
                reports.stream().mapToLong(r -> r.open().completedInWindow()).sum(),
                reports.stream().mapToLong(r -> r.open().late()).sum(),
                reports.stream().mapToLong(r -> r.open().unsent()).sum(),
                reports.stream().mapToDouble(r -> r.open().maxLateMs()).max().orElse(0));
    }

    static List<Results.AgentRun> perAgent(List<AgentReport> reports) {
        return reports.stream()
                .map(r -> {
                    Histogram histogram = histogram(r);
                    double rps = r.durationSeconds() > 0
                            ? (r.open() == null ? r.requests() : r.open().completedInWindow()) / r.durationSeconds()
                            : 0;
                    double share = r.durationSeconds() > 0 && r.cpus() > 0
                            ? r.generatorCpuSeconds() / r.durationSeconds() / r.cpus()
                            : 0;
                    Double p99 = histogram.getTotalCount() == 0
                            ? null
                            : LatencySummary.of(histogram).p99();
                    return new Results.AgentRun(
                            r.agent(),
                            r.host(),
                            r.connections(),
                            r.requests(),
                            r.requests() - r.successes(),
                            Math.round(rps * 10) / 10.0,
                            p99,
                            Math.round(r.generatorCpuSeconds() * 100) / 100.0,
                            Math.round(share * 1000) / 1000.0,
                            r.cpus(),
                            r.answered(),
                            Math.round(r.startLateMs() * 10) / 10.0);
                })
                .toList();
    }

    static Histogram histogram(AgentReport report) {
        if (report.histogram() == null) {
            return new Histogram(1, 3_600_000_000L, 3);
        }
        try {
            return Histogram.decodeFromCompressedByteBuffer(
                    ByteBuffer.wrap(Base64.getDecoder().decode(report.histogram())), 1);
        } catch (java.util.zip.DataFormatException e) {
            throw new IllegalArgumentException(
                    "agent " + report.agent() + " sent a histogram that does not decode: " + e.getMessage());
        }
    }
}
