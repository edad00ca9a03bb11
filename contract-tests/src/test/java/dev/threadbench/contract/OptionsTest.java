package dev.threadbench.contract;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.threadbench.process.ServerProcess;
import io.restassured.response.Response;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Both servers refuse bad options alike: one line naming the option, exit 2, nothing served. */
class OptionsTest {

    @BeforeAll
    static void onlyWhenTheSuiteStartsTheServers() {
        assumeFalse(Servers.external(), "checks the jars themselves");
    }

    static Stream<Arguments> badOptions() {
        List<List<String>> cases = List.of(
                List.of("--port", "-1", "--port"),
                List.of("--port", "http", "--port"),
                List.of("--port", "65536", "--port"),
                List.of("--delay-every", "-3", "--delay-every"),
                List.of("--delay-every", "1.5", "--delay-every"),
                List.of("--delay-ms", "-1", "--delay-ms"),
                List.of("--delay-ms", "2s", "--delay-ms"),
                List.of("--workers", "0", "--workers"),
                List.of("--strategy", "sleep", "--strategy"),
                List.of("--page", "/no/such/page.html", "--page"),
                List.of("--bogus", "1", "--bogus"));
        return Servers.NAMES.stream()
                .flatMap(server -> cases.stream().map(c -> Arguments.of(server, c.get(0), c.get(1), c.get(2))));
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("badOptions")
    void badOptionIsOneLineNamingItAndExit2(String server, String option, String value, String named) throws Exception {
        ServerProcess run = Servers.runToExit(server, Map.of(), option, value);
        assertOneLineError(run, named);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"undertow", "vertx"})
    void badEnvironmentValueNamesTheVariable(String server) throws Exception {
        ServerProcess run = Servers.runToExit(server, Map.of("DELAY_MS", "later"));
        assertOneLineError(run, "DELAY_MS");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"undertow", "vertx"})
    void portAlreadyInUse(String server) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            ServerProcess run = Servers.runToExit(
                    server, Map.of(), "--host", "127.0.0.1", "--port", String.valueOf(taken.getLocalPort()));
            assertOneLineError(run, "--port");
            assertTrue(run.stderr().contains(String.valueOf(taken.getLocalPort())), run.output());
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"undertow", "vertx"})
    void helpListsTheOptions(String server) throws Exception {
        ServerProcess run = Servers.runToExit(server, Map.of(), "--help");
        assertEquals(0, run.exitCode(), run.output());
        for (String option :
                List.of("--port", "--host", "--delay-every", "--delay-ms", "--strategy", "--workers", "--page")) {
            assertTrue(run.stdout().contains(option), option + run.output());
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"undertow", "vertx"})
    void servesAnotherPageFromEnvironmentOrFlag(String server, @TempDir Path dir) throws Exception {
        byte[] page = "<!DOCTYPE html><title>other</title><p>ünïcödé</p>\n".getBytes(StandardCharsets.UTF_8);
        Path file = Files.write(dir.resolve("other.html"), page);
        try (ServerProcess process = Servers.start(server, "--page", file.toString())) {
            Response response = new Target(server, process.baseUrl()).get("/");
            response.then().statusCode(200).header("Content-Length", String.valueOf(page.length));
            assertArrayEquals(page, response.asByteArray());
        }
    }

    private static void assertOneLineError(ServerProcess run, String named) {
        String stderr = run.stderr().strip();
        assertAll(
                run.output(),
                () -> assertEquals(2, run.exitCode(), "exit code"),
                () -> assertTrue(stderr.contains(named), "names " + named),
                () -> assertEquals(1, stderr.lines().count(), "one line"),
                () -> assertFalse(stderr.contains("Exception"), "no stack trace"),
                () -> assertFalse(run.stdout().contains("listening"), "nothing served"));
    }
}
