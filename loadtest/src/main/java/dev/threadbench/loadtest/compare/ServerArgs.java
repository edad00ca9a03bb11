package dev.threadbench.loadtest.compare;

import dev.threadbench.common.OptionException;
import dev.threadbench.common.ServerOptions;
import dev.threadbench.common.Strategy;
import dev.threadbench.loadtest.UsageException;
import java.util.List;
import java.util.Map;

/** compare --server-args: more options for every server compare starts, checked as the servers check them. */
final class ServerArgs {

    private ServerArgs() {}

    /** The arguments as given; one line naming what is wrong, including an option compare sets itself. */
    static List<String> check(List<String> args) {
        for (String arg : args) {
            String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            String instead = switch (name) {
                case "--port", "--host" -> "compare starts each server on a free loopback port";
                case "--delay-every", "--delay-ms" -> "use compare's own " + name + ", which the bound is made of";
                case "--strategy" -> "use --strategies";
                case "-h", "--help" -> "compare starts the servers to serve";
                default -> null;
            };
            if (instead != null) {
                throw new UsageException("--server-args: " + name + " is compare's to set: " + instead);
            }
        }
        try {
            ServerOptions.parse(new ServerOptions.Defaults("server", 0, Strategy.BLOCKING), args.toArray(String[]::new), Map.of());
        } catch (OptionException e) {
            throw new UsageException("--server-args: " + e.getMessage());
        }
        return args;
    }
}
