package dev.threadbench.loadtest.server;

import dev.threadbench.loadtest.base.BuildInfo;
import java.util.Arrays;
import java.util.List;

/** The servers this project builds, by the name compare, results.json and their /stats use. */
public enum ServerKind {
    UNDERTOW("undertow"),
    VERTX("vertx");

    /** "undertow", "vertx": what --servers accepts. */
    public static final List<String> NAMES =
            Arrays.stream(values()).map(ServerKind::id).toList();

    private final String id;

    ServerKind(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    /** The kind named so; null for a server this project did not build (--targets may name any). */
    public static ServerKind named(String name) {
        return Arrays.stream(values())
                .filter(k -> k.id.equals(name))
                .findFirst()
                .orElse(null);
    }

    /** The Maven property of its framework's version: undertow.version, vertx.version. */
    public String versionProperty() {
        return id + ".version";
    }

    /** The framework version this build was made with. */
    public String buildVersion() {
        BuildInfo build = BuildInfo.get();
        return this == UNDERTOW ? build.undertowVersion() : build.vertxVersion();
    }
}
