package dev.threadbench.loadtest.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The page's server alone, fed by hand: several viewers, read-only, loopback only, the end. */
class LivePageTest {

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void twoViewersEachGetASnapshotASecondAndTheEndThenReportHtml() throws Exception {
        LiveBoard board = new LiveBoard();
        try (LivePage page = LivePage.start(new InetSocketAddress("127.0.0.1", 0), board)) {
            assertTrue(page.url().matches("http://127\\.0\\.0\\.1:\\d+/"), page.url());
            board.runStarted(new LiveBoard.RunStarted("vertx/timer at C=200", 200, 1000.0, 2, "run 1 of 2"), 1);
            board.generator(new LiveBoard.GeneratorTick(System.nanoTime(), "warm-up", 900, 0, 900, 1, 9, 0.1, 2001.0));
            List<CompletableFuture<List<String>>> viewers = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                viewers.add(CompletableFuture.supplyAsync(() -> events(page.url() + "events")));
            }
            Thread.sleep(2500);
            board.table("C  strategy  server\n200 timer vertx\n");
            Path report = Files.writeString(dir.resolve("report.html"), "<html>report</html>");
            assertEquals(404, get(page.url() + "report.html").statusCode(), "not before the end");
            page.finished(report);
            for (CompletableFuture<List<String>> viewer : viewers) {
                List<String> events = viewer.get(10, TimeUnit.SECONDS);
                assertEquals("event: history", events.getFirst());
                assertTrue(events.stream().filter("event: snapshot"::equals).count() >= 3, events.toString());
                assertEquals("event: finished", events.getLast(), events.toString());
            }
            HttpResponse<String> served = get(page.url() + "report.html");
            assertEquals(200, served.statusCode());
            assertEquals("<html>report</html>", served.body());
        }
    }

    @Test
    void readOnlyAndOnlyUnderItsOwnName() throws Exception {
        try (LivePage page = LivePage.start(new InetSocketAddress("127.0.0.1", 0), new LiveBoard())) {
            assertEquals(200, get(page.url()).statusCode());
            assertTrue(get(page.url()).body().contains("<title>threadbench compare, live</title>"));
            assertEquals(200, get(page.url() + "echarts.min.js").statusCode());
            assertEquals(404, get(page.url() + "results.json").statusCode());
            assertEquals(403, statusAs(page.url(), "attacker.example"), "a rebound name is refused");
            HttpResponse<String> post = http.send(
                    HttpRequest.newBuilder(URI.create(page.url()))
                            .POST(HttpRequest.BodyPublishers.ofString("x"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(405, post.statusCode());
        }
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The status of a GET that names the page {@code hostName} (the JDK's client sets Host itself). */
    private static int statusAs(String url, String hostName) throws Exception {
        URI uri = URI.create(url);
        try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
            socket.getOutputStream()
                    .write(("GET " + uri.getPath() + " HTTP/1.1\r\nHost: " + hostName + "\r\nConnection: close\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            String status = new BufferedReader(
                            new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
                    .readLine();
            return Integer.parseInt(status.split(" ")[1]);
        }
    }

    /** The event lines of one stream, until it ends. */
    private List<String> events(String url) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofLines())
                    .body()
                    .filter(line -> line.startsWith("event: "))
                    .toList();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
