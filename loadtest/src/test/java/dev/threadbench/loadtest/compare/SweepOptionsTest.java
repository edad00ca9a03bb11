package dev.threadbench.loadtest.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.base.UsageException;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** --sweep's grid, --sweep-max and --resolution as compare checks them: one line naming the option when wrong. */
class SweepOptionsTest {

    /** compare's options as checked, with --targets so that no server jar is needed. */
    private static CompareSettings settings(String args) {
        CommandLine command = new CommandLine(new CompareCommand());
        command.parseArgs(
                ("--targets undertow=http://127.0.0.1:1 " + args).trim().split(" "));
        CompareOptions options = (CompareOptions)
                command.getCommandSpec().mixins().get("options").userObject();
        return options.validate();
    }

    private static List<Integer> grid(String args) {
        return settings(args).runs().concurrencies();
    }

    private static String refused(String args) {
        String message =
                assertThrows(UsageException.class, () -> settings(args)).getMessage();
        assertEquals(1, message.lines().count(), message);
        return message;
    }

    @Test
    void theGridGoesPast10000InOneTwoFiveStepsUpToSweepMaxWhichIsItsLastPoint() {
        assertEquals(List.of(250, 500, 1000, 2000, 5000, 10000), RunLength.sweepGrid(10000));
        assertEquals(List.of(250, 500, 1000, 2000, 5000, 10000, 19000), RunLength.sweepGrid(19000));
        assertEquals(List.of(250, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000), RunLength.sweepGrid(100000));
        assertEquals(List.of(250, 500, 700), RunLength.sweepGrid(700));
        assertEquals(20000, RunLength.nextGridPoint(19000));
        assertEquals(50000, RunLength.nextGridPoint(20000));
        assertEquals(19000, RunLength.roundDown(19488));
        assertEquals(250, RunLength.roundDown(250));
        assertEquals(List.of(250, 500, 1000, 2000, 5000, 10000, 20000, 30000), grid("--sweep --sweep-max 30000"));
        assertEquals(
                List.of(250, 500, 700),
                grid("--sweep --concurrency 250,500,1000 --sweep-max 700"),
                "--concurrency names the grid; --sweep-max caps it");
        assertEquals(List.of(50, 100), grid("--sweep --concurrency 50,100 --sweep-max 5000"));
    }

    @Test
    void byDefaultTheSweepGoesAsFarAsHeadroomAllowsAndPlansTheNextPointForTheMachinesReason() {
        Headroom.Machine machine = new Headroom.Machine(20000, 24L << 30, 24L << 30);
        OptionalInt largest = Headroom.largest(true, List.of("-Xmx2g"), machine);
        assertEquals(20000 - (int) Headroom.SPARE_DESCRIPTORS, largest.getAsInt(), "the descriptors, here");
        assertTrue(Headroom.skipped(List.of(largest.getAsInt()), true, List.of("-Xmx2g"), machine)
                .isEmpty());
        assertEquals(
                List.of(largest.getAsInt() + 1),
                Headroom.skipped(List.of(largest.getAsInt() + 1), true, List.of("-Xmx2g"), machine).stream()
                        .map(s -> s.concurrency())
                        .toList());
        assertEquals(
                OptionalInt.empty(),
                Headroom.largest(true, List.of(), new Headroom.Machine(-1, -1, -1)),
                "nothing known");

        List<Integer> grid = grid("--sweep");
        OptionalInt here = Headroom.largest(false, List.of(), Headroom.Machine.probe());
        if (here.isPresent()) {
            int most = RunLength.roundDown(here.getAsInt());
            assertEquals(most, grid.get(grid.size() - 2), grid.toString());
            assertEquals(
                    RunLength.nextGridPoint(most), grid.getLast(), "planned, to be skipped with the machine's reason");
            assertEquals(
                    List.of(grid.getLast()),
                    Headroom.skipped(grid, false, List.of(), Headroom.Machine.probe()).stream()
                            .map(s -> s.concurrency())
                            .toList());
        }
    }

    @Test
    void theResolutionIsAPercentageTenByDefault() {
        assertEquals(0.10, settings("--sweep").sweep().resolution());
        assertEquals(0.05, settings("--sweep --resolution 5%").sweep().resolution());
        assertEquals(0.25, settings("--sweep --resolution 25").sweep().resolution());
        assertEquals(0.025, settings("--sweep --resolution 2.5%").sweep().resolution(), 1e-12);
        assertNull(settings("").sweep().resolution(), "no sweep, nothing to narrow");
        assertEquals(0.10, settings("--sweep").results("embedded").sweepResolution(), "into results.json's settings");
    }

    @Test
    void badValuesAreOneLineNamingTheOption() {
        assertEquals(
                "--resolution: not a percentage: 'ten' (give e.g. 10% or 10)", refused("--sweep --resolution ten"));
        assertEquals(
                "--resolution: must be more than 0 % and less than 100 %, got '0%'",
                refused("--sweep --resolution 0%"));
        assertEquals(
                "--resolution: must be more than 0 % and less than 100 %, got '150'",
                refused("--sweep --resolution 150"));
        assertEquals("--resolution: only with --sweep", refused("--resolution 10%"));
        assertEquals("--sweep-max: only with --sweep", refused("--sweep-max 20000"));
        assertEquals("--sweep-max: must be at least 1, got 0", refused("--sweep --sweep-max 0"));
        assertEquals(
                "--sweep-max: must be at least the sweep's smallest concurrency, 250, got 100",
                refused("--sweep --sweep-max 100"));
        assertEquals(
                "--sweep-max: must be at least the sweep's smallest concurrency, 50, got 20",
                refused("--sweep --concurrency 50,100 --sweep-max 20"));
    }
}
