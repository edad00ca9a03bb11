package dev.threadbench.loadtest.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.report.ResultsJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run's evidence of a limit: its typed fields, and in files from before them, its notes. */
class RunEvidenceTest {

    @TempDir
    Path dir;

    private static Run with(Run r, Boolean serverStarved, Long drops, Boolean generatorStarved, List<String> notes) {
        Run.ServerSide s = r.serverSide();
        Run.GeneratorSide g = r.generatorSide();
        return new Run(
                r.server(),
                r.strategy(),
                r.concurrency(),
                r.engine(),
                r.round(),
                r.phase(),
                r.load(),
                r.latency(),
                new Run.ServerSide(
                        s.cpuSeconds(),
                        s.cpuMicrosPerRequest(),
                        s.cpuShare(),
                        s.peakRssMb(),
                        s.cpuBound(),
                        s.exitCode(),
                        s.cost(),
                        s.workerPoolShare(),
                        serverStarved,
                        drops),
                new Run.GeneratorSide(g.cpuSeconds(), g.cpuShare(), g.cpuBound(), g.threads(), generatorStarved),
                r.reconciliation(),
                notes,
                r.open(),
                r.cluster(),
                r.timeline());
    }

    private static final Run PLAIN = ResultsFixtures.run("undertow", "blocking", 2000, 9000, false);

    @Test
    void theFieldsSayItWhereTheyAreWrittenWhateverTheNotes() {
        Run typed = with(PLAIN, true, 12L, true, List.of());
        assertTrue(typed.serverStarved() && typed.generatorStarved() && typed.listenDropped());
        Run not = with(
                PLAIN,
                false,
                0L,
                false,
                List.of(
                        Note.SERVER_STARVED.write("x"),
                        Note.GENERATOR_STARVED.write("y"),
                        Note.KERNEL_DROPS.write("z")));
        assertFalse(not.serverStarved() || not.generatorStarved() || not.listenDropped(), "the fields win");
    }

    @Test
    void anOlderFileWithoutTheFieldsReadsItsNotes() {
        Run older = with(
                PLAIN,
                null,
                null,
                null,
                List.of(
                        Note.SERVER_STARVED.write("x"),
                        Note.GENERATOR_STARVED.write("y"),
                        Note.KERNEL_DROPS.write("z")));
        assertTrue(older.serverStarved() && older.generatorStarved() && older.listenDropped());
        assertFalse(PLAIN.serverStarved() || PLAIN.generatorStarved() || PLAIN.listenDropped());
    }

    @Test
    void theFieldsGoThroughResultsJsonAndBack() throws Exception {
        Results results = ResultsFixtures.results();
        Results typed = new Results(
                results.environment(),
                results.settings(),
                List.of(with(PLAIN, true, 3L, false, List.of())),
                results.skipped(),
                results.sweep(),
                results.profiles());
        Path file = dir.resolve("results.json");
        ResultsJson.write(typed, file);
        String json = Files.readString(file);
        assertTrue(json.contains("\"serverStarved\" : true") || json.contains("\"serverStarved\":true"), json);
        Run read = ResultsJson.read(file).runs().getFirst();
        assertEquals(Boolean.TRUE, read.serverSide().starved());
        assertEquals(3L, read.serverSide().listenDrops());
        assertEquals(Boolean.FALSE, read.generatorSide().starved());
    }
}
