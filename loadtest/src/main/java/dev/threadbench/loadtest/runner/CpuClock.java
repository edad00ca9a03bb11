package dev.threadbench.loadtest.runner;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;

/** CPU time of this whole JVM between {@link #start} and the first {@link #stop}. */
final class CpuClock {

    private final OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private volatile long startCpu = -1;
    private volatile long stopCpu = -1;

    void start() {
        startCpu = os.getProcessCpuTime();
    }

    void stop() {
        if (stopCpu < 0) {
            stopCpu = os.getProcessCpuTime();
        }
    }

    double seconds() {
        return startCpu < 0 || stopCpu < 0 ? 0 : (stopCpu - startCpu) / 1e9;
    }
}
