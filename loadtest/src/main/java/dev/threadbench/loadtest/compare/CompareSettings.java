package dev.threadbench.loadtest.compare;

import dev.threadbench.loadtest.base.OfferedRate;
import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.cluster.AgentsOptions;
import dev.threadbench.loadtest.engine.Engine;
import dev.threadbench.loadtest.model.Results;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * compare's options once checked, with --quick's timings applied: the servers to start (or, with
 * --targets, to reach), how each run drives them, and where the results go.
 *
 * @param strategies  --strategies as given, for the header
 * @param loads       the runs each server gets per round, in order: one per concurrency, or with --rate one per
 *                    concurrency and rate
 * @param rounds      --repeat
 * @param engine      --engine as given
 * @param timing      eventLoops 0: the engine's default
 * @param jars        the jar of each server to start
 * @param serverArgs  --server-args, passed to every server compare starts
 * @param pinning     the CPUs of the servers and of the generator
 * @param sweep       --sweep: the report adds curves over the concurrencies, a table per pair and breaking points
 * @param agents      --agents: the load comes from agents in the cluster; null: from this JVM
 * @param serverHost  --server-host: the address the servers compare starts listen on (where agents reach them)
 * @param windowNote  the one line saying the measured window was rounded up to whole delay periods; null when it was not
 * @param resolution  --resolution: with --sweep, how close each pair is narrowed in, (notHeld - held) / held; null without
 */
record CompareSettings(List<Planned> planned, Map<String, URI> targets, String strategies, List<Integer> concurrencies,
                       List<Load> loads, int rounds, String engine, Engine.Timing timing, int delayEvery, long delayMs,
                       List<String> jvmOptions, List<String> serverArgs, Map<String, Path> jars, CpuPinning pinning, Path out,
                       boolean sweep, AgentsOptions.Request agents, String serverHost, String windowNote, Double resolution) {

    /** One server to start with a strategy (null: its own default), or to reach at its --targets URL. */
    record Planned(String server, String strategy) {}

    /**
     * One run's load: a closed loop of {@code concurrency} connections ({@code rate} null), or the open model,
     * {@code rate} requests/s over {@code connections}; {@code concurrency} sets the bound either way.
     */
    record Load(int concurrency, Double rate, int connections) {

        static Load closed(int concurrency) {
            return new Load(concurrency, null, concurrency);
        }

        /**
         * One closed-loop run per concurrency; with rates (--rate), one open-model run per concurrency and rate, a
         * fraction taken of that concurrency's bound. A rate in requests/s runs once (against the first
         * concurrency's bound) unless {@code connectionsGiven} (--concurrency names the connections).
         */
        static List<Load> plan(List<Integer> concurrencies, List<OfferedRate> rates, boolean connectionsGiven, int delayEvery,
                               long delayMs) {
            if (rates == null) {
                return concurrencies.stream().map(Load::closed).toList();
            }
            List<Load> loads = new ArrayList<>();
            for (int c : concurrencies) {
                Double bound = RunAnalysis.bound(c, delayEvery, delayMs);
                for (OfferedRate rate : rates) {
                    if (rate.ofBound() && bound == null) {
                        throw new UsageException("--rate: " + rate + " is a fraction of the bound, and with --delay-every 0 or"
                                + " --delay-ms 0 there is none; give requests/s");
                    }
                    if (!rate.ofBound() && !connectionsGiven && c != concurrencies.getFirst()) {
                        continue;
                    }
                    double perSecond = rate.perSecond(bound == null ? 0 : bound);
                    loads.add(new Load(c, perSecond, connectionsGiven ? c : connectionsFor(perSecond, delayEvery, delayMs)));
                }
            }
            return loads;
        }

        /**
         * Enough connections for the open model's requests in flight: rate x the delayed share x the delay (the
         * quick ones are a rounding error beside it), half as many again, plus some for the quick ones.
         */
        static int connectionsFor(double rate, int delayEvery, long delayMs) {
            double inFlight = delayEvery > 0 ? rate * delayMs / 1000.0 / delayEvery : 0;
            return (int) Math.min(Integer.MAX_VALUE, Math.ceil(inFlight * 1.5) + 16);
        }
    }

    CompareSettings {
        planned = List.copyOf(planned);
        concurrencies = List.copyOf(concurrencies);
        loads = List.copyOf(loads);
        jvmOptions = List.copyOf(jvmOptions);
        serverArgs = List.copyOf(serverArgs);
    }

    /**
     * The planned servers in round {@code round}'s order: as given in the first, reversed in the second,
     * and so on (A B, B A, A B, ...), so that the machine's drift over the rounds falls on each alike.
     */
    List<Planned> order(int round) {
        return round % 2 == 0 ? planned : planned.reversed();
    }

    /** The servers are already running: compare neither starts nor stops them. */
    boolean running() {
        return !targets.isEmpty();
    }

    /** @param engineName the engine's own name for it */
    Results.Settings results(String engineName) {
        return new Results.Settings(engineName, timing.rampupSeconds(), timing.warmupSeconds(), timing.durationSeconds(),
                timing.iterations(), timing.timeoutSeconds(), delayEvery, delayMs,
                timing.eventLoops() > 0 ? timing.eventLoops() : Runtime.getRuntime().availableProcessors(), rounds, sweep,
                resolution, null, timing.autoWarmup() ? Boolean.TRUE : null);
    }
}
