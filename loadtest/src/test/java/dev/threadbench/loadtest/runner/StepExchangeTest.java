package dev.threadbench.loadtest.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.threadbench.loadtest.plan.Plan;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StepExchangeTest {

    private static StepExchange exchange(String url, Map<String, InetAddress> pinned) {
        return StepExchange.of(new Plan.Step("GET /", "GET", URI.create(url), Map.of()), pinned);
    }

    @Test
    void aUrlWithoutAPortConnectsWhereTheAllowListReadsIt() {
        Plan.Step step = new Plan.Step("GET /", "GET", URI.create("https://127.0.0.1/"), Map.of());
        StepExchange exchange = StepExchange.of(step, Map.of());
        assertEquals(Plan.DEFAULT_PORT, exchange.remote().getPort());
        assertEquals(step.port(), exchange.remote().getPort(), "one default port for the check and the connection");
        exchange.release();
    }

    @Test
    void aPinnedHostIsNotResolvedAgainAndKeepsItsNameInHost() throws Exception {
        InetAddress checked = InetAddress.getByName("192.0.2.7");
        StepExchange exchange = exchange("http://servers.invalid:8080/a?b=c", Map.of("servers.invalid", checked));
        assertEquals(checked, exchange.remote().getAddress());
        assertEquals(8080, exchange.remote().getPort());
        assertEquals(
                "GET /a?b=c HTTP/1.1\r\nhost: servers.invalid:8080\r\n\r\n",
                exchange.bytes().toString(StandardCharsets.ISO_8859_1));
        exchange.release();
    }

    @Test
    void anIpv6HostIsBracketedOnceInHost() {
        StepExchange exchange = exchange("http://[::1]:8080/", Map.of());
        assertEquals(
                "GET / HTTP/1.1\r\nhost: [::1]:8080\r\n\r\n", exchange.bytes().toString(StandardCharsets.ISO_8859_1));
        exchange.release();
    }
}
