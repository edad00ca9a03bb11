package dev.threadbench.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ServerOptionsTest {

    private static final ServerOptions.Defaults UNDERTOW =
            new ServerOptions.Defaults("undertow", 8080, Strategy.BLOCKING);

    private static ServerOptions parse(Map<String, String> env, String... args) {
        return ServerOptions.parse(UNDERTOW, args, env);
    }

    @Test
    void defaults() {
        ServerOptions o = parse(Map.of());
        assertEquals(8080, o.port());
        assertEquals("0.0.0.0", o.host());
        assertEquals(10, o.delayEvery());
        assertEquals(2000, o.delayMs());
        assertEquals(Strategy.BLOCKING, o.strategy());
        assertEquals(ServerOptions.DEFAULT_WORKERS, o.workers());
        assertEquals(Page.bundled().length(), o.page().length());
        assertEquals(CpuWork.NONE, o.work());
    }

    @Test
    void environmentOverridesDefaultsAndFlagsOverrideEnvironment() {
        Map<String, String> env =
                Map.of("PORT", "9000", "STRATEGY", "virtual", "DELAY_MS", "50", "DELAY_EVERY", "3", "WORKERS", "7");
        ServerOptions fromEnv = parse(env);
        assertEquals(9000, fromEnv.port());
        assertEquals(Strategy.VIRTUAL, fromEnv.strategy());
        assertEquals(50, fromEnv.delayMs());
        assertEquals(3, fromEnv.delayEvery());
        assertEquals(7, fromEnv.workers());
        assertEquals(25, parse(Map.of("WORK_US", "25")).work().micros());
        ServerOptions flags = parse(env, "--port", "9001", "--strategy=timer");
        assertEquals(9001, flags.port());
        assertEquals(Strategy.TIMER, flags.strategy());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "--port|-1|--port",
                "--port|70000|--port",
                "--port|abc|--port",
                "--delay-every|-1|--delay-every",
                "--delay-every|ten|--delay-every",
                "--delay-ms|-5|--delay-ms",
                "--workers|0|--workers",
                "--work-us|-1|--work-us: must be 0 to 60000000 microseconds (a minute), got -1",
                "--work-us|60000001|--work-us: must be 0 to 60000000",
                "--work-us|fifty|--work-us",
                "--strategy|sleepy|unknown strategy 'sleepy'",
                "--page|/nonexistent/page.html|--page: no such file",
            })
    void badValuesAreOneLineNamingTheOption(String option, String value, String expected) {
        OptionException e = assertThrows(OptionException.class, () -> parse(Map.of(), option, value));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }

    @Test
    void badEnvironmentValueNamesTheVariable() {
        OptionException e = assertThrows(OptionException.class, () -> parse(Map.of("DELAY_MS", "soon")));
        assertTrue(e.getMessage().contains("--delay-ms"), e.getMessage());
        assertTrue(e.getMessage().contains("DELAY_MS"), e.getMessage());
    }

    @Test
    void unknownOptionIsRefused() {
        OptionException e = assertThrows(OptionException.class, () -> parse(Map.of(), "--colour", "blue"));
        assertTrue(e.getMessage().contains("--colour"), e.getMessage());
    }

    @Test
    void environmentVariablesMatchTheOptions() {
        assertEquals(
                List.of("PORT", "HOST", "DELAY_EVERY", "DELAY_MS", "STRATEGY", "WORKERS", "WORK_US", "PAGE"),
                ServerOptions.environmentVariables());
    }

    @Test
    void helpListsEveryOptionWithItsVariable() {
        ServerOptions o = parse(Map.of(), "--help");
        assertTrue(o.helpRequested());
        for (String s : new String[] {
            "--port",
            "PORT",
            "--host",
            "--delay-every",
            "DELAY_EVERY",
            "--delay-ms",
            "--strategy",
            "--workers",
            "--work-us",
            "WORK_US",
            "--page"
        }) {
            assertTrue(o.usage().contains(s), s);
        }
    }
}
