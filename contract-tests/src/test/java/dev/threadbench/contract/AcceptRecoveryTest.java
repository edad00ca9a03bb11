package dev.threadbench.contract;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.threadbench.process.ServerProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A server started with few file descriptors, sent a burst of connections beyond them: it says once that
 * it is short of descriptors, answers again at once when the burst's connections close, says once that it
 * accepts again, and then idles without using CPU (no accept loop spinning on the error).
 */
class AcceptRecoveryTest {

    private static final int DESCRIPTOR_LIMIT = 256;
    /** Connections held open at once: more than the server has descriptors for, so the rest wait in its backlog. */
    private static final int BURST = 600;
    /** How long the burst holds its connections once the server is out of descriptors. */
    private static final Duration HOLD = Duration.ofSeconds(2);
    /**
     * Generous: both answer within a few hundred milliseconds here; before, Undertow took seconds (XNIO's back-off).
     */
    private static final Duration RECOVERY = Duration.ofSeconds(2);
    /**
     * CPU a server may use in {@link #IDLE} after it recovered, in clock ticks (1/100 s): one spinning core uses 200.
     */
    private static final long IDLE_TICKS = 20;

    private static final Duration IDLE = Duration.ofSeconds(2);
    private static final String STALLED = ": new connections wait in the accept backlog";
    private static final String RESUMED = "-server: accepting again after ";

    @BeforeAll
    static void onlyWhenTheSuiteStartsTheServersOnLinux() {
        assumeFalse(Servers.external(), "starts its own servers");
        assumeTrue(Files.isReadable(Path.of("/proc/self/stat")), "reads the server's CPU time from /proc");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"undertow", "vertx"})
    void afterABurstBeyondItsDescriptorsTheServerAnswersAtOnceThenIdles(String server) throws Exception {
        try (ServerProcess process = Servers.startWithDescriptorLimit(DESCRIPTOR_LIMIT, server, "--delay-every", "0")) {
            RawHttp raw = new RawHttp(process.baseUrl());
            List<Socket> burst = new ArrayList<>();
            try {
                for (int i = 0; i < BURST; i++) {
                    Socket socket = raw.connect(Duration.ofSeconds(30));
                    burst.add(socket);
                    socket.getOutputStream().write(RawHttp.get("/"));
                }
                awaitLine(process, STALLED, Duration.ofSeconds(20));
                Servers.sleep(HOLD.toMillis());
            } finally {
                for (Socket socket : burst) {
                    socket.close();
                }
            }
            long burstEnded = System.nanoTime();
            RawHttp.Outcome health = raw.exchange(RawHttp.get("/health"), false, Duration.ofSeconds(30));
            Duration healthAfter = Duration.ofNanos(System.nanoTime() - burstEnded);
            RawHttp.Outcome page = raw.exchange(RawHttp.get("/"), false, Duration.ofSeconds(30));
            Duration pageAfter = Duration.ofNanos(System.nanoTime() - burstEnded);
            awaitLine(process, RESUMED, Duration.ofSeconds(20));
            Servers.sleep(1_000); // what the burst left to do (JIT, GC) settles
            long ticks = cpuTicks(process, IDLE);
            String stderr = process.stderr();

            assertAll(
                    server,
                    () -> assertEquals(200, health.status(), "/health after the burst: " + health),
                    () -> assertTrue(
                            healthAfter.compareTo(RECOVERY) < 0,
                            "/health answered " + healthAfter + " after the burst"),
                    () -> assertEquals(200, page.status(), "GET / after the burst: " + page),
                    () -> assertTrue(
                            pageAfter.compareTo(RECOVERY) < 0, "GET / answered " + pageAfter + " after the burst"),
                    () -> assertEquals(
                            1, count(stderr, STALLED), "one line when accepting stopped:" + process.output()),
                    () -> assertEquals(
                            1, count(stderr, RESUMED), "one line when accepting worked again:" + process.output()),
                    () -> assertFalse(
                            stderr.contains("XNIO008001") || stderr.contains("exceptionCaught()"),
                            "the framework's own accept failures are not logged:" + process.output()),
                    () -> assertTrue(
                            ticks <= IDLE_TICKS,
                            "idle after recovery, yet used " + ticks + " clock ticks of CPU in " + IDLE));
        }
    }

    private static void awaitLine(ServerProcess process, String text, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!process.stderr().contains(text)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no line with '" + text + "' within " + timeout + ":" + process.output());
            }
            Servers.sleep(20);
        }
    }

    private static long count(String output, String text) {
        return output.lines().filter(line -> line.contains(text)).count();
    }

    /** User and system CPU time the process spends in {@code period}, in clock ticks. */
    private static long cpuTicks(ServerProcess process, Duration period) {
        long before = cpuTicks(process.process().pid());
        Servers.sleep(period.toMillis());
        return cpuTicks(process.process().pid()) - before;
    }

    private static long cpuTicks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
            // fields after the command name in parentheses: state is the 3rd field, utime the 14th, stime the 15th
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
