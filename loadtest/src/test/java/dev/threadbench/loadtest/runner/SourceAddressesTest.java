package dev.threadbench.loadtest.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.base.UsageException;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SourceAddressesTest {

    private static List<String> names(List<InetAddress> addresses) {
        return addresses.stream().map(InetAddress::getHostAddress).toList();
    }

    @Test
    void parsesRangesAndListsInOrderWithoutRepeats() {
        assertEquals(
                List.of("127.0.0.2", "127.0.0.3", "127.0.0.4"), names(SourceAddresses.parse("127.0.0.2-127.0.0.4")));
        assertEquals(
                List.of("10.0.0.5", "10.0.0.9", "10.0.0.6"),
                names(SourceAddresses.parse("10.0.0.5, 10.0.0.9,10.0.0.6,10.0.0.5")));
        assertEquals(
                List.of("10.0.0.255", "10.0.1.0", "127.0.0.9"),
                names(SourceAddresses.parse("10.0.0.255-10.0.1.0,127.0.0.9")));
        assertEquals(List.of(), SourceAddresses.parse(null));
        assertEquals(List.of(), SourceAddresses.parse(" "));
    }

    @Test
    void refusesWhatIsNotAnAddressOrARange() {
        assertTrue(assertThrows(UsageException.class, () -> SourceAddresses.parse("127.0.0.9-127.0.0.2"))
                .getMessage()
                .contains("ends before it starts"));
        assertTrue(assertThrows(UsageException.class, () -> SourceAddresses.parse("localhost"))
                .getMessage()
                .contains("'localhost' is not an IPv4 address"));
        assertThrows(UsageException.class, () -> SourceAddresses.parse("127.0.0.256"));
        assertThrows(UsageException.class, () -> SourceAddresses.parse("::1"));
        assertTrue(assertThrows(UsageException.class, () -> SourceAddresses.parse("10.0.0.0-10.1.0.0"))
                .getMessage()
                .contains("more than"));
    }

    @Test
    void slotsTakeTheAddressesInTurn() {
        List<InetAddress> sources = SourceAddresses.parse("127.0.0.2-127.0.0.4");
        List<String> bound = new ArrayList<>();
        for (int slot = 0; slot < 7; slot++) {
            InetAddress address = SourceAddresses.bindAddress(sources, slot).getAddress();
            bound.add(address.getHostAddress());
            assertEquals(0, SourceAddresses.bindAddress(sources, slot).getPort(), "the port stays the system's choice");
        }
        assertEquals(
                List.of("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.2"),
                bound);
        assertNull(SourceAddresses.bindAddress(List.of(), 3));
    }

    @Test
    void choosesLoopbackAddressesPastAQuarterOfOneAddresssPorts() {
        List<String> said = new ArrayList<>();
        assertEquals(
                List.of(),
                SourceAddresses.forLoad(List.of(), "127.0.0.1", 7_058, 28_232, said::add),
                "a quarter: one address");
        assertEquals(
                List.of("127.0.0.2", "127.0.0.3"),
                names(SourceAddresses.forLoad(List.of(), "127.0.0.1", 7_059, 28_232, said::add)));
        assertEquals(1, said.size());
        assertTrue(said.getFirst().contains("127.0.0.2-127.0.0.3"), said.getFirst());
        assertEquals(
                3,
                SourceAddresses.forLoad(List.of(), "127.0.0.1", 19_000, 28_232, said::add)
                        .size());
        assertEquals(
                List.of(),
                SourceAddresses.forLoad(List.of(), "10.1.2.3", 30_000, 28_232, said::add),
                "not on loopback: the headroom check says what is missing");
        List<InetAddress> given = SourceAddresses.parse("127.0.0.5");
        assertEquals(
                given, SourceAddresses.forLoad(given, "127.0.0.1", 100_000, 28_232, said::add), "given: kept as given");
        assertEquals(2, said.size());
    }

    @Test
    void saysWhenOneRemoteAddressWillConnectSlowly() {
        List<String> said = new ArrayList<>();
        assertEquals(List.of(), SourceAddresses.forLoad(List.of(), "198.18.0.2", 19_000, 28_232, said::add));
        assertEquals(1, said.size());
        assertTrue(said.getFirst().contains("give --source-addresses (3 addresses)"), said.getFirst());
        assertEquals(List.of(), SourceAddresses.forLoad(List.of(), "198.18.0.2", 5_000, 28_232, said::add));
        assertEquals(1, said.size(), "a quarter of the range or less: nothing to say");
    }

    @Test
    void countsTheAddressesAConcurrencyNeeds() {
        assertEquals(1, SourceAddresses.needed(28_232, 28_232));
        assertEquals(2, SourceAddresses.needed(28_233, 28_232));
        assertEquals(4, SourceAddresses.needed(100_000, 28_232));
        assertEquals(1, SourceAddresses.needed(100_000, -1), "ports unknown: no claim");
    }

    @Test
    void readsTheEphemeralRange(@TempDir Path dir) throws IOException {
        Path range = Files.writeString(dir.resolve("ip_local_port_range"), "32768\t60999\n");
        assertEquals(28_232, SourceAddresses.ephemeralPorts(range));
        assertEquals(-1, SourceAddresses.ephemeralPorts(dir.resolve("absent")));
    }

    @Test
    void readsThisMachinesWholeRange() {
        Path range = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
        if (Files.exists(range)) {
            // a /proc/sys file read as Files.readString reads gives only its first byte: "3", which parses as no range
            assertTrue(
                    SourceAddresses.EPHEMERAL_PORTS > 1_000,
                    "ephemeral ports read: " + SourceAddresses.EPHEMERAL_PORTS);
        }
    }
}
