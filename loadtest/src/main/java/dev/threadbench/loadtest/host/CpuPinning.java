package dev.threadbench.loadtest.host;

import dev.threadbench.loadtest.base.RunFailure;
import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.model.Results;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * Which CPUs the servers and the load generator run on: disjoint sets, so that neither measures the
 * other's work. The servers are started through {@code taskset -c SET} and told their share with
 * {@code -XX:ActiveProcessorCount}; the generator is this JVM (the embedded runner's event loops run in
 * it), which pins all its own threads, so the tools it starts (wrk, drill) inherit its set too.
 */
public final class CpuPinning {

    /** What the user asked for: --server-cpus, --generator-cpus (null when not given), --no-pin, --targets. */
    public record Request(String serverCpus, String generatorCpus, boolean noPin, boolean targets) {}

    private final CpuSet allowed;
    private final CpuSet server;
    private final CpuSet generator;
    private final String taskset;
    private final String unpinnedBecause;

    private CpuPinning(CpuSet allowed, CpuSet server, CpuSet generator, String taskset, String unpinnedBecause) {
        this.allowed = allowed;
        this.server = server;
        this.generator = generator;
        this.taskset = taskset;
        this.unpinnedBecause = unpinnedBecause;
    }

    public static CpuPinning unpinned(CpuSet allowed, String because) {
        return new CpuPinning(allowed, null, null, null, because);
    }

    /** From what this machine offers. */
    public static CpuPinning decide(Request request) {
        return decide(request, Affinity.allowedCpus(), Affinity.taskset(), Affinity::siblings);
    }

    /** The sets, or one line naming what is wrong with the options. */
    public static CpuPinning decide(
            Request request, CpuSet allowed, Optional<String> taskset, IntFunction<CpuSet> siblings) {
        boolean explicit = request.serverCpus() != null || request.generatorCpus() != null;
        if (request.noPin()) {
            if (explicit) {
                throw new UsageException("--no-pin: not with --server-cpus or --generator-cpus");
            }
            return unpinned(allowed, "--no-pin");
        }
        if (request.targets() && request.serverCpus() != null) {
            throw new UsageException("--server-cpus: not with --targets: compare starts no server");
        }
        CpuSet server =
                request.serverCpus() == null ? null : allowedSubset("--server-cpus", request.serverCpus(), allowed);
        CpuSet generator = request.generatorCpus() == null
                ? null
                : allowedSubset("--generator-cpus", request.generatorCpus(), allowed);
        if (server != null
                && generator != null
                && !server.intersection(generator).isEmpty()) {
            throw new UsageException("--server-cpus and --generator-cpus: both name "
                    + named(server.intersection(generator)) + "; the two sets must not share a CPU");
        }
        if (explicit && taskset.isEmpty()) {
            throw new UsageException((server != null ? "--server-cpus" : "--generator-cpus")
                    + ": taskset is not installed (apt-get install util-linux), so compare cannot pin");
        }
        if (request.targets()) {
            return generator == null
                    ? unpinned(
                            allowed,
                            "the servers were already running (--targets); --generator-cpus pins the generator")
                    : new CpuPinning(allowed, null, generator, taskset.orElseThrow(), null);
        }
        if (explicit) {
            server = server != null ? server : rest("--generator-cpus", allowed, generator, "the servers");
            generator = generator != null ? generator : rest("--server-cpus", allowed, server, "the generator");
            return new CpuPinning(allowed, server, generator, taskset.orElseThrow(), null);
        }
        if (allowed.size() < 2) {
            return unpinned(allowed, "only one CPU (" + allowed + ") to run on");
        }
        if (taskset.isEmpty()) {
            return unpinned(allowed, "taskset is not installed (apt-get install util-linux)");
        }
        CpuSet.Halves halves = allowed.halves(siblings);
        return new CpuPinning(allowed, halves.server(), halves.generator(), taskset.get(), null);
    }

