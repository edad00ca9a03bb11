package dev.threadbench.loadtest.model;

/**
 * What a concurrency's rounds say, all its readings pooled: held in every one of them, in none, or in some and not
 * others (it holds or collapses by chance there, or the machine's state moved between readings). A round holds when it
 * reached 95 % of the bound without a failed request.
 */
public enum Hold {
    /** Held in every round. */
    HELD,
    /** Held in some rounds and not in others. */
    MIXED,
    /** Held in no round. */
    NOT_HELD;

    /** The class of {@code heldRounds} held of {@code rounds}. */
    public static Hold of(long heldRounds, int rounds) {
        if (rounds <= 0 || heldRounds <= 0) {
            return NOT_HELD;
        }
        return heldRounds >= rounds ? HELD : MIXED;
    }
}
