package dev.threadbench.common;

/** The one line each server logs when it is ready, in the same shape for both. */
public final class StartupLine {
    private StartupLine() {}

    public static String of(String framework, String version, int boundPort, ServerOptions options, String threads) {
        return String.format(
                "%s %s listening on http://%s:%d strategy=%s delay=%d ms every %d requests %s page=%s (%d bytes)"
                        + "%s java=%s",
                framework,
                version,
                options.host(),
                boundPort,
                options.strategy().id(),
                options.delayMs(),
                options.delayEvery(),
                threads,
                options.page().source(),
                options.page().length(),
                options.work().micros() == 0 ? "" : " work=" + options.work() + " of CPU per answer",
                Runtime.version());
    }
}
