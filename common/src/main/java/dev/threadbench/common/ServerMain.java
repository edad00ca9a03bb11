package dev.threadbench.common;

import java.time.Duration;

/**
 * The main of both servers, in this order: parse the options (a bad one is a line on stderr and exit 2),
 * quiet the framework's loggers, warn about a low descriptor limit, create the delay rule, statistics
 * and shutdown, start the framework (a failure to listen is a line naming the option and exit 2), print
 * the start line, and install the signal handling. Each server's own main gives only what differs.
 */
public final class ServerMain {

    /** The framework a server runs on: its name and version for the start line, its loggers to quiet. */
    public record Framework(String name, String version, String... loggers) {}

    /** What a framework's start is given: the options, and what the routes of the server share. */
    public record Setup(ServerOptions options, RequestCounter counter, ServerStats stats, GracefulShutdown shutdown) {
        public static Setup of(String server, ServerOptions options) {
            RequestCounter counter = new RequestCounter(options.delayEvery());
            return new Setup(
                    options, counter, new ServerStats(server, options.strategy(), counter), new GracefulShutdown());
        }
    }

    /** A server that is listening, as the start line and the graceful shutdown see it. */
    public interface Started extends GracefulShutdown.Server {
        int port();

        /** Its threads, for the start line. */
        String threads();
    }

    /** The framework's own start: listening once it returns; throws when it cannot listen. */
    @FunctionalInterface
    public interface Start {
        Started start(Setup setup) throws Exception;
    }

    private ServerMain() {}

    public static void run(ServerOptions.Defaults defaults, Framework framework, String[] args, Start start) {
        ServerOptions options = ServerOptions.parseOrExit(defaults, args);
        FrameworkLogging.quiet(framework.loggers());
        Sizing.fileDescriptorWarning(defaults.server()).ifPresent(System.err::println);
        Setup setup = Setup.of(defaults.server(), options);
        Started server;
        try {
            server = start.start(setup);
        } catch (Exception e) {
            StartupFailure.exit(defaults.server(), options, e);
            return;
        }
        System.out.println(
                StartupLine.of(framework.name(), framework.version(), server.port(), options, server.threads()));
        setup.shutdown().install(defaults.server(), setup.stats(), Duration.ofMillis(options.delayMs()), server);
    }
}
