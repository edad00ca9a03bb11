package dev.threadbench.loadtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * docs/reference/cli.md is what {@link CliReference} renders from the code today: an option added, renamed or
 * described anew fails this test until the file is written again ({@code scripts/cli-reference}, which runs this test
 * with {@code -Dcli.reference.write=true}).
 */
class CliReferenceTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final String HOW = "run scripts/cli-reference to write it again";

    @Test
    void theCommittedReferenceIsTheOneTheCodeRenders() throws IOException {
        Path file = ROOT.resolve(CliReference.FILE);
        String rendered = CliReference.render();
        if (Boolean.getBoolean("cli.reference.write")) {
            Files.createDirectories(file.getParent());
            Files.writeString(file, rendered, StandardCharsets.UTF_8);
            System.out.println("cli-reference: wrote " + file);
        }
        String committed = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        String difference = firstDifference(committed, rendered);
        if (difference != null) {
            fail(CliReference.FILE + " is stale: " + difference + "; " + HOW);
        }
    }

    @Test
    void theReferenceNamesEveryCommandAndOption() {
        String rendered = CliReference.render();
        for (String heading : List.of(
                "## loadtest\n",
                "## loadtest run\n",
                "## loadtest compare\n",
                "## loadtest report\n",
                "## loadtest agent\n",
                "## loadtest keygen\n",
                "## undertow-server\n",
                "## vertx-server\n")) {
            assertTrue(rendered.contains(heading), heading);
        }
        DocsTest.commandOptions()
                .forEach((command, options) -> options.forEach(option -> assertTrue(
                        rendered.contains("`" + option) || rendered.contains(", " + option),
                        command + " " + option + " missing")));
        assertTrue(rendered.contains("| `--out DIR` | `results` |"), "report's and compare's --out with its default");
        assertTrue(rendered.contains("| `--port N` | `8080` |"), "undertow's own default port");
        assertTrue(rendered.contains("| `--port N` | `8081` |"), "vertx's own default port");
    }

    @Test
    void aStaleLineIsNamedWithItsNumber() {
        assertEquals(null, firstDifference("a\nb\n", "a\nb\n"));
        assertEquals("line 2 reads 'x', the code renders 'b'", firstDifference("a\nx\n", "a\nb\n"));
        assertEquals("line 3 reads '', the code renders 'c'", firstDifference("a\nb\n", "a\nb\nc\n"));
        assertEquals("line 1 reads 'a', the code renders ''", firstDifference("a\n", ""));
        String long1 = "| `--html FILE` |  | where to write the page instead (default: report.html in --out) |";
        assertEquals(
                "line 1 reads '...l FILE` |  | where the page goes instead (default: report...', the code"
                        + " renders '...l FILE` |  | where to write the page instead (default: re...'",
                firstDifference(long1.replace("to write the page", "the page goes"), long1));
    }

    /** Where {@code committed} first differs from {@code rendered}, by line; null when they are the same. */
    static String firstDifference(String committed, String rendered) {
        if (committed.equals(rendered)) {
            return null;
        }
        List<String> have = committed.lines().toList();
        List<String> want = rendered.lines().toList();
        for (int i = 0; i < Math.max(have.size(), want.size()); i++) {
            String a = i < have.size() ? have.get(i) : "";
            String b = i < want.size() ? want.get(i) : "";
            if (!a.equals(b)) {
                int from = Math.max(0, commonPrefix(a, b) - 20);
                return "line " + (i + 1) + " reads '" + excerpt(a, from) + "', the code renders '" + excerpt(b, from)
                        + "'";
            }
        }
        return "its line endings differ from the code's";
    }

    private static int commonPrefix(String a, String b) {
        int n = 0;
        while (n < a.length() && n < b.length() && a.charAt(n) == b.charAt(n)) {
            n++;
        }
        return n;
    }

    /** Up to 60 characters of {@code line} from {@code from}, where the difference shows. */
    private static String excerpt(String line, int from) {
        String start = from > 0 ? "..." : "";
        String rest = line.substring(Math.min(from, line.length()));
        return start + (rest.length() > 60 ? rest.substring(0, 57) + "..." : rest);
    }
}
