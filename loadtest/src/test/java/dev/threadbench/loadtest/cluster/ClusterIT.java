package dev.threadbench.loadtest.cluster;

import static dev.threadbench.loadtest.cluster.ClusterProcesses.exit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadbench.loadtest.compare.ServersIT;
import dev.threadbench.process.ServerProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * compare and its agents as separate JVMs on loopback, against the packaged servers: counts exact, and no fault leaves
 * load on a server (an agent killed, compare killed) or lets two compares share agents.
 */
class ClusterIT {

    private static final String HOST = "127.0.0.1";
    private static final Pattern REQUESTS = Pattern.compile("\"requests\":(\\d+)");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static List<String> cluster(ClusterProcesses processes, int firstPort) {
        List<String> args = new ArrayList<>(List.of("--cluster-host", HOST, "--join", HOST + ":" + firstPort));
        args.addAll(processes.keyArgs());
        return args;
    }

    @Test
    void compareOnTwoAgentsDrivesBothServersItStartsAndTheAgentsAnswersAddUpToTheServersCount() throws Exception {
        int port = ClusterProcesses.freePort();
        try (ClusterProcesses processes = new ClusterProcesses(dir)) {
            processes.agent("a1", List.of(), HOST, port, null);
            processes.agent("a2", List.of(), HOST, port + 10, HOST + ":" + port);
            Path out = dir.resolve("results");
            List<String> args = new ArrayList<>(List.of(
                    "compare",
                    "--agents",
                    "2",
                    "--server-host",
                    HOST,
                    "--undertow-jar",
                    ServersIT.jar("undertow").toString(),
                    "--vertx-jar",
                    ServersIT.jar("vertx").toString(),
                    "--concurrency",
                    "40",
                    "--rampup",
                    "1",
                    "--warmup",
                    "1",
                    "--duration",
                    "4",
                    "--delay-ms",
                    "200",
                    "--jvm-opts",
                    "-Xmx256m",
                    "--no-pin",
                    "--repeat",
                    "1",
                    "--out",
                    out.toString()));
            args.addAll(cluster(processes, port));
            Process compare = processes.start("compare", List.of(), args);
            assertEquals(0, exit(compare, Duration.ofMinutes(3)), processes.output("compare"));

            JsonNode runs = JSON.readTree(out.resolve("results.json").toFile()).get("runs");
            assertEquals(2, runs.size(), processes.output("compare"));
            for (JsonNode run : runs) {
                assertEquals("cluster", run.get("engine").asText());
                assertEquals("exact", run.at("/reconciliation/verdict").asText(), run.toString());
                JsonNode agents = run.get("agents");
                assertEquals(
                        List.of("a1", "a2"),
                        agents.findValuesAsText("name").stream().sorted().toList());
                long answered = 0;
                long requests = 0;
                for (JsonNode agent : agents) {
                    assertEquals(20, agent.get("connections").asInt(), "40 connections split evenly");
                    assertEquals(HOST, agent.get("host").asText());
                    answered += agent.get("answered").asLong();
                    requests += agent.get("requests").asLong();
                }
                assertEquals(
                        run.at("/reconciliation/serverCounted").asLong(),
                        answered,
                        "the agents' answers add up to /stats");
                assertEquals(run.get("requests").asLong(), requests, "the merged count is the agents' sum");
                assertTrue(run.at("/coordination/messages").asLong() > 0, run.toString());
                assertEquals(40, run.get("connectionsOpened").asInt(), run.toString());
            }
            assertTrue(processes.output("compare").contains("merged from 2 agents"), processes.output("compare"));

            for (String agent : List.of("a1", "a2")) {
                assertEquals(
                        0,
                        processes.terminate(agent),
                        "SIGTERM: the agent leaves and exits 0\n" + processes.output(agent));
                assertTrue(processes.output(agent).contains("agent " + agent + ": stopping"), processes.output(agent));
            }
        }
    }

