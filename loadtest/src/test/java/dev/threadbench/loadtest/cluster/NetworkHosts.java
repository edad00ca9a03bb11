package dev.threadbench.loadtest.cluster;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Several hosts on one machine: one network namespace per host, each with an {@code eth0} on one bridge and
 * an address in 198.18.X.0/24 (RFC 2544's benchmarking range), and nothing else. The bridge lives in a
 * namespace of its own without an address, and no namespace has a default route, so the hosts reach each
 * other and nothing outside; the root namespace gets no interface, address or route.
 *
 * <pre>{@code
 * try (NetworkHosts hosts = NetworkHosts.create("tbit", List.of("servers", "agent1"))) {
 *     Process server = new ProcessBuilder(hosts.command("servers",
 *             List.of("java", "-jar", jar, "--host", hosts.address("servers"), "--port", "8081"))).start();
 *     ...
 * }
 * }</pre>
 *
 * Namespaces are named {@code PREFIX-HOST} (and {@code PREFIX-bridge}); whoever holds a prefix owns every
 * namespace named {@code PREFIX-*}: {@link #create} removes those an earlier run left behind. Needs root.
 */
public final class NetworkHosts implements AutoCloseable {

    /**
     * Set in every host: a new namespace starts from the kernel's defaults (somaxconn 4096, ports 32768-60999), not
     * this machine's.
     */
    public static final SequencedMap<String, String> LIMITS = limits();

    private static final Path NAMESPACES = Path.of("/run/netns");
    private static final Path LOCKS = Path.of("/run/threadbench-netns");
    private static final Pattern PREFIX = Pattern.compile("[a-z0-9]{1,16}");
    private static final Pattern HOST = Pattern.compile("[a-z0-9][a-z0-9-]{0,9}");
    private static final String BRIDGE_HOST = "bridge";
    private static Optional<String> unavailable;

    private final String prefix;
    private final Map<String, String> addresses = new LinkedHashMap<>();
    private final List<FileLock> locks = new ArrayList<>();
    private final Thread closeOnExit = new Thread(this::close, "close-network-hosts");
    private boolean ownsPrefix;
    private boolean closed;

    private NetworkHosts(String prefix) {
        this.prefix = prefix;
    }

    /** Why network namespaces cannot be made here, in one line; empty when they can. */
    public static synchronized Optional<String> unavailable() {
        if (unavailable == null) {
            unavailable = Optional.ofNullable(whyUnavailable());
        }
        return unavailable;
    }

    /**
     * Makes the hosts, addresses 198.18.X.1, .2, ... in the order given. Prefix: up to 16 of {@code a-z 0-9};
     * host names: up to 10 of {@code a-z 0-9 -} ({@code veth-HOST} names the bridge's port, at most 15 characters).
     * Fails when another live process holds the prefix.
     */
    public static NetworkHosts create(String prefix, List<String> hostNames) throws IOException {
        validate(prefix, hostNames);
        NetworkHosts hosts = new NetworkHosts(prefix);
        try {
            hosts.setUp(hostNames);
        } catch (IOException | RuntimeException e) {
            hosts.close();
            throw e;
        }
        return hosts;
    }

    public List<String> hosts() {
        return List.copyOf(addresses.keySet());
    }

    /** {@code PREFIX-HOST}. */
    public String namespace(String host) {
        known(host);
        return prefix + "-" + host;
    }

    /** The host's IPv4 address, 198.18.X.N. */
    public String address(String host) {
        return known(host);
    }

    /** {@code 198.18.X.0/24}. */
    public String subnet() {
        String first = addresses.values().iterator().next();
        return first.substring(0, first.lastIndexOf('.')) + ".0/24";
    }

    /**
     * Where the bridge {@code br0} is, without an address: {@code ip netns exec PREFIX-bridge tcpdump -i br0} sees all.
     */
    public String bridgeNamespace() {
        return prefix + "-" + BRIDGE_HOST;
    }

    /**
     * {@code argv} run in the host's namespace, for a {@link ProcessBuilder}: {@code ip netns exec NAMESPACE argv...}.
     */
    public List<String> command(String host, List<String> argv) {
        List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", namespace(host)));
        command.addAll(argv);
        return command;
    }

    /** Kills what still runs in the hosts and deletes the namespaces, which takes their veths and the bridge along. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (ownsPrefix) {
                removeNamespaces(ourNamespaces());
            }
        } finally {
            locks.forEach(NetworkHosts::release);
            if (Thread.currentThread() != closeOnExit) {
                try {
                    Runtime.getRuntime().removeShutdownHook(closeOnExit);
                } catch (IllegalStateException | IllegalArgumentException notRegisteredOrShuttingDown) {
                    // nothing to remove
                }
            }
        }
    }

    private void setUp(List<String> hostNames) throws IOException {
        Files.createDirectories(LOCKS);
        FileLock prefixLock = tryLock(LOCKS.resolve("prefix-" + prefix + ".lock"));
        if (prefixLock == null) {
            throw new IOException("network hosts: prefix " + prefix + " is held by another running process");
        }
        locks.add(prefixLock);
        ownsPrefix = true;
        Runtime.getRuntime().addShutdownHook(closeOnExit);
        removeNamespaces(ourNamespaces()); // left by a run that was killed

        int subnet = lockFreeSubnet();
        for (int i = 0; i < hostNames.size(); i++) {
            addresses.put(hostNames.get(i), "198.18." + subnet + "." + (i + 1));
        }
        String bridge = bridgeNamespace();
        StringBuilder root = new StringBuilder("netns add " + bridge + "\n");
        root.append("link add br0 netns ").append(bridge).append(" type bridge\n");
        StringBuilder bridgePorts = new StringBuilder();
        for (String host : hostNames) {
            root.append("netns add ").append(namespace(host)).append('\n');
            root.append("link add eth0 netns ")
                    .append(namespace(host))
                    .append(" type veth peer name veth-")
                    .append(host)
                    .append(" netns ")
                    .append(bridge)
                    .append('\n');
            bridgePorts.append("link set dev veth-").append(host).append(" addrgenmode none master br0 up\n");
        }
        ip(List.of("-batch", "-"), root.toString());
        // addrgenmode none: not even an IPv6 link-local address on the bridge
        ip(List.of("-n", bridge, "-batch", "-"), bridgePorts + "link set dev br0 addrgenmode none up\n");
        for (String host : hostNames) {
            ip(
                    List.of("-n", namespace(host), "-batch", "-"),
                    "link set dev lo up\naddr add " + address(host) + "/24 dev eth0\nlink set dev eth0 up\n");
            List<String> sysctl = new ArrayList<>(List.of("sysctl", "-q", "-w"));
            LIMITS.forEach((key, value) -> sysctl.add(key + "=" + value));
            run(command(host, sysctl), "");
        }
    }

    /**
     * 198.18.X.0/24 that no other live set-up holds, X in 1..255 (0 is scripts/netns-hosts's), starting from one the
     * pid picks.
     */
    private int lockFreeSubnet() throws IOException {
        int start = (int) (ProcessHandle.current().pid() % 255);
        for (int i = 0; i < 255; i++) {
            int subnet = 1 + (start + i) % 255;
            FileLock lock = tryLock(LOCKS.resolve("subnet-198.18." + subnet + ".lock"));
            if (lock != null) {
                locks.add(lock);
                return subnet;
            }
        }
        throw new IOException("network hosts: every 198.18.X.0/24 is held by another run");
    }

    private List<String> ourNamespaces() {
        try (Stream<Path> names = Files.list(NAMESPACES)) {
            return names.map(path -> path.getFileName().toString())
                    .filter(name -> name.startsWith(prefix + "-"))
                    .sorted()
                    .toList();
        } catch (IOException noneYet) {
            return List.of();
        }
    }

    private static void removeNamespaces(List<String> namespaces) {
        if (namespaces.isEmpty()) {
            return;
        }
        // a process left inside would keep its namespace, and its end of the wire, alive after the delete
        for (String namespace : namespaces) {
            try {
                run(List.of("ip", "netns", "pids", namespace), "")
                        .lines()
                        .filter(line -> line.matches("\\d+"))
                        .map(Long::parseLong)
                        .flatMap(pid -> ProcessHandle.of(pid).stream())
                        .forEach(NetworkHosts::kill);
            } catch (IOException e) {
                System.err.println("network hosts: cannot list the processes in " + namespace + ": " + e.getMessage());
            }
        }
        StringBuilder deletes = new StringBuilder();
        namespaces.forEach(
                namespace -> deletes.append("netns del ").append(namespace).append('\n'));
        try {
            ip(List.of("-force", "-batch", "-"), deletes.toString());
        } catch (IOException e) {
            System.err.println("network hosts: " + e.getMessage());
        }
    }

    private static void kill(ProcessHandle process) {
        process.destroyForcibly();
        try {
            process.onExit().get(5, TimeUnit.SECONDS);
        } catch (Exception stillThere) {
            System.err.println("network hosts: process " + process.pid() + " did not exit after SIGKILL");
        }
    }

    private String known(String host) {
        String address = addresses.get(host);
        if (address == null) {
            throw new IllegalArgumentException("no host " + host + " (hosts: " + addresses.keySet() + ")");
        }
        return address;
    }

    private static void validate(String prefix, List<String> hostNames) {
        // no '-' in a prefix, so that no prefix owns another's namespaces; "tb" is scripts/netns-hosts's
        if (!PREFIX.matcher(prefix).matches() || prefix.equals("tb")) {
            throw new IllegalArgumentException("prefix: up to 16 of a-z 0-9, not 'tb', got '" + prefix + "'");
        }
        if (hostNames.isEmpty()
                || hostNames.size() > 254
                || hostNames.stream().distinct().count() != hostNames.size()) {
            throw new IllegalArgumentException("hosts: 1 to 254 distinct names, got " + hostNames);
        }
        for (String host : hostNames) {
            if (!HOST.matcher(host).matches() || host.equals(BRIDGE_HOST)) {
                throw new IllegalArgumentException(
                        "host: up to 10 of a-z 0-9 -, not '" + BRIDGE_HOST + "', got '" + host + "'");
            }
        }
    }

    private static String whyUnavailable() {
        if (!System.getProperty("os.name").equals("Linux")) {
            return "network namespaces need Linux, this is " + System.getProperty("os.name");
        }
        try {
            run(List.of("ip", "-V"), "");
        } catch (IOException e) {
            return "no ip command (iproute2): " + e.getMessage();
        }
        try {
            String uid = Files.readAllLines(Path.of("/proc/self/status")).stream()
                    .filter(line -> line.startsWith("Uid:"))
                    .map(line -> line.split("\\s+")[2])
                    .findFirst()
                    .orElse("?");
            if (!uid.equals("0")) {
                return "network namespaces need root, this runs as uid " + uid;
            }
        } catch (IOException e) {
            return "cannot read /proc/self/status: " + e.getMessage();
        }
        String probe = "threadbench-probe-" + ProcessHandle.current().pid();
        try {
            ip(
                    List.of("-batch", "-"),
                    "netns add " + probe + "\nlink add br0 netns " + probe + " type bridge\n" + "link add eth0 netns "
                            + probe + " type veth peer name eth1 netns " + probe + "\n");
            run(List.of("ip", "netns", "exec", probe, "sysctl", "-q", "-w", "net.core.somaxconn=4096"), "");
            return null;
        } catch (CommandFailed e) {
            return "cannot make a network namespace with a bridge and a veth here: " + e.output;
        } catch (IOException e) {
            return "cannot make a network namespace with a bridge and a veth here: " + e.getMessage();
        } finally {
            try {
                ip(List.of("-force", "-batch", "-"), "netns del " + probe + "\n");
            } catch (IOException ignored) {
                // it was never made
            }
        }
    }

    private static void ip(List<String> args, String input) throws IOException {
        List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(args);
        run(command, input);
    }

    /** Runs the command, {@code input} on its stdin; its output, or an IOException with it on a non-zero exit. */
    private static String run(List<String> command, String input) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try (var stdin = process.getOutputStream()) {
            stdin.write(input.getBytes(StandardCharsets.UTF_8));
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not finish within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IOException("interrupted: " + String.join(" ", command));
        }
        if (process.exitValue() != 0) {
            throw new CommandFailed(
                    command, input, process.exitValue(), output.strip().replace('\n', ' '));
        }
        return output;
    }

    private static final class CommandFailed extends IOException {
        final String output;

        CommandFailed(List<String> command, String input, int exitCode, String output) {
            super(String.join(" ", command)
                    + (input.isEmpty() ? "" : " <<< " + input.strip().replace('\n', ';')) + " exited with " + exitCode
                    + ": " + output);
            this.output = output;
        }
    }

    private static FileLock tryLock(Path file) throws IOException {
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        try {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                channel.close();
            }
            return lock;
        } catch (OverlappingFileLockException heldInThisJvm) {
            channel.close();
            return null;
        }
    }

    private static void release(FileLock lock) {
        try {
            lock.channel().close();
        } catch (IOException ignored) {
            // the lock goes with the process anyway
        }
    }

    private static SequencedMap<String, String> limits() {
        SequencedMap<String, String> limits = new LinkedHashMap<>();
        limits.put("net.core.somaxconn", "65535");
        limits.put("net.ipv4.tcp_max_syn_backlog", "65535");
        // above the servers' 8080/8081 and Hazelcast's 5701..., so a host's own outgoing connections never take them
        limits.put("net.ipv4.ip_local_port_range", "10240 65535");
        limits.put("net.ipv4.tcp_tw_reuse", "1");
        return Collections.unmodifiableSequencedMap(limits);
    }
}
