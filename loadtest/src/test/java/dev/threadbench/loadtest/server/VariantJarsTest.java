package dev.threadbench.loadtest.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.base.BuildInfo;
import dev.threadbench.loadtest.base.UsageException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * --servers undertow@VERSION: the variant built once with the version property, kept, and one line when it does not
 * build.
 */
class VariantJarsTest {

    @TempDir
    Path root;

    private final ByteArrayOutputStream progress = new ByteArrayOutputStream();
    private final List<List<String>> builds = new ArrayList<>();

    private PrintStream progress() {
        return new PrintStream(progress, true, StandardCharsets.UTF_8);
    }

    @Test
    void namesAreReadAsServerAndVersion() {
        assertEquals(new VariantJars.Variant("undertow", "2.3.27.Final"), VariantJars.parse("undertow@2.3.27.Final"));
        assertNull(VariantJars.parse("vertx"));
        assertEquals(
                "--servers: 'vertx@': give a version after @, e.g. undertow@2.3.27.Final",
                assertThrows(UsageException.class, () -> VariantJars.parse("vertx@"))
                        .getMessage());
    }

    @Test
    void aVariantIsBuiltWithTheVersionPropertyIntoTargetVariantsAndReusedUntilItsSourcesChange() throws Exception {
        Path own = Files.writeString(root.resolve("undertow-server.jar"), "own");
        Path source = root.resolve("undertow-server/src/main/java/Server.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, "class Server {}");
        VariantJars.Build build = (command, directory, log) -> {
            builds.add(command);
            Path out = Path.of(command.getLast().substring("-Dserver.build.directory=".length()));
            Files.writeString(out.resolve("undertow-server.jar"), "variant");
            return 0;
        };
        VariantJars.Variant variant = new VariantJars.Variant("undertow", "2.3.27.Final");

        Path jar = VariantJars.jar(variant, own, root, progress(), build);

        assertEquals(root.resolve("target/variants/undertow-2.3.27.Final/undertow-server.jar"), jar);
        assertEquals(1, builds.size());
        assertEquals(
                List.of(
                        root.resolve("mvnw").toString(),
                        "-B",
                        "-pl",
                        "undertow-server",
                        "-am",
                        "package",
                        "-DskipTests",
                        "-Dserver.variant=true",
                        "-Dundertow.version=2.3.27.Final",
                        "-Dserver.build.directory=" + jar.getParent()),
                builds.getFirst());
        assertTrue(
                progress.toString(StandardCharsets.UTF_8).startsWith("building undertow against 2.3.27.Final"),
                progress.toString());
        Files.writeString(own, "the server's own jar rebuilt");
        assertEquals(jar, VariantJars.jar(variant, own, root, progress(), build));
        assertEquals(1, builds.size(), "kept: its sources are unchanged");
        Files.writeString(source, "class Server { int changed; }");
        VariantJars.jar(variant, own, root, progress(), build);
        assertEquals(2, builds.size(), "the server's sources changed: built again");
    }

    @Test
    void aVersionThatDoesNotResolveIsOneLineNamingTheArtifact() {
        VariantJars.Build build = (command, directory, log) -> {
            Files.writeString(
                    log,
                    "[INFO] Scanning for projects...\n[ERROR] Failed to execute goal on project undertow-server:"
                            + " Could not"
                            + " resolve dependencies for project dev.threadbench:undertow-server:jar:1.0.0-SNAPSHOT:"
                            + " Could not find artifact"
                            + " io.undertow:undertow-core:jar:9.9.9.Final in central"
                            + " (https://repo.maven.apache.org/maven2) -> [Help 1]\n");
            return 1;
        };
        UsageException e = assertThrows(
                UsageException.class,
                () -> VariantJars.jar(
                        new VariantJars.Variant("undertow", "9.9.9.Final"),
                        root.resolve("undertow-server.jar"),
                        root,
                        progress(),
                        build));
        assertEquals(
                "--servers: undertow@9.9.9.Final does not build: Could not find artifact"
                        + " io.undertow:undertow-core:jar:9.9.9.Final"
                        + " (log: " + root.resolve("target/variants/undertow-9.9.9.Final.log") + ")",
                e.getMessage());
    }

    @Test
    void aCompileErrorIsItsFirstErrorLine() {
        VariantJars.Build build = (command, directory, log) -> {
            Files.writeString(
                    log, "[ERROR] COMPILATION ERROR : \n[ERROR] /src/VertxServer.java:[40,9] cannot find symbol\n");
            return 1;
        };
        UsageException e = assertThrows(
                UsageException.class,
                () -> VariantJars.jar(
                        new VariantJars.Variant("vertx", "5.1.6"),
                        root.resolve("vertx-server.jar"),
                        root,
                        progress(),
                        build));
        assertTrue(
                e.getMessage()
                        .startsWith(
                                "--servers: vertx@5.1.6 does not build: /src/VertxServer.java:[40,9] cannot find symbol"
                                        + " (log: "),
                e.getMessage());
    }

    @Test
    void anErrorSaidOnTheLinesAfterItIsThoseLines() {
        VariantJars.Build build = (command, directory, log) -> {
            Files.writeString(
                    log,
                    "[ERROR] Failed to execute goal org.apache.maven.plugins:maven-enforcer-plugin:3.6.2:enforce"
                            + " (toolchain)"
                            + " on project threadbench-parent: \n[ERROR] Rule 0:"
                            + " org.apache.maven.enforcer.rules.version.RequireJavaVersion failed"
                            + " with message:\n[ERROR] JDK 21 or newer is required (set JAVA_HOME).\n[ERROR] -> [Help"
                            + " 1]\n[ERROR] \n");
            return 1;
        };
        UsageException e = assertThrows(
                UsageException.class,
                () -> VariantJars.jar(
                        new VariantJars.Variant("undertow", "2.3.27.Final"),
                        root.resolve("undertow-server.jar"),
                        root,
                        progress(),
                        build));
        assertTrue(
                e.getMessage()
                        .startsWith("--servers: undertow@2.3.27.Final does not build: JDK 21 or newer is required (set"
                                + " JAVA_HOME). (log: "),
                e.getMessage());
    }

    @Test
    void theBuildsOwnVersionIsTheServersOwnJar() throws Exception {
        Path own = Files.writeString(root.resolve("undertow-server.jar"), "own");
        String version = BuildInfo.get().undertowVersion();
        assertEquals(
                own,
                VariantJars.jar(
                        new VariantJars.Variant("undertow", version),
                        own,
                        root,
                        progress(),
                        (command, directory, log) -> {
                            throw new AssertionError("not built");
                        }));
    }
}
