package dev.threadbench.loadtest.cluster;

import static dev.threadbench.loadtest.cluster.ClusterProcesses.exit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadbench.loadtest.compare.ServersIT;
import dev.threadbench.process.ServerProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hosts as Linux network namespaces on a bridge (198.18.0.0/15, no route out): both servers in one, each agent in its
 * own, compare in another. compare drives both servers from the two agents; the counts are exact and each agent's
 * share comes from its own address.
 */
class ClusterInNamespacesIT {

    @TempDir
    Path dir;

    @Test
    void compareInOneHostDrivesServersInAnotherFromAgentsInTwoMore() throws Exception {
        Optional<String> unavailable = NetworkHosts.unavailable();
        assumeTrue(unavailable.isEmpty(), () -> "network namespaces: " + unavailable.orElseThrow());
        try (NetworkHosts hosts = NetworkHosts.create("tbcluster", List.of("servers", "compare", "agent1", "agent2"));
             ClusterProcesses processes = new ClusterProcesses(dir);
             ServerProcess undertow = server(hosts, "undertow", 8080);
             ServerProcess vertx = server(hosts, "vertx", 8081)) {
            String servers = hosts.address("servers");
            String first = hosts.address("agent1") + ":5701";
            processes.agent("agent1", hosts.command("agent1", List.of()), hosts.address("agent1"), 5701, null);
            processes.agent("agent2", hosts.command("agent2", List.of()), hosts.address("agent2"), 5701, first);
            Path out = dir.resolve("results");
            Process compare = processes.start("compare", hosts.command("compare", List.of()), List.of("compare", "--agents", "2",
                    "--cluster-host", hosts.address("compare"), "--join", first,
                    "--targets", "undertow=http://" + servers + ":8080,vertx=http://" + servers + ":8081",
                    "--concurrency", "200", "--rampup", "1", "--warmup", "2", "--duration", "6", "--no-pin", "--repeat", "1", "--out", out.toString()));
            int code = exit(compare, Duration.ofMinutes(3));
            System.out.println(processes.output("compare"));
            assertEquals(0, code, processes.output("compare") + processes.output("agent1") + processes.output("agent2"));

            JsonNode runs = new ObjectMapper().readTree(out.resolve("results.json").toFile()).get("runs");
            assertEquals(List.of("undertow", "vertx"), runs.findValuesAsText("server"));
            for (JsonNode run : runs) {
                assertEquals("exact", run.at("/reconciliation/verdict").asText(), run.toString());
                assertEquals(List.of(hosts.address("agent1"), hosts.address("agent2")),
                        run.get("agents").findValuesAsText("host").stream().sorted().toList());
                long answered = 0;
                for (JsonNode agent : run.get("agents")) {
                    assertEquals(100, agent.get("connections").asInt());
                    assertEquals(0, agent.get("failed").asLong());
                    answered += agent.get("answered").asLong();
                }
                assertEquals(run.at("/reconciliation/serverCounted").asLong(), answered);
            }
            assertEquals(0, undertow.stop(Duration.ofSeconds(15)), "SIGTERM: exit 0");
            assertEquals(0, vertx.stop(Duration.ofSeconds(15)), "SIGTERM: exit 0");
        }
    }

    /** The server in the servers' host, on its address; compare waits for its /health (this namespace cannot reach it). */
    private ServerProcess server(NetworkHosts hosts, String name, int port) {
        ServerProcess.Launch launch = ServerProcess.Launch.logged(name, ServersIT.jar(name), List.of("-Xmx256m"),
                dir.resolve(name + ".log")).through(hosts.command("servers", List.of()));
        return ServerProcess.launch(launch, List.of("--host", hosts.address("servers"), "--port", String.valueOf(port)));
    }
}
