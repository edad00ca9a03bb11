package dev.threadbench.loadtest.compare;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/** CPU time and memory of a process, read from Linux's /proc. */
public final class ProcFs {

    /** USER_HZ: the unit of /proc/PID/stat's times; 100 on every Linux architecture this runs on. */
    static final double TICKS_PER_SECOND = 100.0;

    private ProcFs() {}

    /** utime + stime of the process, in seconds; empty once it is gone. */
    public static OptionalDouble cpuSeconds(long pid) {
        long[] fields = statFields(Path.of("/proc", String.valueOf(pid), "stat"));
        return fields == null ? OptionalDouble.empty()
                : OptionalDouble.of((fields[UTIME] + fields[STIME]) / TICKS_PER_SECOND);
    }

    /** cutime + cstime of this JVM: CPU of its children that have exited and been waited for (wrk, drill). */
    public static double reapedChildrenCpuSeconds() {
        long[] fields = statFields(Path.of("/proc/self/stat"));
        return fields == null ? 0 : (fields[CUTIME] + fields[CSTIME]) / TICKS_PER_SECOND;
    }

    /** VmHWM, the peak resident set size, in kB. */
    public static OptionalLong peakRssKb(long pid) {
        return statusField(pid, "VmHWM:");
    }

    public static OptionalLong rssKb(long pid) {
        return statusField(pid, "VmRSS:");
    }

    /** Resets VmHWM to the current RSS (clear_refs value 5), so a later peak is this window's own. */
    public static boolean resetPeakRss(long pid) {
        try {
            Files.writeString(Path.of("/proc", String.valueOf(pid), "clear_refs"), "5");
            return true;
        } catch (IOException | SecurityException e) {
            return false;
        }
    }

    private static final int UTIME = 13;
    private static final int STIME = 14;
    private static final int CUTIME = 15;
    private static final int CSTIME = 16;

    /** The numeric fields of a stat line, indexed as in proc(5) minus one; the command name may hold spaces. */
    static long[] statFields(Path stat) {
        String line;
        try {
            line = Files.readString(stat);
        } catch (IOException e) {
            return null;
        }
        return parseStat(line);
    }

    static long[] parseStat(String line) {
        int close = line.lastIndexOf(')');
        String[] rest = line.substring(close + 2).trim().split("\\s+");
        long[] fields = new long[rest.length + 2];
        for (int i = 0; i < rest.length; i++) {
            try {
                fields[i + 2] = Long.parseLong(rest[i]);
            } catch (NumberFormatException e) {
                fields[i + 2] = 0;
            }
        }
        return fields;
    }

    private static OptionalLong statusField(long pid, String name) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status"))) {
                if (line.startsWith(name)) {
                    return OptionalLong.of(Long.parseLong(line.substring(name.length()).trim().split("\\s+")[0]));
                }
            }
        } catch (IOException | NumberFormatException e) {
            return OptionalLong.empty();
        }
        return OptionalLong.empty();
    }
}
