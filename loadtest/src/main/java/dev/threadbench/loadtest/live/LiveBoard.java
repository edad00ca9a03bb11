package dev.threadbench.loadtest.live;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.lang.management.ManagementFactory;
import java.util.ArrayDeque;

/**
 * What the live page shows, as compare's threads hand it over: each is a field written whole (a small record), read
 * once a second on the page's own thread into one JSON snapshot. No writer ever waits on the page or does more than
 * store a reference (the progress thread's tick and the cost sampler's read also subtract one figure from the last).
 */
public final class LiveBoard {

    /** The current run's seconds kept for a page opened mid-run: a long warm-up and window fit. */
    static final int KEPT_SECONDS = 1800;

    /** The run in progress, as it starts: its label, its bound (null: not known) and where the comparison is. */
    public record RunStarted(String label, int concurrency, Double bound, int rampupSeconds, String progress) {}

    /**
     * The generator's figures at one progress tick: requests and failures so far, requests/s over the last
     * {@code rateSeconds} (the progress line's figure) and the newest whole second's latency.
     */
    public record GeneratorTick(
            long nanos,
            String phase,
            long completed,
            long failed,
            double rate,
            int rateSeconds,
            double secondsLeft,
            Double p50Ms,
            Double p99Ms) {}

    private record Started(RunStarted run, long nanos, double generatorCpus) {}

    private record Point(
            long sequence,
            double second,
            long completed,
            String phase,
            double rate,
            int rateSeconds,
            Double secondsLeft,
            Double perSecond,
            Double failedPerSecond,
            Double p50Ms,
            Double p99Ms,
            Double generatorCpu,
            Double serverCpu) {}

    private record ServerNow(long nanos, Long cpuMs, Double cpuShare, Long threads, Long rssBytes) {}

    private volatile Started started;
    private volatile Point point;
    private volatile ServerNow server;
    private volatile Double jitShare;
    private volatile String table = "";
    private volatile boolean finished;

    // guarded by this: the progress thread appends, the page's thread reads
    private GeneratorTick previousTick;
    private long previousCpuNanos;
    private long sequence;
    private final ArrayDeque<Point> seconds = new ArrayDeque<>();

    /** The page's thread only: the last point its snapshots have carried. */
    private long sentSequence;

    /** A run starts, on a generator with {@code generatorCpus} CPUs of its own. */
    public void runStarted(RunStarted run, double generatorCpus) {
        synchronized (this) {
            previousTick = null;
            seconds.clear();
        }
        point = null;
        server = null;
        jitShare = null;
        started = new Started(run, System.nanoTime(), generatorCpus);
    }

    /** A progress tick (once a second, on the generator's progress thread). */
    public void generator(GeneratorTick tick) {
        Started run = started;
        if (run == null) {
            return;
        }
        long cpuNanos = processCpuNanos();
        Point next;
        synchronized (this) {
            GeneratorTick before = previousTick;
            double elapsed = before == null ? 0 : (tick.nanos() - before.nanos()) / 1e9;
            Double perSecond = elapsed > 0 ? (tick.completed() - before.completed()) / elapsed : null;
            Double failedPerSecond = elapsed > 0 ? (tick.failed() - before.failed()) / elapsed : null;
            Double cpu = elapsed > 0 && cpuNanos >= 0 && run.generatorCpus() > 0
                    ? (cpuNanos - previousCpuNanos) / 1e9 / elapsed / run.generatorCpus()
                    : null;
            boolean rampingUp =
                    (tick.nanos() - run.nanos()) / 1e9 < run.run().rampupSeconds() && "warm-up".equals(tick.phase());
            next = new Point(
                    ++sequence,
                    (tick.nanos() - run.nanos()) / 1e9,
                    tick.completed(),
                    rampingUp ? "ramp-up" : tick.phase(),
                    tick.rate(),
                    tick.rateSeconds(),
                    Double.isNaN(tick.secondsLeft()) ? null : tick.secondsLeft(),
                    perSecond,
                    failedPerSecond,
                    tick.p50Ms(),
                    tick.p99Ms(),
                    cpu,
                    server == null ? null : server.cpuShare());
            previousTick = tick;
            previousCpuNanos = cpuNanos;
            seconds.addLast(next);
            while (seconds.size() > KEPT_SECONDS) {
                seconds.removeFirst();
            }
        }
        point = next;
    }

