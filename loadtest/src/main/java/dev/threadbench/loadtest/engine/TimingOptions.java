package dev.threadbench.loadtest.engine;

import dev.threadbench.loadtest.base.UsageException;
import java.util.ListResourceBundle;
import picocli.CommandLine.Option;

/**
 * The timing options {@code run} and {@code compare} share, and their checks, each worded once. Their defaults are each
 * command's own (run takes the plan's, compare {@code RunLength}'s), so each command describes them in its own words:
 * {@link RunWording} and {@link CompareWording}, given as the command's resource bundle. {@code --warmup} is not here:
 * compare's takes {@code auto} as well as seconds, run's seconds only.
 */
public final class TimingOptions {

    /** run's descriptions of these options: {@code @Command(resourceBundle = TimingOptions.RUN_WORDING)}. */
    public static final String RUN_WORDING = "dev.threadbench.loadtest.engine.TimingOptions$RunWording";
    /** compare's descriptions of these options. */
    public static final String COMPARE_WORDING = "dev.threadbench.loadtest.engine.TimingOptions$CompareWording";

    @Option(names = "--rampup", paramLabel = "S", descriptionKey = "rampup")
    private Integer rampupSeconds;

    @Option(names = "--duration", paramLabel = "S", descriptionKey = "duration")
    private Integer durationSeconds;

    @Option(names = "--iterations", paramLabel = "N", descriptionKey = "iterations")
    private Long iterations;

    @Option(names = "--timeout", paramLabel = "S", defaultValue = "10", descriptionKey = "timeout")
    private int timeoutSeconds;

    @Option(names = "--event-loops", paramLabel = "N", descriptionKey = "event-loops")
    private Integer eventLoops;

    /**
     * What was given, checked; null where an option was not given (the command's own default applies).
     *
     * @param iterations checked against the concurrency by each command (run's plan, compare's list)
     */
    public record Given(
            Integer rampupSeconds, Integer durationSeconds, Long iterations, int timeoutSeconds, Integer eventLoops) {}

    /** The options given, checked, each with the one line naming what is wrong. */
    public Given given() {
        if (rampupSeconds != null) {
            atLeast("--rampup", rampupSeconds, 0, " seconds");
        }
        if (durationSeconds != null) {
            atLeast("--duration", durationSeconds, 1, " second");
        }
        atLeast("--timeout", timeoutSeconds, 1, " second");
        if (eventLoops != null) {
            atLeast("--event-loops", eventLoops, 1, "");
        }
        return new Given(rampupSeconds, durationSeconds, iterations, timeoutSeconds, eventLoops);
    }

    /** The one line for a number below its least: "--repeat: must be at least 1 round, got 0". */
    public static void atLeast(String option, long value, long least, String unit) {
        if (value < least) {
            throw new UsageException(option + ": must be at least " + least + unit + ", got " + value);
        }
    }

    /** run: the plan's own rampup and iterations replaced, if given. */
    public static final class RunWording extends ListResourceBundle {
        @Override
        protected Object[][] getContents() {
            return new Object[][] {
                {"rampup", "replace the plan's rampup: slot i starts after i x S / C seconds"},
                {
                    "duration",
                    "measure for S seconds instead of a number of iterations (the plan's iterations are" + " ignored)"
                },
                {"iterations", "replace the plan's iterations (plan runs in all)"},
                {"timeout", "a request that gets no bytes for S seconds fails as a timeout (default ${DEFAULT-VALUE})"},
                {"event-loops", "event loop threads (default: cores, at most C)"},
            };
        }
    }

    /** compare: per run, with compare's defaults (--quick's too). */
    public static final class CompareWording extends ListResourceBundle {
        @Override
        protected Object[][] getContents() {
            return new Object[][] {
                {"rampup", "connections open spread over S seconds, as in the plans (default 2)"},
                {"duration", "measured seconds per run, rounded up to whole delay periods (default 2; --quick 4)"},
                {"iterations", "measure N requests per run instead of a duration (the plans' 1000000, say)"},
                {"timeout", "a request with no answer for S seconds fails as a timeout (default ${DEFAULT-VALUE})"},
                {"event-loops", "the embedded runner's event loops (default: one per generator CPU)"},
            };
        }
    }
}
