package dev.threadbench.common;

/**
 * The process's voluntary and involuntary context switches, summed over all its threads: on Java 22+ the
 * multi-release jar's version (src/main/java22) reads them through getrusage; this Java 21 one knows none.
 * Not from /proc/self/status: its counts there are the main thread's alone, which in a JVM stays parked.
 */
record ContextSwitches(Long voluntary, Long involuntary) {

    static final ContextSwitches UNKNOWN = new ContextSwitches(null, null);

    static ContextSwitches ofThisProcess() {
        return UNKNOWN;
    }
}
