package dev.threadbench.loadtest.compare;

import static dev.threadbench.loadtest.engine.TimingOptions.atLeast;

import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.engine.Engine;
import dev.threadbench.loadtest.engine.TimingOptions;

/**
 * compare's timing of each run, checked: the shared timing options and --warmup as given, else {@link RunLength}'s
 * defaults (--quick's, --sweep's); the measured window rounded up to whole delay periods.
 *
 * @param windowNote the one line saying the measured window was rounded up; null when it was not
 */
record CompareTiming(Engine.Timing timing, String windowNote) {

    /**
     * @param warmup             --warmup as given: auto, seconds, or null
     * @param embeddedClosedLoop the embedded engine in this JVM (no --agents) in a closed loop (no --rate): where
     *                           --warmup auto can read the server's JIT at each delay period
     * @param eventLoops         unless --event-loops is given (0: the engine's own)
     */
    static CompareTiming of(
            String warmup,
            TimingOptions.Given given,
            RunLength defaults,
            boolean sweep,
            boolean embeddedClosedLoop,
            CompareSettings.Workload workload,
            int eventLoops) {
        int delayEvery = workload.delayEvery();
        long delayMs = workload.delayMs();
        Integer fixedWarmup = fixedWarmup(warmup);
        boolean autoWarmupPossible = embeddedClosedLoop && given.iterations() == null && delayEvery > 0 && delayMs > 0;
        if (fixedWarmup == null && warmup != null && !autoWarmupPossible) {
            throw new UsageException("--warmup auto: only on the embedded engine, in a closed loop (not --rate), timed"
                    + " (not --iterations), with a delay, and not with --agents; give seconds instead");
        }
        if (fixedWarmup == null && warmup != null && sweep) {
            throw new UsageException("--warmup auto: not with --sweep, whose grid keeps a fixed warm-up (each server"
                    + " runs its concurrencies lowest first); give seconds instead");
        }
        boolean autoWarmup = fixedWarmup == null && autoWarmupPossible && (warmup != null || defaults.autoWarmup());
        int warmupSeconds = autoWarmup
                ? RunLength.AUTO_WARMUP_CAP_SECONDS
                : fixedWarmup != null
                        ? fixedWarmup
                        : defaults.autoWarmup() ? RunLength.FIXED_WARMUP_SECONDS : defaults.warmupSeconds();
        atLeast("--warmup", warmupSeconds, 0, " seconds");
        // a counted run (--iterations) has no measured seconds
        Integer asked = given.iterations() != null
                ? null
                : given.durationSeconds() != null ? given.durationSeconds() : defaults.durationSeconds();
        Integer duration = asked;
        String windowNote = null;
        if (asked != null && delayEvery >= 0 && delayMs >= 0) {
            duration = RunLength.wholePeriods(asked, delayEvery, delayMs);
            windowNote = RunLength.roundedNote(
                    given.durationSeconds() != null ? "--duration" : "the default window", asked, duration, delayMs);
        }
        int rampup = given.rampupSeconds() != null ? given.rampupSeconds() : defaults.rampupSeconds();
        return new CompareTiming(
                new Engine.Timing(
                        rampup,
                        warmupSeconds,
                        duration,
                        given.iterations(),
                        given.timeoutSeconds(),
                        given.eventLoops() != null ? given.eventLoops() : eventLoops,
                        autoWarmup ? delayMs : 0),
                windowNote);
    }

    /** --warmup's seconds; null for auto or not given. */
    private static Integer fixedWarmup(String warmup) {
        if (warmup == null || warmup.trim().equalsIgnoreCase("auto")) {
            return null;
        }
        try {
            return Integer.parseInt(warmup.trim());
        } catch (NumberFormatException e) {
            throw new UsageException("--warmup: expected auto or a number of seconds, got '" + warmup + "'");
        }
    }
}
