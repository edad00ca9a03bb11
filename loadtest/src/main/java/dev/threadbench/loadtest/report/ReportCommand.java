package dev.threadbench.loadtest.report;

import dev.threadbench.loadtest.cli.Console;
import dev.threadbench.loadtest.cli.ExitCodes;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code report FILE.json}: the HTML report (and the terminal table) again from saved results. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Rebuild report.html from a results.json written by compare.")
public final class ReportCommand implements Callable<Integer> {

    @ParentCommand
    private Console console;

    @Parameters(paramLabel = "FILE.json", description = "results.json from loadtest compare")
    private Path resultsFile;

    @Option(names = "--html", paramLabel = "FILE", description = "where to write the page (default: report.html beside FILE.json)")
    private Path html;

    @Option(names = "--markdown", description = "print only the sweep's pairs as a Markdown table (breaking points,"
            + " their interval and limit), for the README and docs/sweep.md")
    private boolean markdown;

    @Override
    public Integer call() {
        Results results = ResultsJson.read(resultsFile);
        if (markdown) {
            console.out().print(SweepTable.markdown(SweepPair.of(results)));
            return ExitCodes.OK;
        }
        Path page = html != null ? html : resultsFile.toAbsolutePath().resolveSibling("report.html");
        HtmlReport.write(results, page);
        console.out().print(ConsoleTable.render(results));
        console.out().println("report: " + page);
        return ExitCodes.OK;
    }
}
