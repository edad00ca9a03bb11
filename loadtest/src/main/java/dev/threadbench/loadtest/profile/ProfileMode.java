package dev.threadbench.loadtest.profile;

import dev.threadbench.loadtest.base.UsageException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What {@code compare --profile} records in each server, and how async-profiler is told to. {@code cpu} names itimer,
 * the timer-based sampler (setitimer's process-wide CPU-time timer), rather than {@code event=cpu}: that one needs perf
 * events, which perf_event_paranoid 2 forbids, and then falls back to ctimer, whose per-thread timers miss threads that
 * each run less than an interval (thousands of blocking threads: it recorded about a third fewer samples of them than
 * itimer here). Naming itimer keeps the mode the same on every machine.
 */
public enum ProfileMode {
    CPU(
            "cpu",
            "event=itimer,interval=2ms",
            "samples",
            "cpu: itimer, a sample every 2 ms of the server's CPU time (timer-based: no perf events; native frames,"
                    + " no kernel ones)"),
    WALL(
            "wall",
            "event=wall",
            "samples",
            "wall: threads running or waiting, 8 of them every 50 ms in turn (async-profiler's wall clock): where"
                    + " threads wait"),
    ALLOC(
            "alloc",
            "event=alloc",
            "bytes",
            "alloc: the JVM's heap sampling, about one object per 512 KiB allocated, weighted by bytes");

    private final String id;
    private final String agentOptions;
    private final String unit;
    private final String description;

    ProfileMode(String id, String agentOptions, String unit, String description) {
        this.id = id;
        this.agentOptions = agentOptions;
        this.unit = unit;
        this.description = description;
    }

    /** The mode named by --profile; bad names: the one line naming what is wrong. */
    public static ProfileMode parse(String text) {
        String name = text.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values())
                .filter(mode -> mode.id.equals(name))
                .findFirst()
                .orElseThrow(() -> new UsageException("--profile: unknown mode '" + text + "' (expected "
                        + Arrays.stream(values()).map(ProfileMode::id).collect(Collectors.joining(", ")) + ")"));
    }

    public String id() {
        return id;
    }

    /** The agent's event and interval, as in {@code start,<these>,jfr,file=...}. */
    String agentOptions() {
        return agentOptions;
    }

    /** What a profile's weights count: "samples", or "bytes" for alloc. */
    String unit() {
        return unit;
    }

    /** The mode in words, for results.json and the report. */
    public String description() {
        return description;
    }
}
