package dev.threadbench.loadtest.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ListenDropsTest {

    private static final String NETSTAT = """
            TcpExt: SyncookiesSent SyncookiesRecv ListenOverflows ListenDrops
            TcpExt: 0 0 1451 1451
            IpExt: InNoRoutes InTruncatedPkts
            IpExt: 0 0
            """;

    @Test
    void readsListenOverflowsFromNetstat() {
        assertEquals(1451L, ListenDrops.count(NETSTAT));
        assertNull(ListenDrops.count("IpExt: InNoRoutes\nIpExt: 0\n"), "no TcpExt lines");
        assertNull(ListenDrops.count("TcpExt: SyncookiesSent\nTcpExt: 0\n"), "no ListenOverflows column");
    }

    @Test
    void readsThisMachinesCounter() {
        Long now = ListenDrops.read();
        if (java.nio.file.Files.isReadable(ListenDrops.NETSTAT)) {
            assertNotNull(now, "/proc/net/netstat is there: its ListenOverflows is read");
            assertTrue(now >= 0, String.valueOf(now));
        } else {
            assertNull(now, "not Linux: unknown, not 0");
        }
        if (java.nio.file.Files.exists(ListenDrops.SOMAXCONN)) {
            assertTrue(
                    ListenDrops.somaxconn() >= 128,
                    "the whole number, not its first digit: " + ListenDrops.somaxconn());
        }
    }

    @Test
    void aRunWithDropsSaysHowManyAndWhatCutTheQueue() {
        assertNull(ListenDrops.note(0, 4096));
        String note = ListenDrops.note(1451, 4096);
        assertTrue(note.startsWith("kernel: 1,451 connection attempts dropped"), note);
        assertTrue(note.contains("(4,096 long: net.core.somaxconn 4,096 cuts the servers' 16,384)"), note);
        assertTrue(ListenDrops.note(7, 65535).contains("(16,384 long)"), ListenDrops.note(7, 65535));
    }

    @Test
    void warnsBeforeTheRunsOnlyWhenSomaxconnCutsTheBacklogForTheLoad() {
        String line = ListenDrops.cutBacklog(19_000, 4096);
        assertTrue(line.startsWith("net.core.somaxconn is 4,096: it cuts the servers' accept backlog of 16,384"), line);
        assertTrue(line.endsWith("sysctl -w net.core.somaxconn=16384"), line);
        assertNull(ListenDrops.cutBacklog(2_000, 4096), "fewer connections than the queue holds");
        assertNull(ListenDrops.cutBacklog(19_000, 16_384), "the backlog is not cut");
        assertNull(ListenDrops.cutBacklog(19_000, null), "unknown");
    }
}
