package dev.threadbench.loadtest.report;

import dev.threadbench.loadtest.analysis.Gate;
import dev.threadbench.loadtest.analysis.Verdict;
import dev.threadbench.loadtest.model.BaselineJudgement;
import dev.threadbench.loadtest.model.Results;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code report --judgments}: every judgment the tool printed for a results file, as one line of JSON, for
 * scripts that count them (scripts/calibrate) instead of parsing the table or doing the statistics again.
 *
 * @param verdict  each figure of each pair of servers (outcome DIFFERENT, NO_DIFFERENCE, TOO_FEW_ROUNDS, ...)
 * @param baseline each figure of each cell against the baseline (outcome BETTER, WORSE, NO_DIFFERENCE, TOO_FEW_RUNS,
 *                 ...); empty without --baseline
 * @param breaches the --fail-if limits breached, one line each, as on stderr
 * @param notes    the --fail-if limits' notes (past a limit but not counted, nothing to judge)
 */
record JudgmentsJson(
        String method,
        List<Verdict.Judgment> verdict,
        List<BaselineFigure> baseline,
        List<String> breaches,
        List<String> notes) {

    /** One figure of one cell against the baseline. */
    record BaselineFigure(
            String cell, String figure, String outcome, Double change, Double low, Double high, Double p) {}

    static String of(Results results, Gate.Check check) {
        List<BaselineFigure> baseline = new ArrayList<>();
        if (results.baseline() != null) {
            for (BaselineJudgement.CellDelta cell : results.baseline().cells()) {
                for (BaselineJudgement.FigureDelta figure : cell.figures()) {
                    baseline.add(new BaselineFigure(
                            cell.label(),
                            figure.figure().name,
                            figure.outcome().name(),
                            figure.change(),
                            figure.changeLow(),
                            figure.changeHigh(),
                            figure.p()));
                }
            }
        }
        return ResultsJson.toCompactJson(new JudgmentsJson(
                Verdict.METHOD,
                Verdict.judgments(results),
                baseline,
                check == null ? List.of() : check.breaches(),
                check == null ? List.of() : check.notes()));
    }
}
