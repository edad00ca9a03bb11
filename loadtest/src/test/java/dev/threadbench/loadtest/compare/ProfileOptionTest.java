package dev.threadbench.loadtest.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.threadbench.loadtest.MainTest;
import org.junit.jupiter.api.Test;

class ProfileOptionTest {

    @Test
    void aModeOtherThanCpuWallOrAllocIsOneLineAndExitCode2() {
        MainTest.Ran ran = MainTest.run("compare", "--profile", "lock", "--concurrency", "10");
        assertEquals(
                "loadtest: --profile: unknown mode 'lock' (expected cpu, wall, alloc)\n",
                ran.err().replace("\r\n", "\n"));
        assertEquals(2, ran.code());
        assertEquals("", ran.out());
    }
}
