package dev.threadbench.loadtest.model;

import java.util.List;

/**
 * The kinds of a run's notes (results.json's {@code notes}, plain text) that the analysis reads back: each note of a
 * kind starts with its prefix, so files written before the kinds had names read the same.
 */
public enum Note {
    /** The kernel dropped connection attempts at the server's full accept queue ({@code ListenOverflows}). */
    KERNEL_DROPS("kernel: "),
    /** The server's request threads waited on the run queue at least as long as they ran. */
    SERVER_STARVED("server starved: "),
    /** The generator's event loops waited on the run queue at least as long as they ran. */
    GENERATOR_STARVED("generator starved: "),
    /** The auto warm-up ended at its cap: the server's JIT had not settled. */
    WARMUP_CAPPED("warm-up capped: ");

    private final String prefix;

    Note(String prefix) {
        this.prefix = prefix;
    }

    /** A note of this kind: its prefix, then {@code text}. */
    public String write(String text) {
        return prefix + text;
    }

    /** Whether {@code note} is of this kind. */
    public boolean is(String note) {
        return note.startsWith(prefix);
    }

    /** Whether {@code note} is of any of these kinds: one the console prints under its run's line. */
    public static boolean named(String note) {
        for (Note kind : values()) {
            if (kind.is(note)) {
                return true;
            }
        }
        return false;
    }

    /** Whether any of {@code notes} is of this kind. */
    public boolean in(List<String> notes) {
        return notes.stream().anyMatch(this::is);
    }
}