    /** The server's own figures from its /stats, {@code serverCpus} its share's CPUs (every 500 ms, on the sampler). */
    public void server(Long cpuMs, Long threads, Long rssBytes, double serverCpus) {
        long now = System.nanoTime();
        ServerNow before = server;
        Double share = before == null || before.cpuMs() == null || cpuMs == null || serverCpus <= 0
                ? null
                : (cpuMs - before.cpuMs()) / ((now - before.nanos()) / 1e6) / serverCpus;
        server = new ServerNow(now, cpuMs, share, threads, rssBytes);
    }

    /** The server's JIT share of its CPU at the last warm-up period (--warmup auto ends it under 3 %). */
    public void jit(Double share) {
        jitShare = share;
    }

    /** The runs finished so far, as the console table shows them (with the verdict once there are rounds). */
    public void table(String text) {
        table = text;
    }

    public void finish() {
        finished = true;
    }

    boolean finished() {
        return finished;
    }

    /**
     * One snapshot: what a page needs to draw now, with the seconds since the last one (called once a second on the
     * page's thread).
     */
    JsonObject snapshot() {
        JsonObject json = state();
        JsonArray fresh = new JsonArray();
        synchronized (this) {
            for (Point p : seconds) {
                if (p.sequence() > sentSequence) {
                    fresh.add(json(p));
                }
            }
            sentSequence = sequence;
        }
        return json.put("points", fresh);
    }

    /** What a page needs to draw now, without seconds (those come in {@link #history} and each snapshot). */
    JsonObject state() {
        Started run = started;
        JsonObject json =
                new JsonObject().put("finished", finished).put("table", table).put("jitShare", jitShare);
        if (run != null) {
            json.put(
                    "run",
                    new JsonObject()
                            .put("label", run.run().label())
                            .put("concurrency", run.run().concurrency())
                            .put("bound", run.run().bound())
                            .put("progress", run.run().progress())
                            .put("startedMs", run.nanos() / 1_000_000));
        }
        ServerNow serverNow = server;
        if (serverNow != null) {
            json.put(
                    "server",
                    new JsonObject()
                            .put("cpuShare", serverNow.cpuShare())
                            .put("threads", serverNow.threads())
                            .put("rssMb", serverNow.rssBytes() == null ? null : serverNow.rssBytes() / 1048576.0));
        }
        Point now = point;
        if (now != null) {
            json.put("now", json(now));
        }
        return json.put("points", new JsonArray());
    }

    /** The current run's seconds so far (for a page that opens mid-run), on the page's thread. */
    synchronized JsonArray history() {
        JsonArray all = new JsonArray();
        for (Point p : seconds) {
            if (p.sequence() <= sentSequence) {
                all.add(json(p));
            }
        }
        return all;
    }

    private static JsonObject json(Point p) {
        return new JsonObject()
                .put("sequence", p.sequence())
                .put("second", Math.round(p.second() * 10) / 10.0)
                .put("completed", p.completed())
                .put("phase", p.phase())
                .put("rate", Math.round(p.rate() * 10) / 10.0)
                .put("rateSeconds", p.rateSeconds())
                .put("secondsLeft", p.secondsLeft() == null ? null : Math.ceil(p.secondsLeft()))
                .put("perSecond", p.perSecond())
                .put("failedPerSecond", p.failedPerSecond())
                .put("p50Ms", p.p50Ms())
                .put("p99Ms", p.p99Ms())
                .put("generatorCpu", p.generatorCpu())
                .put("serverCpu", p.serverCpu());
    }

    /** This JVM's CPU time (the generator's side: the page's thread included, which is what it costs); -1: none. */
    private static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }
}
