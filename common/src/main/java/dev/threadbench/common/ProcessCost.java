package dev.threadbench.common;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What this server process has cost so far, as {@code GET /stats} reports it under {@code "process"}: CPU
 * time, threads, heap and GC from the management beans and, on Linux, user/system CPU and resident memory
 * from /proc/self/stat and /proc/self/status, and context switches ({@link ContextSwitches}). Cheap
 * enough to be sampled every half second during a measurement (about 25 us a read): the beans are looked
 * up once, the two procfs files are kernel memory, not disk, parsed by hand. A figure that cannot be read
 * is {@code null}, never an error. {@code gcCount} counts the pauses whose time {@code gcPauseMs} sums.
 * {@code jitMs} is the time the JIT compilers have spent compiling (elapsed, summed over the compiler
 * threads): CPU the server spends on itself, not on its requests, which a window's CPU includes.
 */
public final class ProcessCost {

    /** Linux reports utime/stime in clock ticks of USER_HZ, which is 100 on every architecture it exports. */
    private static final long MS_PER_TICK = 1000 / 100;
    /** /proc/self/status is about 1.5 kB, /proc/self/stat about 300 bytes. */
    private static final int PROC_FILE_MAX = 8192;

    private final OperatingSystemMXBean os = ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class);
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final List<MemoryPoolMXBean> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(pool -> pool.getType() == MemoryType.HEAP)
            .toList();
    private final List<GarbageCollectorMXBean> pausingCollectors =
            ManagementFactory.getGarbageCollectorMXBeans().stream()
                    .filter(ProcessCost::timesPauses)
                    .toList();
    private final CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
    private final Path stat;
    private final Path status;

    private static final ProcessCost THIS_PROCESS = new ProcessCost(
            System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux")
                    ? Path.of("/proc/self")
                    : null);

    /** @param procSelf the process's /proc directory, or null where there is none */
    ProcessCost(Path procSelf) {
        this.stat = procSelf == null ? null : procSelf.resolve("stat");
        this.status = procSelf == null ? null : procSelf.resolve("status");
    }

    public static ProcessCost ofThisProcess() {
        return THIS_PROCESS;
    }

    /**
     * Whether a collector bean's time is stop-the-world pause time (checked on JDK 25): ZGC's
     * "ZGC Minor/Major Cycles" and Shenandoah's "Shenandoah Cycles" time whole concurrent cycles, so they
     * are left out; their "... Pauses" beans time the pauses. Every other bean times pauses: G1's
     * "G1 Young Generation" (young and mixed), "G1 Old Generation" (full GCs) and "G1 Concurrent GC",
     * which despite its name counts and times only the Remark and Cleanup pauses of a concurrent cycle
     * (JDK-8297247; its time matches the -Xlog:gc pause times), Parallel's and Serial's collectors.
     */
    static boolean timesPauses(GarbageCollectorMXBean collector) {
        return !collector.getName().endsWith(" Cycles");
    }

    /** The figures now, as the JSON object {@code /stats} nests under {@code "process"}. */
    public String toJson() {
        return toJson(null);
    }

    /**
     * The figures now, with {@code threadClasses}, the bill by thread class ({@link ThreadClasses}), when
     * {@code classes} is given (it costs three procfs files per thread: asked for at a window's edges only).
     */
    public String toJson(ThreadClasses classes) {
        Figures f = figures();
        return new StringBuilder(400)
                .append("{\"cpuMs\":")
                .append(f.cpuNanos() / 1_000_000)
                .append(",\"cpuUserMs\":")
                .append(f.cpuUserMs())
                .append(",\"cpuSystemMs\":")
                .append(f.cpuSystemMs())
                .append(",\"threads\":")
                .append(f.threads())
                .append(",\"threadsPeak\":")
                .append(f.threadsPeak())
                .append(",\"heapUsedBytes\":")
                .append(f.heapUsedBytes())
                .append(",\"heapCommittedBytes\":")
                .append(f.heapCommittedBytes())
                .append(",\"heapAfterGcBytes\":")
                .append(f.heapAfterGcBytes())
                .append(",\"gcCount\":")
                .append(f.gcCount())
                .append(",\"gcPauseMs\":")
                .append(f.gcPauseMs())
                .append(",\"jitMs\":")
                .append(f.jitMs())
                .append(",\"rssBytes\":")
                .append(f.rssBytes())
                .append(",\"rssPeakBytes\":")
                .append(f.rssPeakBytes())
                .append(",\"voluntaryContextSwitches\":")
                .append(f.voluntaryContextSwitches())
                .append(",\"involuntaryContextSwitches\":")
                .append(f.involuntaryContextSwitches())
                .append(classes == null ? "" : ",\"threadClasses\":" + classesJson(classes))
                .append('}')
                .toString();
    }

    /** The process's figures at one moment, as {@code /stats} and {@code /metrics} both render them; null: unknown. */
    public record Figures(
            long cpuNanos,
            Long cpuUserMs,
            Long cpuSystemMs,
            int threads,
            int threadsPeak,
            long heapUsedBytes,
            long heapCommittedBytes,
            long heapAfterGcBytes,
            long gcCount,
            long gcPauseMs,
            Long jitMs,
            Long rssBytes,
            Long rssPeakBytes,
            Long voluntaryContextSwitches,
            Long involuntaryContextSwitches) {}

    /** The figures now: bean reads, a getrusage call and the two small procfs files. */
    public Figures figures() {
        long[] cpuTicks = read(stat) instanceof String text ? userAndSystemTicks(text) : null;
        Resident resident = read(status) instanceof String text ? Resident.parse(text) : Resident.NONE;
        ContextSwitches contextSwitches = ContextSwitches.ofThisProcess();
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        long gcCount = 0;
        long gcPauseMs = 0;
        for (GarbageCollectorMXBean collector : pausingCollectors) {
            gcCount += Math.max(0, collector.getCollectionCount());
            gcPauseMs += Math.max(0, collector.getCollectionTime());
        }
        return new Figures(
                os.getProcessCpuTime(),
                cpuTicks == null ? null : cpuTicks[0] * MS_PER_TICK,
                cpuTicks == null ? null : cpuTicks[1] * MS_PER_TICK,
                threads.getThreadCount(),
                threads.getPeakThreadCount(),
                heap.getUsed(),
                heap.getCommitted(),
                heapAfterGc(),
                gcCount,
                gcPauseMs,
                compiler != null && compiler.isCompilationTimeMonitoringSupported()
                        ? compiler.getTotalCompilationTime()
                        : null,
                resident.bytes(),
                resident.peakBytes(),
                contextSwitches.voluntary(),
                contextSwitches.involuntary());
    }

    private static String classesJson(ThreadClasses classes) {
        Map<String, ThreadClasses.Cost> bill = classes.read();
        return bill == null ? "null" : ThreadClasses.toJson(bill);
    }

    /** Heap in use right after the last collection of each heap pool (0 for a pool not yet collected). */
    private long heapAfterGc() {
        long used = 0;
        for (MemoryPoolMXBean pool : heapPools) {
            MemoryUsage afterGc = pool.getCollectionUsage();
            if (afterGc != null) {
                used += afterGc.getUsed();
            }
        }
        return used;
    }

    /**
     * utime and stime, fields 14 and 15 of /proc/[pid]/stat, in clock ticks, for all the process's threads (live and
     * exited); null if absent.
     */
    static long[] userAndSystemTicks(String stat) {
        Long utime = ProcStat.field(stat, 14);
        Long stime = ProcStat.field(stat, 15);
        return utime == null || stime == null ? null : new long[] {utime, stime};
    }

    /** Resident memory now and at its peak, VmRSS and VmHWM of /proc/[pid]/status, in bytes; null if absent. */
    record Resident(Long bytes, Long peakBytes) {

        static final Resident NONE = new Resident(null, null);

        static Resident parse(String status) {
            Long rssKb = kilobytes(status, "VmRSS:");
            Long hwmKb = kilobytes(status, "VmHWM:");
            return new Resident(rssKb == null ? null : rssKb * 1024, hwmKb == null ? null : hwmKb * 1024);
        }

        /** The number on the line that starts with {@code key}, past its tabs and spaces; null if absent. */
        private static Long kilobytes(String status, String key) {
            int at = status.startsWith(key) ? 0 : status.indexOf("\n" + key);
            if (at < 0) {
                return null;
            }
            at += status.charAt(at) == '\n' ? key.length() + 1 : key.length();
            while (at < status.length() && (status.charAt(at) == ' ' || status.charAt(at) == '\t')) {
                at++;
            }
            return ProcStat.digitsAt(status, at);
        }
    }

    /** A small procfs file's text, or null if there is none or it cannot be read. */
    private static String read(Path file) {
        if (file == null) {
            return null;
        }
        try (InputStream in = Files.newInputStream(file)) {
            return new String(in.readNBytes(PROC_FILE_MAX), StandardCharsets.ISO_8859_1);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
