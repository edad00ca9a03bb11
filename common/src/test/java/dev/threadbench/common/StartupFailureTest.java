package dev.threadbench.common;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.BindException;
import java.net.UnknownHostException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StartupFailureTest {

    private static final ServerOptions OPTIONS = ServerOptions.parse(
            new ServerOptions.Defaults("vertx", 8081, Strategy.TIMER), new String[] {"--host", "10.9.8.7"}, Map.of());

    @Test
    void portInUseNamesThePort() {
        Exception wrapped = new RuntimeException(new BindException("Address already in use"));
        assertEquals("--port: 8081 is already in use", StartupFailure.describe(OPTIONS, wrapped));
    }

    @Test
    void foreignAddressNamesTheHost() {
        assertEquals("--host: 10.9.8.7 is not an address of this machine",
                StartupFailure.describe(OPTIONS, new BindException("Cannot assign requested address")));
    }

    @Test
    void unresolvableHostNamesTheHost() {
        assertEquals("--host: cannot resolve 10.9.8.7", StartupFailure.describe(OPTIONS, new UnknownHostException("x")));
    }
}
