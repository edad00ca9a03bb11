package dev.threadbench.loadtest.cluster;

import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import dev.threadbench.loadtest.base.BuildInfo;
import dev.threadbench.loadtest.base.RunFailure;
import dev.threadbench.loadtest.cluster.messages.MessageCodec;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.spi.cluster.NodeInfo;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * This JVM as a member of the Vert.x cluster (Hazelcast underneath): its event bus, who else is there, and word
 * when a member leaves. Each node advertises its role, name and build in its node metadata.
 */
public final class ClusterNode implements AutoCloseable {

    public static final String CLUSTER_NAME = "threadbench";
    private static final String VERTX_NODE_ID = "__vertx.nodeId";
    /**
     * Held, since java.util.logging keeps loggers only weakly: Hazelcast's and the clustered event bus's logs down to
     * their errors. A member that leaves makes both warn at length (connections refused, suspicions, a new master);
     * compare and the agents say what it means in one line of their own.
     */
    private static final List<Logger> QUIETED = List.of(
            Logger.getLogger("com.hazelcast"),
            Logger.getLogger("io.vertx.core.eventbus.impl.clustered"),
            Logger.getLogger("io.vertx.spi.cluster.hazelcast"));

    /** What a node is in the cluster; its metadata carries the name in lower case. */
    public enum Role {
        AGENT,
        COMPARE;

        String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The role a member's metadata names; null for one this build does not know. */
        static Role named(String wireName) {
            for (Role role : values()) {
                if (role.wireName().equals(wireName)) {
                    return role;
                }
            }
            return null;
        }
    }

    /** A member of the cluster as it describes itself; {@code key} is its key's fingerprint. */
    public record Member(String nodeId, Role role, String name, String host, String build, String key) {

        public boolean agent() {
            return role == Role.AGENT;
        }

        public String label() {
            return name + " (" + host + ")";
        }
    }

    private final Vertx vertx;
    private final HazelcastClusterManager manager;
    private final MessageCodec codec = new MessageCodec();
    private final SignedBus bus;
    private final String name;
    private final String build;
    private final ClusterSettings settings;
    private final List<Consumer<String>> leftListeners = new CopyOnWriteArrayList<>();

    private ClusterNode(
            Vertx vertx, HazelcastClusterManager manager, String name, String build, ClusterSettings settings) {
        this.vertx = vertx;
        this.settings = settings;
        this.manager = manager;
        this.name = name;
        this.build = build;
        vertx.eventBus().registerCodec(codec);
        this.bus = new SignedBus(vertx, settings.key());
        manager.getHazelcastInstance().getCluster().addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent event) {}

