package dev.threadbench.common;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * The options both servers take, each also settable by an environment variable; a flag wins over its
 * variable, the variable over the server's default. Every value is checked before anything is served.
 */
@Command(sortOptions = false, usageHelpAutoWidth = true)
public final class ServerOptions {

    /** What differs between the two servers before any option is given. */
    public record Defaults(String server, int port, Strategy strategy) {}

    /** Platform threads that may park in {@code blocking}: one per connection up to 10,000 connections. */
    public static final int DEFAULT_WORKERS = 10_000;

    /** --work-us at most a minute: more would hold each answer past any client's timeout. */
    static final long MAX_WORK_MICROS = 60_000_000L;

    @Option(
            names = "--port",
            paramLabel = "N",
            description = "TCP port to listen on (env PORT; default ${DEFAULT-VALUE})")
    private int port;

    @Option(names = "--host", paramLabel = "ADDR", description = "address to bind (env HOST; default ${DEFAULT-VALUE})")
    private String host;

    @Option(
            names = "--delay-every",
            paramLabel = "N",
            description = "delay every Nth request to /, 0 for none (env DELAY_EVERY; default ${DEFAULT-VALUE})")
    private int delayEvery;

    @Option(
            names = "--delay-ms",
            paramLabel = "MS",
            description = "how long a delayed request waits (env DELAY_MS; default ${DEFAULT-VALUE})")
    private long delayMs;

    @Option(
            names = "--strategy",
            paramLabel = "NAME",
            converter = StrategyConverter.class,
            description =
                    "how a delayed request waits: blocking, timer or virtual (env STRATEGY; default ${DEFAULT-VALUE})")
    private Strategy strategy;

    @Option(
            names = "--workers",
            paramLabel = "N",
            description = "platform worker threads for the blocking strategy (env WORKERS; default ${DEFAULT-VALUE})")
    private int workers;

    @Option(
            names = "--work-us",
            paramLabel = "N",
            description = "N microseconds of CPU work on the thread that answers each request to /, before it"
                    + " answers (env WORK_US; default ${DEFAULT-VALUE})")
    private long workMicros;

