package dev.threadbench.loadtest.cluster;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import org.jgroups.JChannel;
import org.jgroups.protocols.FD_ALL3;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.protocols.FRAG4;
import org.jgroups.protocols.MERGE3;
import org.jgroups.protocols.MFC;
import org.jgroups.protocols.TCP;
import org.jgroups.protocols.TCPPING;
import org.jgroups.protocols.UFC;
import org.jgroups.protocols.UNICAST3;
import org.jgroups.protocols.VERIFY_SUSPECT2;
import org.jgroups.protocols.dns.DNS_PING;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.protocols.pbcast.NAKACK2;
import org.jgroups.protocols.pbcast.STABLE;
import org.jgroups.stack.Protocol;
import org.jgroups.util.DefaultSocketFactory;
import org.jgroups.util.UUID;

/**
 * The JGroups stack under the cluster's membership (Infinispan's transport): TCP on {@code --cluster-host}, found
 * through the {@code --join} members or Kubernetes DNS, failures detected at once (a closed connection) or within
 * {@code --failure-timeout} (silence). With a key
 * every connection is TLS with the key's certificate presented and required of the peer, and no other is trusted: a
 * process without the key gets no byte of membership, maps or locks, and none of its bytes reach them.
 */
final class MembershipStack {

    /** How many ports above {@code --cluster-port} a node tries when that one is taken, and discovery probes. */
    static final int PORT_RANGE = 3;

    /** Where the failure detector listens: {@code --cluster-port} + 1, beside the transport. */
    static final int FAILURE_DETECTION_OFFSET = 1;

    private MembershipStack() {}

    /** A channel, not yet connected, for {@code settings}, its address ranked by {@code role}. */
    static JChannel channel(ClusterSettings settings, ClusterNode.Role role) throws Exception {
        TCP transport = new TCP();
        transport.setBindAddress(InetAddress.getByName(settings.host()));
        transport.setBindPort(settings.port());
        transport.setPortRange(PORT_RANGE);
        if (settings.key() != null) {
            DefaultSocketFactory tls = new DefaultSocketFactory(MembershipTls.context(settings.key()));
            tls.setServerSocketConfigurator(MembershipTls::requireClientCertificate);
            transport.setSocketFactory(tls);
        }
        long failureMillis = settings.failureTimeout().toMillis();
        List<Protocol> protocols = new ArrayList<>(List.of(
                transport,
                discovery(settings),
                new MERGE3().setMinInterval(2_000).setMaxInterval(5_000),
                // a killed member's closed connection, seen at once; its port (in clear: JGroups' NIO server takes no
                // TLS) answers a connect with the cluster's name and this member's address and reads nothing else
                new FD_SOCK2().setOffset(FAILURE_DETECTION_OFFSET).setPortRange(PORT_RANGE),
                // a silent one (host gone, no reset), by heartbeats over the transport, under its TLS
                new FD_ALL3().setTimeout(failureMillis).setInterval(1_000),
                new VERIFY_SUSPECT2().setTimeout(1_000),
                new NAKACK2().useMcastXmit(false),
                new UNICAST3(),
                new STABLE(),
                new GMS().printLocalAddress(false).setJoinTimeout(2_000),
                new UFC(),
                new MFC(),
                new FRAG4()));
        JChannel channel = new JChannel(protocols);
        channel.addAddressGenerator(() -> rankedAddress(role));
        // probe requests (multicast, in clear) could read and change the stack's attributes
        transport.getDiagnosticsHandler().setEnabled(false);
        return channel;
    }

    /**
     * A random address that sorts before every agent's when {@code role} is compare, after when agent: nodes that start
     * together and find no coordinator yet make the first of them in address order the coordinator, so compare founds
     * the cluster and the agents join it, instead of an agent founding one of its own beside compare's.
     */
    static UUID rankedAddress(ClusterNode.Role role) {
        java.util.UUID random = java.util.UUID.randomUUID();
        long most = random.getMostSignificantBits();
        return new UUID(
                role == ClusterNode.Role.COMPARE ? most | Long.MIN_VALUE : most & Long.MAX_VALUE,
                random.getLeastSignificantBits());
    }

    private static Protocol discovery(ClusterSettings settings) throws UnknownHostException {
        if (settings.kubernetesDns() != null) {
            DNS_PING dns = new DNS_PING();
            dns.setDNSQuery(settings.kubernetesDns());
            return dns;
        }
        List<InetSocketAddress> hosts = new ArrayList<>();
        for (String member : settings.members()) {
            hosts.add(address(member, settings.port()));
        }
        if (hosts.isEmpty()) {
            hosts.add(new InetSocketAddress(InetAddress.getByName(settings.host()), settings.port()));
        }
        return new TCPPING().initialHosts(hosts).portRange(PORT_RANGE);
    }

    /**
     * HOST[:PORT], the port {@code defaultPort} when not given; a host that does not resolve yet (a container not
     * started) is kept by name and resolved again at each discovery.
     */
    static InetSocketAddress address(String member, int defaultPort) {
        int colon = member.lastIndexOf(':');
        String host = colon > 0 ? member.substring(0, colon) : member;
        int port = colon > 0 ? Integer.parseInt(member.substring(colon + 1)) : defaultPort;
        return new InetSocketAddress(host, port);
    }
}
