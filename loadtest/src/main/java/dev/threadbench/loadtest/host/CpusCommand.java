package dev.threadbench.loadtest.host;

import dev.threadbench.loadtest.base.Console;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

/**
 * {@code cpus}: the servers' and the generator's CPUs as compare would choose them, for scripts that start servers
 * themselves, so that the rule lives here only ({@link CpuPinning#decide}).
 */
@Command(
        name = "cpus",
        mixinStandardHelpOptions = true,
        description = "Print the servers' CPUs and the generator's, as compare chooses them with the same options:"
                + " \"SERVER GENERATOR\" as taskset writes CPU lists (0-1,4-5); nothing when compare would not pin"
                + " (one CPU, no taskset), with the reason on stderr.")
public final class CpusCommand implements Callable<Integer> {

    @ParentCommand
    private Console console;

    @Mixin
    private PinningOptions pinning;

    @Override
    public Integer call() {
        CpuPinning decided = CpuPinning.decide(pinning.request(false));
        if (decided.serversPinned()) {
            console.out().println(decided.serverCpus() + " " + decided.generatorCpus());
        } else {
            console.err().println("cpus: " + decided.describe());
        }
        return 0;
    }
}
