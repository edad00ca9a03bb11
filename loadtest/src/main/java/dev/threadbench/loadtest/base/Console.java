package dev.threadbench.loadtest.base;

import java.io.PrintStream;

/**
 * Where a command writes: what {@code Main} gives its subcommands. They reach it through picocli's
 * {@code @ParentCommand} typed as this interface, so that no subcommand imports {@code Main}, which lists them.
 */
public interface Console {

    PrintStream out();

    PrintStream err();
}
