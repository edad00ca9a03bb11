package dev.threadbench.loadtest.report;

import dev.threadbench.loadtest.analysis.Fingerprint;
import dev.threadbench.loadtest.analysis.Gate;
import dev.threadbench.loadtest.analysis.HistoryBaselines;
import dev.threadbench.loadtest.base.ExitCodes;
import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.model.BaselineJudgement;
import dev.threadbench.loadtest.model.Results;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * --baseline, --allow-env-change and --fail-if, for compare (judging the run it made) and report (judging a saved one):
 * the run set against the baseline ({@link BaselineJudgement}), refused across machines or pinnings
 * ({@link Fingerprint}), the limits checked ({@link Gate}), and summary.md written into the output directory.
 */
public final class BaselineOptions {

    @Option(
            names = "--baseline",
            paramLabel = "PATH",
            description = "judge the runs against earlier runs: a history directory (the history/ compare keeps"
                    + " under --out, or the directory holding it), or one results.json; each cell's figures set"
                    + " against the spread of the earlier runs' medians (at least 3 runs, else 'too few runs to"
                    + " judge'), Holm-corrected over all of them")
    private Path baseline;

    @Option(
            names = "--allow-env-change",
            description = "with --baseline: judge even when the baseline ran on another CPU or"
                    + " pinning (refused otherwise: the figures would differ for that alone)")
    private boolean allowEnvChange;

    @Option(
            names = "--fail-if",
            paramLabel = "LIMIT",
            split = ",",
            description = "exit with code 3 when a limit is"
                    + " breached, one line each: against --baseline req/s<-2%%, p99>+5%%, cpu>+10%% (only differences"
                    + " the rounds show"
                    + " count), or absolute of-bound<95%%, p99>2100ms, cpu>40us, rss>512MB, failed>0; metrics req/s,"
                    + " of-bound, p50, p99,"
                    + " p99.9, cpu, rss, failed")
    private List<String> failIf;

    @Option(
            names = "--junit",
            paramLabel = "FILE",
            description = "with --fail-if: write the limits as JUnit XML, one test case per limit and cell, a"
                    + " breach as a failure carrying its line (for CI's test reports)")
    private Path junit;

    private Results baselineResults;
    /** The baseline's runs, oldest first: one for a results.json, each of the same machine for a history. */
    private List<Results> baselineRuns = List.of();

    private List<Gate> gates = List.of();

    /** The limits parsed and the baseline read, before any run, so that a wrong one costs none. */
    public BaselineOptions check() {
        gates = failIf == null ? List.of() : Gate.parse(failIf);
        Gate.requireBaseline(gates, baseline != null);
        if (junit != null && gates.isEmpty()) {
            throw new UsageException("--junit: only with --fail-if (its test cases are the limits)");
        }
        if (allowEnvChange && baseline == null) {
            throw new UsageException("--allow-env-change: only with --baseline");
        }
        if (baseline != null) {
            baselineRuns =
                    history() ? History.ofNewestMachine(History.read(baseline)) : List.of(ResultsJson.read(file()));
            baselineResults = baselineRuns.getLast();
        }
        return this;
    }

    /** Whether a baseline was given. */
    public boolean given() {
        return baselineResults != null;
    }

    /**
     * Refuses a baseline from another machine or pinning unless --allow-env-change: one line naming what differs.
     * Compare checks this before its runs, with the environment it is about to run in.
     */
    public void refuseAnotherMachine(Results.Environment current) {
        if (baselineResults == null || allowEnvChange) {
            return;
        }
        List<Fingerprint.Difference> machine = Fingerprint.machineDifferences(baselineResults.environment(), current);
        if (!machine.isEmpty()) {
            throw new UsageException("--baseline: " + file() + " ran on another machine or pinning: "
                    + String.join(
                            "; ",
                            machine.stream()
                                    .map(Fingerprint.Difference::describe)
                                    .toList()) + " (judge anyway: --allow-env-change)");
        }
    }

    /** {@code results} with their baseline section, when a baseline was given. */
    public Results judge(Results results) {
        if (baselineResults == null) {
            return results;
        }
        refuseAnotherMachine(results.environment());
        return results.withBaseline(
                HistoryBaselines.of(baselineRuns, results, (history() ? baseline : file()).toString()));
    }

    /** The limits checked against {@code results}; null when none was given. */
    public Gate.Check check(Results results) {
        return gates.isEmpty() ? null : Gate.check(gates, results);
    }

    /**
     * The baseline's lines and the limits' on {@code out}, summary.md into {@code dir}, one line per breach on
     * {@code err}; the exit code: {@code runExitCode} when the run went wrong, else {@link ExitCodes#LIMIT_BREACHED} on
     * a breach.
     */
    public int report(Results results, Path dir, int runExitCode, PrintStream out, PrintStream err) {
        if (results.baseline() != null) {
            out.println();
            results.baseline().lines().forEach(out::println);
        }
        Gate.Check check = check(results);
        if (check != null) {
            check.notes().forEach(note -> out.println("fail-if: " + note));
            out.println(
                    check.breached()
                            ? "fail-if: " + check.breaches().size() + " limit(s) breached (exit code "
                                    + ExitCodes.LIMIT_BREACHED + ")"
                            : "fail-if: no limit breached");
        }
        if (check != null && junit != null) {
            JunitReport.write(
                    junit,
                    check.cases(),
                    java.time.LocalDateTime.now(java.time.ZoneOffset.UTC)
                            .truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                            .toString());
            out.println("junit: " + junit);
        }
        Path summary = dir.resolve("summary.md");
        try {
            Files.writeString(summary, SummaryMarkdown.render(results, check));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + summary, e);
        }
        out.println("summary: " + summary);
        out.flush();
        if (check != null) {
            check.breaches().forEach(breach -> err.println("loadtest: --fail-if " + breach));
        }
        return runExitCode != ExitCodes.OK
                ? runExitCode
                : check != null && check.breached() ? ExitCodes.LIMIT_BREACHED : ExitCodes.OK;
    }

    /** Whether --baseline names a history: a directory with history/ in it, or one without results.json. */
    private boolean history() {
        return Files.isDirectory(baseline)
                && (Files.isDirectory(baseline.resolve("history")) || !Files.exists(baseline.resolve("results.json")));
    }

    private Path file() {
        return Files.isDirectory(baseline) ? baseline.resolve("results.json") : baseline;
    }
}
