package dev.threadbench.loadtest.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.threadbench.loadtest.MainTest;
import dev.threadbench.loadtest.StandInServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** compare --targets with names of its own: any server that serves the workload, with or without /stats. */
class AnyTargetsTest {

    @TempDir
    Path dir;

    @Test
    void aTargetWithoutStatsCountsWithItsCostNa() throws Exception {
        try (StandInServer withStats = new StandInServer(10, 2000);
                PlainServer plain = PlainServer.start(10, 2000)) {
            Path out = dir.resolve("results");
            MainTest.Ran ran = MainTest.run(
                    "compare",
                    "--targets",
                    "copy-a=http://127.0.0.1:" + withStats.port() + ",plain=http://127.0.0.1:" + plain.port(),
                    "--quick",
                    "--repeat",
                    "1",
                    "--rampup",
                    "0",
                    "--concurrency",
                    "4",
                    "--no-pin",
                    "--out",
                    out.toString());

            assertEquals(0, ran.code(), ran.out() + ran.err());
            assertTrue(ran.out().contains("plain at http://127.0.0.1:" + plain.port() + ": up, no /stats"), ran.out());
            String plainRow = ran.out()
                    .lines()
                    .filter(line -> line.matches("4\\s+-\\s+plain\\s.*"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no row for plain, its strategy -, in\n" + ran.out()));
            assertTrue(plainRow.contains(" n/a "), "its server CPU n/a: " + plainRow);
            JsonNode runs = new ObjectMapper()
                    .readTree(out.resolve("results.json").toFile())
                    .get("runs");
            assertEquals(List.of("copy-a", "plain"), runs.findValuesAsText("server"));
            for (JsonNode run : runs) {
                assertTrue(run.get("requests").asLong() > 0, run.toString());
                assertEquals(0, run.get("failed").get("total").asLong(), run.toString());
            }
            assertEquals(
                    "exact",
                    runs.get(0).get("reconciliation").get("verdict").asText(),
                    runs.get(0).toString());
            JsonNode withoutStats = runs.get(1);
            for (String na : List.of(
                    "reconciliation",
                    "serverCpuSeconds",
                    "serverCpuMicrosPerRequest",
                    "serverCpuShare",
                    "serverPeakRssMb",
                    "cost")) {
                JsonNode figure = withoutStats.path(na);
                assertTrue(figure.isNull() || figure.isMissingNode(), na + " in " + withoutStats);
            }
            assertTrue(withoutStats.get("notes").toString().contains("has no /stats"), withoutStats.toString());
        }
    }

    /** The page on /, every Nth request after a delay, a 404 for anything else (/health and /stats too). */
    private record PlainServer(HttpServer http, ExecutorService threads, AtomicLong counter) implements AutoCloseable {

        static PlainServer start(int delayEvery, long delayMs) throws IOException {
            HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 1000);
            AtomicLong counter = new AtomicLong();
            byte[] page = StandInServer.PAGE.getBytes(StandardCharsets.UTF_8);
            http.createContext("/", exchange -> {
                if (!exchange.getRequestURI().getPath().equals("/")) {
                    exchange.sendResponseHeaders(404, -1);
                    exchange.close();
                    return;
                }
                if (counter.incrementAndGet() % delayEvery == 0) {
                    try {
                        Thread.sleep(delayMs);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                exchange.getResponseHeaders().set("Content-Type", "text/html");
                exchange.sendResponseHeaders(200, page.length);
                try (OutputStream body = exchange.getResponseBody()) {
                    body.write(page);
                }
            });
            ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
            http.setExecutor(threads);
            http.start();
            return new PlainServer(http, threads, counter);
        }

        int port() {
            return http.getAddress().getPort();
        }

        long requests() {
            return counter.get();
        }

        @Override
        public void close() {
            http.stop(0);
            threads.shutdownNow();
        }
    }
}
