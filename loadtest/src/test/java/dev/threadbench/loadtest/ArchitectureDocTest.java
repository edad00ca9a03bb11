package dev.threadbench.loadtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * docs/architecture.md against the build: its module table names every module of the root pom, each with the modules
 * its pom depends on (main, then "tests:" for those only its tests use), read from the poms with the JDK's XML parser;
 * its package table names every top-level package of loadtest; and no main source comment quotes a dated
 * measurement (the doc's rule: those live in docs/).
 */
class ArchitectureDocTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final String GROUP = "dev.threadbench";
    private static final Pattern SPAN = Pattern.compile("`([^`]+)`");
    private static final List<String> COUNTS =
            List.of("no", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten");

    /** A module's dependencies on the project's other modules: those of its main code, and those of its tests only. */
    record Dependencies(Set<String> main, Set<String> tests) {}

    @Test
    void theModuleTableIsTheBuilds() throws Exception {
        String doc = Files.readString(ROOT.resolve("docs/architecture.md"), StandardCharsets.UTF_8);
        List<String> modules = modules(ROOT.resolve("pom.xml"));
        Map<String, Dependencies> fromPoms = new LinkedHashMap<>();
        for (String module : modules) {
            fromPoms.put(module, dependencies(ROOT.resolve(module).resolve("pom.xml")));
        }
        assertEquals(List.of(), differences(moduleTable(doc), fromPoms), "docs/architecture.md's module table");
        assertTrue(
                doc.contains(COUNTS.get(modules.size()) + " Maven modules"),
                "the count before the table: " + COUNTS.get(modules.size()) + " Maven modules");
    }

    @Test
    void thePackageTableNamesEveryPackageOfLoadtest() throws IOException {
        String doc = Files.readString(ROOT.resolve("docs/architecture.md"), StandardCharsets.UTF_8);
        Set<String> packages = new TreeSet<>(List.of("loadtest"));
        try (Stream<Path> dirs = Files.list(ROOT.resolve("loadtest/src/main/java/dev/threadbench/loadtest"))) {
            dirs.filter(Files::isDirectory)
                    .map(dir -> dir.getFileName().toString())
                    .forEach(packages::add);
        }
        Set<String> inTable = new TreeSet<>(table(doc, "| package |").keySet().stream()
                .flatMap(names -> names.stream())
                .toList());
        assertEquals(packages, inTable, "docs/architecture.md's package table against loadtest's packages");
    }

    /** A date in a main source comment, unless it names a doc (its file name) or a file format's age ("before"). */
    private static final Pattern DATED =
            Pattern.compile("(?<!before |/|-)\\b20\\d\\d-\\d\\d-\\d\\d\\b(?![-\\w]*\\.md)");

    @Test
    void noMainSourceCommentDatesAMeasurement() throws IOException {
        List<String> dated = new ArrayList<>();
        try (Stream<Path> files = Files.walk(ROOT)) {
            for (Path source : files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> ROOT.relativize(p).toString().contains("src/main/"))
                    .sorted()
                    .toList()) {
                List<String> lines = Files.readAllLines(source, StandardCharsets.UTF_8);
                for (int i = 0; i < lines.size(); i++) {
                    String line = lines.get(i).strip();
                    boolean comment = line.startsWith("*") || line.startsWith("/*") || line.contains("//");
                    if (comment && DATED.matcher(line).find()) {
                        dated.add(ROOT.relativize(source) + ":" + (i + 1));
                    }
                }
            }
        }
        assertEquals(List.of(), dated, "dated figures in code comments: move them to docs/ and point there");
    }

    @Test
    void aStaleRowIsCaught() throws Exception {
        String table = """
                | module | what it holds | depends on |
                | --- | --- | --- |
                | `a` | x | nothing |
                | `b`, `c` | y | `a`; tests: `d` |
                | `d` | z | tests: `a`, `b` |
                """;
        assertEquals(
                Map.of(
                        "a", new Dependencies(Set.of(), Set.of()),
                        "b", new Dependencies(Set.of("a"), Set.of("d")),
                        "c", new Dependencies(Set.of("a"), Set.of("d")),
                        "d", new Dependencies(Set.of(), Set.of("a", "b"))),
                moduleTable(table));
        assertFalse(
                moduleTable(table.replace("`a`; tests: `d`", "`a`, `d`"))
                        .get("b")
                        .equals(new Dependencies(Set.of("a"), Set.of("d"))),
                "a test dependency written as a main one");
        Map<String, Dependencies> poms = Map.of(
                "a", new Dependencies(Set.of(), Set.of()),
                "b", new Dependencies(Set.of("a"), Set.of()),
                "e", new Dependencies(Set.of(), Set.of()));
        assertEquals(
                List.of(
                        "b: the table says a; tests: d, its pom a",
                        "e: a module of the root pom with no row",
                        "c: a row for no module of the root pom",
                        "d: a row for no module of the root pom"),
                differences(new java.util.TreeMap<>(moduleTable(table)), new java.util.TreeMap<>(poms)));
        assertThrows(IllegalArgumentException.class, () -> moduleTable("| package | x |\n| --- | --- |\n"));
        assertTrue(DATED.matcher(" * settle in 14-20 s (2026-12-06, 2 cores)").find());
        assertFalse(DATED.matcher(" * (files written before 2026-12-04)").find());
        assertFalse(DATED.matcher(" * (docs/measurements/2026-12-01-whole-delay-periods.md)")
                .find());
    }

    /** One line per module the table gets wrong: missing, not a module, or other dependencies than its pom's. */
    static List<String> differences(Map<String, Dependencies> table, Map<String, Dependencies> poms) {
        List<String> wrong = new ArrayList<>();
        poms.forEach((module, pom) -> {
            Dependencies row = table.get(module);
            if (row == null) {
                wrong.add(module + ": a module of the root pom with no row");
            } else if (!row.equals(pom)) {
                wrong.add(module + ": the table says " + describe(row) + ", its pom " + describe(pom));
            }
        });
        table.keySet().stream()
                .filter(module -> !poms.containsKey(module))
                .forEach(module -> wrong.add(module + ": a row for no module of the root pom"));
        return wrong;
    }

    private static String describe(Dependencies dependencies) {
        return (dependencies.main().isEmpty() ? "nothing" : String.join(", ", dependencies.main()))
                + (dependencies.tests().isEmpty() ? "" : "; tests: " + String.join(", ", dependencies.tests()));
    }

    /** The module table: each module named in a row's first cell, with its third cell's dependencies. */
    static Map<String, Dependencies> moduleTable(String doc) {
        Map<String, Dependencies> modules = new LinkedHashMap<>();
        table(doc, "| module |").forEach((names, cells) -> {
            String[] parts = cells.get(2).split("tests:", -1);
            Dependencies dependencies =
                    new Dependencies(spans(parts[0]), parts.length > 1 ? spans(parts[1]) : Set.of());
            names.forEach(name -> modules.put(name, dependencies));
        });
        return modules;
    }

    /** The rows of the table whose header starts with {@code header}: the names in its first cell, and its cells. */
    private static Map<List<String>, List<String>> table(String doc, String header) {
        List<String> lines = doc.lines().toList();
        int at = -1;
        for (int i = 0; i < lines.size() && at < 0; i++) {
            if (lines.get(i).startsWith(header)) {
                at = i;
            }
        }
        if (at < 0) {
            throw new IllegalArgumentException("no table headed " + header);
        }
        Map<List<String>, List<String>> rows = new LinkedHashMap<>();
        for (int i = at + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            String row = lines.get(i);
            List<String> cells = List.of(row.substring(1, row.length() - 1).split(" \\| ", -1));
            rows.put(
                    List.copyOf(spans(cells.get(0))),
                    cells.stream().map(String::strip).toList());
        }
        return rows;
    }

    private static Set<String> spans(String text) {
        Set<String> names = new TreeSet<>();
        Matcher span = SPAN.matcher(text);
        while (span.find()) {
            names.add(span.group(1));
        }
        return names;
    }

    private static Element project(Path pom) throws Exception {
        return DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(pom.toFile())
                .getDocumentElement();
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> found = new ArrayList<>();
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && element.getTagName().equals(name)) {
                found.add(element);
            }
        }
        return found;
    }

    private static String text(Element parent, String name) {
        List<Element> found = children(parent, name);
        return found.isEmpty() ? null : found.getFirst().getTextContent().strip();
    }

    /** The root pom's {@code <modules>}, in order. */
    static List<String> modules(Path pom) throws Exception {
        return children(project(pom), "modules").stream()
                .flatMap(modules -> children(modules, "module").stream())
                .map(module -> module.getTextContent().strip())
                .toList();
    }

    /** A module pom's own {@code <dependencies>} on the project's modules (not dependencyManagement's or plugins'). */
    static Dependencies dependencies(Path pom) throws Exception {
        Set<String> main = new TreeSet<>();
        Set<String> tests = new TreeSet<>();
        for (Element dependencies : children(project(pom), "dependencies")) {
            for (Element dependency : children(dependencies, "dependency")) {
                if (GROUP.equals(text(dependency, "groupId"))) {
                    ("test".equals(text(dependency, "scope")) ? tests : main).add(text(dependency, "artifactId"));
                }
            }
        }
        tests.removeAll(main);
        return new Dependencies(main, tests);
    }
}
