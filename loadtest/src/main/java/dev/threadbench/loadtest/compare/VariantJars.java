package dev.threadbench.loadtest.compare;

import dev.threadbench.loadtest.BuildInfo;
import dev.threadbench.loadtest.UsageException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * A server built against another version of its framework, named {@code undertow@2.3.27.Final} or {@code vertx@5.0.8} in
 * --servers: the server module built by Maven with the version property set ({@code undertow.version}, or
 * {@code vertx.version}, the Vert.x BOM's), into {@code target/variants/SERVER-VERSION/} under the project, where it is kept
 * and reused until the server's own jar is newer. The server's tests are not compiled for it (they are written against
 * the build's version). A version that does not resolve or build gets one line naming Maven's error and the build's log.
 */
final class VariantJars {

    /** A server and the framework version to build it against. */
    record Variant(String server, String version) {

        /** "undertow@2.3.27.Final": the name its runs and results carry. */
        String label() {
            return server + "@" + version;
        }

        String property() {
            return "undertow".equals(server) ? "undertow.version" : "vertx.version";
        }

        String buildVersion() {
            BuildInfo build = BuildInfo.get();
            return "undertow".equals(server) ? build.undertowVersion() : build.vertxVersion();
        }
    }

    /** Runs a build command with its output into {@code log}; its exit code (-1 when it did not end in time). */
    interface Build {
        int run(List<String> command, Path directory, Path log) throws IOException, InterruptedException;
    }

    static final Build MAVEN = (command, directory, log) -> {
        Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        if (!process.waitFor(20, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            return -1;
        }
        return process.exitValue();
    };

    private VariantJars() {}

    /** {@code undertow@2.3.27.Final} as a variant; null for a plain server name. */
    static Variant parse(String name) {
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

    /** The variant's jar: the server's own when the version is the build's, else the kept one, built first when needed. */
    static Path jar(Variant variant, Path ownJar, Path root, PrintStream progress, Build build) {
        if (variant.version().equals(variant.buildVersion())) {
            return ProjectLayout.jar(variant.server(), ownJar);
        }
        Path directory = root.resolve("target").resolve("variants").resolve(variant.server() + "-" + variant.version());
        Path jar = directory.resolve(variant.server() + "-server.jar");
        try {
            if (Files.isRegularFile(jar) && !(Files.isRegularFile(ownJar)
                    && Files.getLastModifiedTime(ownJar).compareTo(Files.getLastModifiedTime(jar)) > 0)) {
                return jar;
            }
            Files.createDirectories(directory);
            Path log = directory.resolveSibling(variant.server() + "-" + variant.version() + ".log");
            Path mvnw = root.resolve("mvnw");
            List<String> command = new ArrayList<>(List.of(mvnw.toString(), "-B", "-pl", variant.server() + "-server", "-am",
                    "package", "-DskipTests", "-Dserver.variant=true", "-D" + variant.property() + "=" + variant.version(),
                    "-Dserver.build.directory=" + directory.toAbsolutePath()));
            progress.printf(Locale.ROOT, "building %s against %s (%s, kept in %s; log %s)%n", variant.server(), variant.version(),
                    String.join(" ", command.subList(1, command.size())), directory, log);
            progress.flush();
            int exit = build.run(command, root, log);
            if (exit != 0 || !Files.isRegularFile(jar)) {
                throw new UsageException("--servers: " + variant.label() + " does not build: " + firstError(log) + " (log: " + log + ")");
            }
            return jar;
        } catch (IOException e) {
            throw new UsageException("--servers: " + variant.label() + ": cannot build (" + e.getMessage() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UsageException("--servers: " + variant.label() + ": build interrupted");
        }
    }

    /** Maven's reason, shortened: the artifact it could not find, else its first error line. */
    static String firstError(Path log) throws IOException {
        List<String> lines = Files.isRegularFile(log) ? Files.readAllLines(log) : List.of();
        for (String line : lines) {
            int at = line.indexOf("Could not find artifact ");
            if (at >= 0) {
                String rest = line.substring(at);
                int in = rest.indexOf(" in ");
                return (in > 0 ? rest.substring(0, in) : rest).trim();
            }
        }
        // after "COMPILATION ERROR :" the first error names the file and the symbol
        return lines.stream().filter(l -> l.startsWith("[ERROR]")).map(l -> l.substring(7).trim())
                .filter(l -> !l.isEmpty() && !l.startsWith("COMPILATION ERROR"))
                .findFirst().map(l -> l.length() > 240 ? l.substring(0, 240) + "..." : l).orElse("Maven failed");
    }
}
