package dev.threadbench.loadtest.engine;

import dev.threadbench.loadtest.base.UsageException;
import java.util.Locale;

/** The engines by the names results.json and the console write them ({@link Engine#name()}). */
public enum EngineKind {
    /** The embedded runner, in this JVM. */
    EMBEDDED("embedded"),
    WRK("wrk"),
    DRILL("drill"),
    /** The embedded runner on the agents of a cluster (--agents). */
    CLUSTER("cluster");

    private final String key;

    EngineKind(String key) {
        this.key = key;
    }

    /** The name as written: "embedded", "wrk", "drill", "cluster". */
    public String key() {
        return key;
    }

    /** --engine: one of the engines a user names (embedded, wrk, drill; the cluster is --agents'). */
    public static EngineKind parse(String name) {
        return switch (name.trim().toLowerCase(Locale.ROOT)) {
            case "embedded" -> EMBEDDED;
            case "wrk" -> WRK;
            case "drill" -> DRILL;
            default ->
                throw new UsageException("--engine: unknown engine '" + name + "' (expected embedded, wrk or drill)");
        };
    }
}
