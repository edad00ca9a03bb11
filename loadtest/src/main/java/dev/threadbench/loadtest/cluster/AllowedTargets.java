package dev.threadbench.loadtest.cluster;

import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.plan.Plan;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The addresses an agent may load ({@code agent --allow-targets}): networks (CIDR), addresses and host names, each with
 * or without a port. A target is allowed when every address its host resolves to falls in an entry (and its port is the
 * entry's, when the entry names one). There is no entry that allows everything by default, a {@code /0} network only
 * with {@value #ANY_OPTION}, and the unspecified address (0.0.0.0, {@code ::}: this host) never.
 */
final class AllowedTargets {

    static final String OPTION = "--allow-targets";
    static final String ANY_OPTION = "--allow-any-target";

    /** Resolves a host name to every address it has (the system's resolver; another in tests). */
    interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    /**
     * The outcome of checking an order's targets: {@code refusal} null when every one is allowed, and then each target
     * host name with the address the runner is to connect to (one of those checked, never resolved again).
     */
    record Checked(String refusal, Map<String, InetAddress> pinned) {

        static Checked refused(String refusal) {
            return new Checked(refusal, Map.of());
        }
    }

    /** {@code bits} leading bits of {@code network}; {@code port} null: any port. */
    record Entry(byte[] network, int bits, Integer port) {

        boolean allows(InetAddress address, int targetPort) {
            byte[] bytes = address.getAddress();
            if (bytes.length != network.length || (port != null && port != targetPort)) {
                return false;
            }
            for (int bit = 0; bit < bits; bit++) {
                int mask = 0x80 >>> (bit % 8);
                if ((bytes[bit / 8] & mask) != (network[bit / 8] & mask)) {
                    return false;
                }
            }
            return true;
        }
    }

    private final List<Entry> entries;
    private final String given;
    private final Resolver resolver;

    private AllowedTargets(List<Entry> entries, String given, Resolver resolver) {
        this.entries = List.copyOf(entries);
        this.given = given;
        this.resolver = resolver;
    }

    /**
     * {@code ENTRY,...}, each {@code ADDR[/BITS][:PORT]} or {@code HOST[:PORT]} (IPv6 as {@code [ADDR[/BITS]]:PORT}
     * with a port); a host name is resolved now, to every address it has. A network of every address ({@code /0}) is
     * refused unless {@code allowAny}.
     */
    static AllowedTargets parse(String spec, boolean allowAny) {
        return parse(spec, allowAny, InetAddress::getAllByName);
    }

    static AllowedTargets parse(String spec, boolean allowAny, Resolver resolver) {
        if (spec == null || spec.isBlank()) {
            throw new UsageException(
                    OPTION + ": name the servers this agent may load (CIDR or HOST, each with an optional :PORT,"
                            + " e.g. 198.18.0.0/24,10.1.2.3:8080):"
                            + " an agent loads nothing else, and nothing by default");
        }
        List<Entry> entries = new ArrayList<>();
        for (String raw : spec.split(",")) {
            String entry = raw.trim();
            if (!entry.isEmpty()) {
                List<Entry> parsed = entry(entry, resolver);
                if (!allowAny && parsed.stream().anyMatch(e -> e.bits() == 0)) {
                    throw new UsageException(
                            OPTION + ": " + entry + " allows every address; name the servers' networks," + " or give "
                                    + ANY_OPTION + " if any address is really meant");
                }
                entries.addAll(parsed);
            }
        }
        if (entries.isEmpty()) {
            throw new UsageException(OPTION + ": name at least one CIDR or HOST[:PORT]");
        }
        return new AllowedTargets(entries, spec.trim(), resolver);
    }

    private static List<Entry> entry(String entry, Resolver resolver) {
        String address = entry;
        Integer port = null;
        if (entry.startsWith("[")) {
            int close = entry.indexOf(']');
            if (close < 0 || !(close == entry.length() - 1 || entry.startsWith(":", close + 1))) {
                throw bad(entry);
            }
            address = entry.substring(1, close);
            port = close == entry.length() - 1 ? null : port(entry, entry.substring(close + 2));
        } else if (entry.chars().filter(c -> c == ':').count() == 1) {
            int colon = entry.indexOf(':');
            address = entry.substring(0, colon);
            port = port(entry, entry.substring(colon + 1));
        }
        int slash = address.indexOf('/');
        String host = slash < 0 ? address : address.substring(0, slash);
        boolean literal = host.matches("[0-9.]+") || host.contains(":");
        if (host.isEmpty() || (slash >= 0 && !literal)) {
            throw bad(entry);
        }
        try {
            if (literal) {
                InetAddress parsed = InetAddress.getByName(host);
                byte[] network = parsed.getAddress();
                // Java reads an IPv4-mapped IPv6 literal (::ffff:a.b.c.d) as the IPv4 address, and so does every
                // target: its prefix counts the mapped form's 96 leading bits
                int offset = host.contains(":") && parsed instanceof Inet4Address ? 96 : 0;
                int bits = network.length * 8;
                if (slash >= 0) {
                    String prefix = address.substring(slash + 1);
                    if (!prefix.matches("\\d{1,3}")
                            || Integer.parseInt(prefix) > bits + offset
                            || Integer.parseInt(prefix) < offset) {
                        throw bad(entry);
                    }
                    bits = Integer.parseInt(prefix) - offset;
                }
                return List.of(new Entry(network, bits, port));
            }
            Integer entryPort = port;
            return Arrays.stream(resolver.resolve(host))
                    .map(a -> new Entry(a.getAddress(), a.getAddress().length * 8, entryPort))
                    .toList();
        } catch (UnknownHostException e) {
            throw new UsageException(OPTION + ": cannot resolve " + host + " (in " + entry + ")");
        }
    }

    private static Integer port(String entry, String port) {
        if (!port.matches("\\d{1,5}") || Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65535) {
            throw bad(entry);
        }
        return Integer.parseInt(port);
    }

    private static UsageException bad(String entry) {
        return new UsageException(OPTION + ": not ADDR[/BITS][:PORT] or HOST[:PORT]: " + entry);
    }

    /**
     * Resolves each step's host once and checks every address it has: the refusal of the first that is not allowed (one
     * line), or the addresses the runner is to connect to, so that a name resolving elsewhere later (DNS rebinding)
     * cannot move the load.
     */
    Checked check(List<Plan.Step> steps) {
        Map<String, InetAddress> pinned = new LinkedHashMap<>();
        for (Plan.Step step : steps) {
            URI url = step.url();
            int port = step.port();
            String target = "target " + url.getScheme() + "://" + url.getHost() + ":" + port;
            if (pinned.containsKey(url.getHost())) {
                continue;
            }
            InetAddress[] addresses;
            try {
                addresses = resolver.resolve(url.getHost());
            } catch (UnknownHostException e) {
                return Checked.refused(target + ": cannot resolve " + url.getHost());
            }
            if (addresses.length == 0) {
                return Checked.refused(target + ": " + url.getHost() + " resolves to no address");
            }
            for (InetAddress address : addresses) {
                String literal = address.getHostAddress();
                String resolved =
                        " (" + (address instanceof Inet6Address ? "[" + literal + "]" : literal) + ":" + port + ")";
                if (address.isAnyLocalAddress()) {
                    return Checked.refused(target + resolved
                            + " is the unspecified address, which reaches the agent's own host: never a target");
                }
                if (entries.stream().noneMatch(entry -> entry.allows(address, port))) {
                    return Checked.refused(target + resolved + " is not in " + OPTION + " " + given);
                }
            }
            pinned.put(url.getHost(), addresses[0]);
        }
        return new Checked(null, pinned);
    }

    @Override
    public String toString() {
        return given;
    }
}
