package dev.threadbench.common;

import com.sun.management.UnixOperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * How many connections a server can hold open at once within its file descriptor limit: the limit, less
 * the descriptors already open (the JVM's jars, selectors, the listener), less {@link #RESERVE} for any it
 * opens later. A server that stops accepting at this count never runs out of descriptors on accept.
 */
public record ConnectionBudget(int connections, long descriptorLimit) {

    /** Descriptors kept free beyond those open when the budget is taken. */
    static final int RESERVE = 32;

    /** This process's budget; unlimited where the JVM cannot tell its descriptors. */
    public static ConnectionBudget ofThisProcess() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (!(os instanceof UnixOperatingSystemMXBean unix)) {
            return new ConnectionBudget(Integer.MAX_VALUE, Long.MAX_VALUE);
        }
        return of(unix.getMaxFileDescriptorCount(), unix.getOpenFileDescriptorCount());
    }

    static ConnectionBudget of(long descriptorLimit, long openDescriptors) {
        return new ConnectionBudget(
                Math.clamp(descriptorLimit - openDescriptors - RESERVE, 1, Integer.MAX_VALUE), descriptorLimit);
    }
}
