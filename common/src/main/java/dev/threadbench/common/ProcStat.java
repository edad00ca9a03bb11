package dev.threadbench.common;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

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
        return digitsAt(line, at + 1);
    }

    /** The decimal number whose digits start at {@code from} in a procfs text, or null if there are none. */
    static Long digitsAt(String text, int from) {
        long value = 0;
        int at = from;
        while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
            value = value * 10 + (text.charAt(at) - '0');
            at++;
        }
        return at == from ? null : value;
    }

    /** A small procfs file's text, read through {@code buffer}; null when it is gone or unreadable. */
    static String text(Path file, byte[] buffer) {
        try (InputStream in = Files.newInputStream(file)) {
            int n = in.readNBytes(buffer, 0, buffer.length);
            return new String(buffer, 0, n, StandardCharsets.ISO_8859_1);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
