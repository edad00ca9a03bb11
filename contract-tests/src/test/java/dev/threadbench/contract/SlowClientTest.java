package dev.threadbench.contract;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.threadbench.common.HttpLimits;
import dev.threadbench.process.ServerProcess;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Slowloris: a client trickling its request head, a byte a second, is cut off once the head read
 * timeout has passed, on both servers (run side by side, so the suite waits the timeout once), while
 * other clients are served meanwhile; a connection that merely idles is not cut off by it.
 */
class SlowClientTest {

    private static final Duration TIMEOUT = HttpLimits.HEADER_READ_TIMEOUT;
    /** Generous: the close must come after the timeout, but how long after depends on a busy machine. */
    private static final Duration LATEST_CLOSE = TIMEOUT.plusSeconds(10);

    private static final byte[] TRICKLED =
            ("GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: " + "a".repeat(100)).getBytes(StandardCharsets.US_ASCII);
    private static final byte[] REQUEST =
            "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    @Test
    void aTrickledHeadIsCutOffAfterTheTimeoutWhileOthersAreServed() throws Exception {
        assumeFalse(Servers.external(), "waits out the timeout against servers it starts");
        List<ServerProcess> started = new ArrayList<>();
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            for (String server : Servers.NAMES) {
                started.add(Servers.start(server, "--delay-every", "0"));
            }
            Map<String, Future<Duration>> slow = new ConcurrentHashMap<>();
            Map<String, Future<Integer>> idle = new ConcurrentHashMap<>();
            Map<String, Future<List<Integer>>> others = new ConcurrentHashMap<>();
            for (ServerProcess process : started) {
                RawHttp raw = new RawHttp(process.baseUrl());
                String name = Servers.NAMES.get(started.indexOf(process));
                slow.put(name, clients.submit(() -> trickleUntilClosed(raw)));
                idle.put(name, clients.submit(() -> idleThenAsk(raw)));
                others.put(name, clients.submit(() -> askEverySecond(raw)));
            }
            List<org.junit.jupiter.api.function.Executable> checks = new ArrayList<>();
            for (String name : Servers.NAMES) {
                Duration cutAfter = slow.get(name).get();
                checks.add(() -> assertTrue(
                        cutAfter.compareTo(TIMEOUT) >= 0,
                        name + " cut the trickled head off after only " + cutAfter.toMillis() + " ms"));
                checks.add(() -> assertTrue(
                        cutAfter.compareTo(LATEST_CLOSE) < 0,
                        name + " still had the trickled head open after " + cutAfter.toMillis() + " ms"));
                checks.add(() -> assertEquals(
                        200,
                        idle.get(name).get(),
                        name + ": a connection idle for longer than the head timeout was not served"));
                List<Integer> statuses = others.get(name).get();
                checks.add(() -> assertTrue(
                        statuses.stream().allMatch(status -> status == 200),
                        name + ": other clients were not served meanwhile: " + statuses));
            }
            assertAll(checks.stream());
        } finally {
            started.forEach(ServerProcess::close);
        }
    }

    /** Sends the head a byte a second; how long after the first byte the server closed the connection. */
    private static Duration trickleUntilClosed(RawHttp raw) throws IOException, InterruptedException {
        try (Socket socket = raw.connect(Duration.ofSeconds(1))) {
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            long start = System.nanoTime();
            for (int i = 0; System.nanoTime() - start < LATEST_CLOSE.toNanos(); i++) {
                try {
                    out.write(TRICKLED[i % TRICKLED.length]);
                    out.flush();
                    if (in.read() < 0) {
                        break;
                    }
                    throw new AssertionError("the server answered a head that was not complete");
                } catch (SocketTimeoutException stillOpen) {
                    // a second went by: the next byte
                } catch (IOException closed) {
                    break;
                }
            }
            return Duration.ofNanos(System.nanoTime() - start);
        }
    }

    /** Connects, sends nothing for longer than the head timeout, then asks for the page. */
    private static int idleThenAsk(RawHttp raw) throws IOException, InterruptedException {
        try (Socket socket = raw.connect(Duration.ofSeconds(5))) {
            Thread.sleep(TIMEOUT.plusSeconds(2).toMillis());
            socket.getOutputStream().write(REQUEST);
            return RawHttp.read(socket.getInputStream(), false).status();
        }
    }

    /** A fresh connection asking for the page every second while the slow client trickles. */
    private static List<Integer> askEverySecond(RawHttp raw) throws InterruptedException {
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < TIMEOUT.toSeconds(); i++) {
            statuses.add(raw.exchange(REQUEST, false, Duration.ofSeconds(2)).status());
            Thread.sleep(1_000);
        }
        return statuses;
    }
}
