package dev.threadbench.contract;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.threadbench.process.ServerProcess;
import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The counter is exact under concurrency: 10,000 requests from 200 keep-alive clients, exactly 1,000 delayed. */
class ExactnessTest {

    private static final int CLIENTS = 200;
    private static final int REQUESTS_PER_CLIENT = 50;

    @BeforeAll
    static void onlyWhenTheSuiteStartsTheServers() {
        assumeFalse(Servers.external(), "needs a fresh server");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"undertow", "vertx"})
    void tenThousandRequestsGiveExactlyOneThousandDelayed(String server) throws Exception {
        try (ServerProcess process = Servers.start(server, "--delay-ms", "50")) {
            // raw sockets, not java.net.http: that client sends a GET again when a pooled connection closes
            // under it, and the server rightly counts both
            RawHttp raw = new RawHttp(process.baseUrl());
            byte[] request = RawHttp.get("/");
            AtomicInteger sent = new AtomicInteger();
            AtomicInteger ok = new AtomicInteger();
            Queue<String> other = new ConcurrentLinkedQueue<>();
            try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int c = 0; c < CLIENTS; c++) {
                    clients.execute(() -> keepAlive(raw, request, sent, ok, other));
                }
            }
            var stats = new Target(server, process.baseUrl()).stats();
            assertAll(
                    () -> assertEquals(CLIENTS * REQUESTS_PER_CLIENT, ok.get(), "answered 200"),
                    () -> assertEquals(List.of(), List.copyOf(other), "failed or not 200"),
                    () -> assertEquals(sent.get(), stats.getLong("requests"), "counted, of those sent"),
                    () -> assertEquals(1_000, stats.getLong("delayed"), "delayed"),
                    () -> assertEquals(0, stats.getLong("inFlight"), "in flight"));
        }
    }

    /** One client: its requests one after another on one connection; a broken connection ends it. */
    private static void keepAlive(
            RawHttp raw, byte[] request, AtomicInteger sent, AtomicInteger ok, Queue<String> other) {
        try (Socket socket = raw.connect(Duration.ofSeconds(30))) {
            for (int i = 0; i < REQUESTS_PER_CLIENT; i++) {
                socket.getOutputStream().write(request);
                sent.incrementAndGet();
                RawHttp.Outcome outcome = RawHttp.read(socket.getInputStream(), false);
                if (outcome.ending() != RawHttp.Ending.RESPONSE || outcome.status() != 200) {
                    other.add(outcome.toString());
                    return;
                }
                ok.incrementAndGet();
                if (outcome.closedAfterResponse()) {
                    other.add("closed after request " + (i + 1));
                    return;
                }
            }
        } catch (IOException e) {
            other.add(e.toString());
        }
    }
}
