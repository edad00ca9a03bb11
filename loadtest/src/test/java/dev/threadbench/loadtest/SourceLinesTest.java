package dev.threadbench.loadtest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What the formatter (Spotless with palantir-java-format, {@code ./mvnw spotless:apply}) cannot do: keep comments and
 * string literals within 120 characters a line, and main source files within 400 lines. Text blocks are verbatim data
 * (a tool's output, a table of inputs and their messages) and keep their lines.
 */
class SourceLinesTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final int MAX_LINE = 120;
    private static final int MAX_MAIN_FILE_LINES = 400;

    private static List<Path> sources() throws IOException {
        try (Stream<Path> files = Files.walk(ROOT)) {
            return files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> !ROOT.relativize(p).toString().contains("target/"))
                    .filter(p -> !ROOT.relativize(p).startsWith(".git"))
                    .sorted()
                    .toList();
        }
    }

    @Test
    void noLineIsLongerThan120Characters() throws IOException {
        List<String> tooLong = new ArrayList<>();
        for (Path source : sources()) {
            List<String> lines = Files.readAllLines(source);
            boolean inTextBlock = false;
            for (int i = 0; i < lines.size(); i++) {
                boolean verbatim = inTextBlock;
                if (countTextBlockQuotes(lines.get(i)) % 2 == 1) {
                    inTextBlock = !inTextBlock;
                }
                if (!verbatim && lines.get(i).length() > MAX_LINE) {
                    tooLong.add(ROOT.relativize(source) + ":" + (i + 1) + " ("
                            + lines.get(i).length() + ")");
                }
            }
        }
        assertEquals(List.of(), tooLong, "lines over " + MAX_LINE + " characters");
    }

    @Test
    void noMainSourceFileIsLongerThan400Lines() throws IOException {
        List<String> large = new ArrayList<>();
        for (Path source : sources()) {
            if (ROOT.relativize(source).toString().contains("src/main/")) {
                long lines = Files.readAllLines(source).size();
                if (lines > MAX_MAIN_FILE_LINES) {
                    large.add(ROOT.relativize(source) + " (" + lines + ")");
                }
            }
        }
        assertEquals(List.of(), large, "main source files over " + MAX_MAIN_FILE_LINES + " lines");
    }

    private static int countTextBlockQuotes(String line) {
        int count = 0;
        for (int at = line.indexOf("\"\"\""); at >= 0; at = line.indexOf("\"\"\"", at + 3)) {
            count++;
        }
        return count;
    }
}
