package dev.threadbench.loadtest.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * What stopped a sweep pair where holding first failed, as the evidence in the runs not held there shows against the
 * held end's: a sign in most runs not held and in a minority of the held end's ({@link SweepPair}). In results.json as
 * the lowercase name, as files from before it wrote the label.
 */
public enum Limit {
    /**
     * The server's own: short of CPU time, its CPUs full or its request threads starved (the generator not short), or
     * its worker pool held by delayed requests.
     */
    SERVER,
    /** The generator's: its CPUs full or its event loops starved, the server not short of CPU time. */
    GENERATOR,
    /**
     * The machine's: the kernel dropped connection attempts at a full accept queue, or the next concurrency was not
     * run.
     */
    MACHINE,
    /**
     * None of the above: no sign in most runs not held, a sign as common at the held end, both sides short of CPU time,
     * failed requests only, or no held end; the evidence is printed, no breaking point claimed.
     */
    UNEXPLAINED,
    /** It held at every concurrency run. */
    NONE;

    @JsonValue
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static Limit of(String id) {
        for (Limit limit : values()) {
            if (limit.id().equals(id)) {
                return limit;
            }
        }
        throw new IllegalArgumentException("unknown limit '" + id + "'");
    }

    @Override
    public String toString() {
        return id();
    }
}
