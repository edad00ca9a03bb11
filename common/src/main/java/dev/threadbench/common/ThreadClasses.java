package dev.threadbench.common;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * A process's CPU bill by thread class, read from Linux's /proc: for each live thread ({@code task/<tid>}) its user and
 * system time ({@code stat}), its time on the CPU and waiting on the run queue ({@code schedstat}, in ns) and its
 * voluntary and involuntary context switches ({@code status}), summed by the class its name puts it in ({@link Rule}).
 * Native threads (the GC's, the JIT's) are there too, which the JDK's thread beans do not see.
 *
 * <p>Threads are classified by their {@code comm}, the name Linux keeps: a Java thread's name cut to 15 bytes when it
 * starts ({@code vert.x-eventloop-thread-0} is {@code vert.x-eventloo}), so every prefix here is at most 15 characters.
 * A thread that matches no prefix is {@code other}, never dropped.
 *
 * <p>A thread that ended took its figures out of {@code task/}; the process totals keep them: {@code exited} is the
 * process's total (CPU from the process clock, user and system from {@code /proc/self/stat}, context switches from
 * getrusage) less the live classes', so the classes always add up to the total. Its run-queue wait is unknown (null).
 *
 * <p>A read costs three small procfs files per thread: read it at a measured window's edges, not twice a second.
 */
public final class ThreadClasses {

    /** Where a thread's time goes: serving requests (io, worker, carrier), or the JVM's own work (gc, jit, other). */
    public enum ThreadClass {
        IO,
        WORKER,
        CARRIER,
        GC,
        JIT,
        OTHER;

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * A thread whose comm starts with {@code prefix} (at most 15 characters, as Linux keeps them) is of {@code
     * threadClass}.
     */
    public record Rule(String prefix, ThreadClass threadClass) {

        /** The longest comm Linux keeps: TASK_COMM_LEN 16, with its terminating NUL. */
        public static final int COMM_MAX = 15;

        public Rule {
            if (prefix.isEmpty() || prefix.length() > COMM_MAX) {
                throw new IllegalArgumentException(
                        "a comm prefix has 1 to " + COMM_MAX + " characters: '" + prefix + "'");
            }
        }
    }

    /**
     * HotSpot's own threads with G1 (the servers' collector), ZGC, Shenandoah, Parallel and Serial; the rest is other.
     */
    static final List<Rule> JVM = List.of(
            new Rule("C1 CompilerThre", ThreadClass.JIT),
            new Rule("C2 CompilerThre", ThreadClass.JIT),
            new Rule("GC Thread#", ThreadClass.GC),
            new Rule("G1 ", ThreadClass.GC),
            new Rule("Z", ThreadClass.GC),
            new Rule("Shenandoah", ThreadClass.GC),
            // the default virtual-thread scheduler's carriers (ForkJoinPool-1-worker-N) and the thread that wakes its
            // sleeping virtual threads (VirtualThread-unparker): one wake per delayed request
            new Rule("ForkJoinPool-", ThreadClass.CARRIER),
            new Rule("VirtualThread-u", ThreadClass.CARRIER));

    /**
     * XNIO's I/O threads and acceptor (its worker is named "undertow"), the project's on-demand pool for blocking work.
     */
    public static final List<Rule> UNDERTOW = with(List.of(
            new Rule("undertow I/O", ThreadClass.IO),
            new Rule("undertow Accept", ThreadClass.IO),
            new Rule("undertow-worker", ThreadClass.WORKER)));

    /** Vert.x's event loops and acceptor, its worker pool (an on-demand pool) and internal blocking pool. */
    public static final List<Rule> VERTX = with(List.of(
            new Rule("vert.x-eventloo", ThreadClass.IO), new Rule("vert.x-acceptor", ThreadClass.IO),
            new Rule("vert.x-worker-t", ThreadClass.WORKER), new Rule("vert.x-internal", ThreadClass.WORKER)));

    /** The table for the server named ("undertow", "vertx"); the JVM's own rules alone for any other. */
    public static List<Rule> table(String server) {
        return switch (server) {
            case "undertow" -> UNDERTOW;
            case "vertx" -> VERTX;
            default -> JVM;
        };
    }

