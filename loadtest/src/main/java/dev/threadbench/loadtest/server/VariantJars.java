package dev.threadbench.loadtest.server;

import dev.threadbench.loadtest.base.UsageException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A server built against another version of its framework, named {@code undertow@2.3.27.Final} or {@code vertx@5.0.8}
 * in --servers: the server module built by Maven with the version property set ({@code undertow.version}, or
 * {@code vertx.version}, the Vert.x BOM's), into {@code target/variants/SERVER-VERSION/} under the project, where it is
 * kept and reused while the sources it was built from are unchanged ({@link #sourcesDigest}). The server's tests are
 * not compiled for it (they are written against the build's version). A version that does not resolve or build gets one
 * line naming Maven's error and the build's log.
 */
public final class VariantJars {

    /** A server and the framework version to build it against. */
    public record Variant(String server, String version) {

        /** "undertow@2.3.27.Final": the name its runs and results carry. */
        String label() {
            return server + "@" + version;
        }

        String property() {
            return ServerKind.named(server).versionProperty();
        }

        String buildVersion() {
            return ServerKind.named(server).buildVersion();
        }
    }

    /** Runs a build command with its output into {@code log}; its exit code (-1 when it did not end in time). */
    public interface Build {
        int run(List<String> command, Path directory, Path log) throws IOException, InterruptedException;
    }

    /**
     * The Maven wrapper, on this JVM's JDK when JAVA_HOME is not set (the build needs 21 or newer, as loadtest does).
     */
    public static final Build MAVEN = (command, directory, log) -> {
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(directory.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().putIfAbsent("JAVA_HOME", System.getProperty("java.home"));
        Process process = builder.start();
        if (!process.waitFor(20, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            return -1;
        }
        return process.exitValue();
    };

    private VariantJars() {}

    /** {@code undertow@2.3.27.Final} as a variant; null for a plain server name. */
    public static Variant parse(String name) {
        int at = name.indexOf('@');
        if (at < 0) {
            return null;
        }
        String version = name.substring(at + 1).trim();
        if (version.isEmpty() || !version.matches("[A-Za-z0-9._-]+")) {
            throw new UsageException("--servers: '" + name + "': give a version after @, e.g. undertow@2.3.27.Final");
        }
        return new Variant(name.substring(0, at).trim(), version);
    }

    /**
     * The variant's jar: the server's own when the version is the build's, else the kept one, built first when needed.
     */
    public static Path jar(Variant variant, Path ownJar, Path root, PrintStream progress, Build build) {
        if (variant.version().equals(variant.buildVersion())) {
            return ProjectLayout.jar(variant.server(), ownJar);
        }
        Path directory = root.resolve("target").resolve("variants").resolve(variant.server() + "-" + variant.version());
        Path jar = directory.resolve(variant.server() + "-server.jar");
        Path built = directory.resolve("sources.sha256");
        try {
            String sources = sourcesDigest(root, variant.server());
            if (Files.isRegularFile(jar)
                    && Files.isRegularFile(built)
                    && Files.readString(built).equals(sources)) {
                return jar;
            }
            Files.createDirectories(directory);
            Files.deleteIfExists(built);
            Path log = directory.resolveSibling(variant.server() + "-" + variant.version() + ".log");
            Path mvnw = root.resolve("mvnw");
            List<String> command = new ArrayList<>(List.of(
                    mvnw.toString(),
                    "-B",
                    "-pl",
                    variant.server() + "-server",
                    "-am",
                    "package",
                    "-DskipTests",
                    "-Dserver.variant=true",
                    "-D" + variant.property() + "=" + variant.version(),
                    "-Dserver.build.directory=" + directory.toAbsolutePath()));
            progress.printf(
                    Locale.ROOT,
                    "building %s against %s (%s, kept in %s; log %s)%n",
                    variant.server(),
                    variant.version(),
                    String.join(" ", command.subList(1, command.size())),
                    directory,
                    log);
            progress.flush();
            int exit = build.run(command, root, log);
            if (exit != 0 || !Files.isRegularFile(jar)) {
                throw new UsageException("--servers: " + variant.label() + " does not build: " + firstError(log)
                        + " (log: " + log + ")");
            }
            Files.writeString(built, sources);
            return jar;
        } catch (IOException e) {
            throw new UsageException("--servers: " + variant.label() + ": cannot build (" + e.getMessage() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UsageException("--servers: " + variant.label() + ": build interrupted");
        }
    }

    /**
     * What the variant is built from, as one digest: the poms and the main sources of the server module and of common,
     * the module it uses. A kept jar is reused while this is unchanged (a jar's time would not do: every build of
     * loadtest rebuilds the servers' own jars).
     */
    public static String sourcesDigest(Path root, String server) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        List<Path> files = new ArrayList<>();
        for (Path file : List.of(
                root.resolve("pom.xml"), root.resolve("common/pom.xml"), root.resolve(server + "-server/pom.xml"))) {
            if (Files.isRegularFile(file)) {
                files.add(file);
            }
        }
        for (Path sources : List.of(root.resolve("common/src/main"), root.resolve(server + "-server/src/main"))) {
            if (Files.isDirectory(sources)) {
                try (Stream<Path> walk = Files.walk(sources)) {
                    walk.filter(Files::isRegularFile).sorted().forEach(files::add);
                }
            }
        }
        for (Path file : files) {
            digest.update(root.relativize(file).toString().getBytes(StandardCharsets.UTF_8));
            digest.update(Files.readAllBytes(file));
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    /** Maven's reason, shortened: the artifact it could not find, else its first error line. */
    public static String firstError(Path log) throws IOException {
        List<String> lines = Files.isRegularFile(log) ? Files.readAllLines(log) : List.of();
        for (String line : lines) {
            int at = line.indexOf("Could not find artifact ");
            if (at >= 0) {
                String rest = line.substring(at);
                int in = rest.indexOf(" in ");
                return (in > 0 ? rest.substring(0, in) : rest).trim();
            }
        }
        // after "COMPILATION ERROR :" the first error names the file and the symbol; an error ending in ':' ("...
        // failed with
        // message:") is said by the lines after it
        List<String> errors = lines.stream()
                .filter(l -> l.startsWith("[ERROR]"))
                .map(l -> l.substring(7).trim())
                .filter(l -> !l.startsWith("COMPILATION ERROR"))
                .toList();
        String reason = null;
        for (String error : errors) {
            if (error.isEmpty() || error.startsWith("-> [Help")) {
                if (reason != null) {
                    break;
                }
                continue;
            }
            reason = error;
            if (!error.endsWith(":")) {
                break;
            }
        }
        return reason == null ? "Maven failed" : reason.length() > 240 ? reason.substring(0, 240) + "..." : reason;
    }
}
