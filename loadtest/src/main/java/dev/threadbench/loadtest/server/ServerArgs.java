package dev.threadbench.loadtest.server;

import dev.threadbench.common.OptionException;
import dev.threadbench.common.ServerOptions;
import dev.threadbench.common.Strategy;
import dev.threadbench.loadtest.base.UsageException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * compare --server-args and --work-us: more options for every server compare starts, checked as the servers check
 * them.
 */
public final class ServerArgs {

    private ServerArgs() {}

    /**
     * The arguments as given, then {@code --work-us} when there is work; one line naming what is wrong, including an
     * option compare sets itself.
     */
    public static List<String> check(List<String> args, long workMicros) {
        for (String arg : args) {
            String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            String instead = switch (name) {
                case "--port", "--host" -> "compare starts each server on a free port (its address: --server-host)";
                case "--delay-every", "--delay-ms" -> "use compare's own " + name + ", which the bound is made of";
                case "--strategy" -> "use --strategies";
                case "--work-us" -> "use compare's own --work-us";
                case "-h", "--help" -> "compare starts the servers to serve";
                default -> null;
            };
            if (instead != null) {
                throw new UsageException("--server-args: " + name + " is compare's to set: " + instead);
            }
        }
        List<String> all = new ArrayList<>(args);
        if (workMicros != 0) {
            all.addAll(List.of("--work-us", String.valueOf(workMicros)));
        }
        try {
            ServerOptions.parse(
                    new ServerOptions.Defaults("server", 0, Strategy.BLOCKING), all.toArray(String[]::new), Map.of());
        } catch (OptionException e) {
            throw new UsageException(
                    e.getMessage().startsWith("--work-us") ? e.getMessage() : "--server-args: " + e.getMessage());
        }
        return List.copyOf(all);
    }

    /**
     * The worker pool's maximum (--workers) of the servers compare starts with {@code args}, taking the WORKERS
     * environment variable and the default as they would; null when the environment holds a value they would refuse.
     */
    public static Integer workers(List<String> args) {
        try {
            return ServerOptions.parse(
                            new ServerOptions.Defaults("server", 0, Strategy.BLOCKING),
                            args.toArray(String[]::new),
                            System.getenv())
                    .workers();
        } catch (OptionException e) {
            return null;
        }
    }

    /** --server-host's address, checked: one this host can listen on. */
    /**
     * With --agents, servers compare starts on loopback (no --server-host: 127.0.0.1) are out of the agents' reach
     * unless the cluster itself is on loopback: refused in one line naming --server-host.
     */
    public static void checkReachable(String serverHost, String clusterHost) {
        boolean clusterOnLoopback = isLoopback(clusterHost);
        if (serverHost == null && !clusterOnLoopback) {
            throw new UsageException(
                    "--agents: the servers compare starts would listen on 127.0.0.1, which agents on other hosts"
                            + " cannot reach: give --server-host ADDR, this host's address on the agents' network");
        }
        if (serverHost != null && isLoopback(serverHost) && !clusterOnLoopback) {
            throw new UsageException(
                    "--server-host: " + serverHost + " is a loopback address, which agents on other hosts cannot"
                            + " reach: give this host's address on the agents' network");
        }
    }

    private static boolean isLoopback(String host) {
        try {
            return java.net.InetAddress.getByName(host).isLoopbackAddress();
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    public static String address(String option, String host) {
        try {
            java.net.InetAddress address = java.net.InetAddress.getByName(host);
            if (address.isAnyLocalAddress()) {
                throw new UsageException(option + ": " + host
                        + " is no address to reach: give this host's address on the agents' network");
            }
            if (java.net.NetworkInterface.getByInetAddress(address) == null) {
                throw new UsageException(option + ": " + host + " is not an address of this host");
            }
            return address.getHostAddress();
        } catch (java.io.IOException e) {
            throw new UsageException(option + ": cannot resolve " + host);
        }
    }
}
