package dev.threadbench.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerProcessTest {

    @TempDir
    Path dir;

    @Test
    void theCommandRunsTheJarWithThisJvmsJava() {
        ServerProcess.Launch launch =
                ServerProcess.Launch.logged("vertx", Path.of("v.jar"), List.of("-Xmx256m"), dir.resolve("v.log"));
        List<String> command = launch.command(ServerProcess.onLoopback("8081", List.of("--strategy", "timer")));
        assertTrue(command.getFirst().endsWith("java"), command.getFirst());
        assertEquals(
                List.of("-Xmx256m", "-jar", "v.jar", "--port", "8081", "--host", "127.0.0.1", "--strategy", "timer"),
                command.subList(1, command.size()));
    }

    @Test
    void aServerThatExitsBeforeItIsHealthyIsOneLineNamingItsLog() throws Exception {
        Path notAJar = Files.writeString(dir.resolve("not-a.jar"), "not a jar");
        Path log = dir.resolve("logs").resolve("undertow.log");
        ServerProcess.StartFailure failure = assertThrows(
                ServerProcess.StartFailure.class,
                () -> ServerProcess.start(ServerProcess.Launch.logged("undertow", notAJar, List.of(), log), List.of()));
        assertTrue(
                failure.getMessage().startsWith("undertow server exited with code 1 before /health answered: "),
                failure.getMessage());
        assertTrue(failure.getMessage().endsWith(" (log: " + log + ")"), failure.getMessage());
        assertEquals(1, failure.getMessage().lines().count());
    }
}
