package dev.threadbench.loadtest.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.threadbench.loadtest.MainTest;
import org.junit.jupiter.api.Test;

/** {@code loadtest cpus}: the split compare would make, for scripts; bad lists as compare refuses them. */
class CpusCommandTest {

    private static void assumeTwoCpusAndTaskset() {
        assumeTrue(Affinity.allowedCpus().size() >= 2 && Affinity.taskset().isPresent(), "two CPUs and taskset");
    }

    @Test
    void printsTheSetsCompareChooses() {
        assumeTwoCpusAndTaskset();
        CpuPinning compare = CpuPinning.decide(new CpuPinning.Request(null, null, false, false));
        MainTest.Ran ran = MainTest.run("cpus");
        assertEquals(0, ran.code(), ran.err());
        assertEquals(compare.serverCpus() + " " + compare.generatorCpus() + "\n", ran.out());
        String first = Integer.toString(Affinity.allowedCpus().cpus().getFirst());
        MainTest.Ran given = MainTest.run("cpus", "--server-cpus", first);
        assertEquals(0, given.code(), given.err());
        assertEquals(
                first + " " + Affinity.allowedCpus().minus(CpuSet.of(Integer.parseInt(first))),
                given.out().trim());
    }

    @Test
    void overlappingListsAreRefusedInOneLine() {
        assumeTwoCpusAndTaskset();
        String first = Integer.toString(Affinity.allowedCpus().cpus().getFirst());
        MainTest.Ran ran = MainTest.run("cpus", "--server-cpus", first, "--generator-cpus", first);
        assertEquals(2, ran.code());
        assertEquals("", ran.out());
        assertEquals(1, ran.err().lines().count(), ran.err());
        assertTrue(ran.err().contains("--server-cpus and --generator-cpus: both name CPU " + first), ran.err());
    }
}
