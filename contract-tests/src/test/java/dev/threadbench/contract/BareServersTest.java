package dev.threadbench.contract;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The yardsticks scripts/bench-bare holds the servers to (benchmarks/bare/*.java) are compiled by no build, so a
 * framework upgrade could break them unseen: each is started here once, as the script starts it (the JDK's source
 * launcher with the server's jar on the class path), and must serve the page.
 */
class BareServersTest {

    private static final Duration STARTUP = Duration.ofSeconds(60);

    @ParameterizedTest
    @ValueSource(strings = {"undertow", "vertx"})
    void theBareServerCompilesStartsAndServesThePage(String server) throws Exception {
        assumeFalse(Servers.external(), "checks servers it starts itself");
        String bareName = server.equals("undertow") ? "BareUndertow" : "BareVertx";
        Path source = Servers.projectRoot().resolve("benchmarks/bare/" + bareName + ".java");
        int port = freePort();
        Path log = Files.createTempFile("bare-" + server + "-", ".log");
        Process process = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx256m",
                        "-cp",
                        Servers.jar(server).toString(),
                        source.toString(),
                        String.valueOf(port),
                        "0")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            HttpResponse<byte[]> answer = firstAnswer(port, process, log);
            assertEquals(200, answer.statusCode(), "GET / on " + bareName);
            assertArrayEquals(Servers.helloHtml(), answer.body(), bareName + " serves hello.html");
        } finally {
            process.destroyForcibly().waitFor();
            Files.deleteIfExists(log);
        }
    }

    private static HttpResponse<byte[]> firstAnswer(int port, Process process, Path log) throws Exception {
        HttpClient client =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
                .timeout(Duration.ofSeconds(10))
                .build();
        long deadline = System.nanoTime() + STARTUP.toNanos();
        while (true) {
            if (!process.isAlive()) {
                throw new AssertionError("exited with " + process.exitValue() + " before answering: " + output(log));
            }
            try {
                return client.send(request, HttpResponse.BodyHandlers.ofByteArray());
            } catch (IOException notYet) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("no answer within " + STARTUP.toSeconds() + " s: " + output(log));
                }
                Thread.sleep(200);
            }
        }
    }

    private static String output(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
