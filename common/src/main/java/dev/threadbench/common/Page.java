package dev.threadbench.common;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The page both servers answer {@code GET /} with, read once at start and served from memory. */
public final class Page {

    public static final String CONTENT_TYPE = "text/html; charset=utf-8";
    private static final String BUNDLED = "/hello.html";

    private final byte[] bytes;
    private final String source;

    private Page(byte[] bytes, String source) {
        this.bytes = bytes;
        this.source = source;
    }

    /** The hello.html packaged with this module. */
    public static Page bundled() {
        try (InputStream in = Page.class.getResourceAsStream(BUNDLED)) {
            if (in == null) {
                throw new IllegalStateException(BUNDLED + " is missing from the common jar");
            }
            return new Page(in.readAllBytes(), "bundled hello.html");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A page read from a file; a missing or unreadable file is an {@link OptionException} naming it. */
    public static Page fromFile(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new OptionException("--page: no such file: " + file);
        }
        try {
            return new Page(Files.readAllBytes(file), file.toString());
        } catch (IOException e) {
            throw new OptionException("--page: cannot read " + file + ": " + e.getMessage());
        }
    }

    /** The page's bytes. Shared, never copied per request: callers must not modify the array. */
    public byte[] bytes() {
        return bytes;
    }

    public int length() {
        return bytes.length;
    }

    public String source() {
        return source;
    }
}
