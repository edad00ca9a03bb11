package dev.threadbench.loadtest.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.threadbench.loadtest.MainTest;
import dev.threadbench.loadtest.server.RunningServer;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** compare --targets: what it accepts, and one line and exit code 2 for what it does not. */
class CompareTargetsTest {

    @Test
    void targetsAreKeptInTheirOrderWithAnExplicitPort() {
        assertEquals(
                Map.of("vertx", URI.create("http://vertx:8081"), "undertow", URI.create("http://10.0.0.5:80")),
                RunningServer.parseTargets(" vertx = http://vertx:8081/ ,undertow=HTTP://10.0.0.5"));
        assertEquals(
                "[vertx, undertow]",
                RunningServer.parseTargets("vertx=http://v:1,undertow=http://u:2")
                        .keySet()
                        .toString());
    }

    @Test
    void anyNameOfLettersDigitsAndDashesIsATarget() {
        assertEquals(
                "[a, copy-2, Jetty12]",
                RunningServer.parseTargets("a=http://127.0.0.1:8080,copy-2=http://127.0.0.1:8081,Jetty12=http://j:80")
                        .keySet()
                        .toString());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            --targets undertow                                    | --targets: expected NAME=URL[,NAME=URL...], got 'undertow'
            --targets undertow=http://u:8080,                     | --targets: expected NAME=URL[,NAME=URL...], got ''
            --targets a_b=http://j:8080                           | --targets: 'a_b' is no name: give letters, digits and dashes
            --targets =http://j:8080                              | --targets: '' is no name: give letters, digits and dashes
            --targets -a=http://j:8080                            | --targets: '-a' is no name: give letters, digits and dashes
            --targets undertow=http://a:1,undertow=http://b:2     | --targets: undertow is given twice
            --targets undertow=https://u:8443                     | --targets: undertow: must be an http:// base URL (host and port, no path), got https://u:8443
            --targets vertx=vertx:8081                            | --targets: vertx: must be an http:// base URL (host and port, no path), got vertx:8081
            --targets vertx=http://vertx:8081/app                 | --targets: vertx: must be an http:// base URL (host and port, no path), got http://vertx:8081/app
            --targets vertx=http://vertx:8081/?x=1                | --targets: vertx: must be an http:// base URL (host and port, no path), got http://vertx:8081/?x=1
            --targets vertx=http://vertx:80 81                    | loadtest: Unmatched argument at index 3: '81'
            --targets vertx=http://vertx:8081 --servers vertx     | --servers: not with --targets: --targets names the servers
            --targets vertx=http://vertx:8081 --jvm-opts -Xmx1g   | --jvm-opts: not with --targets: the running servers' JVMs are already started
            --targets vertx=http://vertx:8081 --vertx-jar v.jar   | --vertx-jar: not with --targets: compare starts no server
            --targets vertx=http://vertx:8081 --server-args=--workers=16 | --server-args: not with --targets: compare starts no server
            --targets vertx=http://vertx:8081 --work-us 50        | --work-us: not with --targets: compare starts no server: give it to the servers themselves
            --targets vertx=http://vertx:8081 --undertow-jar u.jar | --undertow-jar: not with --targets: compare starts no server
            --targets vertx=http://vertx:8081 --strategies all    | --strategies: not with --targets: the running servers keep their own strategies (see their /stats)
            --targets vertx=http://vertx:8081 --strategies timer  | --strategies: not with --targets: the running servers keep their own strategies (see their /stats)
            """)
    void badTargetsAreOneLineAndExitCode2(String args, String expected) {
        MainTest.Ran ran = MainTest.run(("compare " + args).split(" "));
        String line = expected.startsWith("loadtest: ") ? expected : "loadtest: " + expected;
        assertEquals(line + "\n", ran.err().replace("\r\n", "\n"));
        assertEquals(2, ran.code());
        assertEquals("", ran.out());
    }
}
