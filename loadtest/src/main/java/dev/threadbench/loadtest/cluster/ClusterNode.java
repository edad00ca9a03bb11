package dev.threadbench.loadtest.cluster;

import dev.threadbench.loadtest.base.BuildInfo;
import dev.threadbench.loadtest.base.RunFailure;
import dev.threadbench.loadtest.cluster.messages.MessageCodec;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.spi.cluster.NodeInfo;
import io.vertx.ext.cluster.infinispan.InfinispanClusterManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.infinispan.configuration.cache.CacheMode;
import org.infinispan.configuration.cache.ConfigurationBuilder;
import org.infinispan.configuration.global.GlobalConfigurationBuilder;
import org.infinispan.conflict.MergePolicy;
import org.infinispan.manager.DefaultCacheManager;
import org.infinispan.notifications.Listener;
import org.infinispan.notifications.cachemanagerlistener.annotation.Merged;
import org.infinispan.notifications.cachemanagerlistener.annotation.ViewChanged;
import org.infinispan.notifications.cachemanagerlistener.event.ViewChangedEvent;
import org.infinispan.partitionhandling.PartitionHandling;
import org.infinispan.remoting.transport.Address;
import org.infinispan.remoting.transport.jgroups.JGroupsTransport;
import org.jgroups.JChannel;
import org.jgroups.protocols.TP;

/**
 * This JVM as a member of the Vert.x cluster (Infinispan on JGroups underneath, {@link MembershipStack}): its event
 * bus, who else is there, and word when a member leaves. Each node advertises its role, name and build in its node
 * metadata.
 */
public final class ClusterNode implements AutoCloseable {

    public static final String CLUSTER_NAME = "threadbench";
    /**
     * Held, since java.util.logging keeps loggers only weakly: the membership layer's and the clustered event bus's
     * logs down to their errors. A member that leaves makes them warn at length (connections refused, suspicions, a
     * new coordinator), as does a stranger's refused handshake; compare and the agents say what it means in one line.
     */
    private static final List<Logger> QUIETED = List.of(
            Logger.getLogger("org.infinispan"),
            Logger.getLogger("org.jgroups"),
            Logger.getLogger("org.jboss.threads"),
            Logger.getLogger("io.vertx.core.eventbus.impl.clustered"),
            Logger.getLogger("io.vertx.ext.cluster.infinispan"));

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
    private final InfinispanClusterManager manager;
    private final DefaultCacheManager caches;
    private final MessageCodec codec = new MessageCodec();
    private final SignedBus bus;
    private final String name;
    private final String build;
    private final ClusterSettings settings;
    private final List<Consumer<String>> leftListeners = new CopyOnWriteArrayList<>();

    private ClusterNode(
            Vertx vertx,
            InfinispanClusterManager manager,
            DefaultCacheManager caches,
            String name,
            String build,
            ClusterSettings settings) {
        this.vertx = vertx;
        this.settings = settings;
        this.manager = manager;
        this.caches = caches;
        this.name = name;
        this.build = build;
        vertx.eventBus().registerCodec(codec);
        this.bus = new SignedBus(vertx, settings.key());
        caches.addListener(new LeftListener());
    }

    /** Tells the left-listeners who is in a view no longer (Vert.x's node id is the member's JGroups address). */
    @Listener(sync = false)
    public final class LeftListener {

        @ViewChanged
        @Merged
        public void viewChanged(ViewChangedEvent event) {
            List<Address> gone = new ArrayList<>(event.getOldMembers());
            gone.removeAll(event.getNewMembers());
            for (Address member : gone) {
                leftListeners.forEach(listener -> listener.accept(member.toString()));
            }
        }
    }

    /** Joins (or founds) the cluster as {@code role}; throws a one-line {@link RunFailure} if it cannot. */
    public static ClusterNode join(ClusterSettings settings, Role role, String name) {
        return join(settings, role, name, BuildInfo.get().buildId());
    }

    /** The same, as a node of {@code build}. */
    static ClusterNode join(ClusterSettings settings, Role role, String name, String build) {
        QUIETED.forEach(logger -> logger.setLevel(Level.SEVERE));
        try {
            return InfinispanSubjectThreads.call(() -> joinNow(settings, role, name, build));
        } catch (RunFailure e) {
            throw e;
        } catch (Exception e) {
            throw new RunFailure("cannot join the cluster at " + settings.host() + ": " + joinFailure(e, 120));
        }
    }

