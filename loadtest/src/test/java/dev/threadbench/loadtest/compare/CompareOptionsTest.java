package dev.threadbench.loadtest.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** compare's options checked into settings leave the options as given: checking twice gives the same settings. */
class CompareOptionsTest {

    private static CompareOptions options(String args) {
        CommandLine command = new CommandLine(new CompareCommand());
        command.parseArgs(
                ("--targets undertow=http://127.0.0.1:1 " + args).trim().split(" "));
        return (CompareOptions) command.getCommandSpec().mixins().get("options").userObject();
    }

    @Test
    void validatingTwiceGivesTheSameSettings() {
        for (String args : List.of(
                "",
                "--sweep --sweep-max 30000",
                "--sweep --concurrency 250,500,1000 --sweep-max 700",
                "--quick --duration 5 --delay-ms 1500",
                "--warmup auto --rampup 1 --timeout 3 --event-loops 2",
                "--iterations 100000 --repeat 1",
                "--rate 0.5x,4000")) {
            CompareOptions options = options(args);
            CompareSettings first = options.validate();
            CompareSettings second = options.validate();
            assertEquals(first.runs(), second.runs(), args);
            assertEquals(first.workload(), second.workload(), args);
            assertEquals(first.servers(), second.servers(), args);
            assertEquals(first.generator(), second.generator(), args);
            assertEquals(first.sweep(), second.sweep(), args);
            assertEquals(first.out(), second.out(), args);
        }
    }
}
