package dev.threadbench.loadtest.cluster;

/** Two nodes of different builds: their messages and their runners may not mean the same thing, so they refuse each other. */
public final class VersionConflictException extends RuntimeException {

    public VersionConflictException(String self, String selfBuild, String other, String otherBuild) {
        super(other + " runs build " + otherBuild + ", " + self + " runs " + selfBuild + ": run one build on every host",
                null, false, false);
    }
}
