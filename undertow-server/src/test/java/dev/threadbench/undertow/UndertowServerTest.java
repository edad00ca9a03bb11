package dev.threadbench.undertow;

import dev.threadbench.common.InProcessServerTest;
import dev.threadbench.common.ServerMain;
import dev.threadbench.common.ServerOptions;

/** The Undertow server in process: the shared body of {@link InProcessServerTest}. */
class UndertowServerTest extends InProcessServerTest {

    @Override
    protected ServerOptions.Defaults defaults() {
        return UndertowServer.DEFAULTS;
    }

    @Override
    protected ServerMain.Framework framework() {
        return UndertowServer.FRAMEWORK;
    }

    @Override
    protected ServerMain.Started start(ServerMain.Setup setup) {
        return UndertowServer.start(setup);
    }

    @Override
    protected ServerMain.Started startWithAFailingDelay(ServerMain.Setup setup) {
        return UndertowServer.start(setup, virtualThreads -> (exchange, answer) -> {
            throw new IllegalStateException("boom");
        });
    }

    @Override
    protected String workerThreadPrefix() {
        return "undertow-worker-";
    }

    @Override
    protected String routesLogger() {
        return Routes.class.getName();
    }
}
