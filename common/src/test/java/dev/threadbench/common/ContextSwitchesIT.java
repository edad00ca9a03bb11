package dev.threadbench.common;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** Against the packaged multi-release jar, where the Java 22+ ContextSwitches reads getrusage. */
class ContextSwitchesIT {

    @Test
    void countsTheSwitchesOfThreadsThatHaveExited() throws Exception {
        assumeTrue(System.getProperty("os.name").toLowerCase(Locale.ROOT).startsWith("linux"));
        ContextSwitches before = ContextSwitches.ofThisProcess();
        assertNotNull(before.voluntary(), "read through getrusage");
        assertNotNull(before.involuntary());
        List<Thread> sleepers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            sleepers.add(Thread.ofPlatform().start(() -> {
                for (int sleep = 0; sleep < 50; sleep++) {
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }));
        }
        for (Thread sleeper : sleepers) {
            sleeper.join();
        }
        long liveThreadsVoluntary = liveThreadsVoluntarySwitches();
        ContextSwitches after = ContextSwitches.ofThisProcess();
        assertTrue(
                after.voluntary() >= before.voluntary() + 4 * 50,
                "4 threads, gone now, slept 50 times each: " + before + " then " + after);
        assertTrue(
                after.voluntary() >= liveThreadsVoluntary,
                "at least the live threads' own counts, " + liveThreadsVoluntary + ": " + after);
        assertTrue(after.involuntary() >= before.involuntary(), before + " then " + after);
    }

    private static long liveThreadsVoluntarySwitches() throws IOException {
        long sum = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                List<String> status;
                try {
                    status = Files.readAllLines(task.resolve("status"));
                } catch (NoSuchFileException exited) {
                    continue;
                }
                for (String line : status) {
                    if (line.startsWith("voluntary_ctxt_switches:")) {
                        sum += Long.parseLong(
                                line.substring(line.indexOf(':') + 1).strip());
                    }
                }
            }
        }
        return sum;
    }
}
