package dev.threadbench.loadtest.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.analysis.Holm;
import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.engine.Engine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** compare's windows: whole delay periods, by default and as given; its rounds: enough for a verdict by default. */
class RunLengthTest {

    /** compare's options as checked, with --targets so that no server jar is needed. */
    private static Engine.Timing timing(String args) {
        return settings(args).generator().timing();
    }

    private static CompareSettings settings(String args) {
        CommandLine command = new CommandLine(new CompareCommand());
        command.parseArgs(
                ("--targets undertow=http://127.0.0.1:1 " + args).trim().split(" "));
        CompareOptions options = (CompareOptions)
                command.getCommandSpec().mixins().get("options").userObject();
        return options.validate();
    }

    /** compare's options as checked for servers it starts (jars that exist; nothing is started here). */
    private static CompareSettings started(String args) throws IOException {
        Path jar = Files.createTempFile("server", ".jar");
        jar.toFile().deleteOnExit();
        CommandLine command = new CommandLine(new CompareCommand());
        command.parseArgs(("--undertow-jar " + jar + " --vertx-jar " + jar + " " + args)
                .trim()
                .split(" "));
        CompareOptions options = (CompareOptions)
                command.getCommandSpec().mixins().get("options").userObject();
        return options.validate();
    }

    @Test
    void aWindowOfWholeSecondsHoldsWholeDelayPeriodsEveryLcmOfTheDelayAndOneSecond() {
        assertEquals(2, RunLength.stepSeconds(2000));
        assertEquals(3, RunLength.stepSeconds(1500));
        assertEquals(1, RunLength.stepSeconds(200));
        assertEquals(1, RunLength.stepSeconds(500));
        assertEquals(5, RunLength.stepSeconds(2500));
    }

    @Test
    void aWindowIsRoundedUpToWholeDelayPeriods() {
        assertEquals(16, RunLength.wholePeriods(15, 10, 2000), "--quick's old 15 s: 7.5 periods");
        assertEquals(16, RunLength.wholePeriods(16, 10, 2000));
        assertEquals(2, RunLength.wholePeriods(1, 10, 2000));
        assertEquals(6, RunLength.wholePeriods(5, 10, 1500));
        assertEquals(7, RunLength.wholePeriods(7, 10, 200));
        assertEquals(15, RunLength.wholePeriods(15, 0, 2000), "no delay, no waves: as given");
        assertEquals(15, RunLength.wholePeriods(15, 10, 0));
    }

    @Test
    void aDelayWhosePeriodsFitWholeSecondsOnlyPastAMinuteIsRefused() {
        UsageException e = assertThrows(UsageException.class, () -> RunLength.wholePeriods(16, 10, 1234));
        assertTrue(
                e.getMessage()
                        .startsWith("--delay-ms: a measured window must be a whole number of delay periods, and 1234 ms"
                                + " periods add up to whole seconds only every 617 s"),
                e.getMessage());
    }

    @Test
    void everyDefaultWindowIsWholeDelayPeriods() {
        for (RunLength length :
                List.of(RunLength.COMPARE, RunLength.COMPARE_QUICK, RunLength.SWEEP, RunLength.SWEEP_QUICK)) {
            assertEquals(0, length.durationSeconds() * 1000 % 2000, length + ": whole 2 s periods");
            assertEquals(0, length.rampupSeconds() * 1000 % 2000, length + ": connections opened over whole periods");
        }
    }