    private static List<Rule> with(List<Rule> server) {
        return Stream.concat(server.stream(), JVM.stream()).toList();
    }

    /** The class of the first rule whose prefix {@code comm} starts with; {@code other} when none. */
    public static ThreadClass classify(List<Rule> table, String comm) {
        for (Rule rule : table) {
            if (comm.startsWith(rule.prefix())) {
                return rule.threadClass();
            }
        }
        return ThreadClass.OTHER;
    }

    /** One class's figures, summed over its live threads (or, for exited, the process's less the live classes'). */
    public record Cost(
            double cpuMs,
            long userMs,
            long systemMs,
            Double runQueueWaitMs,
            Long voluntaryContextSwitches,
            Long involuntaryContextSwitches,
            int threads) {

        /**
         * From a class's sums as {@link #add} keeps them: CPU ns, user and system ticks, run-queue wait ns, voluntary
         * and involuntary switches, threads.
         */
        static Cost ofSums(long[] s) {
            return new Cost(s[0] / 1e6, s[1] * MS_PER_TICK, s[2] * MS_PER_TICK, s[3] / 1e6, s[4], s[5], (int) s[6]);
        }
    }

    /** One live thread's figures, as its task directory gives them. */
    public record Task(
            String comm,
            long userTicks,
            long systemTicks,
            long cpuNanos,
            long waitNanos,
            long voluntary,
            long involuntary) {

        /**
         * From the texts of its stat, schedstat and status; null when stat cannot be parsed (the thread ended midway).
         */
        static Task parse(String stat, String schedstat, String status) {
            int open = stat.indexOf('(');
            int close = stat.lastIndexOf(')');
            Long user = ProcStat.field(stat, 14);
            Long system = ProcStat.field(stat, 15);
            if (open < 0 || close < open || user == null || system == null) {
                return null;
            }
            long cpuNanos;
            long waitNanos;
            if (schedstat != null) {
                int space = schedstat.indexOf(' ');
                Long on = ProcStat.digitsAt(schedstat, 0);
                Long waited = space < 0 ? null : ProcStat.digitsAt(schedstat, space + 1);
                cpuNanos = on == null ? (user + system) * NANOS_PER_TICK : on;
                waitNanos = waited == null ? 0 : waited;
            } else {
                cpuNanos = (user + system) * NANOS_PER_TICK;
                waitNanos = 0;
            }
            return new Task(
                    stat.substring(open + 1, close),
                    user,
                    system,
                    cpuNanos,
                    waitNanos,
                    status == null ? 0 : number(status, "\nvoluntary_ctxt_switches:"),
                    status == null ? 0 : number(status, "\nnonvoluntary_ctxt_switches:"));
        }
    }

    /** Process-wide figures that include the threads that ended: CPU time, user and system ticks, context switches. */
    record ProcessTotals(long cpuNanos, Long userTicks, Long systemTicks, Long voluntary, Long involuntary) {}

    /** USER_HZ, 100 on every Linux architecture. */
    private static final long NANOS_PER_TICK = 10_000_000L;

    private static final long MS_PER_TICK = 10;
    private static final int PROC_FILE_MAX = 8192;

    private final Path procSelf;
    private final List<Rule> table;
    private final byte[] buffer = new byte[PROC_FILE_MAX];

    /** @param procSelf the process's /proc directory ({@code /proc/self}) */
    public ThreadClasses(Path procSelf, List<Rule> table) {
        this.procSelf = procSelf;
        this.table = List.copyOf(table);
    }

    /** This process's bill by {@code table}; null off Linux. */
    public static ThreadClasses ofThisProcess(List<Rule> table) {
        return Files.isDirectory(Path.of("/proc/self/task")) ? new ThreadClasses(Path.of("/proc/self"), table) : null;
    }

    /**
     * The classes now, live threads read one by one, then the process's totals (so {@code exited} counts no live
     * thread).
     */
    public Map<String, Cost> read() {
        return readWith(this::processTotals);
    }

