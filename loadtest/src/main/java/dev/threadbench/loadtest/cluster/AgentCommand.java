package dev.threadbench.loadtest.cluster;

import dev.threadbench.loadtest.base.Console;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import sun.misc.Signal;

/** {@code agent}: a load generator that joins the cluster and runs compare's orders until SIGTERM. */
@Command(
        name = "agent",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description =
                "Join the cluster and generate load for a compare or run started with --agents, one run after another,"
                        + " until SIGTERM.")
public final class AgentCommand implements Callable<Integer> {

    private static final Duration RETRY = Duration.ofSeconds(2);
    private static final Duration PROBE_TIMEOUT = Duration.ofMillis(500);

    @ParentCommand
    private Console console;

    @Mixin
    private ClusterOptions cluster;

    @Option(
            names = AllowedTargets.OPTION,
            paramLabel = "CIDR|HOST[:PORT],...",
            description = "the servers this agent may load, e.g. 198.18.0.0/24,10.1.2.3:8080: an order for any other"
                    + " address is"
                    + " refused (required: there is no default that allows everything)")
    private String allowTargets;

    @Option(
            names = AllowedTargets.ANY_OPTION,
            description =
                    "let " + AllowedTargets.OPTION + " name a network of every address (0.0.0.0/0, ::/0): any host"
                            + " this agent reaches can then be ordered to take its load")
    private boolean allowAnyTarget;

    @Option(
            names = "--name",
            paramLabel = "NAME",
            description = "how compare and its results name this agent (default: host name and pid)")
    private String name;

    @Override
    public Integer call() throws InterruptedException {
        AllowedTargets allowed = AllowedTargets.parse(allowTargets, allowAnyTarget);
        ClusterSettings settings = cluster.settings();
        String agentName = name != null ? name : defaultName();
        PrintStream out = console.out();
        CountDownLatch stop = new CountDownLatch(1);
        String insecure = settings.insecureWarning("agent " + agentName);
        if (insecure != null) {
            out.println(insecure);
            out.flush();
        }
        Signal.handle(new Signal("TERM"), signal -> stop.countDown());
        Signal.handle(new Signal("INT"), signal -> stop.countDown());
        ClusterNode joined = joinOthers(settings, agentName, out, stop);
        if (joined == null) {
            return 0;
        }
        try (ClusterNode node = joined;
                Agent agent = new Agent(node, out, allowed)) {
            out.printf(
                    "agent %s: joined the cluster at %s, %d member(s); %s; may load %s%n",
                    agentName,
                    node.clusterAddress(),
                    node.memberCount(),
                    settings.key() == null
                            ? "INSECURE (no cluster key)"
                            : "cluster key " + settings.key().fingerprint(),
                    allowed);
            out.flush();
            stop.await();
            out.println("agent " + agentName + ": stopping");
            out.flush();
        }
        return 0;
    }

    /**
     * Joins the cluster, and, while none of the --join members answers (compare not up yet), leaves and tries again:
     * an agent alone in a cluster of its own would wait there for ever; so too when a join times out inside the
     * cluster. null: stopped while trying.
     */
    static ClusterNode joinOthers(ClusterSettings settings, String name, PrintStream out, CountDownLatch stop)
            throws InterruptedException {
        boolean said = false;
        while (true) {
            if (!settings.joinsOthers() || anyListening(settings.members(), settings.port())) {
                ClusterNode node;
                try {
                    node = ClusterNode.join(settings, ClusterNode.Role.AGENT, name);
                } catch (ClusterNode.JoinTimedOut e) {
                    if (!settings.joinsOthers()) {
                        throw e;
                    }
                    out.printf("agent %s: %s; trying again in %d s%n", name, e.getMessage(), RETRY.toSeconds());
                    out.flush();
                    if (stop.await(RETRY.toMillis(), TimeUnit.MILLISECONDS)) {
                        return null;
                    }
                    continue;
                }
                if (!settings.joinsOthers() || node.memberCount() > 1) {
                    return node;
                }
                node.close();
            }
            if (!said) {
                out.printf(
                        "agent %s: no member at %s answers yet; trying again every %d s%n",
                        name, String.join(",", settings.members()), RETRY.toSeconds());
                out.flush();
                said = true;
            }
            if (stop.await(RETRY.toMillis(), TimeUnit.MILLISECONDS)) {
                return null;
            }
        }
    }

    /**
     * Whether one of the --join members takes connections on its cluster port: until one does, a join would only found
     * a cluster of this agent alone, which compare, starting a moment later, might take as its own.
     */
    static boolean anyListening(List<String> members, int defaultPort) {
        for (String member : members) {
            InetSocketAddress address = MembershipStack.address(member, defaultPort); // resolved again each time
            if (address.isUnresolved()) {
                continue;
            }
            try (Socket socket = new Socket()) {
                socket.connect(address, (int) PROBE_TIMEOUT.toMillis());
                return true;
            } catch (IOException e) {
                // not up yet
            }
        }
        return false;
    }

    private static String defaultName() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "agent";
        }
        return host + "-" + ManagementFactory.getRuntimeMXBean().getPid();
    }
}
