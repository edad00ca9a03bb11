package dev.threadbench.loadtest.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * report.html in a real browser: headless Chromium loads the page and runs its script; no script error, and
 * every chart drawn. Skipped, saying so, where Chromium is not installed (apt-get install chromium).
 */
class ReportInBrowserIT {

    private static final Pattern SCRIPT_ERROR = Pattern.compile("CONSOLE.*\"(Uncaught [^\"]*)\"");

    @TempDir
    Path dir;

    private static Path chromium;

    @BeforeAll
    static void findChromium() {
        chromium = List.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome").stream().map(Path::of)
                .filter(Files::isExecutable).findFirst().orElse(null);
        if (chromium == null) {
            System.out.println("ReportInBrowserIT: no Chromium: the report is not checked in a browser (apt-get install chromium)");
        }
        Assumptions.assumeTrue(chromium != null, "no Chromium installed");
    }

    @Test
    void aSweepDrawsItsTableAndSixCurvesAndShowsThemAloneAtSweep() throws Exception {
        String dom = render(SweepFixtures.sweep(List.of()), "#sweep");
        for (String curve : List.of("curve-ratio", "curve-p999", "curve-cpu", "curve-threads", "curve-heap", "curve-rss")) {
            assertTrue(Pattern.compile("id=\"" + curve + "\"[^>]*>.*?<svg", Pattern.DOTALL).matcher(dom).find(), curve + " is drawn");
        }
        assertTrue(dom.contains("breaking point"), "the pairs table");
        assertTrue(dom.contains("id=\"runs\" style=\"display: none;\""), "#sweep hides the rest");
    }

    @Test
    void openModelRunsDrawTheLatencyAgainstLoadChart() throws Exception {
        String dom = render(ResultsFixtures.openModel(), "");
        assertTrue(Pattern.compile("id=\"hockey\"[^>]*>.*?<svg", Pattern.DOTALL).matcher(dom).find(), "the hockey stick is drawn");
        assertTrue(Pattern.compile("id=\"throughput\"[^>]*>.*?<svg", Pattern.DOTALL).matcher(dom).find());
    }

    @Test
    void aPlainCompareDrawsItsCharts() throws Exception {
        String dom = render(ResultsFixtures.threeRounds(), "");
        for (String chart : List.of("throughput", "latency", "resources")) {
            assertTrue(Pattern.compile("id=\"" + chart + "\"[^>]*>.*?<svg", Pattern.DOTALL).matcher(dom).find(), chart + " is drawn");
        }
    }

    @Test
    void runsFromAgentsShowEachAgentsShare() throws Exception {
        String dom = render(ResultsFixtures.fromAgents(), "");
        assertTrue(dom.contains("<div id=\"agents\" style=\"\">"), "the agents' section is shown");
        assertTrue(Pattern.compile("id=\"agent-runs\".*?agent1.*?198\\.18\\.0\\.3.*?agent2", Pattern.DOTALL).matcher(dom).find(),
                "a row per agent");
        assertTrue(dom.contains("52 / 3,600"), "the coordination traffic");
    }

    /** The page's DOM once its script has run; fails on any script error Chromium reports. */
    private String render(Results results, String fragment) throws IOException, InterruptedException {
        Path page = dir.resolve("report.html");
        HtmlReport.write(results, page);
        Path log = dir.resolve("chromium.log");
        Process browser = new ProcessBuilder(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + Files.createTempDirectory(dir, "profile"), "--enable-logging=stderr", "--v=0",
                "--virtual-time-budget=3000", "--dump-dom", page.toUri() + fragment)
                .redirectError(log.toFile()).start();
        String dom = new String(browser.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(browser.waitFor(60, TimeUnit.SECONDS), "Chromium ends");
        Matcher error = SCRIPT_ERROR.matcher(Files.readString(log));
        assertEquals("no script error", error.find() ? error.group(1) : "no script error");
        assertTrue(dom.contains("</body>"), "a page came back: " + dom.length() + " characters");
        return dom;
    }
}
