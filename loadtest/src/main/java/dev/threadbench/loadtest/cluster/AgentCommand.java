package dev.threadbench.loadtest.cluster;

import dev.threadbench.loadtest.cli.Console;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import sun.misc.Signal;

/** {@code agent}: a load generator that joins the cluster and runs compare's orders until SIGTERM. */
@Command(name = "agent", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Join the cluster and generate load for a compare or run started with --agents, one run after another,"
                + " until SIGTERM.")
public final class AgentCommand implements Callable<Integer> {

    @ParentCommand
    private Console console;

    @Mixin
    private ClusterOptions cluster;

    @Option(names = "--name", paramLabel = "NAME", description = "how compare and its results name this agent (default: host name and pid)")
    private String name;

    @Override
    public Integer call() throws InterruptedException {
        ClusterSettings settings = cluster.settings();
        String agentName = name != null ? name : defaultName();
        PrintStream out = console.out();
        CountDownLatch stop = new CountDownLatch(1);
        Signal.handle(new Signal("TERM"), signal -> stop.countDown());
        Signal.handle(new Signal("INT"), signal -> stop.countDown());
        try (ClusterNode node = ClusterNode.join(settings, "agent", agentName); Agent agent = new Agent(node, out)) {
            out.printf("agent %s: joined the cluster at %s, %d member(s)%n", agentName, node.clusterAddress(), node.memberCount());
            out.flush();
            stop.await();
            out.println("agent " + agentName + ": stopping");
            out.flush();
        }
        return 0;
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
