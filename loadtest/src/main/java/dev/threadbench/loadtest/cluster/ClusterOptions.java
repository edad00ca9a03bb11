package dev.threadbench.loadtest.cluster;

import dev.threadbench.loadtest.base.UsageException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Option;

/** How a node joins the cluster: the agent's, compare's and run's options, checked into {@link ClusterSettings}. */
public final class ClusterOptions {

    @Option(
            names = "--cluster-host",
            paramLabel = "ADDR",
            description =
                    "the address this node binds and advertises to the others (default: the address of the interface"
                            + " that"
                            + " routes to the first --join member; without --join, this host's first address that is"
                            + " not loopback, or loopback with --insecure)")
    private String clusterHost;

    @Option(
            names = "--cluster-port",
            paramLabel = "N",
            defaultValue = "5701",
            description =
                    "the cluster's membership port (JGroups, TLS with the key) on that address; one of the next 3 is"
                            + " taken when it is in use"
                            + " (default ${DEFAULT-VALUE})")
    private int clusterPort;

    @Option(
            names = "--bus-port",
            paramLabel = "N",
            defaultValue = "0",
            description =
                    "the event bus's port on that address, where compare's orders and the agents' reports travel: fix"
                            + " it"
                            + " to open it in a firewall next to --cluster-port (default: any free port)")
    private int busPort;

    @Option(
            names = "--join",
            paramLabel = "HOST[:PORT],...",
            description =
                    "members to join (TCP-IP, multicast off): any node already in the cluster (default: none, wait to"
                            + " be joined)")
    private String join;

    @Option(
            names = "--kubernetes-dns",
            paramLabel = "NAME",
            description = "instead of --join, find the members through a headless Service's DNS name (Kubernetes)")
    private String kubernetesDns;

    @Option(
            names = "--cluster-key",
            paramLabel = "FILE",
            defaultValue = "${env:" + ClusterKey.ENVIRONMENT + "}",
            description = "the cluster's key (`loadtest keygen FILE`; default: the file $" + ClusterKey.ENVIRONMENT
                    + " names): TLS"
                    + " with client certificates on the event bus, and a MAC on every order; every node of"
                    + " the cluster needs the same file")
    private Path clusterKey;

    @Option(
            names = "--insecure",
            description =
                    "run without a cluster key: anyone who reaches the cluster's ports can order the agents' load;"
                            + " only for a"
                            + " network no one else reaches (loopback, a private namespace); without --join or"
                            + " --cluster-host it binds loopback only")
    private boolean insecure;

    @Option(
            names = "--failure-timeout",
            paramLabel = "S",
            defaultValue = "10",
            description =
                    "how long a silent member counts as still there: a host gone silent fails the run after this; an"
                            + " agent"
                            + " stops its load after this without word from compare (default ${DEFAULT-VALUE} s)")
    private int failureTimeoutSeconds;

    public ClusterSettings settings() {
        if (join != null && kubernetesDns != null) {
            throw new UsageException("--join and --kubernetes-dns: give one or the other");
        }
        port("--cluster-port", clusterPort, 1);
        port("--bus-port", busPort, 0);
        if (failureTimeoutSeconds < 3) {
            throw new UsageException("--failure-timeout: must be at least 3 seconds (compare speaks every second), got "
                    + failureTimeoutSeconds);
        }
        List<String> members = join == null
                ? List.of()
                : Arrays.stream(join.split(","))
                        .map(String::trim)
                        .filter(member -> !member.isEmpty())
                        .toList();
        for (String member : members) {
            int colon = member.lastIndexOf(':');
            if (colon > 0 && !member.substring(colon + 1).matches("\\d{1,5}")) {
                throw new UsageException("--join: not HOST or HOST:PORT: " + member);
            }
        }
        if (join != null && members.isEmpty()) {
            throw new UsageException("--join: name at least one HOST[:PORT]");
        }
        ClusterKey key = null;
        if (clusterKey != null && insecure) {
            throw new UsageException(
                    "--insecure and --cluster-key (or $" + ClusterKey.ENVIRONMENT + "): give one or the other");
        } else if (clusterKey != null) {
            key = ClusterKey.read("--cluster-key", clusterKey);
        } else if (!insecure) {
            throw new UsageException(
                    "--cluster-key: no cluster key: make one with `loadtest keygen FILE` and give it to every node"
                            + " (--cluster-key FILE or $" + ClusterKey.ENVIRONMENT
                            + "), or say --insecure on a network no one else reaches");
        }
        String host = host(members, key == null && kubernetesDns == null);
        return new ClusterSettings(
                host, clusterPort, members, kubernetesDns, busPort, key, Duration.ofSeconds(failureTimeoutSeconds));
    }

