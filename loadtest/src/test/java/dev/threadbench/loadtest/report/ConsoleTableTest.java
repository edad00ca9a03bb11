package dev.threadbench.loadtest.report;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.analysis.SweepPairs;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.Run;
import dev.threadbench.loadtest.model.SweepFixtures;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConsoleTableTest {

    /** What compare's live page shows after each run of a sweep: the table of every prefix of its runs renders. */
    @Test
    void aSweepRendersAfterEachOfItsRunsNotOnlyAtTheEnd() {
        Results whole = SweepFixtures.sweep(List.of());
        for (int done = 1; done <= whole.runs().size(); done++) {
            List<Run> soFar = whole.runs().subList(0, done);
            String table = ConsoleTable.render(SweepPairs.withSweep(
                    new Results(whole.environment(), whole.settings(), soFar, List.of(), null, whole.profiles())));
            assertTrue(table.contains(soFar.getLast().server()), done + " runs: " + table);
            if (done == whole.runs().size()) {
                assertTrue(table.contains("not held"), "the sweep's pairs, held and not held: " + table);
            }
        }
    }
}
