package dev.threadbench.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.threadbench.common.ServerOptions;
import dev.threadbench.common.Strategy;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import tools.jackson.databind.json.JsonMapper;

/**
 * deploy/kubernetes as {@code kubectl kustomize} renders it, read into fabric8's Kubernetes types: every object is
 * a kind Kubernetes knows, with no field it does not, in the namespace; the servers, the agents' cluster and the
 * compare Job agree with each other and with the servers' options. Needs kubectl (skipped without it), no cluster.
 */
class KubernetesManifestsTest {

    private static final Path ROOT = Servers.projectRoot();
    private static final Path MANIFESTS = ROOT.resolve("deploy/kubernetes");
    private static final String NAMESPACE = "threadbench";
    private static final String CLUSTER_SERVICE = "threadbench-cluster";
    private static final int MEMBERSHIP_PORT = 5701;
    private static final String CLUSTER_KEY_SECRET = "threadbench-cluster-key";
    private static final String ROLE = "threadbench.dev/role";
    private static final String HOSTNAME = "kubernetes.io/hostname";
    private static final Map<String, Integer> DEFAULT_PORTS = Map.of("undertow", 8080, "vertx", 8081);
    private static final Map<String, Strategy> DEFAULT_STRATEGIES =
            Map.of("undertow", Strategy.BLOCKING, "vertx", Strategy.TIMER);
    private static final JsonMapper MAPPER = JsonMapper.builder().build();
    private static final Path KUBECTL = onPath("kubectl");

    /** Every rendered object; null without kubectl. */
    private static List<KubernetesResource> rendered;

