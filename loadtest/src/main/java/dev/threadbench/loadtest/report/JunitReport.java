package dev.threadbench.loadtest.report;

import dev.threadbench.loadtest.analysis.Gate;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * --junit FILE: the gates as JUnit XML, the format CI systems (Jenkins' junit step, GitLab's artifacts:reports:junit,
 * the Surefire report) show as tests. One testsuite, {@code threadbench.gates}; one testcase per gate and cell, its
 * classname the gate and its name the cell; a breach is a failure whose message is the breach line, a gate that could
 * not be judged on a cell is skipped with why.
 */
public final class JunitReport {

    static final String SUITE = "threadbench.gates";

    private JunitReport() {}

    public static String render(List<Gate.Case> cases, String timestamp) {
        long failures = cases.stream().filter(c -> c.breach() != null).count();
        long skipped = cases.stream()
                .filter(c -> c.breach() == null && c.note() != null)
                .count();
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        String counts = " tests=\"" + cases.size() + "\" failures=\"" + failures + "\" errors=\"0\" skipped=\""
                + skipped + "\"";
        xml.append("<testsuites name=\"threadbench\"").append(counts).append(">\n");
        xml.append("  <testsuite name=\"").append(SUITE).append('"').append(counts);
        xml.append(" time=\"0\" timestamp=\"").append(escape(timestamp)).append("\">\n");
        for (Gate.Case c : cases) {
            xml.append("    <testcase classname=\"fail-if ")
                    .append(escape(c.gate()))
                    .append("\" name=\"")
                    .append(escape(c.cell()))
                    .append("\" time=\"0\"");
            if (c.breach() != null) {
                xml.append(">\n      <failure type=\"limit breached\" message=\"")
                        .append(escape(c.breach()))
                        .append("\">")
                        .append(escape(c.breach()))
                        .append("</failure>\n    </testcase>\n");
            } else if (c.note() != null) {
                xml.append(">\n      <skipped message=\"")
                        .append(escape(c.note()))
                        .append("\"/>\n    </testcase>\n");
            } else {
                xml.append("/>\n");
            }
        }
        return xml.append("  </testsuite>\n</testsuites>\n").toString();
    }

    public static void write(Path file, List<Gate.Case> cases, String timestamp) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(file, render(cases, timestamp));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** XML text and attribute values: the five predefined entities, and no control character XML 1.0 forbids. */
    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (char ch : text.toCharArray()) {
            switch (ch) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&apos;");
                default -> out.append(ch < 0x20 && ch != '\n' && ch != '\t' ? ' ' : ch);
            }
        }
        return out.toString();
    }
}
