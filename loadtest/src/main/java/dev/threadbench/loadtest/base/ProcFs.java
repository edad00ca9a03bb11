package dev.threadbench.loadtest.base;

import dev.threadbench.common.ProcStat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The CPU time of a running process (wrk) or of this JVM's reaped children (drill), read from Linux's /proc. */
public final class ProcFs {

    /** USER_HZ: the unit of /proc/PID/stat's times; 100 on every Linux architecture this runs on. */
    static final double TICKS_PER_SECOND = 100.0;

    private ProcFs() {}

    /**
     * utime + stime of process {@code pid}, all its threads, so far; null when it cannot be read (gone, or not Linux).
     */
    public static Double processCpuSeconds(long pid) {
        try {
            String line = Files.readString(Path.of("/proc/" + pid + "/stat"));
            Long utime = ProcStat.field(line, 14);
            Long stime = ProcStat.field(line, 15);
            return utime == null || stime == null ? null : (utime + stime) / TICKS_PER_SECOND;
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * cutime + cstime of this JVM: CPU of its children that have exited and been waited for (wrk, drill); 0 off Linux.
     */
    public static double reapedChildrenCpuSeconds() {
        String line;
        try {
            line = Files.readString(Path.of("/proc/self/stat"));
        } catch (IOException e) {
            return 0;
        }
        Long cutime = ProcStat.field(line, 16);
        Long cstime = ProcStat.field(line, 17);
        return cutime == null || cstime == null ? 0 : (cutime + cstime) / TICKS_PER_SECOND;
    }
}
