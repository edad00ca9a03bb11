package dev.threadbench.loadtest.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.ResultsFixtures;
import org.junit.jupiter.api.Test;

class HtmlReportTest {

    @Test
    void selfContainedWithEchartsAndTheResultsInlined() {
        String html = HtmlReport.render(ResultsFixtures.results());
        assertTrue(html.length() > 900_000, "echarts.min.js is inlined: " + html.length());
        assertTrue(html.contains("echarts.init("));
        assertFalse(html.contains("<script src"), "nothing fetched");
        assertFalse(html.contains("/*RESULTS*/null"), "the results are in");
        assertTrue(html.contains("\"requestsPerSecond\":9400.0"));
        assertTrue(html.contains("\"percentiles\":[{\"percentile\":0.0"));
        assertFalse(
                html.substring(html.indexOf("const results")).contains("</script>\n<script>"), "no early script end");
    }

    @Test
    void serverFiguresCompareCouldNotReadAreNullInThePageAndNaInTheTable() {
        Results results = ResultsFixtures.resultsOfRunningServers();
        String html = HtmlReport.render(results);
        assertTrue(
                html.contains("\"serverCpuSeconds\":null,\"serverCpuMicrosPerRequest\":null,"
                        + "\"serverCpuShare\":null,\"serverPeakRssMb\":null"),
                "nulls inlined");
        assertTrue(html.contains("\"serverJvmOptions\":null"));
        assertTrue(html.contains("'n/a'"), "the page shows n/a for them");
        assertTrue(
                html.contains("\"generatorCpuMicrosPerRequest\":{\"median\":45.5"),
                "the generator's CPU per request is in");

        String table = ConsoleTable.render(results);
        String[] lines = table.split("\n");
        assertTrue(
                lines[2].matches(".*\\s2100\\s+n/a\\s+45\\.5\\s+n/a\\s+23%\\s+n/a\\s+0\\s+exact.*"),
                "the generator's CPU per request next to the server's: " + lines[2]);
        assertTrue(table.contains("n/a: the server reports no process figures on its /stats"), table);
        assertTrue(
                ConsoleTable.oneLine(results.runs().getFirst())
                        .contains("server CPU n/a, peak RSS n/a, generator CPU 23% of its CPUs, counts exact"),
                ConsoleTable.oneLine(results.runs().getFirst()));
        assertFalse(
                ConsoleTable.render(ResultsFixtures.results()).contains("n/a"), "started servers have their figures");
    }

    @Test
    void openModelRunsShowTheirRateAndTheLatencyAgainstLoadChart() {
        Results results = ResultsFixtures.openModel();
        String html = HtmlReport.render(results);
        assertTrue(
                html.contains("\"open\":{\"model\":\"open\",\"targetRate\":4500.0"), "the open model's figures are in");
        assertTrue(html.contains("id=\"hockey\""), "the latency-against-load chart");
        assertFalse(
                HtmlReport.render(ResultsFixtures.results()).contains("\"model\":\"open\""), "closed loops have none");

        String table = ConsoleTable.render(results);
        String[] lines = table.split("\n");
        assertTrue(lines[2].startsWith("1000 @2,500/s") && lines[2].contains("undertow"), lines[2]);
        assertTrue(lines[4].startsWith("1000 @4,500/s") && lines[4].contains("9500"), lines[4]);
        assertTrue(table.contains("C @R/s: the open model"), table);
        assertTrue(table.contains("C=1000 @4,500/s undertow/blocking vs vertx/timer"), table);
        assertTrue(
                ConsoleTable.oneLine(results.runs().get(2))
                        .startsWith("C=1000 open model @4,500 req/s (4,499 sent/s, 1366"
                                + " connections, 0 late, 0 never sent): 4,480 req/s"),
                ConsoleTable.oneLine(results.runs().get(2)));
    }

    @Test
    void textThatWouldEndTheScriptIsEscaped() {
        assertTrue(HtmlReport.scriptSafe("a</script>b").equals("a<\\/script>b"));
    }

    @Test
    void theTerminalTableHasTheServersSideBySideAndFlagsGeneratorBoundRuns() {
        String table = ConsoleTable.render(ResultsFixtures.results());
        String[] lines = table.split("\n");
        assertTrue(lines[0].trim().startsWith("C  ") && lines[0].contains("of bound"), lines[0]);
        assertTrue(lines[2].contains("undertow") && lines[2].contains("99.0%"), lines[2]);
        assertTrue(lines[3].contains("vertx") && lines[3].contains("99.8%"), lines[3]);
        assertTrue(lines[5].contains("GENERATOR-BOUND"), lines[5]);
        assertTrue(table.contains("GENERATOR-BOUND: the load generator used 90 % or more of its CPUs"));
        assertTrue(table.contains("servers on CPUs 0, generator on 1"), table);
        assertTrue(
                table.contains("C=2000 undertow/blocking vs vertx/timer:\n    req/s 9,800 vs 9,400: not judged:"
                        + " generator-bound in 1/1 rounds of vertx/timer"),
                table);
        assertTrue(ConsoleTable.oneLine(ResultsFixtures.run("vertx", "timer", 2000, 9400, true))
                .startsWith("C=2000: 9,400 req/s (94.0% of the 10,000 bound), p50 0.80 ms, p99 2003 ms"));
    }
}
