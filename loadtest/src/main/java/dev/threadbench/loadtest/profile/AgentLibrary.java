package dev.threadbench.loadtest.profile;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * libasyncProfiler.so for this machine, copied out of the async-profiler jar on the classpath into a temporary
 * directory (a JVM loads an agent from a file only), deleted when compare exits.
 */
final class AgentLibrary {

    private AgentLibrary() {}

    /** The library's resource in the jar for this OS and architecture; null where async-profiler ships none. */
    static String resource(String osName, String osArch) {
        if (!osName.toLowerCase(Locale.ROOT).startsWith("linux")) {
            return null;
        }
        return switch (osArch.toLowerCase(Locale.ROOT)) {
            case "amd64", "x86_64" -> "/linux-x64/libasyncProfiler.so";
            case "aarch64", "arm64" -> "/linux-arm64/libasyncProfiler.so";
            default -> null;
        };
    }

    /** The extracted library; {@link Unavailable} with the reason in a few words. */
    static Path extract() {
        String os = System.getProperty("os.name");
        String arch = System.getProperty("os.arch");
        String resource = resource(os, arch);
        if (resource == null) {
            throw new Unavailable("async-profiler ships no library for " + os + " on " + arch);
        }
        try (InputStream in = AgentLibrary.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new Unavailable(resource + " is missing from the classpath");
            }
            Path dir = Files.createTempDirectory("threadbench-profiler");
            Path library = dir.resolve("libasyncProfiler.so");
            Files.copy(in, library, StandardCopyOption.REPLACE_EXISTING);
            // deleteOnExit runs in reverse order: the file, then its directory
            dir.toFile().deleteOnExit();
            library.toFile().deleteOnExit();
            return library;
        } catch (IOException e) {
            throw new Unavailable("cannot extract " + resource + ": " + e.getMessage());
        }
    }

    /** The profiler cannot be used here; the run goes on unprofiled. */
    static final class Unavailable extends RuntimeException {
        Unavailable(String message) {
            super(message, null, false, false);
        }
    }
}
