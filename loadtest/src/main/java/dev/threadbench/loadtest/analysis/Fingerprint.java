package dev.threadbench.loadtest.analysis;

import dev.threadbench.loadtest.model.Results;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A run's environment fingerprint, read from results.json: the machine (CPU model and count), the pinning (the servers'
 * and the generator's CPUs), and what else shapes the figures (OS and kernel, JDK, the servers' JVM options and
 * arguments, the frameworks' versions, the loadtest build, the git commit) with the run settings. Two runs are judged
 * against each other only on one machine and pinning: a different CPU or CPU set changes every figure, so a difference
 * would say nothing about the code.
 */
public final class Fingerprint {

    /** One thing that differs; {@code machine}: the CPU or the pinning, which {@code --baseline} refuses. */
    public record Difference(String what, String baseline, String current, boolean machine) {

        /** "server CPUs: 0 in the baseline, 1 in this run". */
        public String describe() {
            return what + ": " + baseline + " in the baseline, " + current + " in this run";
        }
    }

    private Fingerprint() {}

    /** Everything that differs between the baseline's run and this one, the machine and pinning first. */
    public static List<Difference> differences(Results baseline, Results current) {
        List<Difference> all = new ArrayList<>(machineDifferences(baseline.environment(), current.environment()));
        Results.Environment b = baseline.environment();
        Results.Environment c = current.environment();
        add(all, "OS and kernel", b.os(), c.os(), false);
        all.addAll(serverBuildDifferences(b, c));
        add(all, "loadtest build", b.build(), c.build(), false);
        add(all, "git commit", b.gitCommit(), c.gitCommit(), false);
        Results.Settings bs = baseline.settings();
        Results.Settings cs = current.settings();
        if (bs != null && cs != null) {
            add(all, "engine", bs.engine(), cs.engine(), false);
            add(all, "generator transport", bs.generatorTransport(), cs.generatorTransport(), false);
            add(all, "ramp-up s", bs.rampupSeconds(), cs.rampupSeconds(), false);
            add(all, "warm-up s", bs.warmupSeconds(), cs.warmupSeconds(), false);
            add(all, "measured s", bs.durationSeconds(), cs.durationSeconds(), false);
            add(all, "iterations", bs.iterations(), cs.iterations(), false);
            add(all, "delay every", bs.delayEvery(), cs.delayEvery(), false);
            add(all, "delay ms", bs.delayMs(), cs.delayMs(), false);
            add(all, "event loops", bs.eventLoops(), cs.eventLoops(), false);
        }
        return all;
    }

    /**
     * Whether the two runs measured one build of the servers: the same git commit (known in both), JDK, frameworks,
     * and servers' JVM options and arguments. Then a figure that moved on one machine moved with the machine.
     */
    public static boolean oneBuild(Results.Environment baseline, Results.Environment current) {
        return baseline.gitCommit() != null
                && baseline.gitCommit().equals(current.gitCommit())
                && serverBuildDifferences(baseline, current).isEmpty();
    }

    /** Beside the git commit, what makes the servers' build: the JDK, their JVM options and arguments, frameworks. */
    private static List<Difference> serverBuildDifferences(Results.Environment b, Results.Environment c) {
        List<Difference> differences = new ArrayList<>();
        add(differences, "JDK", b.jdk(), c.jdk(), false);
        add(differences, "server JVM options", b.serverJvmOptions(), c.serverJvmOptions(), false);
        add(differences, "server arguments", b.serverArgs(), c.serverArgs(), false);
        add(differences, "frameworks", frameworks(b), frameworks(c), false);
        return differences;
    }

    /**
     * The CPU model and count, and the CPUs of the servers and of the generator (unknown in files from before pinning).
     */
    public static List<Difference> machineDifferences(Results.Environment baseline, Results.Environment current) {
        List<Difference> differences = new ArrayList<>();
        add(differences, "CPU model", baseline.cpuModel(), current.cpuModel(), true);
        add(differences, "CPUs", baseline.cores(), current.cores(), true);
        add(differences, "server CPUs", serverCpus(baseline), serverCpus(current), true);
        add(differences, "generator CPUs", generatorCpus(baseline), generatorCpus(current), true);
        return differences;
    }

    /** The machine and pinning in one string: the runs of one key form a history ({@code report --history}). */
    public static String machineKey(Results.Environment environment) {
        return String.format(
                Locale.ROOT,
                "%s x %d, servers on %s, generator on %s",
                environment.cpuModel(),
                environment.cores(),
                serverCpus(environment),
                generatorCpus(environment));
    }

    private static String serverCpus(Results.Environment environment) {
        return environment.cpuPinning() == null
                ? "unknown"
                : Objects.requireNonNullElse(environment.cpuPinning().serverCpus(), "all");
    }

    private static String generatorCpus(Results.Environment environment) {
        return environment.cpuPinning() == null
                ? "unknown"
                : Objects.requireNonNullElse(environment.cpuPinning().generatorCpus(), "all");
    }

    /** "undertow 2.4.4.Final, vertx 5.0.7": each server as named in the runs; the two build versions in older files. */
    private static String frameworks(Results.Environment environment) {
        if (environment.frameworks() == null || environment.frameworks().isEmpty()) {
            return "undertow " + environment.undertowVersion() + ", vertx " + environment.vertxVersion();
        }
        return String.join(
                ", ",
                new TreeMap<>(environment.frameworks())
                        .entrySet().stream()
                                .map(e -> e.getKey() + " " + e.getValue())
                                .toList());
    }

    private static void add(
            List<Difference> differences, String what, Object baseline, Object current, boolean machine) {
        if (!Objects.equals(baseline, current)) {
            differences.add(new Difference(
                    what,
                    baseline == null ? "unknown" : baseline.toString(),
                    current == null ? "unknown" : current.toString(),
                    machine));
        }
    }
}
