package dev.threadbench.common;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.logging.LogManager;

/**
 * java.util.logging, which Undertow (through jboss-logging), Vert.x and Netty all fall back to here:
 * the frameworks only speak at WARNING and above, the servers' own loggers at INFO, one line each.
 */
public final class FrameworkLogging {

    private FrameworkLogging() {}

    public static void quiet(String... frameworkPackages) {
        StringBuilder config = new StringBuilder()
                .append("handlers=java.util.logging.ConsoleHandler\n")
                .append(".level=INFO\n")
                .append("java.util.logging.ConsoleHandler.level=ALL\n")
                .append("java.util.logging.SimpleFormatter.format=%1$tFT%1$tT %4$s %3$s: %5$s%6$s%n\n");
        for (String pkg : frameworkPackages) {
            config.append(pkg).append(".level=WARNING\n");
        }
        try {
            LogManager.getLogManager().readConfiguration(
                    new ByteArrayInputStream(config.toString().getBytes(StandardCharsets.ISO_8859_1)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
