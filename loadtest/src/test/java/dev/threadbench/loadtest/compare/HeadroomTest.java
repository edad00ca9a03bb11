package dev.threadbench.loadtest.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.threadbench.loadtest.model.Results;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which concurrencies the machine cannot hold, and why, before the first run. */
class HeadroomTest {

    private static final List<Integer> SWEEP = RunLength.SWEEP_CONCURRENCIES;

    @Test
    void aLowDescriptorLimitSkipsTheLargestPointsNamingTheLimit() {
        List<Results.Skipped> skipped =
                Headroom.skipped(SWEEP, true, List.of("-Xmx2g"), new Headroom.Machine(4096, 24L << 30, 24L << 30));
        assertEquals(
                List.of(5000, 10000),
                skipped.stream().map(Results.Skipped::concurrency).toList());
        assertEquals(
                "the descriptor limit (ulimit -n) is 4,096; 5,000 connections need about 5,512 in the load generator"
                        + " and as many in the server",
                skipped.getFirst().reason());
    }

    @Test
    void tooLittleMemoryForTheServersHeapAndConnectionsSkipsThePoint() {
        List<Results.Skipped> skipped = Headroom.skipped(
                SWEEP, true, List.of("-Xms512m", "-Xmx2g"), new Headroom.Machine(65536, 3L << 30, 4L << 30));
        assertEquals(
                List.of(10000),
                skipped.stream().map(Results.Skipped::concurrency).toList());
        assertEquals(
                "3,072 MB of memory available; the server may need 3,554 MB at 10,000 connections (its -Xmx 2,048 MB"
                        + " + 256 MB + 128 kB per connection)",
                skipped.getFirst().reason());
        assertEquals(
                List.of(),
                Headroom.skipped(SWEEP, false, List.of(), new Headroom.Machine(65536, 1L << 30, 4L << 30)),
                "--targets: the servers' memory is elsewhere");
    }

    @Test
    void portsNameTheSourceAddressesMissing() {
        List<Results.Skipped> skipped = Headroom.portsSkipped(
                List.of(10_000, 30_000, 60_000), List.of("10.0.0.7"), "embedded", (host, c) -> 2, 28_232);
        assertEquals(
                List.of(60_000),
                skipped.stream().map(Results.Skipped::concurrency).toList(),
                "two addresses hold 56,464");
        assertEquals(
                "60,000 connections to 10.0.0.7 need 3 source addresses (28,232 ephemeral ports each per server port),"
                        + " the embedded engine has 2: give --source-addresses",
                skipped.getFirst().reason());
        assertEquals(
                "30,000 connections to 127.0.0.1 need 2 source addresses (28,232 ephemeral ports each per server port),"
                        + " the wrk engine has 1: use --engine embedded with --source-addresses",
                Headroom.portsSkipped(List.of(30_000), List.of("127.0.0.1"), "wrk", (host, c) -> 1, 28_232)
                        .getFirst()
                        .reason());
        assertEquals(
                List.of(),
                Headroom.portsSkipped(List.of(100_000), List.of("127.0.0.1"), "wrk", (host, c) -> 1, -1),
                "the ephemeral range unknown: no claim");
    }

    @Test
    void aPointSkippedForTwoReasonsIsSkippedOnce() {
        List<Results.Skipped> both = Headroom.and(
                List.of(new Results.Skipped(30_000, "descriptors")),
                List.of(new Results.Skipped(30_000, "ports"), new Results.Skipped(60_000, "ports")));
        assertEquals(
                List.of("descriptors", "ports"),
                both.stream().map(Results.Skipped::reason).toList());
    }

    @Test
    void theHeapIsTheLastXmxOrAQuarterOfTheMachine() {
        assertEquals(512L << 20, Headroom.maxHeapBytes(List.of("-Xmx2g", "-Xmx512m"), 8L << 30));
        assertEquals(2L << 30, Headroom.maxHeapBytes(List.of("-XX:+UseG1GC"), 8L << 30));
    }

    @Test
    void thisMachineIsProbed() {
        Headroom.Machine machine = Headroom.Machine.probe();
        assertEquals(true, machine.descriptorLimit() > 0 && machine.totalBytes() > 0, machine.toString());
    }
}