    /**
     * The live threads, then {@code totals} asked for: after them, so that a thread read live is never counted exited.
     */
    synchronized Map<String, Cost> readWith(Supplier<ProcessTotals> totals) {
        Map<ThreadClass, long[]> sums = new EnumMap<>(ThreadClass.class);
        for (ThreadClass c : ThreadClass.values()) {
            sums.put(c, new long[7]);
        }
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(procSelf.resolve("task"))) {
            for (Path task : tasks) {
                String stat = text(task.resolve("stat"));
                Task t = stat == null
                        ? null
                        : Task.parse(stat, text(task.resolve("schedstat")), text(task.resolve("status")));
                if (t != null) {
                    add(sums.get(classify(table, t.comm())), t);
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return bill(sums, totals.get());
    }

    private ProcessTotals processTotals() {
        String stat = text(procSelf.resolve("stat"));
        ContextSwitches switches = ContextSwitches.ofThisProcess();
        return new ProcessTotals(
                processCpuNanos(),
                stat == null ? null : ProcStat.field(stat, 14),
                stat == null ? null : ProcStat.field(stat, 15),
                switches.voluntary(),
                switches.involuntary());
    }

    private static void add(long[] sum, Task t) {
        sum[0] += t.cpuNanos();
        sum[1] += t.userTicks();
        sum[2] += t.systemTicks();
        sum[3] += t.waitNanos();
        sum[4] += t.voluntary();
        sum[5] += t.involuntary();
        sum[6]++;
    }

    /** The classes in their order, then {@code exited}: the totals less every live class. */
    static Map<String, Cost> bill(Map<ThreadClass, long[]> sums, ProcessTotals totals) {
        Map<String, Cost> bill = new LinkedHashMap<>();
        long[] live = new long[7];
        for (ThreadClass c : ThreadClass.values()) {
            long[] s = sums.get(c);
            for (int i = 0; i < live.length; i++) {
                live[i] += s[i];
            }
            bill.put(c.id(), Cost.ofSums(s));
        }
        bill.put(
                "exited",
                new Cost(
                        (totals.cpuNanos() - live[0]) / 1e6,
                        totals.userTicks() == null ? 0 : (totals.userTicks() - live[1]) * MS_PER_TICK,
                        totals.systemTicks() == null ? 0 : (totals.systemTicks() - live[2]) * MS_PER_TICK,
                        null,
                        totals.voluntary() == null ? null : totals.voluntary() - live[4],
                        totals.involuntary() == null ? null : totals.involuntary() - live[5],
                        0));
        return bill;
    }

    /** The bill as the JSON object /stats nests under {@code process.threadClasses}. */
    public static String toJson(Map<String, Cost> bill) {
        StringBuilder json = new StringBuilder(128 * bill.size()).append('{');
        bill.forEach((name, c) -> {
            if (json.length() > 1) {
                json.append(',');
            }
            json.append('"')
                    .append(name)
                    .append("\":{\"cpuMs\":")
                    .append(String.format(Locale.ROOT, "%.3f", c.cpuMs()))
                    .append(",\"userMs\":")
                    .append(c.userMs())
                    .append(",\"systemMs\":")
                    .append(c.systemMs())
                    .append(",\"runQueueWaitMs\":")
                    .append(
                            c.runQueueWaitMs() == null
                                    ? "null"
                                    : String.format(Locale.ROOT, "%.3f", c.runQueueWaitMs()))
                    .append(",\"voluntaryContextSwitches\":")
                    .append(c.voluntaryContextSwitches())
                    .append(",\"involuntaryContextSwitches\":")
                    .append(c.involuntaryContextSwitches())
                    .append(",\"threads\":")
                    .append(c.threads())
                    .append('}');
        });
        return json.append('}').toString();
    }

    private static long processCpuNanos() {
        return ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class).getProcessCpuTime();
    }

    /** The number after {@code key} on its line of a status text; 0 when absent. */
    private static long number(String status, String key) {
        int at = status.indexOf(key);
        if (at < 0) {
            return 0;
        }
        at += key.length();
        while (at < status.length() && (status.charAt(at) == ' ' || status.charAt(at) == '\t')) {
            at++;
        }
        Long value = ProcStat.digitsAt(status, at);
        return value == null ? 0 : value;
    }

    /**
     * A small procfs file's text through the one buffer (reads are synchronized), or null when it is gone or
     * unreadable.
     */
    private String text(Path file) {
        return ProcStat.text(file, buffer);
    }
}
