package dev.threadbench.loadtest.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.threadbench.loadtest.base.UsageException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CpuSetTest {

    @Test
    void listsAreReadAsTasksetWritesThem() {
        CpuSet set = CpuSet.parse("--server-cpus", "0-3,6");
        assertEquals(List.of(0, 1, 2, 3, 6), set.cpus());
        assertEquals(5, set.size());
        assertEquals("0-3,6", set.toString());
        assertEquals(
                "1,3-5",
                CpuSet.parse("--server-cpus", " 5 , 3-4,1,4 ").toString(),
                "blanks, order and repeats do not matter");
        assertEquals("7", CpuSet.parse("--server-cpus", "7-7").toString());
        assertEquals(CpuSet.of(0, 1), CpuSet.parse("Cpus_allowed_list", "\t0-1"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            ""       | --server-cpus: expected a CPU list such as 0-3,6, got ''
            a        | --server-cpus: expected a CPU list such as 0-3,6, got 'a'
            0-       | --server-cpus: expected a CPU list such as 0-3,6, got '0-'
            -1       | --server-cpus: expected a CPU list such as 0-3,6, got '-1'
            "0,,1"   | --server-cpus: expected a CPU list such as 0-3,6, got '0,,1'
            0;1      | --server-cpus: expected a CPU list such as 0-3,6, got '0;1'
            3-1      | --server-cpus: range 3-1 runs backwards (write 1-3)
            0-99999  | --server-cpus: CPU 99999 is beyond 4095
            """)
    void badListsAreOneLine(String text, String message) {
        assertEquals(
                message,
                assertThrows(UsageException.class, () -> CpuSet.parse("--server-cpus", text))
                        .getMessage());
    }

    @Test
    void halvesGiveTheServerTheFirstHalfAndTheLargerOneWhenOdd() {
        assertEquals(
                new CpuSet.Halves(CpuSet.of(0), CpuSet.of(1)),
                CpuSet.parse("x", "0-1").halves(CpuSet::of));
        assertEquals(
                new CpuSet.Halves(CpuSet.of(0, 1), CpuSet.of(2, 3)),
                CpuSet.parse("x", "0-3").halves(CpuSet::of));
        assertEquals(
                new CpuSet.Halves(CpuSet.of(0, 1), CpuSet.of(2)),
                CpuSet.parse("x", "0-2").halves(CpuSet::of));
        assertEquals(
                new CpuSet.Halves(CpuSet.of(2, 5), CpuSet.of(7)),
                CpuSet.parse("x", "2,5,7").halves(CpuSet::of));
    }

    @Test
    void hyperThreadsOfOneCoreStayOnOneSide() {
        // 4 cores with 2 threads each, numbered as Linux usually does: core k is CPUs k and k+4
        Map<Integer, CpuSet> siblings = Map.of(
                0,
                CpuSet.of(0, 4),
                1,
                CpuSet.of(1, 5),
                2,
                CpuSet.of(2, 6),
                3,
                CpuSet.of(3, 7),
                4,
                CpuSet.of(0, 4),
                5,
                CpuSet.of(1, 5),
                6,
                CpuSet.of(2, 6),
                7,
                CpuSet.of(3, 7));
        assertEquals(
                new CpuSet.Halves(CpuSet.parse("x", "0-1,4-5"), CpuSet.parse("x", "2-3,6-7")),
                CpuSet.parse("x", "0-7").halves(siblings::get));
        assertEquals(
                new CpuSet.Halves(CpuSet.of(0), CpuSet.of(4)),
                CpuSet.of(0, 4).halves(siblings::get),
                "one core's two threads: split, there is nothing else");
    }
}
