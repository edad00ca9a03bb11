package dev.threadbench.loadtest.live;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Headless Chromium driven by its DevTools protocol over a WebSocket (java.net.http): navigate, evaluate, screenshot.
 * No driver to match the browser's version, nothing but the JDK and Jackson.
 */
final class DevTools implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process browser;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> answers = new ConcurrentHashMap<>();

    private DevTools(Process browser, WebSocket socket) {
        this.browser = browser;
        this.socket = socket;
    }

    /** Chromium as root needs no sandbox; a fresh profile, nothing fetched but what the page asks for. */
    static DevTools start(Path chromium, Path profile, String windowSize) throws Exception {
        Process browser = new ProcessBuilder(
                        chromium.toString(),
                        "--headless",
                        "--no-sandbox",
                        "--disable-gpu",
                        "--disable-quic",
                        "--no-first-run",
                        "--disable-background-networking",
                        "--disable-component-update",
                        "--disable-sync",
                        "--hide-scrollbars",
                        "--window-size=" + windowSize,
                        "--remote-debugging-port=0",
                        "--remote-allow-origins=*",
                        "--user-data-dir=" + profile,
                        "about:blank")
                .redirectErrorStream(true)
                .redirectOutput(
                        profile.resolveSibling(profile.getFileName() + ".log").toFile())
                .start();
        Path active = profile.resolve("DevToolsActivePort");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Files.isRegularFile(active) || Files.readAllLines(active).size() < 2) {
            if (System.nanoTime() > deadline || !browser.isAlive()) {
                browser.destroyForcibly();
                throw new IllegalStateException("Chromium gave no DevTools port");
            }
            Thread.sleep(100);
        }
        int port = Integer.parseInt(Files.readAllLines(active).getFirst().strip());
        HttpClient http = HttpClient.newHttpClient();
        String pageSocket = null;
        while (pageSocket == null) {
            JsonNode targets = JSON.readTree(http.send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body());
            for (JsonNode target : targets) {
                if ("page".equals(target.path("type").asText())) {
                    pageSocket = target.get("webSocketDebuggerUrl").asText();
                }
            }
            if (pageSocket == null) {
                Thread.sleep(100);
            }
        }
        DevTools[] self = new DevTools[1];
        StringBuilder frame = new StringBuilder();
        WebSocket socket = http.newWebSocketBuilder()
                .buildAsync(URI.create(pageSocket), new WebSocket.Listener() {
                    @Override
                    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
                        frame.append(data);
                        if (last) {
                            String message = frame.toString();
                            frame.setLength(0);
                            self[0].answer(message);
                        }
                        ws.request(1);
                        return null;
                    }
                })
                .get(30, TimeUnit.SECONDS);
        self[0] = new DevTools(browser, socket);
        return self[0];
    }

    private void answer(String message) {
        try {
            JsonNode node = JSON.readTree(message);
            if (node.has("id")) {
                CompletableFuture<JsonNode> answer =
                        answers.remove(node.get("id").asInt());
                if (answer != null) {
                    answer.complete(node);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    JsonNode send(String method, Map<String, Object> params) throws Exception {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        answers.put(id, answer);
        ObjectNode command = JSON.createObjectNode().put("id", id).put("method", method);
        command.set("params", JSON.valueToTree(params));
        socket.sendText(JSON.writeValueAsString(command), true).get(10, TimeUnit.SECONDS);
        JsonNode node = answer.get(30, TimeUnit.SECONDS);
        if (node.has("error")) {
            throw new IllegalStateException(method + ": " + node.get("error"));
        }
        return node.get("result");
    }

    /** Loads {@code url} and waits until the element {@code id} is there. */
    void navigate(String url, String id) throws Exception {
        send("Page.navigate", Map.of("url", url));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!evaluate("document.getElementById('" + id + "') !== null").asBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(url + ": no #" + id + " within 20 s");
            }
            Thread.sleep(100);
        }
    }

    /** The value of a script expression, as JSON. */
    JsonNode evaluate(String expression) throws Exception {
        JsonNode result =
                send("Runtime.evaluate", Map.of("expression", expression, "returnByValue", true, "awaitPromise", true));
        if (result.has("exceptionDetails")) {
            throw new IllegalStateException(expression + ": " + result.get("exceptionDetails"));
        }
        return result.path("result").path("value");
    }

    byte[] screenshot() throws Exception {
        return Base64.getDecoder()
                .decode(send("Page.captureScreenshot", Map.of("format", "png"))
                        .get("data")
                        .asText());
    }

    @Override
    public void close() {
        socket.abort();
        browser.destroy();
        try {
            if (!browser.waitFor(10, TimeUnit.SECONDS)) {
                browser.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static final List<String> CHROMIUM =
            List.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome");

    /** The first of {@link #CHROMIUM} installed; empty where there is none. */
    static Optional<Path> installedChromium() {
        return CHROMIUM.stream().map(Path::of).filter(Files::isExecutable).findFirst();
    }
}
