package dev.threadbench.loadtest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.threadbench.loadtest.compare.ServersIT;
import dev.threadbench.process.ServerProcess;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hosts in network namespaces: a server in one answers another, and nothing leaks in or out. Needs root. */
class NetworkHostsIT {

    private static final String PREFIX = "tbit";

    @TempDir
    Path dir;

    @BeforeEach
    void needsNamespaces() {
        Optional<String> unavailable = NetworkHosts.unavailable();
        assumeTrue(unavailable.isEmpty(), () -> unavailable.orElseThrow());
    }

    @Test
    void aServerInOneHostAnswersAnotherAndIsReachableFromNowhereElse() throws Exception {
        List<String> rootLinks = rootLinks();
        try (NetworkHosts hosts = NetworkHosts.create(PREFIX, List.of("servers", "a", "b"))) {
            String address = hosts.address("servers");
            assertTrue(hosts.subnet().matches("198\\.18\\.\\d+\\.0/24"), hosts.subnet());
            assertEquals(hosts.subnet().replace(".0/24", ".1"), address);
            assertEquals(hosts.subnet().replace(".0/24", ".3"), hosts.address("b"));
            assertEquals(
                    "",
                    ok(List.of("ip", "-n", hosts.bridgeNamespace(), "-o", "addr", "show")),
                    "no address on the bridge");
            for (String host : hosts.hosts()) {
                assertEquals(
                        "",
                        ok(hosts.command(host, List.of("ip", "route", "show", "default"))),
                        host + ": no default route");
                assertEquals("", ok(hosts.command(host, List.of("ip", "-6", "route", "show", "default"))), host);
                assertEquals(
                        "65535",
                        ok(hosts.command(host, List.of("sysctl", "-n", "net.core.somaxconn")))
                                .strip(),
                        host);
                assertEquals(
                        "10240\t65535",
                        ok(hosts.command(host, List.of("sysctl", "-n", "net.ipv4.ip_local_port_range")))
                                .strip());
            }

            ServerProcess.Launch launch = ServerProcess.Launch.logged(
                            "vertx", ServersIT.jar("vertx"), List.of("-Xmx256m"), dir.resolve("vertx.log"))
                    .through(hosts.command("servers", List.of()));
            try (ServerProcess server = ServerProcess.launch(launch, List.of("--host", address, "--port", "8081"))) {
                Ran health = run(hosts.command("a", HealthProbe.command("http://" + address + ":8081/health")));
                assertEquals(0, health.code(), health.output() + server.output());
                assertEquals("200 {\"status\":\"UP\"}", health.output().strip(), server.output());

                // the root namespace: no interface, address or route of ours; no packet is sent to find out
                assertEquals(rootLinks, rootLinks());
                assertEquals("", ok(List.of("ip", "-o", "addr", "show", "to", hosts.subnet())));
                List<String> routes = ok(List.of("ip", "route", "list", "match", address))
                        .lines()
                        .filter(route -> !route.startsWith("default "))
                        .toList();
                assertEquals(
                        List.of(),
                        routes,
                        "the root namespace routes to " + address + " only by its default route, if any");
                assertEquals(0, server.stop(Duration.ofSeconds(15)), "SIGTERM: exit 0" + server.output());
            }

            for (String outside : List.of("8.8.8.8", "2001:4860:4860::8888")) {
                Ran route = run(hosts.command("a", List.of("ip", "route", "get", outside)));
                assertNotEquals(0, route.code(), route.output());
                assertTrue(route.output().contains("Network is unreachable"), route.output());
            }
            hosts.close();
            hosts.close();
        }
        assertEquals(List.of(), namespaces());
        assertEquals(rootLinks, rootLinks());
    }

    @Test
    void createClearsWhatAKilledRunLeftAndAPrefixInUseIsRefused() throws Exception {
        ok(List.of("ip", "netns", "add", PREFIX + "-a"));
        Process leftBehind = new ProcessBuilder("ip", "netns", "exec", PREFIX + "-a", "sleep", "600").start();
        try (NetworkHosts hosts = NetworkHosts.create(PREFIX, List.of("a", "b"))) {
            assertTrue(leftBehind.waitFor(5, TimeUnit.SECONDS), "a process in a namespace left behind is killed");
            assertEquals(List.of(PREFIX + "-a", PREFIX + "-b", PREFIX + "-bridge"), namespaces());

            IOException refused = assertThrows(IOException.class, () -> NetworkHosts.create(PREFIX, List.of("c")));
            assertEquals(
                    "network hosts: prefix " + PREFIX + " is held by another running process", refused.getMessage());
            assertEquals(
                    List.of(PREFIX + "-a", PREFIX + "-b", PREFIX + "-bridge"), namespaces(), "the holder's hosts stay");

            try (NetworkHosts other = NetworkHosts.create(PREFIX + "x", List.of("a"))) {
                assertNotEquals(hosts.subnet(), other.subnet());
            }
            Process running = new ProcessBuilder(hosts.command("b", List.of("sleep", "600"))).start();
            hosts.close();
            assertFalse(running.isAlive(), "close kills what still runs in a host");
        } finally {
            leftBehind.destroyForcibly();
        }
        assertEquals(List.of(), namespaces());
    }

    /** Polls a URL until it answers, up to 30 s, and prints {@code STATUS BODY}: a client to run inside a host. */
    static final class HealthProbe {

        static List<String> command(String url) throws Exception {
            Path classes = Path.of(HealthProbe.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            return List.of(
                    ProcessHandle.current().info().command().orElse("java"),
                    "-cp",
                    classes.toString(),
                    HealthProbe.class.getName(),
                    url);
        }

        public static void main(String[] args) throws Exception {
            HttpClient client = HttpClient.newBuilder()
                    .connectTimeout(Duration.ofSeconds(1))
                    .build();
            HttpRequest request = HttpRequest.newBuilder(URI.create(args[0]))
                    .timeout(Duration.ofSeconds(2))
                    .build();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (true) {
                try {
                    HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
                    System.out.println(response.statusCode() + " " + response.body());
                    return;
                } catch (IOException notYet) {
                    if (System.nanoTime() > deadline) {
                        System.out.println("no answer from " + args[0] + ": " + notYet);
                        System.exit(1);
                    }
                    Thread.sleep(100);
                }
            }
        }
    }

    private static List<String> namespaces() throws Exception {
        return ok(List.of("ip", "netns", "list"))
                .lines()
                .map(line -> line.split(" ")[0])
                .filter(name -> name.startsWith(PREFIX))
                .sorted()
                .toList();
    }

    private static List<String> rootLinks() throws Exception {
        return ok(List.of("ip", "-o", "link", "show"))
                .lines()
                .map(line -> line.split(":")[1].strip())
                .sorted()
                .toList();
    }

    record Ran(int code, String output) {}

    private static Ran run(List<String> command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), String.join(" ", command));
        return new Ran(process.exitValue(), output);
    }

    private static String ok(List<String> command) throws Exception {
        Ran ran = run(command);
        assertEquals(0, ran.code(), String.join(" ", command) + ": " + ran.output());
        return ran.output();
    }
}
