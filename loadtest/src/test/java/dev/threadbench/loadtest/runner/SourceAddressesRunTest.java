package dev.threadbench.loadtest.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.threadbench.loadtest.plan.Plan;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** Real sockets: a run given two source addresses opens its connections from both, as the server sees them. */
class SourceAddressesRunTest {

    @Test
    void connectionsComeFromEachSourceAddressInTurn() {
        Vertx vertx = Vertx.vertx();
        Set<String> remoteHosts = ConcurrentHashMap.newKeySet();
        try {
            HttpServer server = vertx.createHttpServer()
                    .requestHandler(request -> {
                        remoteHosts.add(request.remoteAddress().host());
                        request.response().end("ok");
                    })
                    .listen(0, "127.0.0.1")
                    .await();
            LoadSpec spec = new LoadSpec(
                            List.of(new Plan.Step(
                                    "step",
                                    "GET",
                                    URI.create("http://127.0.0.1:" + server.actualPort() + "/"),
                                    Map.of())),
                            4,
                            Duration.ZERO,
                            Duration.ofSeconds(10),
                            new LoadShape.Counted(Duration.ZERO, 40),
                            2,
                            null)
                    .with(GeneratorTransport.DEFAULT, SourceAddresses.parse("127.0.0.2,127.0.0.3"));
            LoadResult result = new LoadRunner(spec, new LoadRunner.Phases() {}, Progress.Sink.NONE).run();
            assertEquals(40, result.successes());
            assertEquals(4, result.connectionsOpened());
            assertEquals(Set.of("127.0.0.2", "127.0.0.3"), remoteHosts);
        } finally {
            vertx.close().await();
        }
    }
}
