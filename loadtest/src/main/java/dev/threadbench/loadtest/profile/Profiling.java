package dev.threadbench.loadtest.profile;

import com.sun.tools.attach.VirtualMachine;
import dev.threadbench.loadtest.model.Profile;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import one.convert.Arguments;
import one.convert.JfrToFlame;

/**
 * compare --profile: async-profiler loaded into each server compare started, through the JDK's attach API (no change to
 * the servers, which run with -XX:+EnableDynamicAgentLoading so that the JVM does not warn), recording over the
 * measured window only; then each recording turned into a flame graph (DIR/profiles/NAME.html, self-contained), its
 * collapsed stacks (NAME.collapsed) and the share of each {@link Bucket}. Whatever keeps a run from being profiled is
 * one line on the console, and the run goes on unprofiled.
 */
public final class Profiling {

    private final ProfileMode mode;
    private final Path dir;
    private final PrintStream console;
    private final List<Profile> profiles = new ArrayList<>();
    private Path library;
    private boolean unavailable;

    private Profiling(ProfileMode mode, Path dir, PrintStream console) {
        this.mode = mode;
        this.dir = dir;
        this.console = console;
    }

    public static Profiling off() {
        return new Profiling(null, null, null);
    }

    /** Profiles into {@code resultsDir}/profiles; notes go to {@code console}. */
    public static Profiling of(ProfileMode mode, Path resultsDir, PrintStream console) {
        return new Profiling(mode, resultsDir.resolve("profiles"), console);
    }

    public boolean on() {
        return mode != null && !unavailable;
    }

    /** The profiles made so far, in run order. */
    public List<Profile> profiles() {
        return List.copyOf(profiles);
    }

    /**
     * The profile's file name without extension: undertow-virtual-2000, -round2 with rounds, -at9000 for an open-model
     * rate.
     */
    public static String name(String server, String strategy, int concurrency, Double rate, int round, int rounds) {
        return server + "-" + (strategy == null ? "default" : strategy) + "-" + concurrency
                + (rate == null ? "" : String.format(Locale.ROOT, "-at%.0f", rate))
                + (rounds == 1 ? "" : "-round" + (round + 1));
    }

    /**
     * Attaches to the server (before the load starts, so that the library is loaded and the JVM's attach listener up
     * when the window opens) and returns the run's window; {@link Window#NONE} when profiling is off or cannot be done.
     */
    public Window window(long pid, String server, String strategy, int concurrency, int round, String name) {
        if (!on()) {
            return Window.NONE;
        }
        try {
            if (library == null) {
                library = AgentLibrary.extract();
            }
            Files.createDirectories(dir);
            VirtualMachine vm = VirtualMachine.attach(String.valueOf(pid));
            Recording recording = new Recording(vm, library, dir.resolve(name), server, strategy, concurrency, round);
            recording.load("quiet," + recording.logOption());
            return recording;
        } catch (AgentLibrary.Unavailable e) {
            unavailable = true;
            note("not profiled: " + e.getMessage() + "; the runs go on unprofiled");
        } catch (LinkageError e) {
            unavailable = true;
            note("not profiled: this JVM has no attach API (jdk.attach): " + e.getMessage()
                    + "; the runs go on unprofiled");
        } catch (Exception e) {
            note("not profiled: " + server + " C=" + concurrency + ": cannot load async-profiler: " + oneLine(e)
                    + "; the run goes on unprofiled");
        }
        return Window.NONE;
    }

    private void note(String line) {
        console.println("  profile: " + line);
        console.flush();
    }

    private static String oneLine(Throwable e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return message.lines().findFirst().orElse("").trim();
    }

    /** The measured window's edges, as the load runner reports them; then the profile, once the run is over. */
    public interface Window {

        Window NONE = new Window() {
            @Override
            public void start() {}

            @Override
            public void stop() {}

            @Override
            public void finish() {}
        };

        /** Profiling starts (off the caller's thread: the runner's timer must not wait for the attach). */
        void start();

        /** Profiling stops and the recording is written (off the caller's thread). */
        void stop();

        /** Waits for the recording and renders it; a profile that failed is one line on the console. */
        void finish();
    }

    private final class Recording implements Window {

        private final ExecutorService commands = Executors.newSingleThreadExecutor(r -> {
            Thread thread = new Thread(r, "profiler-commands");
            thread.setDaemon(true);
            return thread;
        });
        private final VirtualMachine vm;
        private final Path library;
        private final Path base;
        private final String server;
        private final String strategy;
        private final int concurrency;
        private final int round;
        private Future<?> started;
        private Future<?> stopped;

        Recording(
                VirtualMachine vm,
                Path library,
                Path base,
                String server,
                String strategy,
                int concurrency,
                int round) {
            this.vm = vm;
            this.library = library;
            this.base = base;
            this.server = server;
            this.strategy = strategy;
            this.concurrency = concurrency;
            this.round = round;
        }

        private Path file(String extension) {
            return base.resolveSibling(base.getFileName() + extension);
        }

        /** The agent's log in a file of its own, so that the server's log stays the server's. */
        String logOption() {
            return "log=" + file(".log");
        }

        void load(String options) throws Exception {
            vm.loadAgentPath(library.toString(), options);
        }

        @Override
        public void start() {
            started = commands.submit(() -> {
                load("start," + mode.agentOptions() + ",jfr,quiet,file=" + file(".jfr") + "," + logOption());
                return null;
            });
        }

        @Override
        public void stop() {
            stopped = commands.submit(() -> {
                load("stop,quiet,file=" + file(".jfr") + "," + logOption());
                return null;
            });
        }

        @Override
        public void finish() {
            try {
                if (started == null || stopped == null) {
                    throw new IllegalStateException("the measured window never opened");
                }
                started.get();
                stopped.get();
                profiles.add(render());
            } catch (Exception e) {
                Throwable cause = e instanceof java.util.concurrent.ExecutionException ? e.getCause() : e;
                note("not profiled: " + server + " C=" + concurrency + ": " + oneLine(cause));
            } finally {
                commands.shutdownNow();
                try {
                    vm.detach();
                } catch (IOException ignored) {
                    // the server may be gone already; nothing is held on this side
                }
                deleteIfEmpty(file(".log"));
            }
        }

        private Profile render() throws IOException {
            Path jfr = file(".jfr");
            Path html = file(".html");
            Path collapsed = file(".collapsed");
            Arguments args = mode == ProfileMode.ALLOC ? new Arguments("--alloc", "--total") : new Arguments();
            args.title =
                    server + "/" + strategy + " C=" + concurrency + " round " + (round + 1) + ": " + mode.description();
            args.output = "html";
            JfrToFlame.convert(jfr.toString(), html.toString(), args);
            args.output = "collapsed";
            JfrToFlame.convert(jfr.toString(), collapsed.toString(), args);
            Files.delete(jfr);
            var weights = BucketShares.weights(Files.readString(collapsed));
            long total = weights.values().stream().mapToLong(Long::longValue).sum();
            if (total == 0) {
                throw new IOException("the recording holds no samples (" + html.getFileName() + " is empty)");
            }
            return new Profile(
                    server,
                    strategy,
                    concurrency,
                    round,
                    mode.id(),
                    mode.description(),
                    dir.getParent().relativize(html).toString(),
                    total,
                    mode.unit(),
                    BucketShares.shares(weights));
        }

        private static void deleteIfEmpty(Path file) {
            try {
                if (Files.isRegularFile(file) && Files.size(file) == 0) {
                    Files.delete(file);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
