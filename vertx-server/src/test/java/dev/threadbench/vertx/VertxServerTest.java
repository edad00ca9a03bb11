package dev.threadbench.vertx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.common.InProcessServerTest;
import dev.threadbench.common.ServerMain;
import dev.threadbench.common.ServerOptions;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServer;
import org.junit.jupiter.api.Test;

/** The Vert.x server in process: the shared body of {@link InProcessServerTest}, and its one port. */
class VertxServerTest extends InProcessServerTest {

    @Override
    protected ServerOptions.Defaults defaults() {
        return VertxServer.DEFAULTS;
    }

    @Override
    protected ServerMain.Framework framework() {
        return VertxServer.FRAMEWORK;
    }

    @Override
    protected ServerMain.Started start(ServerMain.Setup setup) {
        return VertxServer.start(setup);
    }

    @Override
    protected ServerMain.Started startWithAFailingDelay(ServerMain.Setup setup) {
        return VertxServer.start(
                setup,
                vertx -> Future.succeededFuture((request, answer) -> {
                    throw new IllegalStateException("boom");
                }));
    }

    @Override
    protected String workerThreadPrefix() {
        return "vert.x-worker-thread-";
    }

    @Override
    protected String routesLogger() {
        return Routes.class.getName();
    }

    @Test
    void everyEventLoopServesTheOnePort() throws Exception {
        serve(setup());
        VertxServer server = (VertxServer) server();
        assertTrue(server.servers().size() >= 1);
        for (HttpServer each : server.servers()) {
            assertEquals(server.port(), each.actualPort());
        }
    }
}
