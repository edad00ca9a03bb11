package dev.threadbench.loadtest.compare;

import java.util.List;

/**
 * compare's default timings and rounds, for a plain compare and for a sweep, each with or without --quick;
 * any of them given on the command line wins.
 *
 * <p>Plain compare: about 5 minutes in all on 2 cores, --quick under 3. The warm-up is long enough for the
 * JIT of both JVMs (server and generator) to settle at 2000 connections; shorter, the generator's first run
 * measures its own compiler.
 *
 * <p>Sweep: 6 server x strategy pairs x 6 concurrencies = 36 points a round. A point costs its ramp-up,
 * warm-up and measured seconds plus about 3 s (the last delayed answers drained, /stats read); each server
 * start and stop about 8 s (CompareHeader's estimate). The ramp-up stays at one delay (2 s): connections
 * opened over one delay period fall evenly over its phase; opened faster, their delayed requests come in
 * waves, and a window of a few seconds catches one wave more or less (115 % and 80 % of the bound, seen with
 * a 1 s ramp-up and 5 s windows). The measured windows are whole delay periods for the same reason.
 * Full: 3 rounds (the fewest with a spread worth judging) of 2 + 2 + 6 s: 108 x 13 s + 18 x 8 s = 1,548 s,
 * about 26 min, under 30. --quick: 3 rounds of even 2 + 1 + 2 s would be 108 x 8 s + 144 s = 17 min, over
 * 10, so one round of 2 + 2 + 4 s: 36 x 11 s + 6 x 8 s = 444 s, about 7.5 min, with no spread to judge
 * differences by. Short warm-ups are enough here: each server runs its concurrencies in one process, lowest
 * first, so only its first point meets a cold JIT.
 */
record RunLength(int rampupSeconds, int warmupSeconds, int durationSeconds, int rounds) {

    static final List<Integer> SWEEP_CONCURRENCIES = List.of(250, 500, 1000, 2000, 5000, 10000);

    static final RunLength COMPARE = new RunLength(2, 15, 50, 1);
    static final RunLength COMPARE_QUICK = new RunLength(2, 10, 15, 1);
    static final RunLength SWEEP = new RunLength(2, 2, 6, 3);
    static final RunLength SWEEP_QUICK = new RunLength(2, 2, 4, 1);

    static RunLength of(boolean sweep, boolean quick) {
        return sweep ? quick ? SWEEP_QUICK : SWEEP : quick ? COMPARE_QUICK : COMPARE;
    }
}
