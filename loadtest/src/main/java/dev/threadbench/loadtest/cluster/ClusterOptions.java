package dev.threadbench.loadtest.cluster;

import dev.threadbench.loadtest.UsageException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine.Option;

/** How a node joins the cluster: the agent's, compare's and run's options, checked into {@link ClusterSettings}. */
public final class ClusterOptions {

    @Option(names = "--cluster-host", paramLabel = "ADDR",
            description = "the address this node binds and advertises to the others (default: this host's address)")
    private String clusterHost;

    @Option(names = "--cluster-port", paramLabel = "N", defaultValue = "5701",
            description = "the cluster's port on that address; the next free one is taken when it is in use (default ${DEFAULT-VALUE})")
    private int clusterPort;

    @Option(names = "--join", paramLabel = "HOST[:PORT],...",
            description = "members to join (TCP-IP, multicast off): any node already in the cluster (default: none, wait to be joined)")
    private String join;

    @Option(names = "--kubernetes-dns", paramLabel = "NAME",
            description = "instead of --join, find the members through a headless Service's DNS name (Kubernetes)")
    private String kubernetesDns;

    public ClusterSettings settings() {
        if (join != null && kubernetesDns != null) {
            throw new UsageException("--join and --kubernetes-dns: give one or the other");
        }
        if (clusterPort < 1 || clusterPort > 65535) {
            throw new UsageException("--cluster-port: must be a TCP port (1-65535), got " + clusterPort);
        }
        String host = address("--cluster-host", clusterHost);
        List<String> members = join == null ? List.of() : Arrays.stream(join.split(",")).map(String::trim)
                .filter(member -> !member.isEmpty()).toList();
        for (String member : members) {
            int colon = member.lastIndexOf(':');
            if (colon > 0 && !member.substring(colon + 1).matches("\\d{1,5}")) {
                throw new UsageException("--join: not HOST or HOST:PORT: " + member);
            }
        }
        if (join != null && members.isEmpty()) {
            throw new UsageException("--join: name at least one HOST[:PORT]");
        }
        return new ClusterSettings(host, clusterPort, members, kubernetesDns);
    }

    /** The IP address of {@code given}, or of this host when none is given. */
    private static String address(String option, String given) {
        try {
            return (given == null ? InetAddress.getLocalHost() : InetAddress.getByName(given)).getHostAddress();
        } catch (UnknownHostException e) {
            throw new UsageException(option + ": cannot resolve " + (given == null ? "this host's name" : given)
                    + (given == null ? " (give --cluster-host ADDR)" : ""));
        }
    }
}
