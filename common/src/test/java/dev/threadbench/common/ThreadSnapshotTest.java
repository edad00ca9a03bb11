package dev.threadbench.common;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ThreadSnapshotTest {

    @Test
    void aWindowIsTheDifferenceThreadByThread(@TempDir Path start, @TempDir Path end) throws IOException {
        process(start, 100, 20);
        task(start, 11, "undertow I/O-1", 1_000_000_000L, 40_000_000L, 10);
        task(start, 12, "undertow-worker", 300_000_000L, 0, 3); // ends inside the window
        task(start, 13, "undertow-worker", 200_000_000L, 10_000_000L, 5);
        task(start, 14, "undertow-worker", 900_000_000L, 0, 9); // ends; its id goes to a new thread
        process(end, 160, 30);
        task(end, 11, "undertow I/O-1", 1_250_000_000L, 90_000_000L, 14);
        task(end, 13, "undertow-worker", 260_000_000L, 30_000_000L, 8);
        task(end, 14, "C2 CompilerThre", 40_000_000L, 0, 1); // the reused id: from zero
        task(end, 15, "undertow-worker", 70_000_000L, 5_000_000L, 2); // started inside the window

        Map<String, ThreadClasses.Cost> window =
                ThreadSnapshot.between(ThreadSnapshot.read(start), ThreadSnapshot.read(end), ThreadClasses.UNDERTOW);
        assertAll(
                () -> assertEquals(250.0, window.get("io").cpuMs(), 1e-9),
                () -> assertEquals(50.0, window.get("io").runQueueWaitMs(), 1e-9),
                () -> assertEquals(4L, window.get("io").voluntaryContextSwitches()),
                () -> assertEquals(
                        60.0 + 70.0,
                        window.get("worker").cpuMs(),
                        1e-9,
                        "a thread that lives on counts its difference, one born in the window from zero; one that"
                                + " ended takes nothing (its whole life is not subtracted)"),
                () -> assertEquals(2, window.get("worker").threads(), "alive at the end"),
                () -> assertEquals(40.0, window.get("jit").cpuMs(), 1e-9, "a reused id counts from zero"),
                () -> assertEquals(
                        700.0 - 250.0 - 130.0 - 40.0,
                        window.get("exited").cpuMs(),
                        1e-9,
                        "the process's 70 ticks less the live threads'"),
                () -> assertNull(window.get("exited").runQueueWaitMs()));
    }

    @Test
    void exitedIsNeverBelowZeroWhenTheTicksRoundDown(@TempDir Path start, @TempDir Path end) throws IOException {
        process(start, 100, 0);
        task(start, 11, "vert.x-eventloo", 1_000_000_000L, 0, 1);
        process(end, 101, 0); // 10 ms by the ticks, 19.9 ms by the thread's own clock
        task(end, 11, "vert.x-eventloo", 1_019_900_000L, 0, 1);
        Map<String, ThreadClasses.Cost> window =
                ThreadSnapshot.between(ThreadSnapshot.read(start), ThreadSnapshot.read(end), ThreadClasses.VERTX);
        assertEquals(19.9, window.get("io").cpuMs(), 1e-9);
        assertEquals(0.0, window.get("exited").cpuMs());
    }

    @Test
    void compilerCpuIsReadPeriodByPeriod(@TempDir Path proc) throws IOException {
        process(proc, 100, 0);
        task(proc, 11, "C2 CompilerThre", 500_000_000L, 0, 1);
        task(proc, 12, "vert.x-eventloo", 400_000_000L, 0, 1);
        CompilerCpu compilers = new CompilerCpu(proc);
        assertNull(compilers.next(), "the first reading only starts the count");
        process(proc, 150, 0);
        task(proc, 11, "C2 CompilerThre", 600_000_000L, 0, 1);
        task(proc, 13, "C1 CompilerThre", 50_000_000L, 0, 1); // a dynamic compiler thread, born in the period
        CompilerCpu.Period period = compilers.next();
        assertNotNull(period);
        assertEquals(150_000_000L, period.compilerNanos());
        assertEquals(500_000_000L, period.processNanos());
        assertEquals(0.3, period.share(), 1e-9);
    }

    /** This JVM, read for real. */
    @Test
    void readsThisProcess() {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux only");
        ThreadSnapshot snapshot = ThreadSnapshot.read(Path.of("/proc/self"));
        assertNotNull(snapshot);
        assertTrue(snapshot.tasks().size() > 3, snapshot.tasks().size() + " threads");
        assertTrue(snapshot.processCpuNanos() > 0);
        assertNull(ThreadSnapshot.read(Path.of("/nonexistent")));
    }

    private static void process(Path proc, long userTicks, long systemTicks) throws IOException {
        Files.createDirectories(proc.resolve("task"));
        Files.writeString(
                proc.resolve("stat"),
                "10 (java) S 1 10 10 0 -1 4194560 30 0 0 0 " + userTicks + " " + systemTicks + " 0 0 20 0 37 0\n");
    }

    private static void task(Path proc, int tid, String comm, long cpuNanos, long waitNanos, long voluntary)
            throws IOException {
        Path task = proc.resolve("task").resolve(String.valueOf(tid));
        if (Files.isDirectory(task)) {
            try (var files = Files.list(task)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
        }
        Files.createDirectories(task);
        Files.writeString(
                task.resolve("stat"),
                tid + " (" + comm + ") S 1 10 10 0 -1 4194560 30 0 0 0 " + cpuNanos / 10_000_000L + " 0"
                        + " 0 0 20 0 37 0 1022494 0 0\n");
        Files.writeString(task.resolve("comm"), comm + "\n");
        Files.writeString(task.resolve("schedstat"), cpuNanos + " " + waitNanos + " 12\n");
        Files.writeString(
                task.resolve("status"),
                "Name:\t" + comm + "\nvoluntary_ctxt_switches:\t" + voluntary + "\nnonvoluntary_ctxt_switches:\t0\n");
    }
}
