package dev.threadbench.loadtest.architecture.cycle.b;

import dev.threadbench.loadtest.architecture.cycle.a.Uses;

/** Uses its user back: the other half of ArchitectureTest's deliberate cycle. */
public final class UsedBack {

    public static int one() {
        return 1;
    }

    public static int back() {
        return Uses.value();
    }
}
