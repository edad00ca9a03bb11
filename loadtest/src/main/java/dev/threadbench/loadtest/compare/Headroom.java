package dev.threadbench.loadtest.compare;

import com.sun.management.UnixOperatingSystemMXBean;
import dev.threadbench.loadtest.engine.Engine;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.runner.SourceAddresses;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.function.ToIntBiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether this machine can hold each concurrency, checked before the first run so that a point it cannot hold
 * is skipped with its reason rather than failing halfway: the load generator (this JVM) and a server compare
 * starts each need a descriptor per connection, and the server its heap plus, at worst, a thread stack's
 * touched pages for each connection (the blocking strategy holds a thread per delayed request); and the
 * generator an ephemeral port per connection on each of its source addresses.
 */
final class Headroom {

    /** Descriptors a JVM holds besides its connections: jars, epoll, pipes, log files. */
    static final long SPARE_DESCRIPTORS = 512;
    /** Native memory per connection at worst: a platform thread's touched stack and its socket buffers. */
    static final long BYTES_PER_CONNECTION = 128 * 1024;
    /** A server JVM's memory besides its heap and connections: metaspace, code cache, GC structures. */
    static final long JVM_OVERHEAD_BYTES = 256L << 20;

    private static final Pattern XMX = Pattern.compile("-Xmx(\\d+)([kKmMgG]?)");

    /** The machine as it is: this JVM's descriptor limit (ulimit -n) and MemAvailable; -1 where unknown. */
    record Machine(long descriptorLimit, long availableBytes, long totalBytes) {

        static Machine probe() {
            long descriptors = ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean unix
                    ? unix.getMaxFileDescriptorCount()
                    : -1;
            return new Machine(descriptors, meminfoBytes("MemAvailable:"), meminfoBytes("MemTotal:"));
        }
    }

    private Headroom() {}

    /**
     * The concurrencies this machine cannot hold, each with why. {@code startsServers}: false with --targets,
     * whose memory and descriptors are elsewhere; {@code serverJvmOptions} give the server's -Xmx.
     */
    static List<Results.Skipped> skipped(
            List<Integer> concurrencies, boolean startsServers, List<String> serverJvmOptions, Machine machine) {
        List<Results.Skipped> skipped = new ArrayList<>();
        long heap = maxHeapBytes(serverJvmOptions, machine.totalBytes());
        for (int c : concurrencies) {
            long descriptors = c + SPARE_DESCRIPTORS;
            long memory = heap + JVM_OVERHEAD_BYTES + c * BYTES_PER_CONNECTION;
            if (machine.descriptorLimit() >= 0 && machine.descriptorLimit() < descriptors) {
                skipped.add(new Results.Skipped(
                        c,
                        String.format(
                                Locale.ROOT,
                                "the descriptor limit (ulimit -n) is %,d; %,d"
                                        + " connections need about %,d in the load generator%s",
                                machine.descriptorLimit(),
                                c,
                                descriptors,
                                startsServers ? " and as many in the server" : "")));
            } else if (startsServers && machine.availableBytes() >= 0 && machine.availableBytes() < memory) {
                skipped.add(new Results.Skipped(
                        c,
                        String.format(
                                Locale.ROOT,
                                "%,d MB of memory available; the server may need"
                                        + " %,d MB at %,d connections (its -Xmx %,d MB + %d MB + %d kB per connection)",
                                machine.availableBytes() >> 20,
                                memory >> 20,
                                c,
                                heap >> 20,
                                JVM_OVERHEAD_BYTES >> 20,
                                BYTES_PER_CONNECTION >> 10)));
            }
        }
        return skipped;
    }

    /**
     * The largest concurrency {@link #skipped} lets this machine hold (where --sweep goes by default); empty when its
     * checks set no limit (the machine's limits unknown).
     */
    static OptionalInt largest(boolean startsServers, List<String> serverJvmOptions, Machine machine) {
        int high = 100_000_000;
        if (skipped(List.of(high), startsServers, serverJvmOptions, machine).isEmpty()) {
            return OptionalInt.empty();
        }
        int low = 0;
        while (high - low > 1) {
            int mid = (low + high) >>> 1;
            if (skipped(List.of(mid), startsServers, serverJvmOptions, machine).isEmpty()) {
                low = mid;
            } else {
                high = mid;
            }
        }
        return OptionalInt.of(low);
    }

