package dev.threadbench.loadtest.compare;

import dev.threadbench.loadtest.analysis.AboveBound;
import dev.threadbench.loadtest.model.Note;
import dev.threadbench.loadtest.model.Run;
import dev.threadbench.loadtest.report.AgentLines;
import dev.threadbench.loadtest.report.ConsoleTable;
import java.io.PrintStream;

/** What compare prints as a run ends. */
final class RunLines {

    private RunLines() {}

    /**
     * The run's line after {@code progress} ("[3/24, ...] "), and the notes under it: its warm-up, above the bound,
     * drops, starved, its agents.
     */
    static void print(Run run, WarmUp warmUp, String progress, CompareSettings settings, PrintStream out) {
        out.println("  " + progress + ConsoleTable.oneLine(run));
        if (warmUp != null && !warmUp.capped() && run.load().warmupSeconds() != null) {
            out.println("      " + warmUp.line(run.load().warmupSeconds()));
        }
        if (AboveBound.of(run)) {
            out.println("      "
                    + AboveBound.note(
                            run.load().ratioToBound(),
                            run.load().durationSeconds(),
                            settings.generator().timing().rampupSeconds(),
                            settings.workload().delayMs()));
        }
        run.notes().stream().filter(Note::named).forEach(note -> out.println("      " + note));
        AgentLines.of(run).forEach(line -> out.println("      " + line));
        out.flush();
    }
}
