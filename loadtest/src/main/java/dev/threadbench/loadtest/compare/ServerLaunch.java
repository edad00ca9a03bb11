package dev.threadbench.loadtest.compare;

import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.compare.CompareSettings.Planned;
import dev.threadbench.loadtest.server.RunningServer;
import dev.threadbench.loadtest.server.StartedServer;
import dev.threadbench.loadtest.server.Target;
import dev.threadbench.process.ServerProcess;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The servers a comparison measures: each started from its jar for a round, or those already running connected. */
final class ServerLaunch {

    private ServerLaunch() {}

    /** Starts {@code planned}'s server for one round, its command line printed, its output logged to {@code log}. */
    static StartedServer start(
            CompareSettings settings, boolean profiling, Planned planned, int round, Path log, PrintStream out) {
        CompareSettings.Servers servers = settings.servers();
        List<String> jvmOptions = new ArrayList<>(settings.pinning().serverJvmOptions());
        jvmOptions.addAll(servers.jvmOptions());
        if (profiling) {
            jvmOptions.add("-XX:+EnableDynamicAgentLoading"); // --profile loads async-profiler through the attach API
        }
        ServerProcess.Launch launch = ServerProcess.Launch.logged(
                        planned.server(), servers.jars().get(planned.server()), jvmOptions, log)
                .through(settings.pinning().serverLauncher());
        CompareSettings.Workload workload = settings.workload();
        List<String> options = new ArrayList<>(List.of(
                "--delay-every",
                String.valueOf(workload.delayEvery()),
                "--delay-ms",
                String.valueOf(workload.delayMs())));
        if (planned.strategy() != null) {
            options.addAll(List.of("--strategy", planned.strategy()));
        }
        options.addAll(servers.serverArgs());
        out.printf(
                Locale.ROOT,
                "%n%s (%s)%s: starting %s%n",
                planned.server(),
                planned.strategy() == null ? "its default strategy" : planned.strategy(),
                settings.runs().label(round),
                String.join(" ", launch.command(ServerProcess.on(servers.listenHost(), "<free>", options))));
        out.flush();
        return StartedServer.start(launch, options, servers.host());
    }

    /** Each target up (before any run, so that one that is down costs no runs) and delaying as --delay-every says. */
    static Map<String, RunningServer> connect(CompareSettings settings, PrintStream out) {
        Map<String, RunningServer> running = new LinkedHashMap<>();
        int delayEvery = settings.workload().delayEvery();
        settings.runs().targets().forEach((name, base) -> {
            out.printf(Locale.ROOT, "%s at %s: waiting for /health%n", name, base);
            out.flush();
            RunningServer server = RunningServer.connect(name, base, RunningServer.READY_TIMEOUT);
            Target.Stats stats = server.stats();
            if (!stats.delaysEvery(delayEvery)) {
                throw new UsageException(RunAnalysis.delayEveryMismatch(server, stats, delayEvery));
            }
            if (!stats.reported()) {
                out.printf(Locale.ROOT, "%s at %s: up, no /stats: its counts and cost n/a%n", name, base);
                running.put(name, server);
                return;
            }
            out.printf(
                    Locale.ROOT,
                    "%s at %s: up, strategy %s, %,d requests counted so far%n",
                    name,
                    base,
                    stats.strategy(),
                    stats.requests());
            running.put(name, server);
        });
        out.flush();
        return running;
    }
}
