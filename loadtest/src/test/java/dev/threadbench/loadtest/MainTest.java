package dev.threadbench.loadtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.model.ResultsFixtures;
import dev.threadbench.loadtest.report.ResultsJson;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** Bad input: one line on stderr naming what is wrong, exit code 2, nothing on stdout. */
public class MainTest {

    @TempDir
    static Path dir;

    /** What a command printed and returned. */
    public record Ran(int code, String out, String err) {}

    /** Runs the CLI in this JVM, as {@code java -jar loadtest.jar ARGS} would. */
    public static Ran run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.execute(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Ran(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            ''                                                  | loadtest: missing command: run, compare, report, agent, keygen or cpus (see --help)
            bogus                                               | loadtest: Unmatched argument at index 0: 'bogus'
            run                                                 | loadtest: Missing required option: '--plan=FILE'
            run --plan no-such.yml                              | loadtest: no-such.yml: cannot read the plan (NoSuchFileException: no-such.yml)
            run --plan ../benchmarks/drill-1000.yml --concurrency lots | loadtest: Invalid value for option '--concurrency': 'lots' is not an int
            run --plan ../benchmarks/drill-1000.yml --iterations 10    | loadtest: command line: concurrency (1000) can not be higher than iterations (10)
            run --plan ../benchmarks/drill-1000.yml --base ftp://x     | loadtest: --base: must be an http:// URL with a host, got ftp://x
            run --plan ../benchmarks/drill-1000.yml --timeout 0        | loadtest: --timeout: must be at least 1 second, got 0
            run --plan ../benchmarks/drill-1000.yml --rate 0         | loadtest: --rate: must be more than 0, got '0'
            run --plan ../benchmarks/drill-1000.yml --rate abc       | loadtest: --rate: not a rate: 'abc' (requests/s such as 4000, or a fraction of the bound such as 0.9x)
            run --plan ../benchmarks/drill-1000.yml --rate 0.5x      | loadtest: --rate: 0.5x is a fraction of the bound, which only compare knows (it sets the servers' delay); give requests/s, e.g. --rate 4000
            compare --rate 0.5x,-1                              | loadtest: --rate: must be more than 0, got '-1'
            compare --rate 1x --delay-every 0                   | loadtest: --rate: 1x is a fraction of the bound, and with --delay-every 0 or --delay-ms 0 there is none; give requests/s
            compare --rate 4000 --engine wrk                    | loadtest: --rate: the open model runs on the embedded engine only, not --engine wrk
            compare --rate 0.5x --sweep                         | loadtest: --rate: not with --sweep, which drives each concurrency in a closed loop
            compare --servers jetty                             | loadtest: --servers: unknown server 'jetty' (expected undertow, vertx)
            compare --strategies fast                           | loadtest: --strategies: unknown strategy 'fast' (expected default, all, or some of blocking, timer, virtual)
            compare --concurrency 0                             | loadtest: --concurrency: must be at least 1, got 0
            compare --iterations 10 --duration 5                | loadtest: --iterations and --duration: give one or the other
            compare --delay-ms 1234                             | loadtest: --delay-ms: a measured window must be a whole number of delay periods, and 1234 ms periods add up to whole seconds only every 617 s; give a delay that does within a minute (500, 1000, 1500, 2000, ...)
            compare --engine ab                                 | loadtest: --engine: unknown engine 'ab' (expected embedded, wrk or drill)
            compare --server-args=--workers=0                   | loadtest: --server-args: --workers: must be >= 1, got 0
            compare --server-args=--threads=4                   | loadtest: --server-args: Unknown option: '--threads=4'
            compare --server-args=--strategy=timer              | loadtest: --server-args: --strategy is compare's to set: use --strategies
            compare --work-us -1                                | loadtest: --work-us: must be 0 to 60000000 microseconds (a minute), got -1
            compare --work-us lots                              | loadtest: Invalid value for option '--work-us': 'lots' is not a long
            compare --server-args=--port=80                     | loadtest: --server-args: --port is compare's to set: compare starts each server on a free port (its address: --server-host)
            compare --vertx-jar /no/such.jar --servers vertx    | loadtest: no vertx server jar at /no/such.jar: build it (./mvnw -B -q package -DskipTests) or pass --vertx-jar
            report /no/such/results.json                        | loadtest: /no/such/results.json: no such file
            compare --agents 0                                  | loadtest: --agents: must be at least 1, got 0
            compare --agents 3 --insecure --concurrency 2       | loadtest: --concurrency: 2 connection(s) cannot be split over 3 agents: give at least one per agent
            compare --agents 2 --insecure --engine wrk          | loadtest: --agents: the agents run the embedded runner, not --engine wrk
            compare --agents 2 --agents-timeout 0               | loadtest: --agents-timeout: must be at least 1 second, got 0
            compare --agents 2 --join a:b                       | loadtest: --join: not HOST or HOST:PORT: a:b
            compare --agents 2 --join x --kubernetes-dns y      | loadtest: --join and --kubernetes-dns: give one or the other
            compare --agents 2 --insecure --cluster-host no.such.host.invalid | loadtest: --cluster-host: cannot resolve no.such.host.invalid
            compare --agents 2 --cluster-port 70000             | loadtest: --cluster-port: must be a TCP port (1-65535), got 70000
            compare --server-host 0.0.0.0                       | loadtest: --server-host: 0.0.0.0 is no address to reach: give this host's address on the agents' network
            compare --server-host 198.18.255.254                | loadtest: --server-host: 198.18.255.254 is not an address of this host
            compare --server-host 127.0.0.1 --targets undertow=http://127.0.0.1:1 | loadtest: --server-host: not with --targets: compare starts no server
            run --plan ../benchmarks/drill-1000.yml --agents 2000 --insecure | loadtest: --concurrency: 1000 connection(s) cannot be split over 2000 agents: give at least one per agent
            agent --allow-targets 10.0.0.0/8 --join a:b         | loadtest: --join: not HOST or HOST:PORT: a:b
            agent --allow-targets 10.0.0.0/8 --join ,           | loadtest: --join: name at least one HOST[:PORT]
            agent                                               | loadtest: --allow-targets: name the servers this agent may load (CIDR or HOST, each with an optional :PORT, e.g. 198.18.0.0/24,10.1.2.3:8080): an agent loads nothing else, and nothing by default
            agent --allow-targets 10.0.0.0/8                    | loadtest: --cluster-key: no cluster key: make one with `loadtest keygen FILE` and give it to every node (--cluster-key FILE or $THREADBENCH_CLUSTER_KEY), or say --insecure on a network no one else reaches
            agent --allow-targets 10.0.0.0/8 --insecure --cluster-key /no/such.key | loadtest: --insecure and --cluster-key (or $THREADBENCH_CLUSTER_KEY): give one or the other
            agent --allow-targets 10.0.0.0/8 --cluster-key /no/such.key | loadtest: --cluster-key: no such file: /no/such.key
            agent --allow-targets 10.0.0.0/8 --insecure --failure-timeout 2 | loadtest: --failure-timeout: must be at least 3 seconds (compare speaks every second), got 2
            agent --allow-targets 10.0.0.0/8 --insecure --bus-port 70000 | loadtest: --bus-port: must be a TCP port (0-65535), got 70000
            agent --allow-targets 10.0.0.0/8 --insecure --cluster-host 127.0.0.1 --join 198.18.34.9 | loadtest: --cluster-host: 127.0.0.1 is a loopback address, which --join member 198.18.34.9 on another host cannot reach: give this host's address on its network
            compare --agents 1 --insecure --cluster-host 198.18.34.9 | loadtest: --agents: the servers compare starts would listen on 127.0.0.1, which agents on other hosts cannot reach: give --server-host ADDR, this host's address on the agents' network
            compare --agents 1 --insecure --cluster-host 198.18.34.9 --server-host 127.0.0.1 | loadtest: --server-host: 127.0.0.1 is a loopback address, which agents on other hosts cannot reach: give this host's address on the agents' network
            """)
    void badInputIsOneLineAndExitCode2(String args, String expected) {
        Ran ran = run(args.isEmpty() ? new String[0] : args.split(" "));
        assertEquals(expected + "\n", ran.err().replace("\r\n", "\n"));
        assertEquals(2, ran.code());
        assertEquals("", ran.out());
    }

    @Test
    void aServerThatWillNotStartIsOneLineAndExitCode1() throws Exception {
        Path notAJar = Files.writeString(dir.resolve("not-a.jar"), "not a jar");
        Ran ran = run(
                "compare",
                "--servers",
                "undertow",
                "--undertow-jar",
                notAJar.toString(),
                "--out",
                dir.resolve("out").toString());
        assertEquals(1, ran.code());
        assertTrue(
                ran.err().startsWith("loadtest: undertow server exited with code 1 before /health answered: "),
                ran.err());
        assertEquals(1, ran.err().strip().lines().count(), ran.err());
    }

    @Test
    void keygenWritesAKeyOnceAndNamesItByItsFingerprint() throws Exception {
        Path key = dir.resolve("cluster.key");
        Ran ran = run("keygen", key.toString());
        assertEquals(0, ran.code(), ran.err());
        assertTrue(
                ran.out()
                        .matches("keygen: wrote cluster key [0-9a-f]{16} to "
                                + java.util.regex.Pattern.quote(key.toString()) + "\\R"),
                ran.out());
        String written = Files.readString(key);
        Ran again = run("keygen", key.toString());
        assertEquals(2, again.code());
        assertEquals("loadtest: keygen: " + key + " exists: remove it first, or keep using it\n", again.err());
        assertEquals(written, Files.readString(key), "not overwritten");
    }

    @Test
    void helpListsTheCommands() {
        Ran ran = run("--help");
        assertEquals(0, ran.code());
        assertTrue(
                ran.out().contains("run")
                        && ran.out().contains("compare")
                        && ran.out().contains("report"),
                ran.out());
    }

    @ParameterizedTest
    @CsvSource({"run", "compare", "report", "agent"})
    void everyCommandsHelpRendersWithoutAPicocliWarning(String command) {
        PrintStream systemErr = System.err;
        ByteArrayOutputStream warnings = new ByteArrayOutputStream();
        Ran ran;
        try {
            // picocli writes a description it cannot format (a lone %) to System.err, not to the command's streams
            System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
            ran = run(command, "--help");
        } finally {
            System.setErr(systemErr);
        }
        assertEquals(0, ran.code(), ran.err());
        assertEquals("", warnings.toString(StandardCharsets.UTF_8));
        assertFalse(ran.out().contains("%n"), ran.out());
    }

    @Test
    void reportRebuildsThePageFromSavedResultsWhereOutSays() throws Exception {
        Path json = dir.resolve("saved").resolve("results.json");
        Files.createDirectories(json.getParent());
        ResultsJson.write(ResultsFixtures.results(), json);
        Path out = dir.resolve("pages").resolve("new");
        Ran ran = run("report", json.toString(), "--out", out.toString());
        assertEquals(0, ran.code(), ran.err());
        assertTrue(Files.readString(out.resolve("report.html")).contains("echarts.init("));
        assertTrue(ran.out().contains("report: " + out.resolve("report.html")), ran.out());
        assertTrue(Files.isRegularFile(out.resolve("summary.md")), "summary.md in --out");
        assertFalse(Files.exists(json.resolveSibling("report.html")), "nothing written beside FILE");
        assertFalse(Files.exists(json.resolveSibling("summary.md")), "nothing written beside FILE");
    }

    @Test
    void reportWritesUnderResultsByDefaultAndRefusesAnOutThatIsNoDirectory() throws Exception {
        CommandLine cli = new CommandLine(new Main(System.out, System.err));
        assertEquals(
                "results",
                cli.getSubcommands()
                        .get("report")
                        .getCommandSpec()
                        .findOption("--out")
                        .defaultValue());
        Path json = dir.resolve("results.json");
        ResultsJson.write(ResultsFixtures.results(), json);
        Path file = Files.writeString(dir.resolve("not-a-dir"), "x");
        Ran ran = run("report", json.toString(), "--out", file.toString());
        assertEquals(2, ran.code());
        assertEquals("loadtest: --out: " + file + " is not a directory\n", ran.err());
        assertEquals("", ran.out());
        Ran below = run("report", json.toString(), "--out", file.resolve("sub").toString());
        assertEquals(2, below.code());
        assertTrue(
                below.err()
                        .matches("loadtest: --out: cannot create "
                                + Pattern.quote(file.resolve("sub").toString()) + " \\(\\w+\\)\\R"),
                below.err());
    }
}
