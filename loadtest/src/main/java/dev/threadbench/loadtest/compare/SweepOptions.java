package dev.threadbench.loadtest.compare;

import static dev.threadbench.loadtest.engine.TimingOptions.atLeast;

import dev.threadbench.loadtest.base.UsageException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import picocli.CommandLine.Option;

/** compare's --sweep, --sweep-max and --resolution, checked into the sweep's grid and {@link CompareSettings.Sweep}. */
final class SweepOptions {

    @Option(
            names = "--sweep",
            description = "every server x strategy over concurrency"
                    + " 250,500,1000,2000,5000,10000,20000,50000... up to --sweep-max (--concurrency overrides), 3"
                    + " rounds of"
                    + " 2 s ramp-up + 2 s warm-up + 6 s measured per point, then each pair narrowed in between the last"
                    + " concurrency held and the first not held (--resolution): 96-111 minutes on 2 cores up to"
                    + " 19,000 (2026-12-06; compare prints its bound first); report adds curves, memory per 1,000"
                    + " connections and breaking points")
    private boolean on;

    @Option(
            names = "--sweep-max",
            paramLabel = "N",
            description = "with --sweep: the largest concurrency, the grid's"
                    + " last point (default: the most the host's descriptors and memory allow, the next grid"
                    + " point shown"
                    + " as not run)")
    private Integer sweepMax;

    @Option(
            names = "--resolution",
            paramLabel = "PERCENT",
            description = "with --sweep: narrow each pair in until"
                    + " the first concurrency not held is within PERCENT of the last held, e.g. 10%% or 10"
                    + " (default 10%%)")
    private String resolution;

    /** --sweep given. */
    boolean on() {
        return on;
    }

    /** --sweep and its resolution; without it, --sweep-max and --resolution refused. */
    CompareSettings.Sweep settings() {
        if (on) {
            return new CompareSettings.Sweep(true, resolution());
        }
        if (resolution != null) {
            throw new UsageException("--resolution: only with --sweep");
        }
        if (sweepMax != null) {
            throw new UsageException("--sweep-max: only with --sweep");
        }
        return CompareSettings.Sweep.OFF;
    }

    /** --resolution as a fraction (10% or 10: 0.1); the default when not given. */
    private double resolution() {
        if (resolution == null) {
            return RunLength.SWEEP_RESOLUTION;
        }
        String number = resolution.trim();
        number = number.endsWith("%") ? number.substring(0, number.length() - 1).trim() : number;
        double percent;
        try {
            percent = Double.parseDouble(number);
        } catch (NumberFormatException e) {
            throw new UsageException("--resolution: not a percentage: '" + resolution + "' (give e.g. 10% or 10)");
        }
        if (!(percent > 0 && percent < 100)) {
            throw new UsageException(
                    "--resolution: must be more than 0 % and less than 100 %, got '" + resolution + "'");
        }
        return percent / 100;
    }

    /**
     * The sweep's grid: --concurrency as given, or the default grid; capped at --sweep-max when given. By default it
     * goes as far as this machine can hold (Headroom, checked as compare checks it before the first run), and the next
     * grid point after that is planned too, so that compare skips it with the machine's reason and a pair that held
     * at every point reads as the machine's limit, not as none.
     *
     * @param grid --concurrency when given; null: the default grid
     */
    List<Integer> grid(List<Integer> grid, boolean targetsGiven, boolean agentsGiven, List<String> jvmOptions) {
        int smallest = grid == null
                ? RunLength.SWEEP_CONCURRENCIES.getFirst()
                : grid.stream().min(Integer::compare).orElse(1);
        if (sweepMax != null) {
            atLeast("--sweep-max", sweepMax, 1, "");
            if (sweepMax < smallest) {
                throw new UsageException(String.format(
                        Locale.ROOT,
                        "--sweep-max: must be at least the sweep's smallest" + " concurrency, %d, got %d",
                        smallest,
                        sweepMax));
            }
            return grid == null ? RunLength.sweepGrid(sweepMax) : RunLength.capped(grid, sweepMax);
        }
        if (grid != null) {
            return grid;
        }
        // with agents and running servers, neither the connections nor the servers are on this machine: nothing known
        OptionalInt largest = agentsGiven && targetsGiven
                ? OptionalInt.empty()
                : Headroom.largest(!targetsGiven, jvmOptions, Headroom.Machine.probe());
        if (largest.isEmpty()) {
            return RunLength.sweepGrid(RunLength.SWEEP_MAX_UNKNOWN);
        }
        int most = Math.max(RunLength.roundDown(largest.getAsInt()), smallest);
        List<Integer> planned = new ArrayList<>(RunLength.sweepGrid(most));
        planned.add(RunLength.nextGridPoint(most));
        return planned;
    }
}
