package dev.threadbench.loadtest.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.base.UsageException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PlanParserTest {

    private static final String GOOD = """
            concurrency: 4
            base: 'http://localhost:9000'
            iterations: 10
            rampup: 2
            plan:
              - name: Fetch
                request:
                  url: /api/users?page=2
            """;

    @Test
    void theProjectsPlansAreRealDrillPlans() {
        for (int concurrency : new int[] {1000, 2000}) {
            Plan plan = PlanParser.parse(Path.of("..", "benchmarks", "drill-" + concurrency + ".yml"));
            assertEquals(concurrency, plan.concurrency());
            assertEquals(1_000_000, plan.iterations());
            assertEquals(2, plan.rampupSeconds());
            assertEquals(URI.create("http://localhost:8080"), plan.base());
            assertEquals(1, plan.steps().size());
            assertEquals("GET", plan.steps().getFirst().method());
            assertEquals(
                    URI.create("http://localhost:8080/"),
                    plan.steps().getFirst().url());
        }
    }

    @Test
    void joinsRelativeUrlsToTheBaseAsDrillDoes() {
        Plan plan = PlanParser.parse(GOOD, "good.yml");
        assertEquals(
                URI.create("http://localhost:9000/api/users?page=2"),
                plan.steps().getFirst().url());
        assertEquals(Map.of(), plan.steps().getFirst().headers());
    }

    @Test
    void rampupIsOptionalAndNumbersMayBeQuotedAsDrillAllows() {
        Plan plan = PlanParser.parse("""
                concurrency: '3'
                base: http://127.0.0.1:8081
                iterations: "9"
                plan:
                  - name: Head
                    request:
                      url: http://127.0.0.1:8081/
                      method: head
                      headers:
                        Accept: text/html
                """, "quoted.yml");
        assertEquals(3, plan.concurrency());
        assertEquals(9, plan.iterations());
        assertEquals(0, plan.rampupSeconds());
        assertEquals("HEAD", plan.steps().getFirst().method());
        assertEquals(Map.of("Accept", "text/html"), plan.steps().getFirst().headers());
    }

    @Test
    void overridesMoveRequestsToTheNewBaseAndAreCheckedAgain() {
        Plan plan = PlanParser.parse(GOOD, "good.yml").with(URI.create("http://127.0.0.1:8081"), 2, 20L, 0);
        assertEquals(
                URI.create("http://127.0.0.1:8081/api/users?page=2"),
                plan.steps().getFirst().url());
        assertEquals(2, plan.concurrency());
        assertEquals(20, plan.iterations());
        UsageException e = assertThrows(
                UsageException.class, () -> PlanParser.parse(GOOD, "good.yml").with(null, 50, null, null));
        assertEquals("command line: concurrency (50) can not be higher than iterations (10)", e.getMessage());
    }

    static Stream<Arguments> badPlans() {
        return Stream.of(
                Arguments.of(
                        "missing concurrency",
                        GOOD.replace("concurrency: 4\n", ""),
                        "missing required key 'concurrency'"),
                Arguments.of(
                        "missing base",
                        GOOD.replace("base: 'http://localhost:9000'\n", ""),
                        "missing required key 'base'"),
                Arguments.of(
                        "missing iterations",
                        GOOD.replace("iterations: 10\n", ""),
                        "missing required key 'iterations'"),
                Arguments.of(
                        "concurrency above iterations",
                        GOOD.replace("concurrency: 4", "concurrency: 400"),
                        "concurrency (400) can not be higher than iterations (10)"),
                Arguments.of(
                        "non-numeric",
                        GOOD.replace("iterations: 10", "iterations: lots"),
                        "'iterations' must be a whole number, got 'lots'"),
                Arguments.of(
                        "fractional",
                        GOOD.replace("rampup: 2", "rampup: 2.5"),
                        "'rampup' must be a whole number, got 2.5"),
                Arguments.of(
                        "negative",
                        GOOD.replace("concurrency: 4", "concurrency: -4"),
                        "'concurrency' must be at least 1, got -4"),
                Arguments.of(
                        "unknown top-level key",
                        GOOD.replace("rampup: 2", "rampup: 2\nthreads: 4"),
                        "unknown key 'threads' (a plan has base, concurrency, iterations, rampup, plan)"),
                Arguments.of(
                        "unknown step key",
                        GOOD.replace("    request:", "    rquest:"),
                        "plan step 1 'Fetch': unknown key 'rquest' (a step has name and request)"),
                Arguments.of(
                        "drill feature",
                        GOOD + "    assign: token\n",
                        "plan step 1 'Fetch': drill's 'assign' is not supported by this runner (a step has name and"
                                + " request)"),
                Arguments.of(
                        "missing url",
                        GOOD.replace("      url: /api/users?page=2", "      method: GET"),
                        "plan step 1 'Fetch': missing required key 'request.url'"),
                Arguments.of(
                        "POST",
                        GOOD + "      method: POST\n",
                        "plan step 1 'Fetch': method 'POST' is not supported (GET or HEAD; the runner sends no body)"),
                Arguments.of(
                        "https",
                        GOOD.replace("http://localhost:9000", "https://localhost:9000"),
                        "'base' must be an http:// URL with a host, got https://localhost:9000"),
                Arguments.of(
                        "interpolation",
                        GOOD.replace("/api/users?page=2", "/api/{{ item }}"),
                        "plan step 1 'Fetch': interpolations ({{ ... }}) are not supported: /api/{{ item }}"),
                Arguments.of(
                        "empty plan",
                        GOOD.substring(0, GOOD.indexOf("plan:")) + "plan: []\n",
                        "'plan' must be a non-empty list of steps"),
                Arguments.of(
                        "too large",
                        GOOD.replace("iterations: 10", "iterations: 99999999999999999999"),
                        "'iterations' is too large: 99999999999999999999"),
                Arguments.of(
                        "a step that is no mapping",
                        GOOD.substring(0, GOOD.indexOf("plan:")) + "plan:\n  - fetch\n",
                        "plan step 1: a step is a mapping with 'name' and 'request', got 'fetch'"),
                Arguments.of(
                        "headers that are no mapping",
                        GOOD + "      headers: [Accept]\n",
                        "plan step 1 'Fetch': 'headers' must be a mapping of header names to values, got a list"),
                Arguments.of(
                        "unknown request key",
                        GOOD + "      body: x\n",
                        "plan step 1 'Fetch': request key 'body' is not supported"
                                + " (a request has url, method, headers)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badPlans")
    void badPlansFailWithOneLineNamingTheProblem(String name, String yaml, String expected) {
        UsageException e = assertThrows(UsageException.class, () -> PlanParser.parse(yaml, "bad.yml"));
        assertEquals("bad.yml: " + expected, e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line");
    }

    @Test
    void invalidYamlAndMissingFilesAreOneLineToo() {
        UsageException yaml =
                assertThrows(UsageException.class, () -> PlanParser.parse("concurrency: [1,\n", "broken.yml"));
        assertTrue(yaml.getMessage().startsWith("broken.yml: not valid YAML: line "), yaml.getMessage());
        assertFalse(yaml.getMessage().contains("\n"));
        UsageException missing =
                assertThrows(UsageException.class, () -> PlanParser.parse(Path.of("no-such-plan.yml")));
        assertTrue(missing.getMessage().startsWith("no-such-plan.yml: cannot read the plan"), missing.getMessage());
        UsageException list = assertThrows(UsageException.class, () -> PlanParser.parse("- 1\n- 2\n", "list.yml"));
        assertEquals(
                "list.yml: a plan is a YAML mapping with keys base, concurrency, iterations, rampup, plan",
                list.getMessage());
    }
}
