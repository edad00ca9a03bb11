package dev.threadbench.loadtest.model;

/**
 * What a concurrency's rounds say, all its readings pooled: held in nearly all of them, in nearly none, or in some and
 * not others (it holds or collapses by chance there). A round holds when it reached 95 % of the bound without a failed
 * request.
 */
public enum Hold {
    /** Held in at least five rounds in six (all of 1, 2 or 3; 5 of 6). */
    HELD,
    /** Held in some rounds and not in others, more than one in six either way. */
    MIXED,
    /** Held in at most one round in six (none of 1 to 5). */
    NOT_HELD;

    /** The class of {@code heldRounds} held of {@code rounds}. */
    public static Hold of(long heldRounds, int rounds) {
        if (rounds <= 0) {
            return NOT_HELD;
        }
        if (6 * heldRounds >= 5L * rounds) {
            return HELD;
        }
        return 6 * heldRounds <= rounds ? NOT_HELD : MIXED;
    }
}
