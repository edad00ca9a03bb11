package dev.threadbench.loadtest.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.threadbench.loadtest.base.UsageException;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServerArgsTest {

    @Test
    void workGoesToTheServersAfterTheirOtherArguments() {
        assertEquals(List.of("--workers", "16", "--work-us", "50"), ServerArgs.check(List.of("--workers", "16"), 50));
        assertEquals(List.of("--work-us", "7"), ServerArgs.check(List.of(), 7));
        assertEquals(List.of("--workers", "16"), ServerArgs.check(List.of("--workers", "16"), 0), "no work, no option");
    }

    @Test
    void workInTheServerArgumentsIsCompares() {
        UsageException e = assertThrows(UsageException.class, () -> ServerArgs.check(List.of("--work-us", "5"), 0));
        assertEquals("--server-args: --work-us is compare's to set: use compare's own --work-us", e.getMessage());
    }
}
