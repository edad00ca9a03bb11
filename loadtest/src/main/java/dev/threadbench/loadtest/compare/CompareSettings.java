package dev.threadbench.loadtest.compare;

import dev.threadbench.loadtest.base.OfferedRate;
import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.cluster.AgentsOptions;
import dev.threadbench.loadtest.engine.Engine;
import dev.threadbench.loadtest.engine.EngineKind;
import dev.threadbench.loadtest.host.CpuPinning;
import dev.threadbench.loadtest.model.Results;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * compare's options once checked, with --quick's timings applied: what runs, against which workload, how compare starts
 * the servers (or, with --targets, reaches them), how the load is generated, the CPUs, where the results go, and the
 * sweep. Each part is its own record.
 *
 * @param pinning the CPUs of the servers and of the generator
 * @param out     --out, absolute
 */
record CompareSettings(
        Runs runs, Workload workload, Servers servers, Generator generator, CpuPinning pinning, Path out, Sweep sweep) {

    /**
     * What runs: each planned server (or, with --targets, each running one) at each load, every round.
     *
     * @param targets     --targets: the servers already running, by name; empty: compare starts them
     * @param strategies  --strategies as given (all with a plain --sweep), for the header
     * @param loads       the runs each server gets per round, in order: one per concurrency, or with --rate one per
     *                    concurrency and rate
     * @param rounds      --repeat
     */
    record Runs(
            List<Planned> planned,
            Map<String, URI> targets,
            String strategies,
            List<Integer> concurrencies,
            List<Load> loads,
            int rounds) {

        Runs {
            planned = List.copyOf(planned);
            concurrencies = List.copyOf(concurrencies);
            loads = List.copyOf(loads);
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

        /** " (round 2)" when there are several rounds; "" with one. */
        String label(int round) {
            return rounds == 1 ? "" : " (round " + (round + 1) + ")";
        }
    }

    /** The servers' delay: every {@code delayEvery}th request held {@code delayMs}; it sets the bound. */
    record Workload(int delayEvery, long delayMs) {}

    /**
     * How compare starts the servers (unused with --targets).
     *
     * @param jvmOptions --jvm-opts, the same for each
     * @param serverArgs --server-args, passed to every server compare starts
     * @param jars       the jar of each server to start
     * @param host       --server-host: the address they listen on (where agents reach them); null: loopback
     */
    record Servers(List<String> jvmOptions, List<String> serverArgs, Map<String, Path> jars, String host) {

        Servers {
            jvmOptions = List.copyOf(jvmOptions);
            serverArgs = List.copyOf(serverArgs);
        }

        /** The address they listen on, as given to them. */
        String listenHost() {
            return host == null ? "127.0.0.1" : host;
        }
    }

    /**
     * How each run's load is generated.
     *
     * @param engine     --engine (with --agents, the agents run the embedded runner)
     * @param timing     eventLoops 0: the engine's default
     * @param windowNote the one line saying the measured window was rounded up to whole delay periods; null when not
     * @param agents     --agents: the load comes from agents in the cluster; null: from this JVM
     */
    record Generator(EngineKind engine, Engine.Timing timing, String windowNote, AgentsOptions.Request agents) {

        /** The embedded runner in this JVM: its own threads can be read over a run. */
        boolean embeddedHere() {
            return agents == null && engine == EngineKind.EMBEDDED;
        }
    }

    /**
     * --sweep: the report adds curves over the concurrencies, a table per pair and breaking points.
     *
     * @param resolution --resolution: how close each pair is narrowed in, (notHeld - held) / held; null without --sweep
     */
    record Sweep(boolean on, Double resolution) {

        static final Sweep OFF = new Sweep(false, null);
    }

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
        static List<Load> plan(
                List<Integer> concurrencies,
                List<OfferedRate> rates,
                boolean connectionsGiven,
                int delayEvery,
                long delayMs) {
            if (rates == null) {
                return concurrencies.stream().map(Load::closed).toList();
            }
            List<Load> loads = new ArrayList<>();
            for (int c : concurrencies) {
                Double bound = RunAnalysis.bound(c, delayEvery, delayMs);
                for (OfferedRate rate : rates) {
                    if (rate.ofBound() && bound == null) {
                        throw new UsageException("--rate: " + rate + " is a fraction of the bound, and with"
                                + " --delay-every 0 or --delay-ms 0 there is none; give requests/s");
                    }
                    if (!rate.ofBound() && !connectionsGiven && c != concurrencies.getFirst()) {
                        continue;
                    }
                    double perSecond = rate.perSecond(bound == null ? 0 : bound);
                    loads.add(new Load(
                            c, perSecond, connectionsGiven ? c : connectionsFor(perSecond, delayEvery, delayMs)));
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

    /** @param engineName the engine's own name for it */
    Results.Settings results(String engineName) {
        Engine.Timing timing = generator.timing();
        int eventLoops = timing.eventLoops() > 0
                ? timing.eventLoops()
                : Runtime.getRuntime().availableProcessors();
        return new Results.Settings(
                engineName,
                timing.rampupSeconds(),
                timing.warmupSeconds(),
                timing.durationSeconds(),
                timing.iterations(),
                timing.timeoutSeconds(),
                workload.delayEvery(),
                workload.delayMs(),
                eventLoops,
                runs.rounds(),
                sweep.on(),
                sweep.resolution(),
                null,
                timing.autoWarmup() ? Boolean.TRUE : null,
                runs.running() ? Boolean.TRUE : null);
    }
}