            @Override
            public void memberRemoved(MembershipEvent event) {
                // Vert.x names its nodes apart from Hazelcast's members, in a member attribute
                String nodeId = event.getMember().getAttribute(VERTX_NODE_ID);
                if (nodeId != null) {
                    leftListeners.forEach(listener -> listener.accept(nodeId));
                }
            }
        });
    }

    /** Joins (or founds) the cluster as {@code role}; throws a one-line {@link RunFailure} if it cannot. */
    public static ClusterNode join(ClusterSettings settings, Role role, String name) {
        return join(settings, role, name, BuildInfo.get().buildId());
    }

    /** The same, as a node of {@code build}. */
    static ClusterNode join(ClusterSettings settings, Role role, String name, String build) {
        QUIETED.forEach(logger -> logger.setLevel(Level.SEVERE));
        HazelcastClusterManager manager = new HazelcastClusterManager(hazelcastConfig(settings));
        JsonObject metadata = new JsonObject()
                .put("role", role.wireName())
                .put("name", name)
                .put("build", build)
                .put("key", settings.keyFingerprint());
        EventBusOptions bus = new EventBusOptions()
                .setHost(settings.host())
                .setPort(settings.busPort())
                .setClusterPublicHost(settings.host())
                .setClusterNodeMetadata(metadata);
        VertxOptions options = new VertxOptions()
                .setEventBusOptions(
                        settings.key() == null ? bus : settings.key().secure(bus));
        try {
            Vertx vertx = Vertx.builder()
                    .with(options)
                    .withClusterManager(manager)
                    .buildClustered()
                    .toCompletionStage()
                    .toCompletableFuture()
                    .get(120, TimeUnit.SECONDS);
            return new ClusterNode(vertx, manager, name, build, settings);
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new RunFailure("cannot join the cluster at " + settings.host() + ": " + joinFailure(e, 120));
        }
    }

    /**
     * Why a join failed, in words, never "null": a timeout says so (it has no message), and the reason is the first
     * message found down the exception chain, with the exception's name when none has one.
     */
    static String joinFailure(Throwable failure, long waitedSeconds) {
        if (failure instanceof java.util.concurrent.TimeoutException) {
            return "no cluster formed within " + waitedSeconds + " s (is another member's --cluster-port reachable,"
                    + " and is it joining too?)";
        }
        Throwable top = failure instanceof java.util.concurrent.ExecutionException && failure.getCause() != null
                ? failure.getCause()
                : failure;
        for (Throwable cause = top; cause != null; cause = cause.getCause()) {
            if (cause.getMessage() != null && !cause.getMessage().isBlank()) {
                return cause == top ? cause.getMessage() : top.getClass().getSimpleName() + ": " + cause.getMessage();
            }
        }
        return top.getClass().getName() + " with no message";
    }

    /**
     * Hazelcast as the Vert.x defaults set it up (the maps the event bus needs), bound to one address, joined over
     * TCP-IP or Kubernetes DNS, quick to join and quick to notice a member gone.
     */
    static Config hazelcastConfig(ClusterSettings settings) {
        Config config = ConfigUtil.loadConfig();
        config.setClusterName(CLUSTER_NAME);
        config.setProperty("hazelcast.logging.type", "jdk");
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        // joining waits 5 s by default for others to show up: 9-16 s to form a cluster of three
        config.setProperty("hazelcast.wait.seconds.before.join", "0");
        config.setProperty("hazelcast.max.wait.seconds.before.join", "1");
        // a member whose host is gone (no reset, so no closed connection) is declared dead after --failure-timeout, not
        // 60 s
        config.setProperty("hazelcast.heartbeat.interval.seconds", "1");
        config.setProperty(
                "hazelcast.max.no.heartbeat.seconds",
                String.valueOf(settings.failureTimeout().toSeconds()));
        // members that started apart (an agent before compare) find each other in seconds, not 5 minutes
        config.setProperty("hazelcast.merge.first.run.delay.seconds", "5");
        config.setProperty("hazelcast.merge.next.run.delay.seconds", "5");
        config.setProperty("hazelcast.socket.bind.any", "false");
        NetworkConfig network = config.getNetworkConfig();
        network.setPort(settings.port()).setPortAutoIncrement(true);
        network.getInterfaces().setEnabled(true).setInterfaces(List.of(settings.host()));
        JoinConfig join = network.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        if (settings.kubernetesDns() != null) {
            join.getKubernetesConfig().setEnabled(true).setProperty("service-dns", settings.kubernetesDns());
        } else {
            List<String> members = new ArrayList<>(
                    settings.members().stream().map(ClusterNode::resolved).toList());
            if (members.isEmpty()) {
                members.add(settings.host());
            }
            join.getTcpIpConfig().setEnabled(true).setMembers(members).setConnectionTimeoutSeconds(2);
        }
        return config;
    }

    /**
     * HOST[:PORT] with HOST resolved to its address now (as it is left when it does not resolve yet). Hazelcast
     * matches the members it resolves itself against the bound interface and drops the others: a --join by host name
     * (compose's "compare") never reached anyone.
     */
    static String resolved(String member) {
        int colon = member.lastIndexOf(':');
        String host = colon > 0 ? member.substring(0, colon) : member;
        try {
            return java.net.InetAddress.getByName(host).getHostAddress() + (colon > 0 ? member.substring(colon) : "");
        } catch (java.net.UnknownHostException e) {
            return member;
        }
    }

    public Vertx vertx() {
        return vertx;
    }

    /** The event bus with every message sealed and checked: how compare and the agents talk. */
    SignedBus bus() {
        return bus;
    }

    public MessageCodec codec() {
        return codec;
    }

    public String nodeId() {
        return manager.getNodeId();
    }

    public String name() {
        return name;
    }

    /** How this node joined: its key (null: --insecure) and failure timeout among them. */
    public ClusterSettings settings() {
        return settings;
    }

    /** The build this node runs ({@link BuildInfo#buildId}): nodes of different builds refuse each other. */
    public String build() {
        return build;
    }

    /** The address and port the cluster reaches this node at. */
    public String clusterAddress() {
        var address =
                manager.getHazelcastInstance().getCluster().getLocalMember().getAddress();
        return address.getHost() + ":" + address.getPort();
    }

    /** The address the cluster reaches this node at. */
    public String host() {
        return manager.getHazelcastInstance()
                .getCluster()
                .getLocalMember()
                .getAddress()
                .getHost();
    }

    public int memberCount() {
        return manager.getNodes().size();
    }

    /**
     * Every member but this one, as each describes itself (one that has not yet published its metadata is left out).
     */
    public List<Member> others() {
        List<Member> members = new ArrayList<>();
        for (String nodeId : manager.getNodes()) {
            if (nodeId.equals(nodeId())) {
                continue;
            }
            try {
                NodeInfo info = nodeInfo(nodeId);
                if (info != null && info.metadata() != null) {
                    JsonObject m = info.metadata();
                    members.add(new Member(
                            nodeId,
                            Role.named(m.getString("role")),
                            m.getString("name"),
                            info.host(),
                            m.getString("build"),
                            m.getString("key", ClusterSettings.NO_KEY)));
                }
            } catch (RuntimeException e) {
                // it left while we asked
            }
        }
        return members;
    }

    private NodeInfo nodeInfo(String nodeId) {
        io.vertx.core.Promise<NodeInfo> promise = io.vertx.core.Promise.promise();
        manager.getNodeInfo(nodeId, promise);
        return promise.future()
                .toCompletionStage()
                .toCompletableFuture()
                .orTimeout(5, TimeUnit.SECONDS)
                .join();
    }

    /** Whether the member is still in the cluster. */
    public boolean present(String nodeId) {
        return manager.getNodes().contains(nodeId);
    }

    /** Called with a member's node id when it leaves (on a Hazelcast thread). */
    public void onMemberLeft(Consumer<String> listener) {
        leftListeners.add(listener);
    }

    @Override
    public void close() {
        try {
            vertx.close()
                    .toCompletionStage()
                    .toCompletableFuture()
                    .get(Duration.ofSeconds(15).toSeconds(), TimeUnit.SECONDS);
        } catch (Exception e) {
            manager.getHazelcastInstance().getLifecycleService().terminate();
        }
    }
}
