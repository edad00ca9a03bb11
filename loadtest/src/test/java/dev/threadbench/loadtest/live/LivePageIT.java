package dev.threadbench.loadtest.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadbench.loadtest.MainTest;
import dev.threadbench.loadtest.compare.ServersIT;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.report.ConsoleTable;
import dev.threadbench.loadtest.report.ResultsJson;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * compare's live page in a real browser: headless Chromium watches a short real comparison of the Vert.x jar (--live
 * on a port of the test's) from start to end. Skipped, saying so, where Chromium is not installed.
 */
class LivePageIT {

    /**
     * Where the screenshot goes: target/ (a run leaves the sources alone), or, to retake docs/live.md's, the path given
     * as -Dlive.screenshot.
     */
    private static final Path SCREENSHOT = Path.of(System.getProperty("live.screenshot", "target/live.png"));

    @TempDir
    Path dir;

    @Test
    void aBrowserWatchesAComparisonUpdateEverySecondAndSeesItFinish() throws Exception {
        Path chromium = DevTools.installedChromium().orElse(null);
        if (chromium == null) {
            System.out.println("LivePageIT: no Chromium: the live page is not checked (apt-get install chromium)");
        }
        Assumptions.assumeTrue(chromium != null, "no Chromium installed");
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Path out = dir.resolve("results");
        String url = "http://127.0.0.1:" + port + "/";
        CompletableFuture<MainTest.Ran> compare = CompletableFuture.supplyAsync(() -> MainTest.run(
                "compare",
                "--servers",
                "vertx",
                "--vertx-jar",
                ServersIT.jar("vertx").toString(),
                "--rampup",
                "1",
                "--warmup",
                "4",
                "--duration",
                "8",
                "--repeat",
                "1",
                "--concurrency",
                "200",
                "--live",
                "127.0.0.1:" + port,
                "--live-linger",
                "15",
                "--out",
                out.toString()));
        awaitPage(url, compare);
        List<Double> measuringRates = new ArrayList<>();
        byte[] screenshot = null;
        JsonNode page;
        try (DevTools browser =
                DevTools.start(chromium, Files.createDirectories(dir.resolve("browser")), "1400,1000")) {
            browser.navigate(url, "table");
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
            while (true) {
                page = browser.evaluate("JSON.stringify({status: document.getElementById('status').textContent,"
                        + " phase: document.getElementById('phase').textContent,"
                        + " rate: document.getElementById('rate').textContent,"
                        + " table: document.getElementById('table').textContent,"
                        + " updates: window.liveUpdates || [], points: window.livePoints || [],"
                        + " firstDrawnMs: (window.liveUpdates || []).length"
                        + " ? window.liveUpdates[0] - performance.timeOrigin : null,"
                        + " foreign: performance.getEntriesByType('resource')"
                        + ".filter(r => !r.name.startsWith(location.origin)).map(r => r.name),"
                        + " drawn: document.querySelectorAll('#chart-rate svg path').length})");
                page = new com.fasterxml.jackson.databind.ObjectMapper().readTree(page.asText());
                if (page.get("phase").asText().equals("measuring")) {
                    measuringRates.add(
                            Double.parseDouble(page.get("rate").asText().replace(",", "")));
                    screenshot = browser.screenshot();
                }
                if (page.get("status").asText().equals("comparison finished")
                        || System.nanoTime() > deadline
                        || compare.isDone()) {
                    break;
                }
                Thread.sleep(500);
            }
            assertEquals("comparison finished", page.get("status").asText(), "the page says so at the end");
            JsonNode report =
                    browser.evaluate("fetch('report.html').then(r => r.status + ' ' + r.headers.get('content-type'))");
            assertEquals("200 text/html; charset=utf-8", report.asText(), "report.html served from the page");
        }
        MainTest.Ran ran = compare.get(2, TimeUnit.MINUTES);
        assertEquals(0, ran.code(), ran.out() + ran.err());
        assertTrue(ran.out().contains("live: " + url + "\n"), "the header's line: " + ran.out());

        // the time from opening the page to its first snapshot drawn into the charts (docs/live.md quotes it)
        double firstDrawnMs = page.get("firstDrawnMs").asDouble();
        System.out.printf("LivePageIT: first snapshot drawn %.0f ms after the page was opened%n", firstDrawnMs);
        assertTrue(firstDrawnMs > 0 && firstDrawnMs < 10_000, "charts drawn within 10 s, not " + firstDrawnMs + " ms");
        JsonNode updates = page.get("updates");
        assertTrue(updates.size() >= 10, "a snapshot a second over the run: " + updates);
        for (int i = 1; i < updates.size(); i++) {
            long gap = updates.get(i).asLong() - updates.get(i - 1).asLong();
            assertTrue(gap <= 2000, "updated at least every 2 s, not after " + gap + " ms");
        }
        assertTrue(page.get("foreign").isEmpty(), "nothing fetched from outside: " + page.get("foreign"));

        // compare's own progress line (every 10 s off a terminal): the page's figure at the same count of requests
        Matcher line = Pattern.compile("measuring\\s+([\\d,]+) requests\\s+([\\d,]+) req/s over the last")
                .matcher(ran.err());
        Long count = null;
        double progressRate = 0;
        while (line.find()) {
            count = Long.parseLong(line.group(1).replace(",", ""));
            progressRate = Double.parseDouble(line.group(2).replace(",", ""));
        }
        assertTrue(count != null, "compare printed a progress line while measuring: " + ran.err());
        JsonNode same = null;
        for (JsonNode point : page.get("points")) {
            if (point.get("completed").asLong() == count) {
                same = point;
            }
        }
        assertTrue(same != null, "the page had compare's second of " + count + " requests: " + page.get("points"));
        double shown = same.get("rate").asDouble();
        assertTrue(
                Math.abs(shown - progressRate) <= 0.05 * progressRate,
                "the page's req/s " + shown + " within 5 % of compare's progress line's " + progressRate);
        assertTrue(!measuringRates.isEmpty(), "the page showed the measured window");

        Results results = ResultsJson.read(out.resolve("results.json"));
        assertEquals(1, results.runs().size());
        double measured = results.runs().getFirst().load().requestsPerSecond();
        double latest = measuringRates.getLast();
        assertTrue(
                Math.abs(latest - measured) <= 0.2 * measured,
                "the page's last req/s while measuring " + latest + " near the window's " + measured);
        assertEquals(
                ConsoleTable.render(results).strip(),
                page.get("table").asText().strip(),
                "the finished table is results.json's");
        assertTrue(screenshot != null, "a screenshot while measuring");
        Files.write(SCREENSHOT, screenshot);
    }

    /** Until the page answers (compare has started it) or compare ended without it. */
    private static void awaitPage(String url, CompletableFuture<MainTest.Ran> compare) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (compare.isDone()) {
                MainTest.Ran ran = compare.join();
                throw new AssertionError("compare ended before its page answered: " + ran.out() + ran.err());
            }
            try {
                HttpResponse<String> answer = http.send(
                        HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
                if (answer.statusCode() == 200) {
                    return;
                }
            } catch (java.io.IOException e) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no page at " + url + " within 60 s");
    }
}
