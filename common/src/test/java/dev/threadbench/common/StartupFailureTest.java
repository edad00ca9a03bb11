package dev.threadbench.common;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
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
    void aNativeTransportsBindFailureReadsTheSame() {
        Exception epoll = new IOException("bind(..) failed with error(-98): Address already in use");
        assertEquals("--port: 8081 is already in use", StartupFailure.describe(OPTIONS, epoll));
        assertEquals(
                "--port: 8081: permission denied",
                StartupFailure.describe(
                        OPTIONS, new IOException("bind(..) failed with error(-13): Permission denied")));
    }

    @Test
    void foreignAddressNamesTheHost() {
        assertEquals(
                "--host: 10.9.8.7 is not an address of this machine",
                StartupFailure.describe(OPTIONS, new BindException("Cannot assign requested address")));
    }

    @Test
    void unresolvableHostNamesTheHost() {
        assertEquals(
                "--host: cannot resolve 10.9.8.7", StartupFailure.describe(OPTIONS, new UnknownHostException("x")));
    }
}
