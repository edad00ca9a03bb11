package dev.threadbench.loadtest.compare;

import dev.threadbench.loadtest.live.LiveBoard;
import dev.threadbench.loadtest.live.LivePage;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.report.ConsoleTable;
import dev.threadbench.loadtest.runner.Progress;
import dev.threadbench.loadtest.server.ProcessFigures;
import java.nio.file.Path;

/**
 * What compare tells its live page, from where it already is: each run's start, the generator's progress tick, the
 * cost sampler's /stats reads, the warm-up's JIT reading, the table as each run ends. Off (no page): nothing at all.
 */
final class LiveFeed {

    static final LiveFeed OFF = new LiveFeed(null, null, null);

    private final LivePage page;
    private final LiveBoard board;
    private final CompareSettings settings;

    private LiveFeed(LivePage page, LiveBoard board, CompareSettings settings) {
        this.page = page;
        this.board = board;
        this.settings = settings;
    }

    /** The page's feed; {@link #OFF} for none. */
    static LiveFeed of(LivePage page, LiveBoard board, CompareSettings settings) {
        return page == null ? OFF : new LiveFeed(page, board, settings);
    }

    /** The header's line; null when off. */
    String headerLine() {
        return page == null ? null : "live: " + page.url();
    }

    void runStarted(CompareSettings.Planned planned, CompareSettings.Load load, int round, String progress) {
        if (board == null) {
            return;
        }
        CompareSettings.Workload workload = settings.workload();
        String label = planned.server()
                + (planned.strategy() == null ? " (its default strategy)" : "/" + planned.strategy())
                + " at C=" + load.concurrency() + (load.rate() == null ? "" : ", " + load.rate() + " req/s offered")
                + settings.runs().label(round);
        board.runStarted(
                new LiveBoard.RunStarted(
                        label,
                        load.concurrency(),
                        RunAnalysis.bound(load.concurrency(), workload.delayEvery(), workload.delayMs()),
                        settings.generator().timing().rampupSeconds(),
                        progress),
                settings.pinning().generatorShareCpus());
    }

    /** A progress tick of the embedded generator (its progress thread). */
    void generator(Progress.Reading reading) {
        if (board == null) {
            return;
        }
        Progress.Snapshot s = reading.snapshot();
        board.generator(new LiveBoard.GeneratorTick(
                s.nanos(),
                s.phase(),
                s.completed(),
                s.failed(),
                reading.requestsPerSecond(),
                reading.rateSeconds(),
                reading.secondsLeft(),
                reading.last() == null ? null : reading.last().p50Ms(),
                reading.last() == null ? null : reading.last().p99Ms()));
    }

    /** One of the cost sampler's 500 ms reads of the server's /stats (its thread). */
    void server(ProcessFigures figures) {
        if (board != null && figures != null) {
            board.server(
                    figures.cpuMs(),
                    figures.threads(),
                    figures.rssBytes(),
                    settings.pinning().serverShareCpus());
        }
    }

    void jit(Double share) {
        if (board != null) {
            board.jit(share);
        }
    }

    /** The runs so far, as the console table renders them (between runs, never during one). */
    void runsSoFar(Results results) {
        if (board == null) {
            return;
        }
        try {
            board.table(ConsoleTable.render(results));
        } catch (RuntimeException e) {
            // a partial grid the table cannot render yet: the page keeps its last table, the run goes on
        }
    }

    /** The end: the final table, and report.html served from the page. */
    void finished(Results results, Path reportHtml) {
        if (page != null) {
            runsSoFar(results);
            page.finished(reportHtml);
        }
    }
}
