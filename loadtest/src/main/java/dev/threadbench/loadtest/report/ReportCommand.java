package dev.threadbench.loadtest.report;

import dev.threadbench.loadtest.analysis.Baselines;
import dev.threadbench.loadtest.analysis.Gate;
import dev.threadbench.loadtest.analysis.SweepPairs;
import dev.threadbench.loadtest.base.Console;
import dev.threadbench.loadtest.base.ExitCodes;
import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.model.Results;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code report FILE.json}: the HTML report (and the terminal table) again from saved results, written under --out
 * (./results by default), never beside FILE unless --out says so.
 */
@Command(
        name = "report",
        mixinStandardHelpOptions = true,
        description =
                "Rebuild report.html from a results.json written by compare; with --baseline judge it against another;"
                        + " with --history follow the runs kept under DIR/history.")
public final class ReportCommand implements Callable<Integer> {

    @ParentCommand
    private Console console;

    @Parameters(
            paramLabel = "FILE.json",
            description = "results.json from loadtest compare, or gzipped (.json.gz) (with --history: the results"
                    + " directory or its history directory)")
    private Path resultsFile;

    @Option(
            names = "--history",
            description = "the runs kept under FILE's history/ (compare keeps each one there): each cell's"
                    + " req/s and server CPU per request and each pair's breaking point over the runs of the newest"
                    + " run's machine and"
                    + " pinning, with change points (at least 3 runs either side: the newest run is flagged only as"
                    + " the third of a new level, with 8 runs in all or more), in the terminal and in history.html")
    private boolean history;

    @Mixin
    private BaselineOptions baselineOptions;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            defaultValue = "results",
            description = "where report.html, summary.md and (with --history) history.html go, created when missing"
                    + " (default ${DEFAULT-VALUE}, under the current directory)")
    private Path out;

    @Option(
            names = "--html",
            paramLabel = "FILE",
            description = "where to write the page instead (default: report.html, or history.html, in --out)")
    private Path html;

    @Option(
            names = "--markdown",
            description = "print only the sweep's pairs as a Markdown table (breaking points,"
                    + " their interval and limit), for docs/results.md and docs/sweep.md")
    private boolean markdown;

    @Option(
            names = "--judgments",
            description = "print only every judgment (the verdict's, the baseline's, --fail-if's) as one line of"
                    + " JSON, for scripts such as scripts/calibrate; the exit code as without it")
    private boolean judgments;

    @Override
    public Integer call() {
        if (Files.exists(out) && !Files.isDirectory(out)) {
            throw new UsageException("--out: " + out + " is not a directory");
        }
        BaselineOptions baseline = baselineOptions.check();
        if (history) {
            if (baseline.given()) {
                throw new UsageException("--history: not with --baseline");
            }
            List<Results> runs = History.ofNewestMachine(History.read(resultsFile));
            List<History.Series> series = History.series(runs);
            History.lines(runs, series).forEach(console.out()::println);
            Path page = html != null ? html : outDir().resolve("history.html");
            HistoryPage.write(runs, series, page);
            console.out().println("report: " + page);
            return ExitCodes.OK;
        }
        Results results = baseline.judge(ResultsJson.read(resultsFile));
        if (judgments) {
            Gate.Check check = baseline.check(results);
            console.out().println(JudgmentsJson.of(results, check));
            console.out().flush();
            return check != null && check.breached() ? ExitCodes.LIMIT_BREACHED : ExitCodes.OK;
        }
        if (markdown) {
            console.out().print(SweepTable.markdown(SweepPairs.of(results)));
            return ExitCodes.OK;
        }
        Path dir = outDir();
        Path page = html != null ? html : dir.resolve("report.html");
        HtmlReport.write(results, page);
        console.out().print(ConsoleTable.render(results));
        Baselines.versions(results).forEach(versions -> versions.lines().forEach(console.out()::println));
        console.out().println("report: " + page);
        return baseline.report(results, dir, ExitCodes.OK, console.out(), console.err());
    }

    /** --out, created when missing: only once the results have been read, so a wrong FILE leaves nothing behind. */
    private Path outDir() {
        try {
            return Files.createDirectories(out);
        } catch (IOException e) {
            throw new UsageException(
                    "--out: cannot create " + out + " (" + e.getClass().getSimpleName() + ")");
        }
    }
}
