package dev.threadbench.common;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;

/**
 * The process's voluntary and involuntary context switches, summed over all its threads, live and exited:
 * getrusage(RUSAGE_SELF)'s ru_nvcsw and ru_nivcsw, called through the FFM API (Java 22+; this is the
 * multi-release jar's version of the class, the Java 21 one knows none). Null where they cannot be read.
 * Not from /proc/self/status: its counts there are the main thread's alone, which in a JVM stays parked,
 * and summing /proc/self/task/N/status costs a file per thread (65 ms at 8,000 threads).
 */
record ContextSwitches(Long voluntary, Long involuntary) {

    static final ContextSwitches UNKNOWN = new ContextSwitches(null, null);

    private static final int RUSAGE_SELF = 0;
    /**
     * struct rusage on 64-bit Linux: two struct timeval (16 bytes each), then 14 longs, of which ru_nvcsw
     * and ru_nivcsw are the last two.
     */
    private static final long RUSAGE_SIZE = 144;
    private static final long NVCSW_OFFSET = 128;
    private static final long NIVCSW_OFFSET = 136;

    private static final MethodHandle GETRUSAGE = getrusage();

    private static MethodHandle getrusage() {
        boolean linux64 = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux")
                && ValueLayout.ADDRESS.byteSize() == 8;
        if (!linux64) {
            return null;
        }
        try {
            Linker linker = Linker.nativeLinker();
            return linker.defaultLookup().find("getrusage")
                    .map(symbol -> linker.downcallHandle(symbol,
                            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS)))
                    .orElse(null);
        } catch (RuntimeException e) { // native access denied (--illegal-native-access=deny)
            return null;
        }
    }

    static ContextSwitches ofThisProcess() {
        if (GETRUSAGE == null) {
            return UNKNOWN;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment usage = arena.allocate(RUSAGE_SIZE, 8);
            if ((int) GETRUSAGE.invokeExact(RUSAGE_SELF, usage) != 0) {
                return UNKNOWN;
            }
            return new ContextSwitches(usage.get(ValueLayout.JAVA_LONG, NVCSW_OFFSET),
                    usage.get(ValueLayout.JAVA_LONG, NIVCSW_OFFSET));
        } catch (Throwable e) {
            return UNKNOWN;
        }
    }
}
