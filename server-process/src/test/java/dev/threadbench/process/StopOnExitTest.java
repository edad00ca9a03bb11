package dev.threadbench.process;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A JVM that started a server and is stopped itself (Ctrl-C, SIGTERM) leaves no server behind. */
class StopOnExitTest {

    @TempDir
    Path dir;

    @Test
    void aServerStartedByAJvmThatIsTerminatedIsStoppedWithIt() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process parent = new ProcessBuilder(
                        java.toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        StartsAServer.class.getName(),
                        dir.resolve("server.log").toString())
                .redirectErrorStream(true)
                .start();
        long serverPid = -1;
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(parent.getInputStream(), StandardCharsets.UTF_8))) {
            serverPid = Long.parseLong(out.readLine().trim());
            Optional<ProcessHandle> server = ProcessHandle.of(serverPid);
            assertTrue(server.isPresent() && server.get().isAlive(), "the stand-in server runs");
            parent.destroy(); // SIGTERM
            assertTrue(parent.waitFor(20, TimeUnit.SECONDS), "the parent exits");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (server.get().isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertFalse(server.get().isAlive(), "the server " + serverPid + " is stopped with its parent");
        } finally {
            parent.destroyForcibly();
            ProcessHandle.of(serverPid).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    /** Launches a stand-in server (sleep, through the launcher prefix), prints its pid, then waits to be stopped. */
    public static final class StartsAServer {
        public static void main(String[] args) throws InterruptedException {
            ServerProcess.Launch launch = ServerProcess.Launch.logged(
                            "stand-in", Path.of("unused.jar"), List.of(), Path.of(args[0]))
                    .through(List.of("sh", "-c", "exec sleep 600", "sh"));
            ServerProcess server = ServerProcess.launch(launch, List.of());
            System.out.println(server.pid());
            System.out.flush();
            Thread.sleep(600_000);
        }
    }
}