    /**
     * The concurrencies whose connections the generator's local addresses cannot hold, each with what is missing: one
     * source address opens as many connections to one server port as there are ephemeral ports ({@code ephemeralPorts},
     * -1 unknown). {@code sourceAddresses}: how many the engine binds to for a target host and a concurrency.
     */
    static List<Results.Skipped> portsSkipped(
            List<Integer> concurrencies,
            List<String> targetHosts,
            String engine,
            ToIntBiFunction<String, Integer> sourceAddresses,
            int ephemeralPorts) {
        List<Results.Skipped> skipped = new ArrayList<>();
        for (int c : concurrencies) {
            int needed = SourceAddresses.needed(c, ephemeralPorts);
            targetHosts.stream()
                    .filter(host -> sourceAddresses.applyAsInt(host, c) < needed)
                    .findFirst()
                    .ifPresent(host -> skipped.add(new Results.Skipped(
                            c,
                            String.format(
                                    Locale.ROOT,
                                    "%,d connections to %s need %d source addresses"
                                            + " (%,d ephemeral ports each per server port), the %s engine has %d: %s",
                                    c,
                                    host,
                                    needed,
                                    ephemeralPorts,
                                    engine,
                                    sourceAddresses.applyAsInt(host, c),
                                    "embedded".equals(engine)
                                            ? "give --source-addresses"
                                            : "use --engine embedded with --source-addresses"))));
        }
        return skipped;
    }

    /** {@code first}, then those of {@code more} at concurrencies {@code first} does not skip already. */
    static List<Results.Skipped> and(List<Results.Skipped> first, List<Results.Skipped> more) {
        List<Results.Skipped> all = new ArrayList<>(first);
        more.stream()
                .filter(s -> first.stream().noneMatch(f -> f.concurrency() == s.concurrency()))
                .forEach(all::add);
        return all;
    }

    /** -Xmx as given (the last one wins, as in the JVM); else the JVM's default, a quarter of the machine. */
    static long maxHeapBytes(List<String> jvmOptions, long totalBytes) {
        long heap = totalBytes > 0 ? totalBytes / 4 : 0;
        for (String option : jvmOptions) {
            Matcher m = XMX.matcher(option);
            if (m.matches()) {
                long n = Long.parseLong(m.group(1));
                heap = switch (m.group(2).toLowerCase(Locale.ROOT)) {
                    case "k" -> n << 10;
                    case "m" -> n << 20;
                    case "g" -> n << 30;
                    default -> n;
                };
            }
        }
        return heap;
    }

    private static long meminfoBytes(String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith(field)) {
                    return Long.parseLong(line.substring(field.length()).trim().split("\\s+")[0]) * 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }

    /**
     * The concurrencies this machine cannot hold (descriptors, memory, ports), each with its reason. With agents and
     * running servers, neither the connections nor the servers are on this machine: none.
     */
    static List<Results.Skipped> skipped(CompareSettings settings, Engine engine) {
        CompareSettings.Runs planned = settings.runs();
        boolean agents = settings.generator().agents() != null;
        return and(
                agents && planned.running()
                        ? List.of()
                        : skipped(
                                planned.concurrencies(),
                                !planned.running(),
                                settings.servers().jvmOptions(),
                                Machine.probe()),
                agents
                        ? List.of()
                        : portsSkipped(
                                planned.concurrencies(),
                                planned.running()
                                        ? planned.targets().values().stream()
                                                .map(URI::getHost)
                                                .distinct()
                                                .toList()
                                        : List.of(settings.servers().listenHost()),
                                engine.name(),
                                engine::sourceAddresses,
                                SourceAddresses.EPHEMERAL_PORTS));
    }
}
