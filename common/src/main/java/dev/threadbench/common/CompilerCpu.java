package dev.threadbench.common;

import dev.threadbench.common.ThreadClasses.ThreadClass;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The CPU a process's JIT compiler threads use, against the process's own, period by period: read often from outside
 * the process (compare's warm-up asks every delay period). A thread's name is read once, when its id first appears,
 * so a period costs a directory listing and one schedstat per compiler thread, whatever the number of threads. Unlike
 * the JIT's compile time ({@code CompilationMXBean}, added when a compilation finishes) it sees a long compilation
 * while it runs.
 */
public final class CompilerCpu {

    /** Over one period: the compiler threads' CPU and the whole process's, in ns. */
    public record Period(long compilerNanos, long processNanos) {

        /** The compilers' share of the process's CPU; null when the process used none. */
        public Double share() {
            return processNanos <= 0 ? null : Math.min(1.0, (double) compilerNanos / processNanos);
        }
    }

    private static final long NANOS_PER_TICK = 10_000_000L;

    private final Path procDir;
    private final byte[] buffer = new byte[4096];
    private final Set<Long> others = new HashSet<>();
    /** Each compiler thread's CPU at the last reading. */
    private Map<Long, Long> compilers = new HashMap<>();

    private long processNanos = -1;

    /** @param procDir the process's /proc directory */
    public CompilerCpu(Path procDir) {
        this.procDir = procDir;
    }

    public static CompilerCpu ofProcess(long pid) {
        return new CompilerCpu(Path.of("/proc", Long.toString(pid)));
    }

    /**
     * The period since the last call; null on the first call (it only sets the start) or when the process cannot be
     * read. A compiler thread that started within the period counts from zero; one that ended, up to its last reading.
     */
    public synchronized Period next() {
        Map<Long, Long> now = new HashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(procDir.resolve("task"))) {
            for (Path task : tasks) {
                long tid = Long.parseLong(task.getFileName().toString());
                if (others.contains(tid)) {
                    continue;
                }
                if (!compilers.containsKey(tid)) {
                    String comm = text(task.resolve("comm"));
                    if (comm == null || ThreadClasses.classify(ThreadClasses.JVM, comm.strip()) != ThreadClass.JIT) {
                        others.add(tid);
                        continue;
                    }
                }
                String schedstat = text(task.resolve("schedstat"));
                Long nanos = schedstat == null ? null : ProcStat.digitsAt(schedstat, 0);
                if (nanos != null) {
                    now.put(tid, nanos);
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        String stat = text(procDir.resolve("stat"));
        Long user = stat == null ? null : ProcStat.field(stat, 14);
        Long system = stat == null ? null : ProcStat.field(stat, 15);
        if (user == null || system == null) {
            return null;
        }
        long process = (user + system) * NANOS_PER_TICK;
        long compiler = 0;
        for (Map.Entry<Long, Long> e : now.entrySet()) {
            Long before = compilers.get(e.getKey());
            compiler += Math.max(0, e.getValue() - (before == null ? 0 : before));
        }
        Period period = processNanos < 0 ? null : new Period(compiler, Math.max(0, process - processNanos));
        compilers = now;
        processNanos = process;
        return period;
    }

    private String text(Path file) {
        return ProcStat.text(file, buffer);
    }
}
