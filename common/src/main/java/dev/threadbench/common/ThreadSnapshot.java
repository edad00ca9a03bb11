package dev.threadbench.common;

import dev.threadbench.common.ThreadClasses.Rule;
import dev.threadbench.common.ThreadClasses.ThreadClass;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every thread of a process at one moment, by thread id, as /proc/&lt;pid&gt;/task gives them, with the process's own
 * CPU total: two snapshots give a window's CPU bill by thread class thread by thread ({@link #between}), which a bill
 * of sums cannot. Read by any process that may read the target's /proc (compare reads the servers it started from its
 * own side of the machine, so no reading runs on a server thread or core).
 *
 * <p>In {@link #between}, a thread that started inside the window counts from zero; one that ended counts up to its
 * last reading, and what it spent after that goes to {@code exited}: the process's total less every live thread's. The
 * process total comes in clock ticks (10 ms, utime and stime each cut to a whole tick), the threads' in ns, so {@code
 * exited} carries up to 40 ms of that rounding over a window: it is never below 0.
 */
public record ThreadSnapshot(Map<Long, ThreadClasses.Task> tasks, long userTicks, long systemTicks) {

    private static final long NANOS_PER_TICK = 10_000_000L;
    private static final int PROC_FILE_MAX = 8192;

    /** The threads of the process whose /proc directory is {@code procDir} now; null when it cannot be read. */
    public static ThreadSnapshot read(Path procDir) {
        byte[] buffer = new byte[PROC_FILE_MAX];
        Map<Long, ThreadClasses.Task> tasks = new HashMap<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(procDir.resolve("task"))) {
            for (Path task : dir) {
                String stat = ProcStat.text(task.resolve("stat"), buffer);
                ThreadClasses.Task t = stat == null
                        ? null
                        : ThreadClasses.Task.parse(
                                stat,
                                ProcStat.text(task.resolve("schedstat"), buffer),
                                ProcStat.text(task.resolve("status"), buffer));
                if (t != null) {
                    tasks.put(Long.parseLong(task.getFileName().toString()), t);
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        // after the threads, so that a thread read live is never counted exited
        String stat = ProcStat.text(procDir.resolve("stat"), buffer);
        Long user = stat == null ? null : ProcStat.field(stat, 14);
        Long system = stat == null ? null : ProcStat.field(stat, 15);
        if (user == null || system == null) {
            return null;
        }
        return new ThreadSnapshot(Map.copyOf(tasks), user, system);
    }

    /** The process's CPU time, live and ended threads, in ns (to the tick). */
    public long processCpuNanos() {
        return (userTicks + systemTicks) * NANOS_PER_TICK;
    }

    /** Of the process {@code pid} on this machine; null when it cannot be read (gone, or not Linux). */
    public static ThreadSnapshot ofProcess(long pid) {
        return read(Path.of("/proc", Long.toString(pid)));
    }

    /**
     * The window from {@code start} to {@code end}, by class of {@code table} and then {@code exited}: each thread's
     * figures at the end less those at the start (from zero for a thread born in the window), classified by its name
     * at the end; {@code threads} counts each class's threads alive at the end.
     */
    public static Map<String, ThreadClasses.Cost> between(ThreadSnapshot start, ThreadSnapshot end, List<Rule> table) {
        Map<ThreadClass, long[]> sums = new EnumMap<>(ThreadClass.class);
        for (ThreadClass c : ThreadClass.values()) {
            sums.put(c, new long[7]);
        }
        long[] live = new long[7];
        end.tasks().forEach((tid, b) -> {
            ThreadClasses.Task a = start.tasks().get(tid);
            // a thread id reused by a new thread within the window: its counters restarted
            if (a != null && (b.cpuNanos() < a.cpuNanos() || !a.comm().equals(b.comm()))) {
                a = null;
            }
            long[] d = {
                b.cpuNanos() - (a == null ? 0 : a.cpuNanos()),
                b.userTicks() - (a == null ? 0 : a.userTicks()),
                b.systemTicks() - (a == null ? 0 : a.systemTicks()),
                b.waitNanos() - (a == null ? 0 : a.waitNanos()),
                b.voluntary() - (a == null ? 0 : a.voluntary()),
                b.involuntary() - (a == null ? 0 : a.involuntary()),
                1
            };
            long[] sum = sums.get(ThreadClasses.classify(table, b.comm()));
            for (int i = 0; i < d.length; i++) {
                sum[i] += d[i];
                live[i] += d[i];
            }
        });
        Map<String, ThreadClasses.Cost> bill = new LinkedHashMap<>();
        for (ThreadClass c : ThreadClass.values()) {
            long[] s = sums.get(c);
            bill.put(c.id(), ThreadClasses.Cost.ofSums(s));
        }
        long exitedNanos = Math.max(0, end.processCpuNanos() - start.processCpuNanos() - live[0]);
        bill.put("exited", new ThreadClasses.Cost(exitedNanos / 1e6, 0, 0, null, null, null, 0));
        return bill;
    }
}
