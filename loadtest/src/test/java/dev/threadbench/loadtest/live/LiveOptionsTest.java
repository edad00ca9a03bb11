package dev.threadbench.loadtest.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.threadbench.loadtest.base.UsageException;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

class LiveOptionsTest {

    @Command
    static final class Holder {
        @Mixin
        LiveOptions live;
    }

    private static LiveOptions parse(String... args) {
        Holder holder = new Holder();
        new CommandLine(holder).parseArgs(args);
        return holder.live;
    }

    @Test
    void offWhenStandardOutputIsNoTerminalAsUnderTests() {
        assertNull(parse().address());
        assertNull(parse("--no-live").address());
    }

    @Test
    void onLoopbackAndAFreePortUnlessAnAddressIsGiven() {
        assertEquals(new InetSocketAddress("127.0.0.1", 0), parse("--live").address());
        assertEquals(
                new InetSocketAddress("127.0.0.1", 8090),
                parse("--live", "127.0.0.1:8090").address());
        assertEquals(
                new InetSocketAddress("127.0.0.1", 8090),
                parse("--live", ":8090").address());
        assertEquals(
                new InetSocketAddress("0.0.0.0", 8090),
                parse("--live=0.0.0.0:8090").address());
        assertEquals(
                new InetSocketAddress("::1", 8090),
                parse("--live", "[::1]:8090").address());
    }

    @Test
    void refusesWhatIsNoAddressAndBothSwitches() {
        assertThrows(
                UsageException.class, () -> parse("--live", "127.0.0.1:http").address());
        assertThrows(
                UsageException.class, () -> parse("--live", "127.0.0.1:70000").address());
        assertThrows(UsageException.class, () -> parse("--live", "--no-live").address());
        assertThrows(UsageException.class, () -> parse("--live-linger", "-1").lingerSeconds());
    }
}
