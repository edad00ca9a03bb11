package dev.threadbench.loadtest.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.analysis.AboveBound;
import dev.threadbench.loadtest.analysis.Cell;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.ResultsFixtures;
import dev.threadbench.loadtest.model.Run;
import dev.threadbench.loadtest.model.SweepFixtures;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A closed-loop reading above 100.5 % of the bound is never shown without its flag and its cause. */
class AboveBoundTest {

    private static Run reading(Run r, double rps) {
        return ResultsFixtures.withRequestsPerSecond(r, rps);
    }

    @Test
    void aboveHundredPointFivePercentOfTheBoundIsFlaggedAndNotAtIt() {
        Run run = ResultsFixtures.run("vertx", "timer", 1000, 4990, false);
        assertFalse(AboveBound.of(reading(run, 5000)), "at the bound");
        assertFalse(AboveBound.of(reading(run, 5025)), "100.5 %: a count's own rounding");
        assertTrue(AboveBound.of(reading(run, 5026)));
        assertTrue(AboveBound.of(reading(run, 5105)), "--quick's 102.1 %");
    }

    @Test
    void theOpenModelIsNotHeldToTheClosedLoopsBound() {
        Run open = ResultsFixtures.openModel().runs().get(2);
        assertFalse(
                AboveBound.of(reading(open, 1.1 * open.load().bound())),
                "1.1x the bound offered on more connections than C");
    }

    @Test
    void theNoteNamesTheCause() {
        assertEquals(
                "above the bound: 102.1 % of it, more than C closed-loop clients can get: a measurement artefact, not"
                        + " a result:"
                        + " its 15.0 s window is 7.50 delay periods of 2 s, not a whole number, and caught a wave of"
                        + " delayed answers more"
                        + " than its share (a closed loop's come in waves one period apart)",
                AboveBound.note(1.021, 15.0, 2, 2000));
        assertTrue(
                AboveBound.note(1.15, 6.0, 1, 2000)
                        .endsWith("its connections opened within 1 s, less than one 2 s delay period,"
                                + " so their delayed answers come in bunched waves, and the window's edges"
                                + " caught one more than its share"),
                AboveBound.note(1.15, 6.0, 1, 2000));
        assertTrue(AboveBound.note(1.01, 16.0, 2, 2000)
                .endsWith("the window's edges caught more delayed answers than its share"
                        + " (they come in waves one delay period apart; a stall just before the window that released"
                        + " a wave inside it"
                        + " does the same)"));
        assertTrue(AboveBound.note(1.01, 16.0, null, 2000).contains("the window's edges"), "ramp-up unknown");
    }

    @Test
    void theTableFlagsItInTheNoteColumnTheLegendSaysWhyAndTheVerdictDoesNotJudgeIt() {
        Results three = ResultsFixtures.threeRounds();
        List<Run> runs = new ArrayList<>(three.runs());
        runs.set(1, reading(runs.get(1), 10_210)); // vertx, round 1: 102.1 % of 10,000
        Results results = new Results(three.environment(), three.settings(), runs);
        String table = ConsoleTable.render(results);
        String vertxRow = table.lines()
                .filter(l -> l.startsWith("2000") && l.contains("vertx"))
                .findFirst()
                .orElseThrow();
        assertTrue(vertxRow.endsWith("ARTEFACT: above bound 1/3"), vertxRow);
        String undertowRow = table.lines()
                .filter(l -> l.startsWith("2000") && l.contains("undertow"))
                .findFirst()
                .orElseThrow();
        assertFalse(undertowRow.contains("ARTEFACT"), undertowRow);
        assertTrue(table.contains("ARTEFACT: above bound: a reading over 100.5 % of the bound"), table);
        assertTrue(
                table.contains("req/s 9,994 (9,960-10,003) vs 9,985 (9,950-10,210): not judged: above the bound in 1/3"
                        + " rounds of"
                        + " vertx/timer (a measurement artefact, not a result: see the run's note)"),
                table);
        assertTrue(
                ConsoleTable.oneLine(runs.get(1)).contains("(102.1% of the 10,000 bound)")
                        && ConsoleTable.oneLine(runs.get(1)).contains("[ARTEFACT: above the bound]"),
                ConsoleTable.oneLine(runs.get(1)));
        assertFalse(ConsoleTable.oneLine(runs.get(0)).contains("ARTEFACT"));
        assertEquals(
                1,
                HtmlReport.view(results).cells().stream()
                        .mapToLong(Cell.Summary::aboveBoundRounds)
                        .sum());
    }

    @Test
    void aSweepPointWhoseRoundsReadAboveTheBoundIsFlaggedBesideTheSweepTable() {
        Results sweep = SweepFixtures.sweep(List.of());
        List<Run> runs = new ArrayList<>(sweep.runs());
        runs.replaceAll(run -> run.server().equals("undertow")
                        && "timer".equals(run.strategy())
                        && run.concurrency() == 250
                ? SweepFixtures.run(
                        "undertow", "timer", 250, run.round(), new SweepFixtures.Point(1.02, 0, 100, 40, 80, false))
                : run);
        Results flagged = new Results(sweep.environment(), sweep.settings(), runs, List.of());
        String table = ConsoleTable.render(flagged);
        assertTrue(
                table.contains(
                        "  ARTEFACT: undertow/timer C=250: 102.0 % of the bound, more than C closed-loop clients can"
                                + " get:"
                                + " a measurement artefact, not a result"),
                table);
        HtmlReport.View view = HtmlReport.view(flagged);
        int undertowTimer = view.pairs()
                .indexOf(view.pairs().stream()
                        .filter(p -> p.label().equals("undertow/timer"))
                        .findFirst()
                        .orElseThrow());
        assertEquals(
                List.of("ARTEFACT: undertow/timer C=250: 102.0 % of the bound" + SweepTable.ARTEFACT),
                view.aboveBound().get(undertowTimer),
                "the report's pairs table flags it beside its pair");
        assertEquals(1, view.aboveBound().stream().mapToInt(List::size).sum(), "and no other pair");
        assertFalse(ConsoleTable.render(sweep).contains("ARTEFACT:"), "no point above the bound");
    }
}
