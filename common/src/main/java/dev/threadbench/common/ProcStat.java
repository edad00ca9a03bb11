package dev.threadbench.common;

/** Fields of a Linux /proc/[pid]/stat line, read in place (no split: the servers read it on every /stats). */
public final class ProcStat {

    private ProcStat() {}

    /**
     * Field {@code number} as proc(5) numbers them (14 utime, 15 stime, 16 cutime, 17 cstime, ...), from 3 on;
     * null if the line has no such numeric field. Counted from after the last ')', since the command name in
     * field 2 may hold spaces and parentheses.
     */
    public static Long field(String line, int number) {
        int at = line.lastIndexOf(')');
        if (at < 0 || number < 3) {
            return null;
        }
        // step to the space before each of fields 3 (state), 4, ... up to the one asked for
        for (int field = 3; field <= number; field++) {
            at = line.indexOf(' ', at + 1);
            if (at < 0) {
                return null;
            }
        }
        long value = 0;
        int digit = at + 1;
        while (digit < line.length() && line.charAt(digit) >= '0' && line.charAt(digit) <= '9') {
            value = value * 10 + (line.charAt(digit) - '0');
            digit++;
        }
        return digit == at + 1 ? null : value;
    }
}