    @Test
    void anAgentKilledMidRunFailsThatRunNamingItTheLoadStopsAndTheNextRunTakesTheSpareAgent() throws Exception {
        int port = ClusterProcesses.freePort();
        try (ClusterProcesses processes = new ClusterProcesses(dir);
                ServerProcess server = server("vertx")) {
            processes.agent("a1", List.of(), HOST, port, null);
            processes.agent("a2", List.of(), HOST, port + 10, HOST + ":" + port);
            Path out = dir.resolve("results");
            List<String> args = new ArrayList<>(List.of(
                    "compare",
                    "--agents",
                    "2",
                    "--targets",
                    "vertx=" + server.baseUrl(),
                    "--concurrency",
                    "40,40",
                    "--rampup",
                    "0",
                    "--warmup",
                    "1",
                    "--duration",
                    "60",
                    "--delay-ms",
                    "200",
                    "--no-pin",
                    "--repeat",
                    "1",
                    "--out",
                    out.toString()));
            args.addAll(cluster(processes, port));
            Process compare = processes.start("compare", List.of(), args);
            processes.awaitLine("compare", compare, "compare: agent 2/2", Duration.ofSeconds(60));
            // a spare that joins now waits for the next run
            processes.agent("a3", List.of(), HOST, port + 20, HOST + ":" + port);
            awaitLoad(server);
            assertTrue(
                    compare.isAlive() && !processes.output("compare").contains("[1/2"),
                    "still in the first run (60 s)");
            long killed = System.nanoTime();
            processes.kill("a1");
            long stoppedMs = loadStoppedMillis(server, killed);
            System.out.printf(
                    "agent killed mid-run: the server's count stopped growing %d ms after the kill%n", stoppedMs);
            assertTrue(stoppedMs <= 5000, "the load stopped " + stoppedMs + " ms after the agent was killed");

            assertEquals(1, exit(compare, Duration.ofMinutes(2)), processes.output("compare"));
            assertTrue(
                    processes.output("compare").contains("agent a1 (127.0.0.1) left the cluster mid-run"),
                    processes.output("compare"));
            JsonNode runs = JSON.readTree(out.resolve("results.json").toFile()).get("runs");
            assertEquals(1, runs.size(), "the lost run is not kept, the next one is: " + processes.output("compare"));
            assertEquals("exact", runs.get(0).at("/reconciliation/verdict").asText());
            assertEquals(
                    List.of("a2", "a3"),
                    runs.get(0).get("agents").findValuesAsText("name").stream()
                            .sorted()
                            .toList());

            // run --agents drives a plan from the same agents: drill's summary, counts split and exact
            Path plan = Files.writeString(dir.resolve("plan.yml"), """
                    concurrency: 40
                    base: 'http://localhost:8080'
                    iterations: 4000
                    rampup: 0
                    plan:
                      - name: Fetch the page
                        request:
                          url: /
                    """);
            long before = requests(server);
            List<String> runArgs = new ArrayList<>(List.of(
                    "run",
                    "--plan",
                    plan.toString(),
                    "--base",
                    server.baseUrl(),
                    "--agents",
                    "2",
                    "--cluster-port",
                    String.valueOf(port + 40)));
            runArgs.addAll(cluster(processes, port + 10)); // a1, at port, is gone
            Process run = processes.start("run", List.of(), runArgs);
            assertEquals(0, exit(run, Duration.ofMinutes(2)), processes.output("run"));
            for (String line : List.of(
                    "Total requests            4000", "Failed requests           0", "Connections opened        40")) {
                assertTrue(processes.output("run").contains(line), line + " in\n" + processes.output("run"));
            }
            assertTrue(
                    processes
                                    .output("run")
                                    .lines()
                                    .filter(line -> line.startsWith("agent a"))
                                    .count()
                            == 2,
                    processes.output("run"));
            assertEquals(4000, requests(server) - before, "the server counted the plan's iterations");
        }
    }

    @Test
    void fewerAgentsThanAskedWithinTheTimeoutIsOneLineNamingWhoJoinedAndExit2() throws Exception {
        int port = ClusterProcesses.freePort();
        try (ClusterProcesses processes = new ClusterProcesses(dir);
                ServerProcess server = server("vertx")) {
            processes.agent("a1", List.of(), HOST, port, null);
            List<String> args = new ArrayList<>(List.of(
                    "compare",
                    "--agents",
                    "2",
                    "--agents-timeout",
                    "5",
                    "--targets",
                    "vertx=" + server.baseUrl(),
                    "--no-pin",
                    "--repeat",
                    "1",
                    "--out",
                    dir.resolve("none").toString()));
            args.addAll(cluster(processes, port));
            Process compare = processes.start("compare", List.of(), args);
            assertEquals(2, exit(compare, Duration.ofMinutes(2)), processes.output("compare"));
            List<String> errors = processes
                    .output("compare")
                    .lines()
                    .filter(line -> line.startsWith("loadtest:"))
                    .toList();
            assertEquals(
                    List.of("loadtest: --agents 2: only 1 agent(s) joined in time (a1 (127.0.0.1))"),
                    errors,
                    processes.output("compare"));
            assertEquals(0, requests(server), "no run was made");
        }
    }

