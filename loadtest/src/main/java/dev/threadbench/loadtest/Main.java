package dev.threadbench.loadtest;

import dev.threadbench.loadtest.base.BuildInfo;
import dev.threadbench.loadtest.base.Console;
import dev.threadbench.loadtest.base.ExitCodes;
import dev.threadbench.loadtest.base.RunFailure;
import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.cluster.AgentCommand;
import dev.threadbench.loadtest.cluster.KeygenCommand;
import dev.threadbench.loadtest.compare.CompareCommand;
import dev.threadbench.loadtest.host.CpusCommand;
import dev.threadbench.loadtest.report.ReportCommand;
import java.io.PrintStream;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code java -jar loadtest.jar run|compare|report|agent|keygen|cpus ...}. Exit codes: {@link ExitCodes}. The
 * subcommands write through {@link Console}, which this implements, and so never import this class.
 */
@Command(
        name = "loadtest",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        subcommands = {
            RunCommand.class,
            CompareCommand.class,
            ReportCommand.class,
            AgentCommand.class,
            KeygenCommand.class,
            CpusCommand.class
        },
        description = "Drill-compatible load runner and side-by-side comparison of the Undertow and Vert.x servers.")
public final class Main implements Runnable, Console {

    private final PrintStream out;
    private final PrintStream err;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    Main(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public PrintStream out() {
        return out;
    }

    @Override
    public PrintStream err() {
        return err;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "missing command: run, compare, report, agent, keygen or cpus (see --help)");
    }

    public static void main(String[] args) {
        System.exit(execute(args, System.out, System.err));
    }

    public static int execute(String[] args, PrintStream out, PrintStream err) {
        CommandLine cli = new CommandLine(new Main(out, err));
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        cli.setParameterExceptionHandler((e, given) -> {
            err.println("loadtest: " + firstLine(e.getMessage()));
            return ExitCodes.USAGE;
        });
        cli.setExecutionExceptionHandler((e, command, parsed) -> {
            out.flush();
            if (e instanceof UsageException) {
                err.println("loadtest: " + e.getMessage());
                return ExitCodes.USAGE;
            }
            if (e instanceof RunFailure) {
                err.println("loadtest: " + e.getMessage());
                return ExitCodes.FAILED;
            }
            err.println("loadtest: " + e.getClass().getSimpleName() + ": " + firstLine(String.valueOf(e.getMessage())));
            return ExitCodes.FAILED;
        });
        return cli.execute(args);
    }

    private static String firstLine(String message) {
        return message == null ? "" : message.lines().findFirst().orElse("").trim();
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"loadtest " + BuildInfo.get().projectVersion()};
        }
    }
}
