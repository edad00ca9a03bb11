package dev.threadbench.loadtest.report;

import dev.threadbench.loadtest.analysis.AboveBound;
import dev.threadbench.loadtest.analysis.Cell;
import dev.threadbench.loadtest.analysis.SweepPairs;
import dev.threadbench.loadtest.analysis.SweepProfiles;
import dev.threadbench.loadtest.analysis.Verdict;
import dev.threadbench.loadtest.base.BuildInfo;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.SweepPair;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * report.html: one self-contained page (Apache ECharts and the results inlined, nothing fetched) with
 * the tables of cells (each figure's median and, beneath it, its range over the rounds; grouped in two tables so
 * that they fit a 1400 px window), the verdict, throughput against the bound, each run second by second, latency
 * percentile curves, server CPU and peak RSS.
 */
public final class HtmlReport {

    private static final String TEMPLATE = "/dev/threadbench/loadtest/report/report-template.html";

    /**
     * What the page draws besides the runs: the cells, the verdict's lines, the CPU sets in words, and with a sweep its
     * pairs, each one's breaking point and its ends measured again in words ({@link SweepPair#reading()},
     * {@link SweepPair#endsReading()}, in the pairs' order) and its points read
     * above the bound ({@link AboveBound#sweepPoints}, flagged), and with --profile too each pair's profiles at 2000
     * and at its largest concurrency held ({@link SweepProfiles}).
     */
    record View(
            List<Cell.Summary> cells,
            List<String> verdict,
            String pinning,
            List<SweepPair> pairs,
            List<String> readings,
            List<String> endsReadings,
            List<List<String>> aboveBound,
            List<SweepProfiles> sweepProfiles) {}

    private HtmlReport() {}

    public static void write(Results results, Path file) {
        try {
            Files.writeString(file, render(results));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    public static String render(Results results) {
        String template = resource(TEMPLATE);
        return template.replace("/*ECHARTS*/", scriptSafe(echarts()))
                .replace("/*RESULTS*/null", scriptSafe(ResultsJson.toCompactJson(results)))
                .replace("/*VIEW*/null", scriptSafe(ResultsJson.toCompactJson(view(results))));
    }

    static View view(Results results) {
        List<Cell> cells = Cell.of(results.runs());
        List<SweepPair> pairs = SweepPairs.of(results);
        return new View(
                cells.stream().map(Cell::summary).toList(),
                Verdict.lines(results),
                ConsoleTable.pinning(results.environment()),
                pairs,
                pairs.stream().map(SweepPair::reading).toList(),
                pairs.stream().map(SweepPair::endsReading).toList(),
                pairs.stream()
                        .map(p -> AboveBound.sweepPoints(cells, p).stream()
                                .map(point -> "ARTEFACT: " + point + SweepTable.ARTEFACT)
                                .toList())
                        .toList(),
                SweepProfiles.of(pairs, results.profiles()));
    }

    /** The webjar's echarts.min.js, read from the classpath. */
    static String echarts() {
        String version = BuildInfo.get().echartsVersion();
        return resource("/META-INF/resources/webjars/echarts/" + version + "/dist/echarts.min.js");
    }

    /** echarts.min.js as the report embeds it, for compare's live page to serve alike. */
    public static String echartsScript() {
        return echarts();
    }

    /** Text placed inside a script element must not close it. */
    static String scriptSafe(String text) {
        return text.replace("</", "<\\/");
    }

    private static String resource(String name) {
        try (InputStream in = HtmlReport.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from the loadtest jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
