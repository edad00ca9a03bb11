package dev.threadbench.loadtest.architecture.cycle.a;

import dev.threadbench.loadtest.architecture.cycle.b.UsedBack;

/** With {@link UsedBack}, a cycle between two packages that ArchitectureTest's rule must catch. */
public final class Uses {

    public static int value() {
        return UsedBack.one() + 1;
    }
}
