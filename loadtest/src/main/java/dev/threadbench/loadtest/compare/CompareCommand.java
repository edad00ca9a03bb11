package dev.threadbench.loadtest.compare;

import dev.threadbench.loadtest.base.Console;
import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.cluster.ClusterEngine;
import dev.threadbench.loadtest.engine.Engine;
import dev.threadbench.loadtest.engine.GeneratorOptions;
import dev.threadbench.loadtest.engine.TimingOptions;
import dev.threadbench.loadtest.live.LiveBoard;
import dev.threadbench.loadtest.live.LiveOptions;
import dev.threadbench.loadtest.live.LivePage;
import dev.threadbench.loadtest.profile.ProfileMode;
import dev.threadbench.loadtest.report.BaselineOptions;
import dev.threadbench.loadtest.runner.Progress;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

/**
 * The main job: each server from its jar (or, with --targets, already running elsewhere), one at a time,
 * driven at each concurrency; results side by side in the terminal, in DIR/results.json and in DIR/report.html.
 * The options and their check are {@link CompareOptions}; the runs, {@link Comparison}; each run's figures,
 * {@link RunAnalysis}.
 */
@Command(
        name = "compare",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        resourceBundle = TimingOptions.COMPARE_WORDING,
        description = "Start each server from its jar (or reach it already running: --targets), drive it at each"
                + " concurrency, and compare them side by side.")
public final class CompareCommand implements Callable<Integer> {

    @ParentCommand
    private Console console;

    @Mixin
    private CompareOptions options;

    @Mixin
    private GeneratorOptions generatorOptions;

    @Mixin
    private BaselineOptions baselineOptions;

    @Mixin
    private LiveOptions liveOptions;

    @Override
    public Integer call() {
        ProfileMode profile = options.profileMode();
        BaselineOptions baseline = baselineOptions.check();
        CompareSettings settings = options.validate(console.err());
        GeneratorOptions.Setup setup = generatorOptions.setup();
        if (!setup.equals(GeneratorOptions.Setup.DEFAULT)
                && !settings.generator().embeddedHere()) {
            throw new UsageException("--transport, --source-addresses: for the embedded runner on this machine only"
                    + " (agents run it on their defaults; wrk and drill have their own)");
        }
        int linger = liveOptions.lingerSeconds();
        LiveBoard board = new LiveBoard();
        LivePage page = LivePage.start(liveOptions.address(), board);
        try {
            LiveFeed live = LiveFeed.of(page, board, settings);
            if (settings.generator().agents() != null) {
                try (ClusterEngine cluster =
                        ClusterEngine.connect(settings.generator().agents(), console.out(), "compare")) {
                    return new Comparison(settings, cluster, profile, baseline, live, console.out(), console.err())
                            .run();
                }
            }
            Engine engine = Engine.named(
                    settings.generator().engine().key(), console.err(), Progress.Sink.stderrIsTerminal(), setup);
            engine.checkWorkload(
                    settings.workload().delayEvery(), settings.workload().delayMs());
            return new Comparison(settings, engine, profile, baseline, live, console.out(), console.err()).run();
        } finally {
            if (page != null) {
                page.close(linger, console.out());
            }
        }
    }
}
