package dev.threadbench.loadtest.cluster;

import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.plan.Plan;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The addresses an agent may load ({@code agent --allow-targets}): networks (CIDR), addresses and host names, each with
 * or without a port. A target is allowed when every address its host resolves to falls in an entry (and its port is the
 * entry's, when the entry names one). There is no entry that allows everything by default.
 */
final class AllowedTargets {

    static final String OPTION = "--allow-targets";

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

    private AllowedTargets(List<Entry> entries, String given) {
        this.entries = List.copyOf(entries);
        this.given = given;
    }

    /**
     * {@code ENTRY,...}, each {@code ADDR[/BITS][:PORT]} or {@code HOST[:PORT]} (IPv6 as {@code [ADDR[/BITS]]:PORT}
     * with a port); a host name is resolved now, to every address it has.
     */
    static AllowedTargets parse(String spec) {
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
                entries.addAll(entry(entry));
            }
        }
        if (entries.isEmpty()) {
            throw new UsageException(OPTION + ": name at least one CIDR or HOST[:PORT]");
        }
        return new AllowedTargets(entries, spec.trim());
    }

    private static List<Entry> entry(String entry) {
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
                byte[] network = InetAddress.getByName(host).getAddress();
                int bits = network.length * 8;
                if (slash >= 0) {
                    String prefix = address.substring(slash + 1);
                    if (!prefix.matches("\\d{1,3}") || Integer.parseInt(prefix) > bits) {
                        throw bad(entry);
                    }
                    bits = Integer.parseInt(prefix);
                }
                return List.of(new Entry(network, bits, port));
            }
            Integer entryPort = port;
            return Arrays.stream(InetAddress.getAllByName(host))
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

    /** null when the agent may load every step's target; else why not, in one line. */
    String refusal(List<Plan.Step> steps) {
        for (Plan.Step step : steps) {
            URI url = step.url();
            int port = url.getPort() >= 0 ? url.getPort() : "https".equalsIgnoreCase(url.getScheme()) ? 443 : 80;
            InetAddress[] addresses;
            try {
                addresses = InetAddress.getAllByName(url.getHost());
            } catch (UnknownHostException e) {
                return "target " + url + ": cannot resolve " + url.getHost();
            }
            for (InetAddress address : addresses) {
                if (entries.stream().noneMatch(entry -> entry.allows(address, port))) {
                    return "target " + url.getScheme() + "://" + url.getHost() + ":" + port + " ("
                            + address.getHostAddress() + ":" + port + ") is not in " + OPTION + " " + given;
                }
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return given;
    }
}
