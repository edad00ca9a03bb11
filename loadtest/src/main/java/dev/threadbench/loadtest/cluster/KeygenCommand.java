package dev.threadbench.loadtest.cluster;

import dev.threadbench.loadtest.base.Console;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code keygen FILE}: a new cluster key for agents and compares to share ({@link ClusterKey}). */
@Command(
        name = "keygen",
        mixinStandardHelpOptions = true,
        description =
                "Write a new cluster key to FILE (readable by its owner only): give the same file to every agent and"
                        + " compare"
                        + " of one cluster with --cluster-key FILE or " + ClusterKey.ENVIRONMENT + "=FILE.")
public final class KeygenCommand implements Callable<Integer> {

    @ParentCommand
    private Console console;

    @Parameters(paramLabel = "FILE", description = "where to write the key; an existing file is not overwritten")
    private Path file;

    @Override
    public Integer call() {
        ClusterKey.generate(file);
        ClusterKey key = ClusterKey.read("keygen", file);
        console.out().println("keygen: wrote cluster key " + key.fingerprint() + " to " + file);
        return 0;
    }
}