    private static void port(String option, int port, int lowest) {
        if (port < lowest || port > 65535) {
            throw new UsageException(option + ": must be a TCP port (" + lowest + "-65535), got " + port);
        }
    }

    /**
     * --cluster-host resolved and checked, or the default: never a loopback address when a --join member is on another
     * host; loopback when {@code loopbackAlone} (--insecure) and no --join member says where the others are.
     */
    private String host(List<String> members, boolean loopbackAlone) {
        Optional<InetAddress> remote = members.stream()
                .map(ClusterOptions::memberAddress)
                .flatMap(Optional::stream)
                .filter(address -> !address.isLoopbackAddress())
                .findFirst();
        if (clusterHost != null) {
            InetAddress given;
            try {
                given = InetAddress.getByName(clusterHost);
            } catch (UnknownHostException e) {
                throw new UsageException("--cluster-host: cannot resolve " + clusterHost);
            }
            if (given.isLoopbackAddress() && remote.isPresent()) {
                throw new UsageException(
                        "--cluster-host: " + clusterHost + " is a loopback address, which --join member "
                                + remote.get().getHostAddress()
                                + " on another host cannot reach: give this host's address on its network");
            }
            return given.getHostAddress();
        }
        if (!members.isEmpty()) {
            Optional<InetAddress> first = memberAddress(members.getFirst());
            if (first.isPresent()) {
                return routeTo(first.get()).getHostAddress();
            }
        }
        return loopbackAlone
                ? InetAddress.getLoopbackAddress().getHostAddress()
                : firstAddress().getHostAddress();
    }

    private static Optional<InetAddress> memberAddress(String member) {
        int colon = member.lastIndexOf(':');
        try {
            return Optional.of(InetAddress.getByName(colon > 0 ? member.substring(0, colon) : member));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    /** The local address the kernel would send from to reach {@code member} (a connected UDP socket sends nothing). */
    static InetAddress routeTo(InetAddress member) {
        try (DatagramSocket socket = new DatagramSocket()) {
            socket.connect(new InetSocketAddress(member, 9));
            InetAddress local = socket.getLocalAddress();
            if (local == null || local.isAnyLocalAddress()) {
                throw new UsageException("--cluster-host: no route from this host to --join member "
                        + member.getHostAddress() + ": give --cluster-host ADDR");
            }
            return local;
        } catch (SocketException e) {
            throw new UsageException("--cluster-host: no route from this host to --join member "
                    + member.getHostAddress() + " (" + e.getMessage() + "): give --cluster-host ADDR");
        }
    }

    /** This host's first IPv4 address on an interface that is up and not loopback; loopback when it has none. */
    static InetAddress firstAddress() {
        try {
            return NetworkInterface.networkInterfaces()
                    .filter(ClusterOptions::upAndNotLoopback)
                    .flatMap(NetworkInterface::inetAddresses)
                    .filter(address -> address instanceof Inet4Address)
                    .filter(address -> !address.isLoopbackAddress() && !address.isLinkLocalAddress())
                    .findFirst()
                    .orElse(InetAddress.getLoopbackAddress());
        } catch (SocketException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean upAndNotLoopback(NetworkInterface network) {
        try {
            return network.isUp() && !network.isLoopback();
        } catch (SocketException e) {
            return false;
        }
    }
}
