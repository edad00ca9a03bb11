package dev.threadbench.loadtest.server;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** --undertow-jar and --vertx-jar: the jars compare starts, by default the project's own builds. */
public final class ServerJarOptions {

    @Option(
            names = "--undertow-jar",
            paramLabel = "JAR",
            description = "default: undertow-server/target/undertow-server.jar under the project")
    private Path undertowJar;

    @Option(
            names = "--vertx-jar",
            paramLabel = "JAR",
            description = "default: vertx-server/target/vertx-server.jar under the project")
    private Path vertxJar;

    /** The jar of each server (one SERVER@VERSION built first), in --servers' order. */
    public Map<String, Path> jars(List<String> servers, PrintStream progress) {
        Map<String, Path> jars = new LinkedHashMap<>();
        for (String server : servers) {
            VariantJars.Variant variant = VariantJars.parse(server);
            String base = variant == null ? server : variant.server();
            Path given = givenJar(base);
            jars.put(
                    server,
                    variant == null
                            ? ProjectLayout.jar(server, given)
                            : VariantJars.jar(
                                    variant,
                                    given != null ? given : ProjectLayout.defaultJar(base),
                                    ProjectLayout.root(),
                                    progress,
                                    VariantJars.MAVEN));
        }
        return jars;
    }

    /** --undertow-jar or --vertx-jar; null when not given. */
    private Path givenJar(String server) {
        return switch (server) {
            case "undertow" -> undertowJar;
            case "vertx" -> vertxJar;
            default -> throw new IllegalArgumentException("no server " + server);
        };
    }
}
