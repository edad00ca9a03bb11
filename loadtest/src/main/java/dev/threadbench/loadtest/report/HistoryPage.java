package dev.threadbench.loadtest.report;

import dev.threadbench.loadtest.analysis.Fingerprint;
import dev.threadbench.loadtest.model.Results;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * history.html: one self-contained page, a chart per series of {@link History} over the runs, its change points marked.
 */
final class HistoryPage {

    private static final String TEMPLATE = "/dev/threadbench/loadtest/report/history-template.html";

    /** What the page draws: the machine and pinning, the runs' dates, the series. */
    record View(String machine, List<String> dates, List<History.Series> series) {}

    private HistoryPage() {}

    static void write(List<Results> runs, List<History.Series> series, Path file) {
        String template;
        try (InputStream in = HistoryPage.class.getResourceAsStream(TEMPLATE)) {
            template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        View view = new View(
                Fingerprint.machineKey(runs.getLast().environment()),
                runs.stream().map(r -> r.environment().date()).toList(),
                series);
        try {
            Files.writeString(
                    file,
                    template.replace("/*ECHARTS*/", HtmlReport.scriptSafe(HtmlReport.echarts()))
                            .replace("/*VIEW*/null", HtmlReport.scriptSafe(ResultsJson.toCompactJson(view))));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
