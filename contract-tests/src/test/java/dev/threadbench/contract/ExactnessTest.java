package dev.threadbench.contract;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.threadbench.process.ServerProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
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
            HttpClient http =
                    HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            HttpRequest request = HttpRequest.newBuilder(URI.create(process.baseUrl() + "/"))
                    .timeout(Duration.ofSeconds(30))
                    .build();
            AtomicInteger ok = new AtomicInteger();
            AtomicInteger other = new AtomicInteger();
            try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int c = 0; c < CLIENTS; c++) {
                    clients.execute(() -> {
                        for (int i = 0; i < REQUESTS_PER_CLIENT; i++) {
                            try {
                                int status = http.send(request, HttpResponse.BodyHandlers.discarding())
                                        .statusCode();
                                (status == 200 ? ok : other).incrementAndGet();
                            } catch (Exception e) {
                                other.incrementAndGet();
                            }
                        }
                    });
                }
            }
            var stats = new Target(server, process.baseUrl()).stats();
            assertAll(
                    () -> assertEquals(CLIENTS * REQUESTS_PER_CLIENT, ok.get(), "answered 200"),
                    () -> assertEquals(0, other.get(), "failed or not 200"),
                    () -> assertEquals(10_000, stats.getLong("requests"), "counted"),
                    () -> assertEquals(1_000, stats.getLong("delayed"), "delayed"),
                    () -> assertEquals(0, stats.getLong("inFlight"), "in flight"));
        }
    }
}
