package dev.threadbench.loadtest.engine;

import dev.threadbench.loadtest.base.ProcFs;
import dev.threadbench.loadtest.base.RunFailure;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Runs a load tool to completion, capturing its output and the CPU it used. */
final class ExternalTool {

    record Ran(String output, int exitCode, double cpuSeconds) {}

    private ExternalTool() {}

    static Ran run(List<String> command) {
        double cpuBefore = ProcFs.reapedChildrenCpuSeconds();
        try {
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            byte[] output = process.getInputStream().readAllBytes();
            int code = process.waitFor();
            double cpu = ProcFs.reapedChildrenCpuSeconds() - cpuBefore;
            return new Ran(new String(output, StandardCharsets.UTF_8), code, Math.max(0, cpu));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command.getFirst(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command.getFirst());
        }
    }

    static void requireSuccess(Ran ran, List<String> command) {
        if (ran.exitCode() != 0) {
            throw new RunFailure(String.join(" ", command) + " exited with " + ran.exitCode() + ": "
                    + ran.output().strip().lines().reduce((a, b) -> b).orElse("(no output)"));
        }
    }
}