    @Option(names = "--page", paramLabel = "FILE", description = "serve this file instead of hello.html (env PAGE)")
    private Path pageFile;

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "show this help and exit")
    private boolean helpRequested;

    private CpuWork work;
    private Page page;
    private String usage;

    private ServerOptions() {}

    /**
     * Parses and validates. Throws {@link OptionException} with a one-line message naming the option
     * (and the environment variable, when that is where the bad value came from).
     */
    public static ServerOptions parse(Defaults defaults, String[] args, Map<String, String> env) {
        ServerOptions options = new ServerOptions();
        CommandLine cli = commandLine(options, defaults, env);
        try {
            cli.parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            throw new OptionException(describe(e, args, env));
        }
        StringWriter usage = new StringWriter();
        cli.usage(new PrintWriter(usage));
        options.usage = usage.toString();
        if (!options.helpRequested) {
            options.validate();
        }
        return options;
    }

    /** The options' model as a server with these defaults and no variables set presents it: for the CLI reference. */
    public static CommandLine.Model.CommandSpec spec(Defaults defaults) {
        return commandLine(new ServerOptions(), defaults, Map.of()).getCommandSpec();
    }

    private static CommandLine commandLine(ServerOptions options, Defaults defaults, Map<String, String> env) {
        return new CommandLine(options)
                .setCommandName(defaults.server() + "-server")
                .setDefaultValueProvider(argSpec -> defaultValue(argSpec, defaults, env));
    }

    /** For a server's main: prints the usage or the one-line error, and exits when there is nothing to serve. */
    public static ServerOptions parseOrExit(Defaults defaults, String[] args) {
        try {
            ServerOptions options = parse(defaults, args, System.getenv());
            if (options.helpRequested) {
                System.out.print(options.usage);
                System.exit(0);
            }
            return options;
        } catch (OptionException e) {
            System.err.println(defaults.server() + "-server: " + e.getMessage());
            System.exit(2);
            throw e;
        }
    }

    private static String defaultValue(ArgSpec spec, Defaults defaults, Map<String, String> env) {
        if (!(spec instanceof OptionSpec option)) {
            return null;
        }
        String fromEnv = env.get(envName(option));
        if (fromEnv != null && !fromEnv.isBlank()) {
            return fromEnv.trim();
        }
        return switch (option.longestName()) {
            case "--port" -> String.valueOf(defaults.port());
            case "--host" -> "0.0.0.0";
            case "--delay-every" -> "10";
            case "--delay-ms" -> "2000";
            case "--strategy" -> defaults.strategy().id();
            case "--workers" -> String.valueOf(DEFAULT_WORKERS);
            case "--work-us" -> "0";
            default -> null;
        };
    }

    /** The environment variables the servers read, one per option: PORT, HOST, DELAY_EVERY, ... */
    public static java.util.List<String> environmentVariables() {
        return new CommandLine(new ServerOptions())
                .getCommandSpec().options().stream()
                        .filter(option -> !option.usageHelp())
                        .map(ServerOptions::envName)
                        .toList();
    }

    /** --delay-every is DELAY_EVERY. */
    static String envName(OptionSpec option) {
        return option.longestName().substring(2).replace('-', '_').toUpperCase(Locale.ROOT);
    }

    private static String describe(CommandLine.ParameterException e, String[] args, Map<String, String> env) {
        String message = e.getMessage().lines().findFirst().orElse("invalid option");
        if (e.getArgSpec() instanceof OptionSpec option) {
            String name = option.longestName();
            boolean onCommandLine = Arrays.stream(args).anyMatch(a -> a.equals(name) || a.startsWith(name + "="));
            if (!onCommandLine && env.containsKey(envName(option))) {
                message += " (from environment variable " + envName(option) + ")";
            }
        }
        return message;
    }

    private void validate() {
        if (port < 0 || port > 65535) {
            throw new OptionException("--port: " + port + " is not a TCP port (0-65535)");
        }
        if (host.isBlank()) {
            throw new OptionException("--host: must not be empty");
        }
        if (delayEvery < 0) {
            throw new OptionException("--delay-every: must be >= 0 (0 turns the delay off), got " + delayEvery);
        }
        if (delayMs < 0) {
            throw new OptionException("--delay-ms: must be >= 0, got " + delayMs);
        }
        if (workers < 1) {
            throw new OptionException("--workers: must be >= 1, got " + workers);
        }
        if (workMicros < 0 || workMicros > MAX_WORK_MICROS) {
            throw new OptionException(
                    "--work-us: must be 0 to " + MAX_WORK_MICROS + " microseconds (a minute), got " + workMicros);
        }
        work = CpuWork.ofMicros(workMicros);
        page = pageFile == null ? Page.bundled() : Page.fromFile(pageFile);
    }

    static final class StrategyConverter implements CommandLine.ITypeConverter<Strategy> {
        @Override
        public Strategy convert(String value) {
            try {
                return Strategy.of(value);
            } catch (OptionException e) {
                throw new CommandLine.TypeConversionException(
                        "unknown strategy '" + value + "' (expected one of " + Strategy.ids() + ")");
            }
        }
    }

    public int port() {
        return port;
    }

    public String host() {
        return host;
    }

    public int delayEvery() {
        return delayEvery;
    }

    public long delayMs() {
        return delayMs;
    }

    public Strategy strategy() {
        return strategy;
    }

    public int workers() {
        return workers;
    }

    /** --work-us: the CPU work before each answer to /. */
    public CpuWork work() {
        return work;
    }

    public Page page() {
        return page;
    }

    public boolean helpRequested() {
        return helpRequested;
    }

    public String usage() {
        return usage;
    }
}
