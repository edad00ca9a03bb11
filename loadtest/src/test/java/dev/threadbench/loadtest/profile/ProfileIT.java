package dev.threadbench.loadtest.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadbench.loadtest.MainTest;
import dev.threadbench.loadtest.compare.ServersIT;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * compare --profile cpu for real, on both packaged servers (short windows, few connections, one round): a flame graph
 * per run with the framework's frames in it, the buckets in results.json, and the report linking each flame graph,
 * checked in headless Chromium as ReportInBrowserIT does (the browser part skipped, saying so, where Chromium is not
 * installed).
 */
class ProfileIT {

    private static final Pattern SCRIPT_ERROR = Pattern.compile("CONSOLE.*\"(Uncaught [^\"]*)\"");

    @TempDir
    Path dir;

    @Test
    void aProfiledCompareWritesAFlameGraphPerRunAndTheReportLinksThem() throws Exception {
        Path out = dir.resolve("profiled");
        MainTest.Ran ran = MainTest.run(
                "compare",
                "--profile",
                "cpu",
                "--undertow-jar",
                ServersIT.jar("undertow").toString(),
                "--vertx-jar",
                ServersIT.jar("vertx").toString(),
                "--concurrency",
                "20",
                "--repeat",
                "1",
                "--rampup",
                "0",
                "--warmup",
                "1",
                "--duration",
                "2",
                "--delay-ms",
                "200",
                "--jvm-opts",
                "-Xmx256m",
                "--out",
                out.toString());
        assertEquals(0, ran.code(), ran.out() + ran.err());
        assertTrue(ran.out().contains("profile: cpu: itimer"), "the mode that ran is said: " + ran.out());
        assertTrue(!ran.out().contains("not profiled"), ran.out());

        JsonNode profiles = new ObjectMapper()
                .readTree(out.resolve("results.json").toFile())
                .get("profiles");
        assertEquals(2, profiles.size(), profiles.toString());
        for (JsonNode profile : profiles) {
            String server = profile.get("server").asText();
            Path html = out.resolve(profile.get("flameGraph").asText());
            assertEquals(
                    out.resolve("profiles")
                            .resolve(server + "-" + profile.get("strategy").asText() + "-20.html"),
                    html);
            String graph = Files.readString(html);
            // the page stores frame names with shared prefixes: look for a fragment
            assertTrue(
                    graph.contains("undertow".equals(server) ? "undertow/" : "netty/"),
                    server + "'s frames in " + html);
            assertTrue(profile.get("total").asLong() > 0, profile.toString());
            assertEquals("cpu", profile.get("mode").asText());
            double sum = 0;
            for (JsonNode share : profile.get("buckets")) {
                sum += share.get("share").asDouble();
            }
            assertEquals(1.0, sum, 0.01, profile.toString());
            assertTrue(
                    profile.get("buckets").findValuesAsText("bucket").contains("other"),
                    "other is listed, never hidden");
        }
        for (Path log : List.of(out.resolve("logs/undertow-default.log"), out.resolve("logs/vertx-default.log"))) {
            String text = Files.readString(log);
            assertTrue(
                    !text.contains("WARNING") && !text.contains("Profiling"),
                    "the server's log stays the server's: " + text);
        }

        Path chromium = List.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome").stream()
                .map(Path::of)
                .filter(Files::isExecutable)
                .findFirst()
                .orElse(null);
        if (chromium == null) {
            System.out.println("ProfileIT: no Chromium: the report's links are not checked in a browser"
                    + " (apt-get install chromium)");
        }
        Assumptions.assumeTrue(chromium != null, "no Chromium installed");
        String dom = dump(chromium, out.resolve("report.html"));
        for (JsonNode profile : profiles) {
            assertTrue(
                    dom.contains("<a class=\"flame\" href=\""
                            + profile.get("flameGraph").asText() + "\">"),
                    "linked: " + profile);
        }
        assertTrue(dom.contains("<div id=\"profiles\" style=\"\">"), "the profiles' section is shown");
        String graph =
                dump(chromium, out.resolve(profiles.get(0).get("flameGraph").asText()));
        assertTrue(graph.contains("<canvas"), "the flame graph draws on its canvas");
    }

    private String dump(Path chromium, Path page) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                chromium.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--user-data-dir=" + Files.createTempDirectory(dir, "browser"),
                "--enable-logging=stderr",
                "--v=0",
                "--virtual-time-budget=3000",
                "--window-size=1400,1000",
                "--dump-dom",
                page.toUri().toString()));
        Path log = dir.resolve("chromium.log");
        Process browser =
                new ProcessBuilder(command).redirectError(log.toFile()).start();
        String dom = new String(browser.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(browser.waitFor(60, TimeUnit.SECONDS), "Chromium ends");
        Matcher error = SCRIPT_ERROR.matcher(Files.readString(log));
        assertEquals("no script error", error.find() ? error.group(1) : "no script error", page.toString());
        assertTrue(dom.contains("</body>"), "a page came back: " + dom.length() + " characters");
        return dom;
    }
}
