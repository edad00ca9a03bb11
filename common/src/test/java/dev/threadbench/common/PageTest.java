package dev.threadbench.common;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PageTest {

    @Test
    void bundledPageIsTheTopLevelHelloHtml() throws Exception {
        Page page = Page.bundled();
        byte[] onDisk = Files.readAllBytes(Path.of("..", "hello.html"));
        assertArrayEquals(onDisk, page.bytes());
        assertTrue(new String(page.bytes(), StandardCharsets.UTF_8).contains("<title>Hello!</title>"));
    }

    @Test
    void readsAnotherFile(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("p.html"), "<p>x</p>");
        Page page = Page.fromFile(file);
        assertEquals(8, page.length());
    }

    @Test
    void missingFileNamesTheOption(@TempDir Path dir) {
        OptionException e = assertThrows(OptionException.class, () -> Page.fromFile(dir.resolve("nope.html")));
        assertTrue(e.getMessage().startsWith("--page: no such file: "), e.getMessage());
    }
}
