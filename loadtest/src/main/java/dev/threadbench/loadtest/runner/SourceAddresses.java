package dev.threadbench.loadtest.runner;

import dev.threadbench.loadtest.base.UsageException;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The local addresses the runner's connections bind to. One source address can open only as many connections to
 * one server port as there are ephemeral ports (about 28,000 on Linux), and its connect() slows down long before
 * that (see {@link #PORT_SHARE}): past a share of the range the connections are spread round-robin over several
 * addresses, given ({@code --source-addresses 127.0.0.2-127.0.0.9}) or, on loopback, chosen from 127.0.0.0/8, where
 * every address is this host's.
 */
public final class SourceAddresses {

    /** The ephemeral range of this machine's kernel, read once. */
    public static final int EPHEMERAL_PORTS = ephemeralPorts(Path.of("/proc/sys/net/ipv4/ip_local_port_range"));
    /**
     * The share of an address's ephemeral ports the runner fills when it chooses the addresses itself: a quarter.
     * Linux's connect() looks for a free port among the even ones first and scans all of them before it tries an odd
     * one, so past half the range every connect() walks thousands of ports (the measurement: docs/generator.md).
     */
    static final int PORT_SHARE = 4;
    /** Addresses in one range at most: more is surely a typo. */
    static final int MAX_ADDRESSES = 4096;

    private SourceAddresses() {}

    /**
     * {@code --source-addresses}: IPv4 addresses and ranges separated by commas, such as
     * {@code 127.0.0.2-127.0.0.9} or {@code 10.0.0.5,10.0.0.6}; null or blank: none.
     */
    public static List<InetAddress> parse(String text) {
        if (text == null || text.isBlank()) {
            return List.of();
        }
        Set<InetAddress> addresses = new LinkedHashSet<>();
        for (String part : text.split(",")) {
            String item = part.trim();
            int dash = item.indexOf('-');
            if (dash < 0) {
                addresses.add(address(item));
                continue;
            }
            long from = toLong(address(item.substring(0, dash).trim()));
            long to = toLong(address(item.substring(dash + 1).trim()));
            if (to < from) {
                throw new UsageException("--source-addresses: the range " + item + " ends before it starts");
            }
            if (to - from + 1 > MAX_ADDRESSES) {
                throw new UsageException(
                        "--source-addresses: the range " + item + " holds more than " + MAX_ADDRESSES + " addresses");
            }
            for (long a = from; a <= to; a++) {
                addresses.add(fromLong(a));
            }
        }
        return List.copyOf(addresses);
    }

    /** The local address the {@code slot}-th slot of the runner binds to: the sources in turn; null: none given. */
    static InetSocketAddress bindAddress(List<InetAddress> sources, int slot) {
        return sources.isEmpty() ? null : new InetSocketAddress(sources.get(slot % sources.size()), 0);
    }

    /**
     * Source addresses needed to open {@code connections} to one server port, with {@code ports} ephemeral ports each.
     */
    public static int needed(int connections, int ports) {
        return ports <= 0 ? 1 : Math.max(1, (connections + ports - 1) / ports);
    }

    /**
     * Source addresses that keep {@code connections} to one server port within a {@link #PORT_SHARE} of their ports.
     */
    static int comfortable(int connections, int ports) {
        return ports <= 0 ? 1 : needed(connections, Math.max(1, ports / PORT_SHARE));
    }

    /**
     * The addresses a load binds to: those given; else, when {@code target} is on (IPv4) loopback and
     * {@code connections} fill more than a {@link #PORT_SHARE} of one address's ephemeral ports, 127.0.0.2 onwards,
     * said in one line to {@code note}; else none (said too when connect() will slow down for it).
     */
    public static List<InetAddress> forLoad(
            List<InetAddress> given, String targetHost, int connections, int ports, Consumer<String> note) {
        int comfortable = comfortable(connections, ports);
        if (!given.isEmpty() || comfortable == 1) {
            return given;
        }
        if (!ipv4Loopback(targetHost)) {
            if (needed(connections, ports) == 1) {
                note.accept(String.format(
                        Locale.ROOT,
                        "source addresses: %,d connections from one address fill more than a"
                                + " quarter of its %,d ephemeral ports, and connect() slows down past half: give"
                                + " --source-addresses"
                                + " (%d addresses)",
                        connections,
                        ports,
                        comfortable));
            }
            return given;
        }
        List<InetAddress> chosen = new ArrayList<>();
        for (int i = 0; i < comfortable; i++) {
            chosen.add(fromLong(toLong(address("127.0.0.2")) + i));
        }
        note.accept(String.format(
                Locale.ROOT,
                "source addresses: %,d connections would fill more than a quarter of one"
                        + " address's %,d ephemeral ports; binding them round-robin to %s-%s",
                connections,
                ports,
                chosen.getFirst().getHostAddress(),
                chosen.getLast().getHostAddress()));
        return chosen;
    }

    /**
     * Whether {@code host} names an IPv4 loopback address (127.0.0.0/8): the runner may choose its source addresses
     * there.
     */
    public static boolean ipv4Loopback(String host) {
        try {
            InetAddress address = InetAddress.getByName(host);
            return address instanceof Inet4Address && address.isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    static int ephemeralPorts(Path range) {
        try {
            // not Files.readString: a /proc/sys file reports size 0 and gives it only its first byte ("3")
            String[] bounds = Files.readAllLines(range).getFirst().trim().split("\\s+");
            return Integer.parseInt(bounds[1]) - Integer.parseInt(bounds[0]) + 1;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static InetAddress address(String text) {
        if (!text.matches("\\d{1,3}(\\.\\d{1,3}){3}")) {
            throw new UsageException("--source-addresses: '" + text + "' is not an IPv4 address");
        }
        try {
            return InetAddress.getByName(text);
        } catch (UnknownHostException e) {
            throw new UsageException("--source-addresses: '" + text + "' is not an IPv4 address");
        }
    }

    private static long toLong(InetAddress address) {
        long n = 0;
        for (byte b : address.getAddress()) {
            n = n << 8 | (b & 0xff);
        }
        return n;
    }

    private static InetAddress fromLong(long n) {
        try {
            return InetAddress.getByAddress(new byte[] {(byte) (n >> 24), (byte) (n >> 16), (byte) (n >> 8), (byte) n});
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