    private static ClusterNode joinNow(ClusterSettings settings, Role role, String name, String build) {
        DefaultCacheManager caches;
        try {
            caches = cacheManager(settings, role);
        } catch (Exception e) {
            throw new RunFailure("cannot join the cluster at " + settings.host() + ": " + joinFailure(e, 120));
        }
        InfinispanClusterManager manager = new SelfHealingClusterManager(caches);
        try {
            Vertx vertx = Vertx.builder()
                    .with(vertxOptions(settings, role, name, build))
                    .withClusterManager(manager)
                    .buildClustered()
                    .toCompletionStage()
                    .toCompletableFuture()
                    .get(120, TimeUnit.SECONDS);
            return new ClusterNode(vertx, manager, caches, name, build, settings);
        } catch (Exception e) {
            caches.stop();
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            String message = "cannot join the cluster at " + settings.host() + ": " + joinFailure(e, 120);
            throw timedOut(e) ? new JoinTimedOut(message) : new RunFailure(message);
        }
    }

    /**
     * A join that timed out inside the cluster: a member that took this node in and then lost it (a busy host suspected
     * while it started) leaves its first writes unanswered. Another try, a moment later, may well succeed.
     */
    public static final class JoinTimedOut extends RunFailure {
        JoinTimedOut(String message) {
            super(message);
        }
    }

    /** Whether a timeout, the JDK's or Infinispan's, is down {@code failure}'s chain. */
    static boolean timedOut(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof java.util.concurrent.TimeoutException
                    || cause instanceof org.infinispan.util.concurrent.TimeoutException) {
                return true;
            }
        }
        return false;
    }

    /**
     * What the clustered Vert.x is built with: the event bus on the settings' host and bus port, secured by the key
     * ({@link ClusterKey#secure}), the node's role, name, build and key fingerprint in its metadata.
     */
    static VertxOptions vertxOptions(ClusterSettings settings, Role role, String name, String build) {
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
        return new VertxOptions()
                .setEventBusOptions(
                        settings.key() == null ? bus : settings.key().secure(bus));
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
     * Infinispan as vertx-infinispan's default configuration sets it up (the caches the event bus needs; values are
     * bytes Vert.x encodes itself, marshalled by ProtoStream, never Java serialization), on this node's JGroups
     * channel, started: joined, or the founder of a cluster of one.
     */
    static DefaultCacheManager cacheManager(ClusterSettings settings, Role role) throws Exception {
        JChannel channel = MembershipStack.channel(settings, role);
        GlobalConfigurationBuilder global = GlobalConfigurationBuilder.defaultClusteredBuilder();
        global.classLoader(ClusterNode.class.getClassLoader());
        global.transport().clusterName(CLUSTER_NAME).transport(new JGroupsTransport(channel));
        global.jmx().enabled(false);
        ConfigurationBuilder replicated = new ConfigurationBuilder();
        replicated.clustering().cacheMode(CacheMode.REPL_SYNC);
        // After a partition each side has removed the other's node infos and subscriptions, and vertx-infinispan
        // never puts its own back: on the merge, an entry one side still has wins over the other's removal.
        replicated
                .clustering()
                .partitionHandling()
                .whenSplit(PartitionHandling.ALLOW_READ_WRITES)
                .mergePolicy(MergePolicy.PREFERRED_NON_NULL);
        ConfigurationBuilder distributed = new ConfigurationBuilder();
        distributed.clustering().cacheMode(CacheMode.DIST_SYNC);
        DefaultCacheManager caches = new DefaultCacheManager(global.build(), false);
        for (String cache : List.of("__vertx.subs", "__vertx.haInfo", "__vertx.nodeInfo", ClusterLock.HOLDERS)) {
            caches.defineConfiguration(cache, replicated.build());
        }
        caches.defineConfiguration(
                "__vertx.distributed.cache.configuration",
                distributed.template(true).build());
        try {
            caches.start();
        } catch (RuntimeException e) {
            caches.stop();
            throw e;
        }
        return caches;
    }

    public Vertx vertx() {
        return vertx;
    }

    /** The cluster lock's holder, replicated to every member. */
    org.infinispan.Cache<String, String> holders() {
        return caches.getCache(ClusterLock.HOLDERS);
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
        return transport().getLocalPhysicalAddress();
    }

    /** The address the cluster reaches this node at. */
    public String host() {
        return transport().getBindAddress().getHostAddress();
    }

    private TP transport() {
        return ((JGroupsTransport) caches.getTransport())
                .getChannel()
                .getProtocolStack()
                .getTransport();
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

    /** Called with a member's node id when it leaves (on an Infinispan notification thread). */
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
            // the membership is left below, whatever Vert.x did
        } finally {
            try {
                InfinispanSubjectThreads.call(() -> {
                    caches.stop();
                    return null;
                });
            } catch (Exception e) {
                // already stopped, or stopping failed: nothing more to leave
            }
        }
    }
}
