package dev.threadbench.loadtest.report;

import java.util.List;
import java.util.Set;

/** A table in the terminal: the first row a header, underlined; columns padded, left-aligned where told, else right. */
final class TextGrid {

    private TextGrid() {}

    static String render(List<String[]> rows, Set<Integer> leftAligned) {
        int[] widths = new int[rows.getFirst().length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        StringBuilder text = new StringBuilder();
        for (int r = 0; r < rows.size(); r++) {
            String[] row = rows.get(r);
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                String cell =
                        String.format(leftAligned.contains(i) ? "%-" + widths[i] + "s" : "%" + widths[i] + "s", row[i]);
                line.append(i == 0 ? "" : "  ").append(cell);
            }
            text.append(line.toString().stripTrailing()).append('\n');
            if (r == 0) {
                text.append("-".repeat(line.toString().stripTrailing().length()))
                        .append('\n');
            }
        }
        return text.toString();
    }
}
