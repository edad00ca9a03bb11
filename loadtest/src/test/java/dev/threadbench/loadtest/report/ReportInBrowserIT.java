package dev.threadbench.loadtest.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadbench.loadtest.model.Profile;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.ResultsFixtures;
import dev.threadbench.loadtest.model.Run;
import dev.threadbench.loadtest.model.SweepFixtures;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
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
        chromium = List.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome").stream()
                .map(Path::of)
                .filter(Files::isExecutable)
                .findFirst()
                .orElse(null);
        if (chromium == null) {
            System.out.println("ReportInBrowserIT: no Chromium: the report is not checked in a browser"
                    + " (apt-get install chromium)");
        }
        Assumptions.assumeTrue(chromium != null, "no Chromium installed");
    }

    @Test
    void aSweepDrawsItsTableAndSixCurvesAndShowsThemAloneAtSweep() throws Exception {
        String dom = render(SweepFixtures.sweep(List.of()), "#sweep");
        for (String curve :
                List.of("curve-ratio", "curve-p999", "curve-cpu", "curve-threads", "curve-heap", "curve-rss")) {
            assertTrue(
                    Pattern.compile("id=\"" + curve + "\"[^>]*>.*?<svg", Pattern.DOTALL)
                            .matcher(dom)
                            .find(),
                    curve + " is drawn");
        }
        assertTrue(dom.contains("breaking point"), "the pairs table");
        assertTrue(dom.contains("id=\"runs-box\" style=\"display: none;\""), "#sweep hides the rest");
    }

    /**
     * All six pairs, as a full sweep has them: each curve's legend shows all six names on the page (wrapped, never
     * paged behind an arrow), and at scripts/sweep-figures' window (1340 px) the pairs table is not cut at the right.
     */
    @Test
    void aSixPairSweepShowsEveryLegendAndItsWholeTableAtSweep() throws Exception {
        Results three = SweepFixtures.sweep(List.of());
        List<Run> runs = new ArrayList<>(three.runs());
        for (String strategy : List.of("virtual")) {
            runs.addAll(SweepFixtures.pair(
                    "undertow", strategy, c -> new SweepFixtures.Point(0.99, 0, 150, 45, 90 + 0.09 * c, false)));
        }
        for (String strategy : List.of("blocking", "virtual")) {
            runs.addAll(SweepFixtures.pair(
                    "vertx",
                    strategy,
                    c -> new SweepFixtures.Point(c < 1000 ? 0.99 : 0.85, 0, 180, 35, 95 + 0.04 * c, false)));
        }
        Results six = new Results(three.environment(), three.settings(), runs, List.of());
        String measure = "<script>{ const box = document.getElementById('pairs').parentElement;"
                + " document.title = 'pairs ' + box.scrollWidth + ' ' + box.clientWidth + ' ' +"
                + " document.documentElement.scrollWidth; }</script>";
        String dom =
                render(six, "#sweep", "--window-size=1340,1600", html -> html.replace("</body>", measure + "</body>"));
        for (String curve :
                List.of("curve-ratio", "curve-p999", "curve-cpu", "curve-threads", "curve-heap", "curve-rss")) {
            Matcher svg = Pattern.compile("id=\"" + curve + "\"[^>]*>(.*?)</svg>", Pattern.DOTALL)
                    .matcher(dom);
            assertTrue(svg.find(), curve + " is drawn");
            for (String pair : List.of(
                    "undertow/blocking",
                    "undertow/timer",
                    "undertow/virtual",
                    "vertx/blocking",
                    "vertx/timer",
                    "vertx/virtual")) {
                assertTrue(svg.group(1).contains(">" + pair + "<"), curve + "'s legend shows " + pair);
            }
            assertTrue(
                    !Pattern.compile(">\\s*\\d+/\\d+\\s*<")
                            .matcher(svg.group(1))
                            .find(),
                    curve + "'s legend is not paged");
        }
        Matcher widths =
                Pattern.compile("<title>pairs (\\d+) (\\d+) (\\d+)</title>").matcher(dom);
        assertTrue(widths.find(), "the page measured its pairs table");
        assertTrue(
                Integer.parseInt(widths.group(1)) <= Integer.parseInt(widths.group(2)),
                "the pairs table fits its box, nothing cut at the right: " + widths.group());
        assertTrue(Integer.parseInt(widths.group(3)) <= 1340, "the page fits 1340 px: " + widths.group());
    }

    @Test
    void aProfiledSweepSetsEachPairsBucketsAt2000AndAtItsLargestHeldSideBySide() throws Exception {
        Results sweep = SweepFixtures.sweep(List.of());
        List<Profile> profiles = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            for (int c : SweepFixtures.CONCURRENCIES) {
                profiles.add(new Profile(
                        "undertow",
                        "blocking",
                        c,
                        round,
                        "cpu",
                        "itimer",
                        "profiles/undertow-blocking-" + c + "-round" + (round + 1) + ".html",
                        500,
                        "samples",
                        List.of(
                                new Profile.Share("io", "the IO loop", 0.25),
                                new Profile.Share("other", "the rest", 0.75))));
            }
        }
        String dom = render(
                new Results(sweep.environment(), sweep.settings(), sweep.runs(), List.of(), null, profiles), "#sweep");
        assertTrue(dom.contains("id=\"sweep-profiles\" style=\"\""), "the sweep's profile table is shown");
        assertTrue(dom.contains("largest held"), "undertow/blocking held up to 1,000");
        assertTrue(
                dom.contains("href=\"profiles/undertow-blocking-1000-round3.html\""),
                "each round's flame graph linked");
        assertTrue(dom.contains("25.0%"), "the rounds' median share");
    }

    @Test
    void openModelRunsDrawTheLatencyAgainstLoadChart() throws Exception {
        String dom = render(ResultsFixtures.openModel(), "");
        assertTrue(
                Pattern.compile("id=\"hockey\"[^>]*>.*?<svg", Pattern.DOTALL)
                        .matcher(dom)
                        .find(),
                "the hockey stick is drawn");
        assertTrue(Pattern.compile("id=\"throughput\"[^>]*>.*?<svg", Pattern.DOTALL)
                .matcher(dom)
                .find());
    }

    @Test
    void aPlainCompareDrawsItsCharts() throws Exception {
        String dom = render(ResultsFixtures.threeRounds(), "");
        for (String chart : List.of("throughput", "latency", "resources")) {
            assertTrue(
                    Pattern.compile("id=\"" + chart + "\"[^>]*>.*?<svg", Pattern.DOTALL)
                            .matcher(dom)
                            .find(),
                    chart + " is drawn");
        }
    }

    @Test
    void runsFromAgentsShowEachAgentsShare() throws Exception {
        String dom = render(ResultsFixtures.fromAgents(), "");
        assertTrue(dom.contains("<div id=\"agents\" style=\"\">"), "the agents' section is shown");
        assertTrue(
                Pattern.compile("id=\"agent-runs\".*?agent1.*?198\\.18\\.0\\.3.*?agent2", Pattern.DOTALL)
                        .matcher(dom)
                        .find(),
                "a row per agent");
        assertTrue(dom.contains("52 / 3,600"), "the coordination traffic");
    }

    @Test
    void eachRunIsDrawnSecondBySecond() throws Exception {
        String dom = render(ResultsFixtures.overTime(), "");
        assertTrue(
                Pattern.compile("id=\"timeline\"[^>]*>.*?<svg", Pattern.DOTALL)
                        .matcher(dom)
                        .find(),
                "the time-series chart is drawn");
        assertTrue(
                Pattern.compile("<select id=\"timeline-run\">(.*?<option){6}", Pattern.DOTALL)
                        .matcher(dom)
                        .find(),
                "every run can be picked");
        for (String series : List.of("requests/s", "p50 ms", "p99 ms", "server CPU %", "live threads", "GC pause ms")) {
            assertTrue(
                    Pattern.compile("id=\"timeline\".*?" + Pattern.quote(series), Pattern.DOTALL)
                            .matcher(dom)
                            .find(),
                    series + " in the chart's legend");
        }
        assertTrue(dom.contains("ARTEFACT: above bound 1/3"), "the artefact is flagged in the note column");
    }

    @Test
    void runsWithoutPerSecondFiguresSaySo() throws Exception {
        String dom = render(ResultsFixtures.threeRounds(), "");
        assertTrue(dom.contains("No run here has per-second figures"), "older results, wrk and drill");
    }

    /**
     * The report on a laptop's screen: at 1400 px wide the run tables fit without scrolling, and nothing makes the page
     * wider than the window. The screenshot is kept as target/report-1400px.png for a person to look at.
     */
    @Test
    void theTablesFitA1400PixelWindow() throws Exception {
        Results results = ResultsFixtures.overTime();
        String measure =
                "<script>document.title = 'widths ' + JSON.stringify({page: document.documentElement.scrollWidth,"
                        + " window: window.innerWidth, boxes: ['runs-box', 'costs-box'].map(id => {"
                        + " const box = document.getElementById(id); return [id, box.scrollWidth, box.clientWidth];"
                        + " })});</script>";
        String dom =
                render(results, "", "--window-size=1400,1000", html -> html.replace("</body>", measure + "</body>"));
        Matcher widths = Pattern.compile("<title>widths (.*?)</title>").matcher(dom);
        assertTrue(widths.find(), "the page measured itself");
        JsonNode measured = new ObjectMapper().readTree(widths.group(1).replace("&quot;", "\""));
        assertEquals(1400, measured.get("window").asInt(), "a 1400 px window: " + measured);
        assertTrue(measured.get("page").asInt() <= 1400, "the page is no wider than the window: " + measured);
        for (JsonNode box : measured.get("boxes")) {
            assertTrue(
                    box.get(1).asInt() <= box.get(2).asInt(), box.get(0).asText() + " needs no scrolling: " + measured);
        }

        Path shot = Path.of("target", "report-1400px.png").toAbsolutePath();
        Files.createDirectories(shot.getParent());
        Files.deleteIfExists(shot);
        Path page = dir.resolve("report.html");
        HtmlReport.write(results, page);
        Process browser = new ProcessBuilder(browserCommand(
                        "--window-size=1400,2600",
                        "--hide-scrollbars",
                        "--screenshot=" + shot,
                        page.toUri().toString()))
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("shot.log").toFile())
                .start();
        assertTrue(browser.waitFor(60, TimeUnit.SECONDS), "Chromium ends");
        assertTrue(Files.isRegularFile(shot), "a screenshot: " + Files.readString(dir.resolve("shot.log")));
        BufferedImage image = ImageIO.read(shot.toFile());
        assertEquals(1400, image.getWidth(), "taken at 1400 px");
    }

    private List<String> browserCommand(String... more) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                chromium.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--user-data-dir=" + Files.createTempDirectory(dir, "profile"),
                "--enable-logging=stderr",
                "--v=0",
                "--virtual-time-budget=3000"));
        command.addAll(List.of(more));
        return command;
    }

    private String render(Results results, String fragment) throws IOException, InterruptedException {
        return render(results, fragment, "--window-size=1400,1000", html -> html);
    }

    /**
     * The page's DOM once its script has run (the page first edited by {@code edit}); fails on any script error
     * Chromium reports.
     */
    private String render(Results results, String fragment, String windowSize, UnaryOperator<String> edit)
            throws IOException, InterruptedException {
        Path page = dir.resolve("report.html");
        Files.writeString(page, edit.apply(HtmlReport.render(results)));
        Path log = dir.resolve("chromium.log");
        Process browser = new ProcessBuilder(browserCommand(windowSize, "--dump-dom", page.toUri() + fragment))
                .redirectError(log.toFile())
                .start();
        String dom = new String(browser.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(browser.waitFor(60, TimeUnit.SECONDS), "Chromium ends");
        Matcher error = SCRIPT_ERROR.matcher(Files.readString(log));
        assertEquals("no script error", error.find() ? error.group(1) : "no script error");
        assertTrue(dom.contains("</body>"), "a page came back: " + dom.length() + " characters");
        return dom;
    }
}
