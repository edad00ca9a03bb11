package dev.threadbench.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.threadbench.process.ServerProcess;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A burst of connections is accepted and served; a file descriptor limit too low for the benchmark is warned about at
 * start.
 */
class OverloadTest {

    /**
     * Connections opened at once: well past a default backlog of 128 or 1024, well within this machine's descriptors.
     */
    private static final int BURST = 2_000;

    private static final byte[] GET_ROOT = RawHttp.get("/");

    @BeforeAll
    static void onlyWhenTheSuiteStartsTheServers() {
        assumeFalse(Servers.external(), "starts its own servers");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"undertow", "vertx"})
    void aBurstOfConnectionsIsAcceptedAndEveryOneServed(String server) throws Exception {
        try (ServerProcess process = Servers.start(server, "--delay-every", "0");
                ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            RawHttp raw = new RawHttp(process.baseUrl());
            List<Future<String>> answers = new ArrayList<>();
            for (int i = 0; i < BURST; i++) {
                answers.add(clients.submit(() -> {
                    try (Socket socket = raw.connect(Duration.ofSeconds(30))) {
                        socket.getOutputStream().write(GET_ROOT);
                        return RawHttp.read(socket.getInputStream(), false).toString();
                    } catch (IOException e) {
                        return e.getClass().getSimpleName();
                    }
                }));
            }
            Map<String, Integer> outcomes = new TreeMap<>();
            for (Future<String> answer : answers) {
                outcomes.merge(answer.get(60, TimeUnit.SECONDS), 1, Integer::sum);
            }
            assertEquals(Map.of("200", BURST), outcomes, server + ": " + BURST + " connections at once");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"undertow", "vertx"})
    void aLowDescriptorLimitIsWarnedAboutAtStart(String server) throws Exception {
        String command = "ulimit -n 1024 && exec \"$0\" -jar \"$1\" --port 0 --host 127.0.0.1";
        Process process = new ProcessBuilder(
                        "bash",
                        "-c",
                        command,
                        ProcessHandle.current().info().command().orElse("java"),
                        Servers.jar(server).toString())
                .redirectErrorStream(true)
                .start();
        try {
            String firstLine = new String(process.getInputStream().readNBytes(200), StandardCharsets.UTF_8)
                    .lines()
                    .findFirst()
                    .orElse("");
            assertTrue(
                    firstLine.startsWith(server + "-server: WARNING: file descriptor limit (ulimit -n) is 1024"),
                    firstLine);
        } finally {
            process.destroy();
            assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        }
    }
}
