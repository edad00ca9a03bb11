package dev.threadbench.contract;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The servers under test. By default the suite starts both jars itself; given base URLs
 * ({@code -Dcontract.undertow=http://localhost:8080 -Dcontract.vertx=http://localhost:8081}) it checks
 * servers that are already running, such as a docker compose deployment, assuming their default
 * delay settings (or {@code -Dcontract.delayEvery}, {@code -Dcontract.delayMs}).
 */
final class Servers {

    static final List<String> NAMES = List.of("undertow", "vertx");

    private Servers() {}

    /** True when the suite checks servers it did not start: tests that need to start servers are skipped. */
    static boolean external() {
        return !property("contract.undertow").isEmpty() || !property("contract.vertx").isEmpty();
    }

    static String externalUrl(String server) {
        String url = property("contract." + server);
        if (url.isEmpty()) {
            throw new IllegalStateException("-Dcontract." + server + "=URL is missing (both servers are checked)");
        }
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    static int delayEvery() {
        return Integer.parseInt(property("contract.delayEvery", "10"));
    }

    static long delayMs() {
        return Long.parseLong(property("contract.delayMs", "2000"));
    }

    static Path jar(String server) {
        Path jar = Path.of(property(server + ".jar", projectRoot().resolve(server + "-server/target/" + server + "-server.jar").toString()));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: build it first (./mvnw package -DskipTests)");
        }
        return jar;
    }

    static Path projectRoot() {
        return Path.of(property("project.root", "..")).toAbsolutePath().normalize();
    }

    private static String property(String name) {
        return property(name, "");
    }

    private static String property(String name, String fallback) {
        String value = System.getProperty(name);
        return value == null || value.isBlank() || value.startsWith("${") ? fallback : value.trim();
    }
}