    private static CpuSet allowedSubset(String option, String text, CpuSet allowed) {
        CpuSet set = CpuSet.parse(option, text);
        CpuSet outside = set.minus(allowed);
        if (!outside.isEmpty()) {
            throw new UsageException(
                    option + ": " + named(outside) + (outside.size() == 1 ? " is not one" : " are not ones")
                            + " this process may run on (" + allowed + ")");
        }
        return set;
    }

    /** "CPU 1", "CPUs 1-2". */
    private static String named(CpuSet set) {
        return (set.size() == 1 ? "CPU " : "CPUs ") + set;
    }

    private static CpuSet rest(String option, CpuSet allowed, CpuSet taken, String forWhom) {
        CpuSet rest = allowed.minus(taken);
        if (rest.isEmpty()) {
            throw new UsageException(
                    option + ": leaves no CPU for " + forWhom + " (this process may run on " + allowed + ")");
        }
        return rest;
    }

    /** The servers' CPUs as taskset writes them; null when not pinned. */
    public String serverCpus() {
        return server == null ? null : server.toString();
    }

    /** The generator's CPUs as taskset writes them; null when not pinned. */
    public String generatorCpus() {
        return generator == null ? null : generator.toString();
    }

    public boolean serversPinned() {
        return server != null;
    }

    /** Put before the server's command line: {@code taskset -c SET}; nothing when not pinned. */
    public List<String> serverLauncher() {
        return server == null ? List.of() : Affinity.launcher(taskset, server);
    }

    /** The server JVM's share, so that its IO threads, event loops and pools size to it. */
    public List<String> serverJvmOptions() {
        return server == null ? List.of() : List.of("-XX:ActiveProcessorCount=" + server.size());
    }

    /** The embedded runner's event loops by default: one per generator CPU; 0 (its own default) when not pinned. */
    public int generatorCpuCount() {
        return generator == null ? 0 : generator.size();
    }

    /** The CPUs a server's use is a share of; not pinned, half the machine's, as the generator competes for them. */
    public double serverShareCpus() {
        return server != null ? server.size() : Math.max(1.0, allowed.size() / 2.0);
    }

    public double generatorShareCpus() {
        return generator != null ? generator.size() : Math.max(1.0, allowed.size() / 2.0);
    }

    /** The number of CPUs this process could run on before it pinned itself. */
    public int machineCpus() {
        return allowed.size();
    }

    /** This JVM pinned until closed, when its former CPUs are given back. */
    public interface Pinned extends AutoCloseable {
        @Override
        void close();
    }

    /** This JVM (the generator) onto its set, until closed; nothing to do when the generator is not pinned. */
    public Pinned pinThisJvm() {
        if (generator == null) {
            return () -> {};
        }
        long pid = ProcessHandle.current().pid();
        Affinity.pinAllThreads(taskset, pid, generator).ifPresent(complaint -> {
            throw new RunFailure("cannot pin this JVM (the load generator) to CPUs " + generator + ": " + complaint);
        });
        return () -> Affinity.pinAllThreads(taskset, pid, allowed);
    }

    /** As results.json records it. */
    public Results.Pinning record() {
        return new Results.Pinning(
                server == null ? null : server.toString(),
                generator == null ? null : generator.toString(),
                unpinnedBecause == null
                        ? "taskset"
                                + (server == null
                                        ? ""
                                        : "; server JVMs with "
                                                + serverJvmOptions().getFirst())
                        : "not pinned: " + unpinnedBecause);
    }

    /** The header's line. */
    public String describe() {
        if (server == null && generator == null) {
            return String.format(
                    Locale.ROOT,
                    "CPUs: not pinned (%s): servers and generator share all %d (%s)",
                    unpinnedBecause,
                    allowed.size(),
                    allowed);
        }
        String generatorPart =
                "generator (this JVM and the tools it runs) on " + generator + " (" + generator.size() + ")";
        return server == null
                ? "CPUs: " + generatorPart + "; the servers' are their own"
                : String.format(
                        Locale.ROOT,
                        "CPUs: servers on %s (%d, %s), %s",
                        server,
                        server.size(),
                        serverJvmOptions().getFirst(),
                        generatorPart);
    }
}
