package dev.threadbench.common;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.threadbench.common.ThreadClasses.ThreadClass;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ThreadClassesTest {

    /**
     * Each server and strategy's captured thread list (src/test/resources/.../threads), classified by its table: the
     * request threads each strategy has, the JIT's two compilers, G1's five threads, and nothing dropped.
     */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        // server, strategy, io, worker, carrier, gc, jit, threads in all
        "undertow, blocking, 2, 4, 0, 5, 2, 24",
        "undertow, timer,    2, 0, 0, 5, 2, 20",
        "undertow, virtual,  2, 0, 3, 5, 2, 23",
        "vertx,    blocking, 2, 4, 0, 5, 2, 26",
        "vertx,    timer,    2, 0, 0, 5, 2, 22",
        "vertx,    virtual,  2, 0, 2, 5, 2, 24"
    })
    void classifiesEachServersCapturedThreads(
            String server, String strategy, int io, int worker, int carrier, int gc, int jit, int all)
            throws IOException {
        List<String> names = captured(server + "-" + strategy);
        Map<ThreadClass, Integer> counts = new EnumMap<>(ThreadClass.class);
        for (String name : names) {
            counts.merge(ThreadClasses.classify(ThreadClasses.table(server), name), 1, Integer::sum);
        }
        assertAll(
                () -> assertEquals(all, names.size()),
                () -> assertEquals(io, counts.getOrDefault(ThreadClass.IO, 0), "io"),
                () -> assertEquals(worker, counts.getOrDefault(ThreadClass.WORKER, 0), "worker"),
                () -> assertEquals(carrier, counts.getOrDefault(ThreadClass.CARRIER, 0), "carrier"),
                () -> assertEquals(gc, counts.getOrDefault(ThreadClass.GC, 0), "gc"),
                () -> assertEquals(jit, counts.getOrDefault(ThreadClass.JIT, 0), "jit"),
                () -> assertEquals(
                        all - io - worker - carrier - gc - jit, counts.getOrDefault(ThreadClass.OTHER, 0), "other"));
    }

    @Test
    void namesAreLinuxsCommsCutTo15Characters() {
        // the Java names vert.x-eventloop-thread-0 and ForkJoinPool-1-worker-1, as /proc gives them
        assertEquals(ThreadClass.IO, ThreadClasses.classify(ThreadClasses.VERTX, "vert.x-eventloo"));
        assertEquals(ThreadClass.CARRIER, ThreadClasses.classify(ThreadClasses.UNDERTOW, "ForkJoinPool-1-"));
        assertEquals(
                ThreadClass.OTHER,
                ThreadClasses.classify(ThreadClasses.UNDERTOW, "ForkJoinPool.co"),
                "the common pool");
        assertEquals(
                ThreadClass.OTHER,
                ThreadClasses.classify(ThreadClasses.UNDERTOW, "vert.x-eventloo"),
                "another server's");
        assertThrows(
                IllegalArgumentException.class,
                () -> new ThreadClasses.Rule("vert.x-eventloop", ThreadClass.IO),
                "a 16-character prefix would never match");
    }

    @Test
    void parsesATasksThreeFiles() {
        ThreadClasses.Task task = ThreadClasses.Task.parse(
                "4243 (undertow I/O-1) S 1 4242 4242 0 -1 4194560 30 0 0 0 120 35 0 0 20 0 37 0 1022494 0 0",
                "1571234567 22345678 980\n",
                "Name:\tundertow I/O-1\nThreads:\t37\n"
                        + "voluntary_ctxt_switches:\t700\nnonvoluntary_ctxt_switches:\t280\n");
        assertNotNull(task);
        assertAll(
                () -> assertEquals("undertow I/O-1", task.comm()),
                () -> assertEquals(120, task.userTicks()),
                () -> assertEquals(35, task.systemTicks()),
                () -> assertEquals(1_571_234_567L, task.cpuNanos(), "schedstat's time on the CPU, in ns"),
                () -> assertEquals(22_345_678L, task.waitNanos(), "schedstat's time on the run queue, in ns"),
                () -> assertEquals(700, task.voluntary()),
                () -> assertEquals(280, task.involuntary()));
        ThreadClasses.Task noSchedstat = ThreadClasses.Task.parse(
                "4243 (x) S 1 4242 4242 0 -1 4194560 30 0 0 0 120 35 0 0 20 0 37 0 1022494 0 0", null, null);
        assertEquals(1_550_000_000L, noSchedstat.cpuNanos(), "(utime + stime) ticks without schedstat");
        assertNull(ThreadClasses.Task.parse("4243 (x) S 1", null, null), "a stat cut short");
    }

    @Test
    void exitedIsTheProcessTotalLessTheLiveClasses(@TempDir Path proc) throws IOException {
        task(proc, 11, "undertow I/O-1", 100, 20, 1_300_000_000L, 50_000_000L, 10, 5);
        task(proc, 12, "undertow-worker", 40, 10, 520_000_000L, 900_000_000L, 300, 40);
        task(proc, 13, "undertow-worker", 40, 10, 480_000_000L, 100_000_000L, 200, 10);
        task(proc, 14, "C2 CompilerThre", 90, 0, 905_000_000L, 1_000_000L, 7, 3);
        task(proc, 15, "Signal Dispatch", 0, 0, 0, 0, 1, 0);
        // the live threads as read() sums them, then process totals with 0.7 s of CPU from threads that ended
        Map<String, ThreadClasses.Cost> bill = new ThreadClasses(proc, ThreadClasses.UNDERTOW)
                .readWith(() -> new ThreadClasses.ProcessTotals(3_905_000_000L, 340L, 45L, 600L, 60L));
        assertAll(
                () -> assertEquals(1300.0, bill.get("io").cpuMs(), 1e-9),
                () -> assertEquals(1000.0, bill.get("worker").cpuMs(), 1e-9),
                () -> assertEquals(2, bill.get("worker").threads()),
                () -> assertEquals(1000.0, bill.get("worker").runQueueWaitMs(), 1e-9),
                () -> assertEquals(800, bill.get("worker").userMs()),
                () -> assertEquals(905.0, bill.get("jit").cpuMs(), 1e-9),
                () -> assertEquals(0.0, bill.get("other").cpuMs(), 1e-9),
                () -> assertEquals(1, bill.get("other").threads(), "a thread no rule names is other, not dropped"),
                () -> assertEquals(700.0, bill.get("exited").cpuMs(), 1e-9),
                () -> assertEquals(700, bill.get("exited").userMs(), "(340 - 270) ticks"),
                () -> assertEquals(50, bill.get("exited").systemMs(), "(45 - 40) ticks"),
                () -> assertNull(bill.get("exited").runQueueWaitMs(), "unknown for threads that ended"),
                () -> assertEquals(82L, bill.get("exited").voluntaryContextSwitches()),
                () -> assertEquals(2L, bill.get("exited").involuntaryContextSwitches()),
                () -> assertEquals(
                        3905.0,
                        bill.values().stream()
                                .mapToDouble(ThreadClasses.Cost::cpuMs)
                                .sum(),
                        1e-6,
                        "the classes add up to the process's total"));
        String json = ThreadClasses.toJson(bill);
        assertTrue(
                json.startsWith(
                        "{\"io\":{\"cpuMs\":1300.000,\"userMs\":1000,\"systemMs\":200,\"runQueueWaitMs\":50.000,"
                                + "\"voluntaryContextSwitches\":10,\"involuntaryContextSwitches\":5,\"threads\":1}"),
                json);
        assertTrue(
                json.contains("\"exited\":{\"cpuMs\":700.000,\"userMs\":700,\"systemMs\":50,\"runQueueWaitMs\":null,"),
                json);
    }

    /** This JVM, read for real: the JIT's compilers and the collector's threads are there, and the classes add up. */
    @Test
    void readsThisProcess() {
        ThreadClasses classes = ThreadClasses.ofThisProcess(ThreadClasses.VERTX);
        assumeTrue(classes != null, "Linux only");
        long before = ManagementFactory.getPlatformMXBean(com.sun.management.OperatingSystemMXBean.class)
                .getProcessCpuTime();
        Map<String, ThreadClasses.Cost> bill = classes.read();
        assertNotNull(bill);
        double total =
                bill.values().stream().mapToDouble(ThreadClasses.Cost::cpuMs).sum();
        assertAll(
                () -> assertEquals(
                        List.of("io", "worker", "carrier", "gc", "jit", "other", "exited"), List.copyOf(bill.keySet())),
                () -> assertTrue(bill.get("jit").threads() >= 1, "the JIT's compiler threads: " + bill.get("jit")),
                () -> assertTrue(bill.get("other").threads() >= 1, "main and the JVM's own"),
                () -> assertTrue(total >= before / 1e6, "the total, process clock read after: " + total + " ms"));
    }

    private static void task(
            Path proc,
            int tid,
            String comm,
            long userTicks,
            long systemTicks,
            long cpuNanos,
            long waitNanos,
            long voluntary,
            long involuntary)
            throws IOException {
        Path task = Files.createDirectories(proc.resolve("task").resolve(String.valueOf(tid)));
        Files.writeString(
                task.resolve("stat"),
                tid + " (" + comm + ") S 1 10 10 0 -1 4194560 30 0 0 0 " + userTicks + " " + systemTicks
                        + " 0 0 20 0 37 0 1022494 0 0\n");
        Files.writeString(task.resolve("schedstat"), cpuNanos + " " + waitNanos + " 12\n");
        Files.writeString(
                task.resolve("status"),
                "Name:\t" + comm + "\nvoluntary_ctxt_switches:\t" + voluntary + "\nnonvoluntary_ctxt_switches:\t"
                        + involuntary + "\n");
    }

    private static List<String> captured(String name) throws IOException {
        try (InputStream in = ThreadClassesTest.class.getResourceAsStream("threads/" + name + ".txt")) {
            assertNotNull(in, name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .filter(l -> !l.startsWith("#"))
                    .toList();
        }
    }
}