    @Test
    void compareKilledMidRunStopsEveryAgentsLoadAndWhileItRunsASecondCompareIsRefused() throws Exception {
        int port = ClusterProcesses.freePort();
        try (ClusterProcesses processes = new ClusterProcesses(dir);
                ServerProcess server = server("undertow")) {
            processes.agent("a1", List.of(), HOST, port, null);
            processes.agent("a2", List.of(), HOST, port + 10, HOST + ":" + port);
            List<String> args = new ArrayList<>(List.of(
                    "compare",
                    "--agents",
                    "2",
                    "--targets",
                    "undertow=" + server.baseUrl(),
                    "--concurrency",
                    "40",
                    "--rampup",
                    "0",
                    "--warmup",
                    "1",
                    "--duration",
                    "60",
                    "--delay-ms",
                    "200",
                    "--no-pin",
                    "--repeat",
                    "1",
                    "--out",
                    dir.resolve("first").toString()));
            args.addAll(cluster(processes, port));
            Process first = processes.start("first", List.of(), args);
            awaitLoad(server);

            List<String> second = new ArrayList<>(args);
            second.set(
                    second.indexOf(dir.resolve("first").toString()),
                    dir.resolve("second").toString());
            second.addAll(List.of("--cluster-port", String.valueOf(port + 30)));
            Process refused = processes.start("second", List.of(), second);
            assertEquals(2, exit(refused, Duration.ofSeconds(90)), processes.output("second"));
            assertTrue(
                    processes
                            .output("second")
                            .lines()
                            .anyMatch(line -> line.matches("loadtest: --agents: another compare or run has this cluster"
                                    + " \\(compare-127\\.0\\.0\\.1-\\d+ \\(127\\.0\\.0\\.1\\)\\):"
                                    + " one compare or run at a time on these agents")),
                    processes.output("second"));

            long killed = System.nanoTime();
            first.destroyForcibly();
            long stoppedMs = loadStoppedMillis(server, killed);
            System.out.printf(
                    "compare killed mid-run: the server's count stopped growing %d ms after the kill%n", stoppedMs);
            assertTrue(stoppedMs <= 5000, "the load stopped " + stoppedMs + " ms after compare was killed");
        }
    }

    private ServerProcess server(String name) {
        return ServerProcess.start(
                ServerProcess.Launch.logged(name, ServersIT.jar(name), List.of("-Xmx256m"), dir.resolve(name + ".log")),
                List.of("--delay-every", "10", "--delay-ms", "200"));
    }

    private static long requests(ServerProcess server) throws Exception {
        HttpResponse<String> stats = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(server.baseUrl() + "/stats"))
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        Matcher m = REQUESTS.matcher(stats.body());
        assertTrue(m.find(), stats.body());
        return Long.parseLong(m.group(1));
    }

    /** Until the server has counted some requests. */
    private static void awaitLoad(ServerProcess server) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (requests(server) < 500) {
            assertTrue(System.nanoTime() < deadline, "no load reached the server");
            Thread.sleep(50);
        }
    }

    /**
     * How long after {@code sinceNanos} the server counted its last request before half a second with none. 40
     * closed-loop connections held at most 200 ms each send about 2,000 requests a second, so such a gap means the load
     * stopped; it is shorter than the pause before compare's next run (the stopped agents' reports, a claim, "start in
     * 500 ms").
     */
    private static long loadStoppedMillis(ServerProcess server, long sinceNanos) throws Exception {
        long last = requests(server);
        long lastGrewNanos = System.nanoTime();
        long deadline = sinceNanos + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() - lastGrewNanos < Duration.ofMillis(500).toNanos()) {
            assertTrue(System.nanoTime() < deadline, "the server still counts requests 30 s later");
            Thread.sleep(20);
            long now = requests(server);
            if (now != last) {
                last = now;
                lastGrewNanos = System.nanoTime();
            }
        }
        return Math.max(0, (lastGrewNanos - sinceNanos) / 1_000_000);
    }
}
