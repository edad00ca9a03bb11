package dev.threadbench.loadtest.compare;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The CPU time of this JVM's reaped children (wrk, drill), read from Linux's /proc. */
public final class ProcFs {

    /** USER_HZ: the unit of /proc/PID/stat's times; 100 on every Linux architecture this runs on. */
    static final double TICKS_PER_SECOND = 100.0;

    private ProcFs() {}

    /** cutime + cstime of this JVM: CPU of its children that have exited and been waited for (wrk, drill). */
    public static double reapedChildrenCpuSeconds() {
        long[] fields = statFields(Path.of("/proc/self/stat"));
        return fields == null ? 0 : (fields[CUTIME] + fields[CSTIME]) / TICKS_PER_SECOND;
    }

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
}
