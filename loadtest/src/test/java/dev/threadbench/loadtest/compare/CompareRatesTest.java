package dev.threadbench.loadtest.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.threadbench.loadtest.compare.CompareSettings.Load;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** compare --rate: the runs it plans, the rates resolved against each concurrency's bound, the connections. */
class CompareRatesTest {

    /** compare's options as checked, with --targets so that no server jar is needed. */
    private static List<Load> loads(String args) {
        CommandLine command = new CommandLine(new CompareCommand());
        command.parseArgs(
                ("--targets undertow=http://127.0.0.1:1 " + args).trim().split(" "));
        CompareOptions options = (CompareOptions)
                command.getCommandSpec().mixins().get("options").userObject();
        return options.validate().runs().loads();
    }

    @Test
    void withoutARateEachConcurrencyIsAClosedLoop() {
        assertEquals(List.of(Load.closed(1000), Load.closed(2000)), loads(""));
    }

    @Test
    void fractionsAreOfEachConcurrencysBoundOnEnoughConnectionsForTheDelayedRequests() {
        // bound 5 x C; at 4,500 req/s one in 10 held 2 s: 900 in flight, x 1.5 + 16
        assertEquals(
                List.of(
                        new Load(1000, 2500.0, 766),
                        new Load(1000, 4500.0, 1366),
                        new Load(2000, 5000.0, 1516),
                        new Load(2000, 9000.0, 2716)),
                loads("--rate 0.5x,0.9x"));
    }

    @Test
    void anAbsoluteRateRunsOnceUnlessTheConnectionsAreGiven() {
        assertEquals(List.of(new Load(1000, 4000.0, 1216)), loads("--rate 4000"));
        assertEquals(
                List.of(
                        new Load(300, 4000.0, 300),
                        new Load(300, 1500.0, 300),
                        new Load(600, 4000.0, 600),
                        new Load(600, 3000.0, 600)),
                loads("--rate 4000,1x --concurrency 300,600"));
    }
}