    @BeforeAll
    static void render() throws IOException, InterruptedException {
        if (KUBECTL == null) {
            return;
        }
        Path stderr = Files.createTempFile("kubectl-kustomize", ".stderr");
        try {
            Process process = new ProcessBuilder(KUBECTL.toString(), "kustomize", MANIFESTS.toString())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectError(stderr.toFile())
                    .start();
            String yaml = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail("kubectl kustomize " + MANIFESTS + " did not finish in 60 s");
            }
            assertEquals(0, process.exitValue(), "kubectl kustomize " + MANIFESTS + ": " + Files.readString(stderr));
            List<KubernetesResource> objects = new ArrayList<>();
            for (Object document : new Load(LoadSettings.builder().build()).loadAllFromString(yaml)) {
                if (document != null) {
                    objects.add(MAPPER.convertValue(document, KubernetesResource.class));
                }
            }
            rendered = objects;
        } finally {
            Files.deleteIfExists(stderr);
        }
    }

    @BeforeEach
    void needsKubectl() {
        assumeTrue(
                KUBECTL != null,
                "kubectl is not on PATH (Debian: apt-get install kubernetes-client): deploy/kubernetes not rendered");
    }

    @Test
    void everyObjectIsAKindKubernetesKnowsWithOnlyFieldsItKnows() {
        assertFalse(rendered.isEmpty(), "kubectl kustomize rendered nothing");
        List<String> unknown = new ArrayList<>();
        for (KubernetesResource object : rendered) {
            if (object instanceof GenericKubernetesResource generic) {
                unknown.add("unknown kind " + generic.getApiVersion() + " " + generic.getKind() + " "
                        + generic.getMetadata().getName());
            } else {
                collectUnknownFields(
                        object, describe(object), unknown, Collections.newSetFromMap(new IdentityHashMap<>()));
            }
        }
        assertTrue(
                unknown.isEmpty(),
                "not in Kubernetes' v1, apps/v1 or batch/v1 (the models this test reads): "
                        + String.join("; ", unknown));
    }

    @Test
    void everythingIsInTheThreadbenchNamespace() {
        assertEquals(NAMESPACE, one(Namespace.class, NAMESPACE).getMetadata().getName());
        for (KubernetesResource object : rendered) {
            if (object instanceof Namespaced && object instanceof HasMetadata named) {
                assertEquals(NAMESPACE, named.getMetadata().getNamespace(), describe(named) + ": namespace");
            }
        }
    }

    @Test
    void bothServersGetEqualRequestsAndLimits() {
        ResourceRequirements undertow = serverContainer("undertow").getResources();
        ResourceRequirements vertx = serverContainer("vertx").getResources();
        for (String resource : List.of("cpu", "memory")) {
            Quantity request = undertow.getRequests().get(resource);
            assertNotNull(request, "undertow: no " + resource + " request");
            assertNotNull(undertow.getLimits().get(resource), "undertow: no " + resource + " limit");
            assertEquals(request, vertx.getRequests().get(resource), resource + " request differs between the servers");
            assertEquals(
                    undertow.getLimits().get(resource),
                    vertx.getLimits().get(resource),
                    resource + " limit differs between the servers");
        }
        assertEquals(
                undertow.getRequests().keySet(),
                vertx.getRequests().keySet(),
                "the servers request different resources");
        assertEquals(
                undertow.getLimits().keySet(), vertx.getLimits().keySet(), "the servers limit different resources");
    }

    @Test
    void eachServerIsProbedOnItsHealthPathAndServedOnItsDefaultPort() {
        for (String server : DEFAULT_PORTS.keySet()) {
            int port = DEFAULT_PORTS.get(server);
            Container container = serverContainer(server);
            assertImage("threadbench/" + server + "-server", container);
            for (Probe probe : List.of(
                    nonNull(container.getReadinessProbe(), server + ": readiness probe"),
                    nonNull(container.getLivenessProbe(), server + ": liveness probe"))) {
                HTTPGetAction get = nonNull(probe.getHttpGet(), server + ": an HTTP probe");
                assertEquals("/health", get.getPath(), server + ": probe path");
                assertEquals(port, containerPort(container, get.getPort()), server + ": probe port");
            }
            Service service = one(Service.class, server);
            assertSelects(
                    service.getSpec().getSelector(),
                    one(Deployment.class, server).getSpec().getTemplate(),
                    "Service " + server);
            ServicePort servicePort = service.getSpec().getPorts().getFirst();
            assertEquals(port, servicePort.getPort(), "Service " + server + ": port");
            assertEquals(
                    port, containerPort(container, servicePort.getTargetPort()), "Service " + server + ": target port");
        }
    }

    @Test
    void eachServersEnvironmentNamesItsOptionsWithTheDefaultDelay() {
        for (String server : DEFAULT_PORTS.keySet()) {
            Map<String, String> environment = environment(serverContainer(server));
            List<String> known = ServerOptions.environmentVariables();
            environment
                    .keySet()
                    .forEach(name -> assertTrue(known.contains(name), server + ": " + name + " is no server option"));
            for (String required : List.of("DELAY_EVERY", "DELAY_MS", "STRATEGY")) {
                assertTrue(environment.containsKey(required), server + ": " + required + " is not set");
            }
            ServerOptions options = ServerOptions.parse(
                    new ServerOptions.Defaults(server, DEFAULT_PORTS.get(server), DEFAULT_STRATEGIES.get(server)),
                    new String[0],
                    environment);
            assertEquals(DEFAULT_PORTS.get(server), options.port(), server + ": port");
            assertEquals(DEFAULT_STRATEGIES.get(server), options.strategy(), server + ": strategy");
            assertEquals(10, options.delayEvery(), server + ": DELAY_EVERY");
            assertEquals(2000, options.delayMs(), server + ": DELAY_MS");
        }
    }

    @Test
    void theHeadlessServiceSelectsTheAgentsAndComparesPodOnTheMembershipPort() {
        Service cluster = one(Service.class, CLUSTER_SERVICE);
        assertEquals("None", cluster.getSpec().getClusterIP(), CLUSTER_SERVICE + ": headless (clusterIP None)");
        assertEquals(
                Boolean.TRUE,
                cluster.getSpec().getPublishNotReadyAddresses(),
                CLUSTER_SERVICE + ": members are listed while they start (publishNotReadyAddresses)");
        List<ServicePort> ports = cluster.getSpec().getPorts();
        assertEquals(1, ports.size(), CLUSTER_SERVICE + ": ports " + ports);
        assertEquals(MEMBERSHIP_PORT, ports.getFirst().getPort(), CLUSTER_SERVICE + ": port");
        Map<String, String> selector = cluster.getSpec().getSelector();
        assertSelects(selector, one(Deployment.class, "agent").getSpec().getTemplate(), CLUSTER_SERVICE);
        assertSelects(selector, one(Job.class, "compare").getSpec().getTemplate(), CLUSTER_SERVICE);
        for (String server : DEFAULT_PORTS.keySet()) {
            Map<String, String> labels = one(Deployment.class, server)
                    .getSpec()
                    .getTemplate()
                    .getMetadata()
                    .getLabels();
            assertFalse(
                    labels.entrySet().containsAll(selector.entrySet()),
                    CLUSTER_SERVICE + " selects the " + server + " server");
        }
    }

    @Test
    void agentsAndCompareFindEachOtherThroughThatServiceAndAdvertiseTheirPodIp() {
        Service cluster = one(Service.class, CLUSTER_SERVICE);
        // the short name resolves in the pod's own namespace and cluster domain: neither is written down
        String dnsName = cluster.getMetadata().getName();
        Container agent = onlyContainer(one(Deployment.class, "agent").getSpec().getTemplate(), "agent");
        Container compare = onlyContainer(one(Job.class, "compare").getSpec().getTemplate(), "compare");
        for (Container container : List.of(agent, compare)) {
            String name = container.getName();
            List<String> args = container.getArgs();
            assertImage("threadbench/loadtest", container);
            assertTrue(
                    container.getCommand().isEmpty(),
                    name + ": the image's entrypoint runs the jar; the subcommand goes in args");
            assertEquals(name, args.getFirst(), name + ": subcommand in " + args);
            assertEquals(dnsName, optionValue(args, "--kubernetes-dns"), name + ": --kubernetes-dns");
            assertFalse(args.contains("--join"), name + ": --join and --kubernetes-dns exclude each other");
            assertEquals("$(POD_IP)", optionValue(args, "--cluster-host"), name + ": --cluster-host");
            assertEquals("status.podIP", fieldRef(container, "POD_IP"), name + ": POD_IP");
            assertTrue(
                    container.getPorts().stream().anyMatch(port -> port.getContainerPort() == MEMBERSHIP_PORT),
                    name + ": port " + MEMBERSHIP_PORT);
            int busPort = Integer.parseInt(optionValue(args, "--bus-port"));
            assertTrue(
                    container.getPorts().stream().anyMatch(port -> port.getContainerPort() == busPort),
                    name + ": port " + busPort);
            assertFalse(
                    String.join(" ", args).contains(NAMESPACE + ".svc")
                            || String.join(" ", args).contains("cluster.local"),
                    name + ": the namespace or cluster domain written into " + args);
        }
        assertEquals("$(POD_NAME)", optionValue(agent.getArgs(), "--name"), "agent: --name");
        assertEquals("metadata.name", fieldRef(agent, "POD_NAME"), "agent: POD_NAME");
    }

    @Test
    void aNetworkPolicyAdmitsOnlyTheClustersPodsToTheMembershipAndEventBusPorts() {
        NetworkPolicy policy = one(NetworkPolicy.class, CLUSTER_SERVICE);
        Map<String, String> selected = policy.getSpec().getPodSelector().getMatchLabels();
        assertEquals(List.of("Ingress"), policy.getSpec().getPolicyTypes(), CLUSTER_SERVICE + ": policy types");
        assertSelects(selected, one(Deployment.class, "agent").getSpec().getTemplate(), "the NetworkPolicy");
        assertSelects(selected, one(Job.class, "compare").getSpec().getTemplate(), "the NetworkPolicy");
        assertEquals(1, policy.getSpec().getIngress().size(), "one ingress rule");
        NetworkPolicyIngressRule rule = policy.getSpec().getIngress().getFirst();
        assertEquals(1, rule.getFrom().size(), "one source");
        NetworkPolicyPeer from = rule.getFrom().getFirst();
        assertNull(from.getNamespaceSelector(), "no other namespace");
        assertNull(from.getIpBlock(), "no address block");
        assertEquals(selected, from.getPodSelector().getMatchLabels(), "only the cluster's own pods");
        int busPort = Integer.parseInt(optionValue(
                onlyContainer(one(Deployment.class, "agent").getSpec().getTemplate(), "agent")
                        .getArgs(),
                "--bus-port"));
        assertEquals(
                Set.of(MEMBERSHIP_PORT, MEMBERSHIP_PORT + 1, busPort),
                rule.getPorts().stream()
                        .map(port -> port.getPort().getIntVal())
                        .collect(java.util.stream.Collectors.toSet()),
                "the membership, its failure detector and the event bus ports");
        for (String server : DEFAULT_PORTS.keySet()) {
            Map<String, String> labels = one(Deployment.class, server)
                    .getSpec()
                    .getTemplate()
                    .getMetadata()
                    .getLabels();
            assertFalse(labels.entrySet().containsAll(selected.entrySet()), "the policy admits the " + server);
        }
    }

    @Test
    void agentsAndCompareReadTheClusterKeyFromItsSecretAndNeitherRunsInsecure() {
        List<PodTemplateSpec> templates = List.of(
                one(Deployment.class, "agent").getSpec().getTemplate(),
                one(Job.class, "compare").getSpec().getTemplate());
        for (PodTemplateSpec template : templates) {
            Container container = template.getSpec().getContainers().getFirst();
            String name = container.getName();
            assertFalse(container.getArgs().contains("--insecure"), name + ": --insecure");
            String keyFile = container.getEnv().stream()
                    .filter(v -> v.getName().equals("THREADBENCH_CLUSTER_KEY"))
                    .findFirst()
                    .orElseGet(() -> fail(name + ": no THREADBENCH_CLUSTER_KEY"))
                    .getValue();
            VolumeMount mount = container.getVolumeMounts().stream()
                    .filter(m -> keyFile.startsWith(m.getMountPath() + "/"))
                    .findFirst()
                    .orElseGet(() -> fail(name + ": nothing mounted where " + keyFile + " is"));
            assertEquals(Boolean.TRUE, mount.getReadOnly(), name + ": the key's mount is read-only");
            Volume volume = template.getSpec().getVolumes().stream()
                    .filter(v -> v.getName().equals(mount.getName()))
                    .findFirst()
                    .orElseGet(() -> fail(name + ": no volume " + mount.getName()));
            assertEquals(
                    CLUSTER_KEY_SECRET,
                    nonNull(volume.getSecret(), name + ": the key is a Secret").getSecretName(),
                    name);
            assertEquals(0440, volume.getSecret().getDefaultMode(), name + ": the key's file mode");
            assertEquals(
                    10001L,
                    template.getSpec().getSecurityContext().getFsGroup(),
                    name + ": fsGroup, which may read the key");
        }
    }

    @Test
    void agentsMayLoadOnlyTheTwoServersServices() {
        List<String> args = onlyContainer(
                        one(Deployment.class, "agent").getSpec().getTemplate(), "agent")
                .getArgs();
        List<String> allowed = List.of(optionValue(args, "--allow-targets").split(","));
        List<String> services = DEFAULT_PORTS.keySet().stream()
                .sorted()
                .map(server -> {
                    Service service = one(Service.class, server);
                    return service.getMetadata().getName() + ":"
                            + service.getSpec().getPorts().getFirst().getPort();
                })
                .toList();
        assertEquals(services, allowed.stream().sorted().toList(), "agent --allow-targets");
    }

    /**
     * Guaranteed QoS (requests = limits) for agents, so that CPU throttling does not show up as the servers' latency.
     */
    @Test
    void agentsAreGuaranteedAndNeverOnAServersNodeAndTheServersAreApartOnServerNodes() {
        Container agent = onlyContainer(one(Deployment.class, "agent").getSpec().getTemplate(), "agent");
        for (String resource : List.of("cpu", "memory")) {
            Quantity request =
                    nonNull(agent.getResources().getRequests().get(resource), "agent: " + resource + " request");
            assertEquals(
                    request,
                    agent.getResources().getLimits().get(resource),
                    "agent: " + resource + " request = limit (Guaranteed)");
        }
        PodTemplateSpec agents = one(Deployment.class, "agent").getSpec().getTemplate();
        assertEquals("agent", agents.getMetadata().getLabels().get(ROLE), "agent: " + ROLE);
        var agentApart =
                agents.getSpec().getAffinity().getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution();
        for (String server : DEFAULT_PORTS.keySet()) {
            Map<String, String> serverLabels = one(Deployment.class, server)
                    .getSpec()
                    .getTemplate()
                    .getMetadata()
                    .getLabels();
            assertTrue(
                    agentApart.stream()
                            .anyMatch(term -> HOSTNAME.equals(term.getTopologyKey())
                                    && selects(term.getLabelSelector(), serverLabels)),
                    "agent: never on " + server + "'s node " + agentApart);
        }
        for (String server : DEFAULT_PORTS.keySet()) {
            PodTemplateSpec template = one(Deployment.class, server).getSpec().getTemplate();
            assertEquals("server", template.getMetadata().getLabels().get(ROLE), server + ": " + ROLE);
            var apart = template.getSpec()
                    .getAffinity()
                    .getPodAntiAffinity()
                    .getRequiredDuringSchedulingIgnoredDuringExecution();
            for (String other : List.of(server.equals("vertx") ? "undertow" : "vertx", "agent")) {
                Map<String, String> labels = one(Deployment.class, other)
                        .getSpec()
                        .getTemplate()
                        .getMetadata()
                        .getLabels();
                assertTrue(
                        apart.stream()
                                .anyMatch(term -> HOSTNAME.equals(term.getTopologyKey())
                                        && selects(term.getLabelSelector(), labels)),
                        server + ": apart from " + other + ": " + apart);
            }
            var pool = template.getSpec()
                    .getAffinity()
                    .getNodeAffinity()
                    .getRequiredDuringSchedulingIgnoredDuringExecution()
                    .getNodeSelectorTerms();
            assertTrue(
                    pool.stream()
                            .flatMap(term -> term.getMatchExpressions().stream())
                            .anyMatch(e -> e.getKey().equals("threadbench.dev/pool")
                                    && e.getOperator().equals("In")
                                    && e.getValues().equals(List.of("servers"))),
                    server + ": on the servers' node pool");
        }
    }

    /** A label selector's matchLabels and In expressions against a pod's labels. */
    private static boolean selects(io.fabric8.kubernetes.api.model.LabelSelector selector, Map<String, String> labels) {
        boolean matchLabels = selector.getMatchLabels() == null
                || labels.entrySet().containsAll(selector.getMatchLabels().entrySet());
        boolean expressions = selector.getMatchExpressions() == null
                || selector.getMatchExpressions().stream()
                        .allMatch(e ->
                                e.getOperator().equals("In") && e.getValues().contains(labels.get(e.getKey())));
        return matchLabels && expressions;
    }

    @Test
    void compareEndsByItsDeadlineAndTheResultsCanBeCopiedOff() throws IOException {
        Long deadline = one(Job.class, "compare").getSpec().getActiveDeadlineSeconds();
        assertTrue(deadline != null && deadline > 0, "compare: activeDeadlineSeconds");
        Object document = new Load(LoadSettings.builder().build())
                .loadFromString(Files.readString(MANIFESTS.resolve("copy-results.yaml")));
        io.fabric8.kubernetes.api.model.Pod copy =
                MAPPER.convertValue(document, io.fabric8.kubernetes.api.model.Pod.class);
        assertEquals(NAMESPACE, copy.getMetadata().getNamespace(), "copy-results: namespace");
        assertTrue(
                copy.getSpec().getVolumes().stream()
                        .anyMatch(v -> v.getPersistentVolumeClaim() != null
                                && v.getPersistentVolumeClaim().getClaimName().equals("threadbench-results")),
                "copy-results mounts the results' claim");
    }

    @Test
    void compareWaitsForEveryAgentAndWritesToTheResultsVolume() {
        Job job = one(Job.class, "compare");
        assertEquals(0, job.getSpec().getBackoffLimit(), "compare: backoffLimit (a failed comparison is not rerun)");
        assertEquals("Never", job.getSpec().getTemplate().getSpec().getRestartPolicy(), "compare: restartPolicy");
        Container compare = onlyContainer(job.getSpec().getTemplate(), "compare");
        List<String> args = compare.getArgs();
        assertEquals(
                String.valueOf(one(Deployment.class, "agent").getSpec().getReplicas()),
                optionValue(args, "--agents"),
                "compare --agents against the agent Deployment's replicas");

        String out = optionValue(args, "--out");
        assertEquals("/results", out, "compare --out");
        VolumeMount mount = compare.getVolumeMounts().stream()
                .filter(m -> m.getMountPath().equals(out))
                .findFirst()
                .orElseGet(() -> fail("compare: nothing mounted at " + out));
        Volume volume = job.getSpec().getTemplate().getSpec().getVolumes().stream()
                .filter(v -> v.getName().equals(mount.getName()))
                .findFirst()
                .orElseGet(() -> fail("compare: no volume " + mount.getName()));
        String claim = nonNull(volume.getPersistentVolumeClaim(), "compare: " + out + " is a PersistentVolumeClaim")
                .getClaimName();
        assertEquals("threadbench-results", claim, "compare: the results' claim");
        one(PersistentVolumeClaim.class, claim);
    }

    /** compare's bound is made of the servers' delay settings, which it cannot read: it is given the same. */
    @Test
    void compareTargetsTheServersServicesWithTheirDelaySettings() {
        List<String> args = onlyContainer(one(Job.class, "compare").getSpec().getTemplate(), "compare")
                .getArgs();
        List<String> targets = List.of(optionValue(args, "--targets").split(","));
        assertEquals(DEFAULT_PORTS.size(), targets.size(), "compare --targets: " + targets);
        for (String server : DEFAULT_PORTS.keySet()) {
            Service service = one(Service.class, server);
            String url = "http://" + service.getMetadata().getName() + ":"
                    + service.getSpec().getPorts().getFirst().getPort();
            assertTrue(
                    targets.contains(server + "=" + url),
                    "compare --targets " + targets + " lacks " + server + "=" + url);
            Map<String, String> environment = environment(serverContainer(server));
            assertEquals(
                    environment.get("DELAY_EVERY"),
                    optionValue(args, "--delay-every"),
                    "compare --delay-every against " + server);
            assertEquals(
                    environment.get("DELAY_MS"),
                    optionValue(args, "--delay-ms"),
                    "compare --delay-ms against " + server);
        }
    }

    private static Container serverContainer(String server) {
        return onlyContainer(one(Deployment.class, server).getSpec().getTemplate(), server);
    }

    private static Container onlyContainer(PodTemplateSpec template, String name) {
        List<Container> containers = template.getSpec().getContainers();
        assertEquals(1, containers.size(), name + ": one container");
        return containers.getFirst();
    }

    private static <T extends HasMetadata> T one(Class<T> kind, String name) {
        List<T> found = rendered.stream()
                .filter(kind::isInstance)
                .map(kind::cast)
                .filter(object -> name.equals(object.getMetadata().getName()))
                .toList();
        assertEquals(1, found.size(), "one " + kind.getSimpleName() + " " + name + " in deploy/kubernetes");
        return found.getFirst();
    }

    private static void assertSelects(Map<String, String> selector, PodTemplateSpec template, String by) {
        assertTrue(selector != null && !selector.isEmpty(), by + ": no selector");
        Map<String, String> labels = template.getMetadata().getLabels();
        assertTrue(
                labels.entrySet().containsAll(selector.entrySet()),
                by + ": selector " + selector + " does not select pods labelled " + labels);
    }

    private static void assertImage(String repository, Container container) {
        String image = container.getImage();
        assertTrue(
                image.equals(repository) || image.startsWith(repository + ":"),
                container.getName() + ": image " + image);
    }

    /** The container port a Service's target or a probe's port names, by number or by name. */
    private static int containerPort(Container container, IntOrString port) {
        if (port.getIntVal() != null) {
            return port.getIntVal();
        }
        return container.getPorts().stream()
                .filter(p -> port.getStrVal().equals(p.getName()))
                .map(ContainerPort::getContainerPort)
                .findFirst()
                .orElseGet(() -> fail(container.getName() + ": no port named " + port.getStrVal()));
    }

    private static Map<String, String> environment(Container container) {
        Map<String, String> environment = new LinkedHashMap<>();
        for (EnvVar variable : container.getEnv()) {
            assertNotNull(variable.getValue(), container.getName() + ": " + variable.getName() + " has no plain value");
            environment.put(variable.getName(), variable.getValue());
        }
        return environment;
    }

    private static String fieldRef(Container container, String variable) {
        EnvVar found = container.getEnv().stream()
                .filter(v -> v.getName().equals(variable))
                .findFirst()
                .orElseGet(() -> fail(container.getName() + ": no variable " + variable));
        assertTrue(
                found.getValueFrom() != null && found.getValueFrom().getFieldRef() != null,
                container.getName() + ": " + variable + " is not from the downward API");
        return found.getValueFrom().getFieldRef().getFieldPath();
    }

    /** The argument after {@code option}. */
    private static String optionValue(List<String> args, String option) {
        int at = args.indexOf(option);
        if (at < 0 || at + 1 >= args.size()) {
            return fail("no " + option + " VALUE in " + args);
        }
        return args.get(at + 1);
    }

    private static <T> T nonNull(T value, String what) {
        assertNotNull(value, what);
        return value;
    }

    private static String describe(KubernetesResource object) {
        return object instanceof HasMetadata named
                ? named.getKind() + " " + named.getMetadata().getName()
                : object.getClass().getSimpleName();
    }

    /**
     * fabric8's types keep a field they do not know in {@code additionalProperties} instead of failing: walks the
     * object's getters and names every such field, with its path.
     */
    private static void collectUnknownFields(Object value, String path, List<String> unknown, Set<Object> seen) {
        if (value instanceof Collection<?> collection) {
            int index = 0;
            for (Object element : collection) {
                collectUnknownFields(element, path + "[" + index++ + "]", unknown, seen);
            }
            return;
        }
        if (value instanceof Map<?, ?> map) {
            map.forEach((key, element) -> collectUnknownFields(element, path + "." + key, unknown, seen));
            return;
        }
        if (value == null || !value.getClass().getPackageName().startsWith("io.fabric8.") || !seen.add(value)) {
            return;
        }
        for (Method getter : value.getClass().getMethods()) {
            if (getter.getParameterCount() != 0
                    || Modifier.isStatic(getter.getModifiers())
                    || !getter.getName().startsWith("get")
                    || getter.getDeclaringClass() == Object.class) {
                continue;
            }
            Object child;
            try {
                child = getter.invoke(value);
            } catch (IllegalAccessException | InvocationTargetException e) {
                continue;
            }
            if (getter.getName().equals("getAdditionalProperties")) {
                if (child instanceof Map<?, ?> extra && !extra.isEmpty()) {
                    extra.keySet().forEach(key -> unknown.add(path + "." + key));
                }
            } else {
                String field = Character.toLowerCase(getter.getName().charAt(3))
                        + getter.getName().substring(4);
                collectUnknownFields(child, path + "." + field, unknown, seen);
            }
        }
    }

    private static Path onPath(String command) {
        String path = System.getenv("PATH");
        return path == null
                ? null
                : Stream.of(path.split(File.pathSeparator))
                        .filter(dir -> !dir.isEmpty())
                        .map(dir -> Path.of(dir, command))
                        .filter(Files::isExecutable)
                        .findFirst()
                        .orElse(null);
    }
}