    @Test
    void plainCompareHasTheRoundsItsVerdictNeedsWithinSevenMinutesAndQuickItsThree() throws IOException {
        assertEquals(6, RunLength.COMPARE.rounds());
        assertEquals(
                Holm.roundsNeeded(6 * 2),
                RunLength.COMPARE.rounds(),
                "the verdict's 6 figures at 2 concurrencies need 6 rounds a side to name anything");
        assertEquals(3, RunLength.COMPARE_QUICK.rounds());
        // CompareHeader's estimate for the default 2 servers x 2 concurrencies: each run its seconds plus 3, each start
        // and stop 8; with the auto warm-up each server's first run in a round 8 s of it, the others 2 periods
        CompareHeader.Estimate plain = CompareHeader.Estimate.of(started(""));
        assertEquals(24 * (2 + 2 + 3) + 12 * 8 + 12 * 4 + 12 * 8, plain.typicalSeconds());
        assertEquals(408, plain.typicalSeconds(), "6 min 48 s");
        assertTrue(plain.typicalSeconds() <= 7 * 60, "under 7 minutes: " + plain.typicalSeconds());
        assertEquals(24 * (2 + 2 + 3 + 20) + 12 * 8, plain.mostSeconds(), "every warm-up at its 20 s cap");
        CompareHeader.Estimate quick = CompareHeader.Estimate.of(started("--quick"));
        assertEquals(quick.typicalSeconds(), quick.mostSeconds(), "a fixed warm-up");
        assertTrue(quick.typicalSeconds() <= 3.5 * 60, "about 3 minutes: " + quick.typicalSeconds());
        assertTrue(
                CompareHeader.runs(started(""))
                        .endsWith("24 runs in 6 rounds (servers in turn, their order reversed each round), about"
                                + " 6 min 48 s in all, at most 12 min 24 s"),
                CompareHeader.runs(started("")));
    }

    @Test
    void theDefaultsAsCompareTakesThem() {
        CompareSettings plain = settings("");
        assertEquals(6, plain.runs().rounds());
        assertEquals(2, plain.generator().timing().durationSeconds());
        assertNull(plain.generator().windowNote());
        CompareSettings quick = settings("--quick");
        assertEquals(3, quick.runs().rounds());
        assertEquals(4, quick.generator().timing().durationSeconds());
        assertEquals(1, settings("--repeat 1").runs().rounds(), "one round stays possible");
    }

    @Test
    void aDurationGivenIsRoundedUpWithOneLineSayingSo() {
        CompareSettings given = settings("--duration 15");
        assertEquals(16, given.generator().timing().durationSeconds());
        assertEquals(
                "--duration 15 s rounded up to 16 s, 8 whole delay periods of 2 s: a closed loop's delayed answers"
                        + " come in"
                        + " waves one period apart, and a window of part of one catches a wave more or less",
                given.generator().windowNote());
        assertEquals(1, given.generator().windowNote().lines().count());
        assertNull(settings("--duration 20").generator().windowNote(), "already whole");
        assertEquals(6, timing("--duration 5 --delay-ms 1500").durationSeconds());
        assertEquals(5, timing("--duration 5 --delay-every 0").durationSeconds(), "no delay: as given");
        assertNull(timing("--iterations 100000").durationSeconds(), "a counted run has no timed window");
    }

    @Test
    void theWarmUpIsAutoByDefaultAndFixedWhereAutoCannotBe() {
        Engine.Timing plain = timing("");
        assertTrue(plain.autoWarmup());
        assertEquals(2000, plain.warmupStepMs(), "on whole delay periods");
        assertEquals(RunLength.AUTO_WARMUP_CAP_SECONDS, plain.warmupSeconds(), "at most the cap");
        assertTrue(timing("--warmup auto --delay-ms 1500").autoWarmup());
        assertEquals(1500, timing("--warmup auto --delay-ms 1500").warmupStepMs());
        Engine.Timing fixed = timing("--warmup 5");
        assertFalse(fixed.autoWarmup());
        assertEquals(5, fixed.warmupSeconds());
        assertEquals(4, timing("--quick").warmupSeconds(), "--quick keeps its fixed 4 s");
        assertFalse(timing("--quick").autoWarmup());
        assertFalse(timing("--iterations 100000").autoWarmup(), "a counted window: the fixed one");
        assertEquals(
                RunLength.FIXED_WARMUP_SECONDS, timing("--iterations 100000").warmupSeconds());
        assertFalse(timing("--rate 0.5x").autoWarmup(), "the open model's schedule needs its end up front");
        UsageException open = assertThrows(UsageException.class, () -> settings("--warmup auto --rate 0.5x"));
        assertTrue(
                open.getMessage().startsWith("--warmup auto: only on the embedded engine, in a closed loop"),
                open.getMessage());
        UsageException bad = assertThrows(UsageException.class, () -> settings("--warmup soon"));
        assertEquals("--warmup: expected auto or a number of seconds, got 'soon'", bad.getMessage());
        assertThrows(UsageException.class, () -> settings("--warmup -1"));
    }
}
