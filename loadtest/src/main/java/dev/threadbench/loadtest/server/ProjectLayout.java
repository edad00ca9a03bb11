package dev.threadbench.loadtest.server;

import dev.threadbench.loadtest.base.UsageException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Finds the project root, and the server jars under it: from the loadtest jar's own place, else the working dir. */
public final class ProjectLayout {

    private ProjectLayout() {}

    public static Path root() {
        List<Path> candidates = new ArrayList<>();
        try {
            Path code = Path.of(ProjectLayout.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            // loadtest/target/loadtest.jar or loadtest/target/classes: three levels below the root
            candidates.add(code.toAbsolutePath().getParent().getParent().getParent());
        } catch (URISyntaxException | NullPointerException | SecurityException e) {
            // no code source: fall back to the working directory
        }
        Path cwd = Path.of("").toAbsolutePath();
        candidates.add(cwd);
        if (cwd.getParent() != null) {
            candidates.add(cwd.getParent());
        }
        for (Path candidate : candidates) {
            if (candidate != null
                    && Files.isDirectory(candidate.resolve("loadtest"))
                    && Files.isRegularFile(candidate.resolve("pom.xml"))) {
                return candidate.normalize();
            }
        }
        return cwd;
    }

    public static Path defaultJar(String server) {
        return root().resolve(server + "-server").resolve("target").resolve(server + "-server.jar");
    }

    /** The jar given (--undertow-jar, --vertx-jar), else the default one; either must exist. */
    public static Path jar(String server, Path given) {
        Path jar = given != null ? given : defaultJar(server);
        if (!Files.isRegularFile(jar)) {
            throw new UsageException("no " + server + " server jar at " + jar
                    + ": build it (./mvnw -B -q package -DskipTests)" + " or pass --" + server + "-jar");
        }
        return jar;
    }
}
