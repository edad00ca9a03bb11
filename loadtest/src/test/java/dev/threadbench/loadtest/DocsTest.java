package dev.threadbench.loadtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.common.ServerOptions;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The README and docs/ stay true to the code: every option they give {@code compare}, {@code run}, {@code agent},
 * {@code report} or a server exists in that command's picocli model (read at test time, so options added later count),
 * and every figure they quote (requests/s, µs, MB, GB) stands in a section that dates it.
 */
class DocsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern CODE_BLOCK = Pattern.compile("(?ms)^```[^\\n]*\\n(.*?)^```");
    private static final Pattern CODE_SPAN = Pattern.compile("`([^`\\n]+)`");
    /** A shell word: a quoted string (an argument to the option before it, never checked) or a bare word. */
    private static final Pattern WORD = Pattern.compile("\"[^\"]*\"|'[^']*'|\\S+");

    private static final Pattern OPTION = Pattern.compile("^--[a-z][a-z0-9-]*");
    private static final Pattern DATE = Pattern.compile("\\b20\\d\\d-\\d\\d-\\d\\d\\b");
    /** A measured figure: a number with the unit of a rate, a CPU time or a memory size. */
    private static final Pattern FIGURE =
            Pattern.compile("\\d(?:[\\d,.]*\\d)?\\s?(?:req/s|requests/s|µs|us/req|MB|GB)\\b");

    private static final Pattern HEADING = Pattern.compile("^(#{1,6}) ");

    /**
     * Options of other tools a doc may show in a table or a code span of their own (compose, drill, wrk, cargo,
     * jfr-converter).
     */
    private static final Set<String> OTHER_TOOLS = Set.of(
            "--build",
            "--exit-code-from",
            "--scale",
            "--rm",
            "--no-build",
            "--build-arg",
            "--benchmark",
            "--stats",
            "--latency",
            "--locked",
            "--version",
            "--for",
            "--nanosec",
            "--vars",
            "--threads",
            "--alloc");

    /** Lines whose figures are worked out from the settings, or asked for, not measured: no date needed. */
    private static final List<String> NOT_MEASURED = List.of(
            "about **4 GB of memory**", // a requirement: two 2 GB heaps, one at a time, and the generator
            "Undertow's stock 16 give 80 req/s", // 16 threads, each free every 2 s, 1 request in 10 held
            "runs 2,500, 4,500, 5,000 and 9,000 req/s", // the rates --rate 0.5x,0.9x asks for
            "(900 at 4,500 req/s)", // rate x delay / delay-every
            "`cpu>40us`, `rss>512MB`"); // --fail-if's syntax, limits a user writes

    /** Each command's options, from the CLI itself; "server" is both servers' options. */
    static Map<String, Set<String>> commandOptions() {
        Map<String, Set<String>> options = new HashMap<>();
        CommandLine cli = new CommandLine(new Main(
                new PrintStream(PrintStream.nullOutputStream()), new PrintStream(PrintStream.nullOutputStream())));
        cli.getSubcommands().forEach((name, sub) -> options.put(name, names(sub.getCommandSpec())));
        options.put("server", names(new CommandLine(ServerOptions.class).getCommandSpec()));
        return options;
    }

    private static Set<String> names(CommandSpec spec) {
        Set<String> names = new TreeSet<>();
        spec.options().forEach(option -> names.addAll(List.of(option.names())));
        return names;
    }

    /** README.md and every Markdown file under docs/. */
    static List<Path> docs() {
        try (Stream<Path> files = Files.walk(ROOT.resolve("docs"))) {
            List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md")));
            files.filter(file -> file.toString().endsWith(".md")).sorted().forEach(docs::add);
            return docs;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The commands a piece of code invokes, with the options given to each: {@code scripts/compare ...},
     * {@code compare ...} as the first word, {@code loadtest.jar run|compare|agent|report ...}; cut at |, ;, && and #.
     */
    static List<String> wrongOptions(String code, Map<String, Set<String>> commands) {
        List<String> wrong = new ArrayList<>();
        for (String segment : code.replace("\\\n", " ").split("\\|\\||&&|[|;#\\n]")) {
            List<String> words = new ArrayList<>();
            Matcher word = WORD.matcher(segment);
            while (word.find()) {
                words.add(word.group());
            }
            String command = null;
            for (int i = 0; i < words.size() && command == null; i++) {
                String w = words.get(i);
                boolean first = words.subList(0, i).stream().allMatch(before -> before.matches("[A-Z_]+=\\S*"));
                if (w.equals("scripts/compare") || (first && w.equals("compare"))) {
                    command = "compare";
                } else if (w.endsWith("loadtest.jar") || (first && w.equals("loadtest"))) {
                    if (i + 1 < words.size() && commands.containsKey(words.get(i + 1))) {
                        command = words.get(i + 1);
                    }
                    i++;
                } else if (w.endsWith("-server.jar")) {
                    command = "server";
                }
                if (command != null) {
                    for (String option : words.subList(i + 1, words.size())) {
                        Matcher name = OPTION.matcher(option);
                        if (name.find() && !commands.get(command).contains(name.group())) {
                            wrong.add(command + " " + name.group());
                        }
                    }
                }
            }
        }
        return wrong;
    }

    @Test
    void everyOptionTheDocsGiveACommandExists() throws IOException {
        Map<String, Set<String>> commands = commandOptions();
        Set<String> anyCommand = new TreeSet<>(OTHER_TOOLS);
        commands.values().forEach(anyCommand::addAll);
        List<String> wrong = new ArrayList<>();
        for (Path doc : docs()) {
            String text = Files.readString(doc, StandardCharsets.UTF_8);
            String name = ROOT.relativize(doc).toString();
            Matcher block = CODE_BLOCK.matcher(text);
            while (block.find()) {
                wrongOptions(block.group(1), commands).forEach(w -> wrong.add(name + ": " + w));
            }
            String prose = CODE_BLOCK.matcher(text).replaceAll("");
            for (String line : prose.lines().toList()) {
                Matcher span = CODE_SPAN.matcher(line);
                boolean firstCell = line.startsWith("|");
                int cellEnd = firstCell ? line.indexOf(" |", 1) : -1;
                while (span.find()) {
                    wrongOptions(span.group(1), commands).forEach(w -> wrong.add(name + ": " + w));
                    // an options table names them in its first column, and prose in spans of their own: the option
                    // must be one of some command's
                    boolean ownSpan = span.group(1).startsWith("--") || (firstCell && span.start() < cellEnd);
                    Matcher option = OPTION.matcher(span.group(1));
                    if (ownSpan && option.find() && !anyCommand.contains(option.group())) {
                        wrong.add(name + ": " + option.group() + " (no command has it)");
                    }
                }
            }
        }
        assertEquals(List.of(), wrong, "options the docs give that the CLI lacks");
    }

    /**
     * A figure line is one with a rate, a CPU time or a memory size; its section, or a heading above it, has a date.
     */
    static List<String> undatedFigures(String text) {
        List<String> undated = new ArrayList<>();
        String[] headings = new String[7];
        List<String> section = new ArrayList<>();
        for (String line :
                (CODE_BLOCK.matcher(text).replaceAll("") + "\n# end").lines().toList()) {
            Matcher heading = HEADING.matcher(line);
            if (heading.find()) {
                String context = String.join("\n", section)
                        + String.join(
                                "\n", Stream.of(headings).filter(h -> h != null).toList());
                if (!DATE.matcher(context).find()) {
                    section.stream()
                            .filter(l -> FIGURE.matcher(l).find())
                            .filter(l -> NOT_MEASURED.stream().noneMatch(l::contains))
                            .forEach(undated::add);
                }
                int level = heading.group(1).length();
                headings[level] = line;
                for (int deeper = level + 1; deeper < headings.length; deeper++) {
                    headings[deeper] = null;
                }
                section.clear();
            }
            section.add(line);
        }
        return undated;
    }

    /**
     * docs/reference/ is rendered from the code's option descriptions ({@link CliReference}), which quote no
     * measurement (dated figures live in docs/, not in code): a limit such as rss>512MB there is syntax, not a figure.
     */
    private static final String GENERATED = "docs/reference/";

    @Test
    void everyFigureInTheDocsIsDatedInItsSection() throws IOException {
        List<String> undated = new ArrayList<>();
        for (Path doc : docs()) {
            String name = ROOT.relativize(doc).toString();
            if (name.startsWith(GENERATED)) {
                continue;
            }
            undatedFigures(Files.readString(doc, StandardCharsets.UTF_8))
                    .forEach(line -> undated.add(name + ": " + line));
        }
        assertEquals(List.of(), undated, "figure lines in a section without a date");
    }

    /** Words of the workshop the docs were written in, which mean nothing to a reader elsewhere. */
    private static final Pattern WORKSHOP =
            Pattern.compile("(?i)this session|this machine|\\bissue \\d+|the issue\\b|\\.\\./shared/|bench\\.lock");

    @Test
    void theDocsSpeakToTheirReaderNotOfTheWorkshop() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path doc : docs()) {
            String name = ROOT.relativize(doc).toString();
            Files.readString(doc, StandardCharsets.UTF_8)
                    .lines()
                    .filter(line -> WORKSHOP.matcher(line).find())
                    .forEach(line -> found.add(name + ": " + line));
        }
        assertEquals(List.of(), found, "lines that speak of the machine or the tracker they were written on");
    }

    @Test
    void theCheckCatchesAWrongOptionAndAnUndatedFigure() {
        Map<String, Set<String>> commands = commandOptions();
        assertEquals(
                List.of("compare --sweep-maximum"),
                wrongOptions("scripts/compare --sweep --sweep-maximum 5000", commands));
        assertEquals(
                List.of("run --sweep"),
                wrongOptions("java -jar loadtest/target/loadtest.jar run --plan p.yml --sweep", commands));
        assertEquals(
                List.of(),
                wrongOptions("docker compose --profile compare up --build --exit-code-from loadtest", commands),
                "compare as a compose profile is not the command");
        assertEquals(
                List.of(),
                wrongOptions("scripts/compare --server-args \"--threads 4\"", commands),
                "a quoted argument is not checked");
        assertEquals(
                List.of("server --threads"),
                wrongOptions("java -jar vertx-server/target/vertx-server.jar --threads 4", commands));
        assertTrue(
                commands.get("compare").containsAll(List.of("--targets", "--sweep", "--repeat")),
                "read from picocli's model");

        assertEquals(
                List.of("Vert.x held 9,998 req/s."),
                undatedFigures("# Title\n\n## Results\n\nVert.x held 9,998 req/s.\n"));
        assertEquals(
                List.of(),
                undatedFigures("# Title\n\n## 2026-12-02: results\n\n### At 2,000\n\nVert.x held 9,998 req/s.\n"),
                "a date in a heading above dates the section");
        assertEquals(List.of(), undatedFigures("# Title\n\nMeasured 2026-12-02: 22 µs a request.\n"));
    }
}
