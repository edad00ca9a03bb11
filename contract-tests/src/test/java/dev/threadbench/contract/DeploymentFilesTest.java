package dev.threadbench.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.threadbench.common.ServerOptions;
import dev.threadbench.common.Strategy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * docker-compose.yml, the Dockerfiles and .dockerignore agree with the servers: module jars, ports,
 * the health path, option variables and their values. Reads the files only; nothing is started.
 */
class DeploymentFilesTest {

    /** The servers' default ports, from the servers' contract. */
    private static final Map<String, Integer> DEFAULT_PORTS = Map.of("undertow", 8080, "vertx", 8081);

    private static final Map<String, Strategy> DEFAULT_STRATEGIES =
            Map.of("undertow", Strategy.BLOCKING, "vertx", Strategy.TIMER);
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Z_]+)(?::-([^}]*))?}");
    /** Matches {@code <finalName>} of a module pom. */
    private static final Pattern FINAL_NAME = Pattern.compile("<finalName>([^<]+)</finalName>");

    private static final Path ROOT = Servers.projectRoot();
    private static final Map<String, Object> COMPOSE = loadYaml(ROOT.resolve("docker-compose.yml"));
    private static final Dockerfile DOCKERFILE = Dockerfile.read(ROOT.resolve("Dockerfile"));

    static Stream<Arguments> servers() {
        return DEFAULT_PORTS.keySet().stream().sorted().map(Arguments::of);
    }

    @ParameterizedTest
    @MethodSource("servers")
    void serverImageIsBuiltFromItsOwnModuleAndServesItsDefaultPort(String server) throws IOException {
        Map<String, Object> service = service(server);
        Map<String, Object> build = map(service, "build");
        assertEquals(".", build.get("context"), server + ": build context");
        assertEquals("server", build.get("target"), server + ": build target");
        assertTrue(DOCKERFILE.stages().contains("server"), "Dockerfile has no stage 'server'");

        Map<String, Object> args = map(build, "args");
        String module = String.valueOf(args.get("MODULE"));
        assertEquals(server + "-server", module, server + ": MODULE build argument");
        assertModuleJarIsWhereTheDockerfileCopiesItFrom(module);

        int port = DEFAULT_PORTS.get(server);
        assertEquals(String.valueOf(port), String.valueOf(args.get("PORT")), server + ": PORT build argument");
        List<String> ports = strings(service.get("ports"));
        assertEquals(1, ports.size(), server + ": one published port");
        assertEquals(
                port, Integer.parseInt(resolve(ports.getFirst()).replaceAll(".*:", "")), server + ": container port");
        assertEquals(
                port,
                Integer.parseInt(resolve(ports.getFirst()).replaceAll(":.*", "")),
                server + ": default host port");
    }

    @ParameterizedTest
    @MethodSource("servers")
    void healthchecksAskTheHealthPathOnTheServersPort(String server) {
        int port = DEFAULT_PORTS.get(server);
        List<String> test = strings(map(service(server), "healthcheck").get("test"));
        assertEquals("CMD", test.getFirst(), server + ": healthcheck form");
        assertTrue(test.contains("http://127.0.0.1:" + port + "/health"), server + ": healthcheck " + test);

        String imageCheck = DOCKERFILE.instruction("server", "HEALTHCHECK");
        assertTrue(imageCheck.contains("http://127.0.0.1:${PORT}/health"), "Dockerfile HEALTHCHECK: " + imageCheck);
        assertTrue(
                DOCKERFILE.instruction("server", "ENV").contains("PORT=${PORT}"), "the server image runs on its PORT");
    }

    @ParameterizedTest
    @MethodSource("servers")
    void environmentNamesOptionsTheServerAcceptsWithValuesItAccepts(String server) {
        Map<String, String> environment = new LinkedHashMap<>();
        map(service(server), "environment")
                .forEach((name, value) -> environment.put(name, resolve(String.valueOf(value))));
        List<String> known = ServerOptions.environmentVariables();
        for (String name : environment.keySet()) {
            assertTrue(known.contains(name), server + ": " + name + " is no server option (known: " + known + ")");
        }
        for (String required : List.of("DELAY_EVERY", "DELAY_MS", "STRATEGY", "WORKERS")) {
            assertTrue(environment.containsKey(required), server + ": " + required + " is not set");
        }
        ServerOptions options = ServerOptions.parse(
                new ServerOptions.Defaults(server, DEFAULT_PORTS.get(server), DEFAULT_STRATEGIES.get(server)),
                new String[0],
                environment);
        assertEquals(DEFAULT_STRATEGIES.get(server), options.strategy(), server + ": default strategy");
        assertEquals(10, options.delayEvery(), server + ": default DELAY_EVERY");
        assertEquals(2000, options.delayMs(), server + ": default DELAY_MS");
    }

    @Test
    void bothServersGetTheSameLimitsAndRoomForTenThousandConnections() {
        Map<String, Object> undertow = service("undertow");
        Map<String, Object> vertx = service("vertx");
        for (String limit : List.of("cpus", "mem_limit", "ulimits", "sysctls")) {
            assertTrue(undertow.containsKey(limit), "undertow: no " + limit);
            assertEquals(undertow.get(limit), vertx.get(limit), limit + " differs between the servers");
        }
        Map<String, Object> nofile = map(map(undertow, "ulimits"), "nofile");
        assertTrue(((Number) nofile.get("soft")).intValue() > 10_000, "nofile soft limit " + nofile);
        assertTrue(
                ((Number) nofile.get("hard")).intValue() >= ((Number) nofile.get("soft")).intValue(),
                "nofile " + nofile);
        assertTrue(
                ((Number) map(undertow, "sysctls").get("net.core.somaxconn")).intValue() > 128, "net.core.somaxconn");
    }

    @Test
    void theImagesRunAsAnUnprivilegedUserOnSwappableBaseImages() {
        String user = DOCKERFILE.instruction("app", "USER");
        assertFalse(user.isBlank() || user.equals("0") || user.startsWith("root"), "app stage USER " + user);
        assertTrue(DOCKERFILE.globalArgs().get("BUILD_IMAGE").contains("25"), "BUILD_IMAGE default is a JDK 25");
        assertTrue(DOCKERFILE.globalArgs().get("RUNTIME_IMAGE").contains("25"), "RUNTIME_IMAGE default is a JRE 25");
        assertEquals("${BUILD_IMAGE}", DOCKERFILE.base("build"));
        assertEquals("${RUNTIME_IMAGE}", DOCKERFILE.base("app"));
        assertEquals("app", DOCKERFILE.base("server"));
    }

    @Test
    void theBuildContextHoldsEveryModuleOfTheReactor() throws IOException {
        List<String> included = Files.readAllLines(ROOT.resolve(".dockerignore")).stream()
                .filter(line -> line.startsWith("!"))
                .map(line -> line.substring(1))
                .toList();
        Matcher module = Pattern.compile("<module>([^<]+)</module>").matcher(Files.readString(ROOT.resolve("pom.xml")));
        List<String> modules = new ArrayList<>();
        while (module.find()) {
            modules.add(module.group(1));
        }
        assertFalse(modules.isEmpty(), "no <module> in pom.xml");
        for (String needed : Stream.concat(modules.stream(), Stream.of("pom.xml", "mvnw", ".mvn", "hello.html"))
                .toList()) {
            assertTrue(included.contains(needed), ".dockerignore leaves " + needed + " out of the build context");
        }
    }

    @Test
    void loadtestAndContractServicesTargetTheServersByTheirPorts() throws IOException {
        Map<String, Object> loadtestBuild = map(service("loadtest"), "build");
        assertEquals("app", loadtestBuild.get("target"));
        String loadtestModule = String.valueOf(map(loadtestBuild, "args").get("MODULE"));
        assertEquals("loadtest", loadtestModule);
        assertModuleJarIsWhereTheDockerfileCopiesItFrom(loadtestModule);

        assertEquals("contract-tests", map(service("contract"), "build").get("target"));
        assertTrue(DOCKERFILE.stages().contains("contract-tests"), "Dockerfile has no stage 'contract-tests'");
        List<String> contractArgs = strings(service("contract").get("command")).stream()
                .map(DeploymentFilesTest::resolve)
                .toList();
        List<String> loadtestCommand = strings(service("loadtest").get("command"));
        assertEquals("compare", loadtestCommand.getFirst(), "loadtest: " + loadtestCommand);
        List<String> loadtestTargets =
                List.of(optionValue(loadtestCommand, "--targets").split(","));
        assertEquals(DEFAULT_PORTS.size(), loadtestTargets.size(), "loadtest --targets: " + loadtestTargets);
        for (String server : DEFAULT_PORTS.keySet()) {
            String url = "http://" + server + ":" + DEFAULT_PORTS.get(server);
            assertTrue(contractArgs.contains("-Dcontract." + server + "=" + url), "contract: " + contractArgs);
            assertTrue(loadtestTargets.contains(server + "=" + url), "loadtest --targets: " + loadtestTargets);
            assertTrue(
                    String.valueOf(map(service("drill"), "environment").get("DRILL_TARGETS"))
                            .contains(server + "=" + url),
                    "drill targets");
            for (String dependent : List.of("drill", "loadtest", "contract", "compare")) {
                assertEquals(
                        "service_healthy",
                        map(map(service(dependent), "depends_on"), server).get("condition"),
                        dependent + " waits for " + server);
            }
        }
        assertTrue(
                contractArgs.contains("-Dcontract.delayEvery=10") && contractArgs.contains("-Dcontract.delayMs=2000"),
                "the suite is told the servers' delay settings: " + contractArgs);
        assertEquals(List.of("compare"), strings(service("loadtest").get("profiles")), "loadtest: profiles");
        assertFalse(
                map(service("loadtest"), "depends_on").containsKey("drill"),
                "the comparison waits for nothing but the servers (drill's image is untested)");
    }

    /**
     * The servers share one CPU set (only one is loaded at a time) and the comparison's generator gets another, so that
     * the two sides do not take each other's CPU time; by default CPU 0 and CPU 1, as scripts/compare splits 2 cores.
     */
    @Test
    void theServersAndTheComparisonsGeneratorArePinnedToSeparateCpus() {
        String serverCpus = resolve(String.valueOf(service("undertow").get("cpuset")));
        assertEquals(
                service("undertow").get("cpuset"), service("vertx").get("cpuset"), "both servers on SERVER_CPUSET");
        assertEquals("${SERVER_CPUSET:-0}", service("undertow").get("cpuset"));
        assertEquals("${GENERATOR_CPUSET:-1}", service("loadtest").get("cpuset"));
        assertNotEquals(
                serverCpus, resolve(String.valueOf(service("loadtest").get("cpuset"))), "separate CPUs by default");
    }

    /**
     * compare cannot read the running servers' delay settings, and its bound is made of them: it is given the
     * same expressions as the servers' environment, so that one setting (or its default) moves both.
     */
    @ParameterizedTest
    @MethodSource("servers")
    void theComparisonIsToldTheServersDelaySettings(String server) {
        Map<String, Object> environment = map(service(server), "environment");
        for (String comparison : List.of("loadtest", "compare")) {
            List<String> command = strings(service(comparison).get("command"));
            assertEquals(
                    String.valueOf(environment.get("DELAY_EVERY")),
                    optionValue(command, "--delay-every"),
                    comparison + " --delay-every against " + server + "'s DELAY_EVERY");
            assertEquals(
                    String.valueOf(environment.get("DELAY_MS")),
                    optionValue(command, "--delay-ms"),
                    comparison + " --delay-ms against " + server + "'s DELAY_MS");
        }
    }

    /**
     * Profile agents: {@code --scale agent=N} needs a service without a fixed name or host port; every agent joins
     * compare by its service name, and compare, which runs the loadtest image as the compare profile does, waits for
     * as many agents as AGENTS says and writes where the compare profile's comparison does.
     */
    @Test
    void theAgentsProfileScalesItsAgentsAndJoinsThemAtCompare() {
        Map<String, Object> agent = service("agent");
        Map<String, Object> compare = service("compare");
        for (String name : List.of("agent", "compare")) {
            Map<String, Object> service = service(name);
            assertEquals(List.of("agents"), strings(service.get("profiles")), name + ": profiles");
            assertEquals(
                    service("loadtest").get("build"),
                    service.get("build"),
                    name + ": built as the loadtest service's image");
            assertEquals(service("loadtest").get("image"), service.get("image"), name + ": image");
            assertEquals(map(service("loadtest"), "ulimits"), map(service, "ulimits"), name + ": ulimits");
        }
        for (String fixed : List.of("container_name", "ports", "hostname")) {
            assertFalse(
                    agent.containsKey(fixed), "agent: " + fixed + " would keep --scale agent=N from starting N agents");
        }
        assertEquals(
                List.of("agent", "--join", "compare", "--insecure", "--allow-targets", "undertow:8080,vertx:8081"),
                strings(agent.get("command")),
                "agent: command: it may load the two servers only");
        assertEquals(
                "service_started",
                map(map(agent, "depends_on"), "compare").get("condition"),
                "agent: depends on compare");

        List<String> command = strings(compare.get("command"));
        assertEquals("compare", command.getFirst(), "compare: " + command);
        assertEquals("${AGENTS:-3}", optionValue(command, "--agents"), "compare: --agents");
        assertEquals(
                "compare", optionValue(command, "--join"), "compare: joins its own service name, as the agents do");
        assertEquals(
                optionValue(strings(service("loadtest").get("command")), "--targets"),
                optionValue(command, "--targets"),
                "compare: --targets as the compare profile's comparison");
        assertEquals("/results", optionValue(command, "--out"), "compare: --out");
        assertTrue(
                strings(compare.get("volumes")).contains("./results:/results"),
                "compare: ./results mounted at /results");
        assertEquals(service("loadtest").get("user"), compare.get("user"), "compare: user (to write into ./results)");
    }

    /** Profile observe: Debian's prometheus package, off the servers' CPUs, scraping both by name every second. */
    @Test
    void theObserveProfileScrapesBothServersEverySecondFromDebiansPackage() throws IOException {
        Map<String, Object> prometheus = service("prometheus");
        assertEquals(List.of("observe"), strings(prometheus.get("profiles")), "prometheus: profiles");
        assertEquals("${GENERATOR_CPUSET:-1}", prometheus.get("cpuset"), "on the generator's CPUs");
        String dockerfile = Files.readString(ROOT.resolve("docker/prometheus/Dockerfile"));
        assertTrue(dockerfile.contains("FROM ${RUNTIME_IMAGE}"), "its base swappable, as the others'");
        assertTrue(dockerfile.contains("--no-install-recommends prometheus"), "Debian's package");
        String scrape = Files.readString(ROOT.resolve("docker/prometheus/prometheus.yml"));
        assertTrue(scrape.contains("scrape_interval: 1s"), scrape);
        assertTrue(scrape.contains("\"undertow:8080\"") && scrape.contains("\"vertx:8081\""), scrape);
    }

    /** The file's opening comment says how to run each profile. */
    @Test
    void theHeaderShowsHowToRunEveryProfile() throws IOException {
        String header = Files.readAllLines(ROOT.resolve("docker-compose.yml")).stream()
                .takeWhile(line -> line.startsWith("#"))
                .reduce("", (all, line) -> all + line + "\n");
        List<String> profiles = map(COMPOSE, "services").keySet().stream()
                .flatMap(name -> service(name).containsKey("profiles")
                        ? strings(service(name).get("profiles")).stream()
                        : Stream.<String>empty())
                .distinct()
                .toList();
        assertTrue(profiles.containsAll(List.of("compare", "contract", "agents", "drill")), "profiles " + profiles);
        for (String profile : profiles) {
            assertTrue(
                    header.contains("--profile " + profile + " "),
                    "docker-compose.yml's header does not show --profile " + profile);
        }
    }

    @Test
    void drillIsInstalledAtAPinnedVersionThatIsNotTheOneThatPanicsOnSlowRequests() throws IOException {
        Map<String, Object> build = map(service("drill"), "build");
        Path context = ROOT.resolve(String.valueOf(build.get("context")));
        Dockerfile drill = Dockerfile.read(context.resolve("Dockerfile"));
        String version = drill.stageArgs("build").get("DRILL_VERSION");
        assertTrue(version != null && version.matches("\\d+\\.\\d+\\.\\d+"), "DRILL_VERSION pinned: " + version);
        assertNotEquals("0.9.0", version, "drill 0.9.0 panics on requests slower than about 3.6 s");
        String install = drill.instruction("build", "RUN", "cargo install");
        assertTrue(install.contains("--version \"${DRILL_VERSION}\"") && install.contains("--locked"), install);
        assertTrue(Files.isExecutable(context.resolve("run-plans")), "docker/drill/run-plans");
        assertTrue(strings(service("drill").get("volumes")).contains("./benchmarks:/plans:ro"), "plans mounted");
    }

    private static void assertModuleJarIsWhereTheDockerfileCopiesItFrom(String module) throws IOException {
        String pom = Files.readString(ROOT.resolve(module).resolve("pom.xml"));
        Matcher finalName = FINAL_NAME.matcher(pom);
        assertTrue(
                finalName.find() && finalName.group(1).equals(module),
                module + "/pom.xml: <finalName> must be " + module + " for the Dockerfile's COPY");
        String copy = DOCKERFILE.instruction("app", "COPY");
        assertTrue(copy.contains("--from=build /workspace/${MODULE}/target/${MODULE}.jar "), "app stage " + copy);
    }

    /** The argument after {@code option} in a command list. */
    private static String optionValue(List<String> command, String option) {
        int at = command.indexOf(option);
        if (at < 0 || at + 1 >= command.size()) {
            return fail("no " + option + " VALUE in " + command);
        }
        return command.get(at + 1);
    }

    private static Map<String, Object> service(String name) {
        return map(map(COMPOSE, "services"), name);
    }

    /** {@code ${NAME:-default}} as compose resolves it when NAME is not set. */
    private static String resolve(String value) {
        Matcher variable = VARIABLE.matcher(value);
        StringBuilder resolved = new StringBuilder();
        while (variable.find()) {
            variable.appendReplacement(
                    resolved, Matcher.quoteReplacement(variable.group(2) == null ? "" : variable.group(2)));
        }
        return variable.appendTail(resolved).toString();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Map<String, Object> parent, String key) {
        Object value = parent.get(key);
        if (!(value instanceof Map)) {
            fail("'" + key + "' is missing or not a mapping");
        }
        return (Map<String, Object>) value;
    }

    private static List<String> strings(Object value) {
        if (!(value instanceof List<?> list)) {
            return fail("expected a list, got " + value);
        }
        return list.stream().map(String::valueOf).toList();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> loadYaml(Path file) {
        try {
            return (Map<String, Object>)
                    new Load(LoadSettings.builder().build()).loadFromString(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A Dockerfile's instructions by stage, continuation lines joined and comments dropped. */
    record Dockerfile(Map<String, String> globalArgs, Map<String, Stage> stagesByName) {

        record Stage(String base, List<String> instructions) {}

        static Dockerfile read(Path file) {
            List<String> instructions = new ArrayList<>();
            StringBuilder current = new StringBuilder();
            try {
                for (String line : Files.readAllLines(file)) {
                    String trimmed = line.strip();
                    if (trimmed.startsWith("#") || (trimmed.isEmpty() && current.isEmpty())) {
                        continue;
                    }
                    if (trimmed.endsWith("\\")) {
                        current.append(trimmed, 0, trimmed.length() - 1).append(' ');
                    } else {
                        instructions.add(current.append(trimmed).toString().strip());
                        current.setLength(0);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Map<String, String> globalArgs = new LinkedHashMap<>();
            Map<String, Stage> stages = new LinkedHashMap<>();
            Stage stage = null;
            for (String instruction : instructions) {
                String[] words = instruction.split("\\s+");
                if (words[0].equalsIgnoreCase("FROM")) {
                    stage = new Stage(words[1], new ArrayList<>());
                    stages.put(words.length > 3 ? words[3] : "stage" + stages.size(), stage);
                } else if (stage == null && words[0].equalsIgnoreCase("ARG")) {
                    putArg(globalArgs, instruction);
                } else if (stage != null) {
                    stage.instructions().add(instruction);
                }
            }
            return new Dockerfile(globalArgs, stages);
        }

        private static void putArg(Map<String, String> args, String instruction) {
            String[] nameValue = instruction.substring(3).strip().split("=", 2);
            args.put(nameValue[0], nameValue.length > 1 ? nameValue[1] : null);
        }

        java.util.Set<String> stages() {
            return stagesByName.keySet();
        }

        String base(String stage) {
            return stage(stage).base();
        }

        Map<String, String> stageArgs(String stage) {
            Map<String, String> args = new LinkedHashMap<>();
            stage(stage).instructions().stream()
                    .filter(i -> i.startsWith("ARG "))
                    .forEach(i -> putArg(args, i));
            return args;
        }

        /** The arguments of the stage's first {@code keyword} instruction containing all of {@code containing}. */
        String instruction(String stage, String keyword, String... containing) {
            return stage(stage).instructions().stream()
                    .filter(i -> i.startsWith(keyword + " "))
                    .filter(i -> Stream.of(containing).allMatch(i::contains))
                    .map(i -> i.substring(keyword.length() + 1))
                    .findFirst()
                    .orElseGet(
                            () -> fail("stage " + stage + " has no " + keyword + " " + String.join(" ", containing)));
        }

        private Stage stage(String name) {
            Stage stage = stagesByName.get(name);
            if (stage == null) {
                fail("Dockerfile has no stage " + name + " (has " + stagesByName.keySet() + ")");
            }
            return stage;
        }
    }
}
