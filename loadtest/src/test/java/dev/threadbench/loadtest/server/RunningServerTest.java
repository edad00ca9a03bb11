package dev.threadbench.loadtest.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.StandInServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RunningServerTest {

    @Test
    void aTargetThatNeverAnswersIsOneLineNamingIt() throws IOException {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        URI base = URI.create("http://127.0.0.1:" + closed);
        long started = System.nanoTime();
        Target.Failure failure = assertThrows(
                Target.Failure.class, () -> RunningServer.connect("undertow", base, Duration.ofSeconds(1)));
        assertEquals(
                "--targets: undertow at " + base + " did not answer /health with 200 within 1 s (no answer)",
                failure.getMessage());
        long waitedMillis = Duration.ofNanos(System.nanoTime() - started).toMillis();
        assertTrue(waitedMillis >= 1000 && waitedMillis < 15_000, "waited " + waitedMillis + " ms");
    }

    @Test
    void aTargetThatIsAnotherServerIsRefused() {
        try (StandInServer standIn = new StandInServer(0, 0)) {
            URI base = URI.create("http://127.0.0.1:" + standIn.port());
            Target.Failure failure = assertThrows(
                    Target.Failure.class, () -> RunningServer.connect("vertx", base, Duration.ofSeconds(5)));
            assertEquals(
                    "--targets: vertx at " + base + " is not the vertx server: its /stats says 'stand-in'",
                    failure.getMessage());
        }
    }

    @Test
    void statsShowWhetherTheServerDelaysEveryNthRequest() {
        Target.Stats stats = new Target.Stats("undertow", "blocking", 1234, 123, 0, null);
        assertTrue(stats.delaysEvery(10));
        assertFalse(stats.delaysEvery(20));
        assertFalse(stats.delaysEvery(0));
        assertTrue(new Target.Stats("vertx", "timer", 1234, 0, 0, null).delaysEvery(0));
        assertTrue(new Target.Stats("vertx", "timer", 9, 0, 0, null).delaysEvery(20), "too few requests to tell");
    }
}
