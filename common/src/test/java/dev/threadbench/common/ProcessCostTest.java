package dev.threadbench.common;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessCostTest {

    /** A command name with spaces and parentheses, utime 1234 and stime 56 ticks (fields 14 and 15). */
    private static final String STAT = "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 30000 0 12 0 1234 56 0 0 20 0 "
            + "37 0 1022494 5003133440 41800 18446744073709551615 1 1 0 0 0 0 0 4096 17 1 0 0 0 0 0\n";

    private static final String STATUS = """
            Name:\tjava
            Umask:\t0022
            State:\tS (sleeping)
            VmPeak:\t 5012345 kB
            VmSize:\t 5003133 kB
            VmHWM:\t  210456 kB
            VmRSS:\t  167200 kB
            Threads:\t37
            voluntary_ctxt_switches:\t1
            nonvoluntary_ctxt_switches:\t0
            """;

    @Test
    void readsUserAndSystemTicksAfterTheLastParenthesis() {
        assertArrayEquals(new long[] {1234, 56}, ProcessCost.userAndSystemTicks(STAT));
        assertNull(ProcessCost.userAndSystemTicks("4242 (java) S 1 2"), "a line cut short");
        assertNull(ProcessCost.userAndSystemTicks(""));
    }

    @Test
    void readsResidentMemoryInBytes() {
        ProcessCost.Resident resident = ProcessCost.Resident.parse(STATUS);
        assertEquals(167200L * 1024, resident.bytes());
        assertEquals(210456L * 1024, resident.peakBytes());
        assertEquals(ProcessCost.Resident.NONE, ProcessCost.Resident.parse("Name:\tjava\n"));
        assertEquals(
                4096L * 1024, ProcessCost.Resident.parse("VmRSS:\t4096 kB\n").bytes(), "on the first line");
    }

    @Test
    void theProcFilesGiveTheLinuxFigures(@TempDir Path proc) throws Exception {
        Files.writeString(proc.resolve("stat"), STAT);
        Files.writeString(proc.resolve("status"), STATUS);
        String json = new ProcessCost(proc).toJson();
        assertAll(
                () -> assertEquals(12340, JsonFields.number(json, "cpuUserMs"), "ticks of 10 ms"),
                () -> assertEquals(560, JsonFields.number(json, "cpuSystemMs")),
                () -> assertEquals(167200L * 1024, JsonFields.number(json, "rssBytes")),
                () -> assertEquals(210456L * 1024, JsonFields.number(json, "rssPeakBytes")));
    }

    @Test
    void withoutProcFilesTheirFiguresAreNull(@TempDir Path empty) {
        for (ProcessCost cost : List.of(new ProcessCost(empty), new ProcessCost(null))) {
            String json = cost.toJson();
            assertAll(
                    () -> assertNull(JsonFields.number(json, "cpuUserMs")),
                    () -> assertNull(JsonFields.number(json, "cpuSystemMs")),
                    () -> assertNull(JsonFields.number(json, "rssBytes")),
                    () -> assertNull(JsonFields.number(json, "rssPeakBytes")),
                    () -> assertNotNull(JsonFields.number(json, "cpuMs")),
                    () -> assertNotNull(JsonFields.number(json, "threads")));
        }
    }

    @Test
    void thisProcessFiguresArePlausible() {
        String json = ProcessCost.ofThisProcess().toJson();
        long threads = JsonFields.number(json, "threads");
        assertAll(
                json,
                () -> assertTrue(JsonFields.number(json, "cpuMs") > 0),
                () -> assertTrue(threads >= 1),
                () -> assertTrue(JsonFields.number(json, "threadsPeak") >= threads),
                () -> assertTrue(JsonFields.number(json, "heapUsedBytes") > 0),
                () -> assertTrue(
                        JsonFields.number(json, "heapCommittedBytes") >= JsonFields.number(json, "heapUsedBytes")),
                () -> assertTrue(JsonFields.number(json, "heapAfterGcBytes") >= 0),
                () -> assertTrue(JsonFields.number(json, "gcCount") >= 0),
                () -> assertTrue(JsonFields.number(json, "gcPauseMs") >= 0),
                () -> assertTrue(JsonFields.number(json, "jitMs") >= 0, "HotSpot times its compilations"));
        if (Files.isReadable(Path.of("/proc/self/status"))) {
            long rss = JsonFields.number(json, "rssBytes");
            assertAll(
                    json,
                    () -> assertTrue(rss > 1 << 20, "more than 1 MB resident"),
                    () -> assertTrue(JsonFields.number(json, "rssPeakBytes") >= rss),
                    () -> assertTrue(
                            JsonFields.number(json, "cpuUserMs") + JsonFields.number(json, "cpuSystemMs") > 0));
        }
    }

    @Test
    void collectionsCountAfterAGc() {
        long before = JsonFields.number(ProcessCost.ofThisProcess().toJson(), "gcCount");
        System.gc();
        String json = ProcessCost.ofThisProcess().toJson();
        assertTrue(JsonFields.number(json, "gcCount") > before, json);
        assertTrue(JsonFields.number(json, "heapAfterGcBytes") > 0, json);
    }

    @Test
    void concurrentCycleBeansAreNotPauses() {
        for (String cycles : List.of("ZGC Minor Cycles", "ZGC Major Cycles", "Shenandoah Cycles")) {
            assertFalse(ProcessCost.timesPauses(collector(cycles)), cycles);
        }
        for (String pauses : List.of(
                "G1 Young Generation",
                "G1 Old Generation",
                "G1 Concurrent GC",
                "ZGC Minor Pauses",
                "ZGC Major Pauses",
                "Shenandoah Pauses",
                "PS Scavenge",
                "PS MarkSweep",
                "Copy",
                "MarkSweepCompact")) {
            assertTrue(ProcessCost.timesPauses(collector(pauses)), pauses);
        }
        assertTrue(
                ManagementFactory.getGarbageCollectorMXBeans().stream().anyMatch(ProcessCost::timesPauses),
                "this JVM's collector has a bean that times pauses");
    }

    private static GarbageCollectorMXBean collector(String name) {
        return new GarbageCollectorMXBean() {
            @Override
            public long getCollectionCount() {
                return 0;
            }

            @Override
            public long getCollectionTime() {
                return 0;
            }

            @Override
            public String getName() {
                return name;
            }

            @Override
            public boolean isValid() {
                return true;
            }

            @Override
            public String[] getMemoryPoolNames() {
                return new String[0];
            }

            @Override
            public ObjectName getObjectName() {
                return null;
            }
        };
    }
}
