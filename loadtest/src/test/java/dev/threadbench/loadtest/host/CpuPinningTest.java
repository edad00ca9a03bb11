package dev.threadbench.loadtest.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.MainTest;
import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.model.Results;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CpuPinningTest {

    private static final Optional<String> TASKSET = Optional.of("/usr/bin/taskset");
    private static final CpuSet FOUR = CpuSet.parse("x", "0-3");

    private static CpuPinning decide(
            String server, String generator, boolean noPin, boolean targets, CpuSet allowed, Optional<String> taskset) {
        return CpuPinning.decide(
                new CpuPinning.Request(server, generator, noPin, targets), allowed, taskset, CpuSet::of);
    }

    @Test
    void byDefaultTheServersGetHalfTheCpusAndTheGeneratorTheOtherHalf() {
        CpuPinning pinning = decide(null, null, false, false, FOUR, TASKSET);
        assertEquals(List.of("/usr/bin/taskset", "-c", "0-1"), pinning.serverLauncher());
        assertEquals(List.of("-XX:ActiveProcessorCount=2"), pinning.serverJvmOptions());
        assertEquals(2, pinning.generatorCpuCount(), "the embedded runner's event loops");
        assertEquals(2.0, pinning.serverShareCpus());
        assertEquals(2.0, pinning.generatorShareCpus());
        assertEquals(4, pinning.machineCpus());
        assertEquals(
                new Results.Pinning("0-1", "2-3", "taskset; server JVMs with -XX:ActiveProcessorCount=2"),
                pinning.record());
        assertEquals(
                "CPUs: servers on 0-1 (2, -XX:ActiveProcessorCount=2), generator (this JVM and the tools it runs) on"
                        + " 2-3 (2)",
                pinning.describe());
    }

    @Test
    void oneSetGivenTheOtherSideGetsTheRest() {
        assertEquals(
                new Results.Pinning("3", "0-2", "taskset; server JVMs with -XX:ActiveProcessorCount=1"),
                decide("3", null, false, false, FOUR, TASKSET).record());
        assertEquals(
                new Results.Pinning("1-3", "0", "taskset; server JVMs with -XX:ActiveProcessorCount=3"),
                decide(null, "0", false, false, FOUR, TASKSET).record());
        assertEquals(
                new Results.Pinning("0", "2", "taskset; server JVMs with -XX:ActiveProcessorCount=1"),
                decide("0", "2", false, false, FOUR, TASKSET).record(),
                "both given: CPUs may be left to neither");
    }

    @Test
    void withoutTasksetOrASecondCpuItRunsUnpinnedAndSaysWhy() {
        CpuPinning noTaskset = decide(null, null, false, false, FOUR, Optional.empty());
        assertEquals(
                new Results.Pinning(null, null, "not pinned: taskset is not installed (apt-get install util-linux)"),
                noTaskset.record());
        assertEquals(List.of(), noTaskset.serverLauncher());
        assertEquals(List.of(), noTaskset.serverJvmOptions());
        assertEquals(0, noTaskset.generatorCpuCount());
        assertEquals(2.0, noTaskset.generatorShareCpus(), "half the machine, as before pinning");
        assertEquals(
                "CPUs: not pinned (taskset is not installed (apt-get install util-linux)): servers and generator"
                        + " share all 4 (0-3)",
                noTaskset.describe());
        assertEquals(
                "not pinned: only one CPU (0) to run on",
                decide(null, null, false, false, CpuSet.of(0), TASKSET).record().note());
        assertEquals(
                1.0, decide(null, null, false, false, CpuSet.of(0), TASKSET).serverShareCpus());
        assertEquals(
                "not pinned: --no-pin",
                decide(null, null, true, false, FOUR, TASKSET).record().note());
    }

    @Test
    void serversAlreadyRunningArePinnedNeverAndTheGeneratorOnlyWhenAsked() {
        CpuPinning running = decide(null, null, false, true, FOUR, TASKSET);
        assertFalse(running.serversPinned());
        assertTrue(running.record().note().startsWith("not pinned: the servers were already running (--targets)"));
        CpuPinning generatorOnly = decide(null, "3", false, true, FOUR, TASKSET);
        assertEquals(new Results.Pinning(null, "3", "taskset"), generatorOnly.record());
        assertEquals(List.of(), generatorOnly.serverLauncher());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            0-1 | 1-2 | false | false | --server-cpus and --generator-cpus: both name CPU 1; the two sets must not share a CPU
            4   | -   | false | false | --server-cpus: CPU 4 is not one this process may run on (0-3)
            -   | 2-5 | false | false | --generator-cpus: CPUs 4-5 are not ones this process may run on (0-3)
            0-3 | -   | false | false | --server-cpus: leaves no CPU for the generator (this process may run on 0-3)
            -   | 0-3 | false | false | --generator-cpus: leaves no CPU for the servers (this process may run on 0-3)
            0   | -   | true  | false | --no-pin: not with --server-cpus or --generator-cpus
            -   | 1   | true  | false | --no-pin: not with --server-cpus or --generator-cpus
            0   | -   | false | true  | --server-cpus: not with --targets: compare starts no server
            """)
    void badChoicesAreOneLine(String server, String generator, boolean noPin, boolean targets, String message) {
        assertEquals(
                message,
                assertThrows(UsageException.class, () -> decide(server, generator, noPin, targets, FOUR, TASKSET))
                        .getMessage());
    }

    @Test
    void askingForSetsWithoutTasksetIsRefused() {
        assertEquals(
                "--server-cpus: taskset is not installed (apt-get install util-linux), so compare cannot pin",
                assertThrows(UsageException.class, () -> decide("0", null, false, false, FOUR, Optional.empty()))
                        .getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            --server-cpus 0-x           | loadtest: --server-cpus: expected a CPU list such as 0-3,6, got '0-x'
            --generator-cpus 2-1        | loadtest: --generator-cpus: range 2-1 runs backwards (write 1-2)
            --no-pin --server-cpus 0    | loadtest: --no-pin: not with --server-cpus or --generator-cpus
            --repeat 0                  | loadtest: --repeat: must be at least 1 round, got 0
            """)
    void theCommandLineSaysSoInOneLineWithExitCode2(String args, String expected) {
        MainTest.Ran ran = MainTest.run(("compare " + args).split(" "));
        assertEquals(expected + "\n", ran.err().replace("\r\n", "\n"));
        assertEquals(2, ran.code());
        assertEquals("", ran.out());
    }
}
