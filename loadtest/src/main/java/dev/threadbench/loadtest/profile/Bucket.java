package dev.threadbench.loadtest.profile;

import java.util.List;

/**
 * Where a sample's time (or, for alloc, its bytes) went, by the frames of its stack: each sample counts once, for the
 * deepest frame any bucket names (so the JDK and native frames under a framework's method count for the framework,
 * and a park under the virtual-thread scheduler for the strategy). GC and JIT threads count whole. A stack no bucket
 * names goes to native when its leaf is native or JVM code, else to other: shown, never hidden.
 */
public enum Bucket {
    IO("framework IO loop & HTTP parsing"),
    PAGE("the page & the project's code"),
    STRATEGY("delay strategy: sleep, park/unpark, timers, worker pools"),
    GC("GC"),
    JIT("JIT"),
    NATIVE("native & JVM runtime (syscalls, VM threads)"),
    OTHER("other");

    private static final List<String> GC_THREADS = List.of(
            "GCTaskThread::run",
            "WorkerThread::run",
            "ConcurrentGCThread::run",
            "G1ConcurrentRefineThread::",
            "G1ServiceThread::",
            "G1PrimaryConcurrentRefineThread::");
    private static final List<String> GC_FRAMES =
            List.of("G1", "CollectedHeap::", "GCTaskThread::", "WorkerThread::run");
    private static final List<String> JIT_FRAMES = List.of(
            "CompileBroker::",
            "C2Compiler::",
            "Compile::",
            "Compilation::",
            "CompilationPolicy::",
            "C1_",
            "Compiler::compile");
    /**
     * Sleeping, parking and waking, the virtual-thread scheduler and its continuations, timers and the pools blocking
     * work runs on.
     */
    private static final List<String> STRATEGY_FRAMES = List.of(
            "java/lang/Thread.sleep",
            "java/lang/Thread.yield",
            "java/lang/VirtualThread",
            "java/lang/ThreadBuilders$VirtualThread",
            "jdk/internal/vm/Continuation",
            "jdk/internal/misc/Unsafe.park",
            "jdk/internal/misc/Unsafe.unpark",
            "java/util/concurrent/locks/LockSupport.",
            "java/util/concurrent/ForkJoin",
            "java/util/concurrent/ThreadPoolExecutor",
            "java/util/concurrent/ScheduledThreadPoolExecutor",
            "java/util/concurrent/LinkedBlockingQueue",
            "java/util/concurrent/SynchronousQueue",
            "java/util/concurrent/locks/AbstractQueuedSynchronizer",
            "org/jboss/threads/",
            "io/netty/util/HashedWheelTimer",
            "io/netty/util/concurrent/ScheduledFutureTask",
            "io/netty/util/concurrent/AbstractScheduledEventExecutor",
            "io/netty/util/concurrent/DefaultPriorityQueue",
            "org/xnio/nio/WorkerThread.executeAfter",
            "org/xnio/nio/WorkerThread$TimeKey",
            "dev/threadbench/common/OnDemandThreadPool",
            "Unsafe_Park",
            "Unsafe_Unpark",
            "Parker::",
            "JVM_Sleep",
            "JVM_StartThread",
            "JVM_VirtualThread",
            "Continuation::",
            "FreezeBase::",
            "ThawBase::",
            "Freeze<",
            "Thaw<",
            "StackChunk",
            "ObjectMonitor::");
    /** The Vert.x parts that run blocking work, virtual threads and timers, among its IO and HTTP classes. */
    private static final List<String> VERTX_STRATEGY_PARTS = List.of(
            "executeBlocking",
            "WorkerTask",
            "TaskQueue",
            "WorkerExecutor",
            "WorkerContext",
            "Timer",
            "VirtualThread",
            "setTimer",
            "scheduleTimeout");

    private static final List<String> IO_FRAMES = List.of(
            "io/netty/", "io/vertx/", "io/undertow/", "org/xnio/", "sun/nio/", "java/nio/", "sun/net/", "java/net/");

    private final String title;

    Bucket(String title) {
        this.title = title;
    }

    public String title() {
        return title;
    }

    /** The bucket of one sample's stack, root first; Java frames carry the converter's type suffix ("_[j]"). */
    static Bucket of(List<String> stack) {
        for (String frame : stack) {
            String name = name(frame);
            if (startsWithAny(name, GC_THREADS)) {
                return GC;
            }
            if (name.startsWith("CompileBroker::compiler_thread_loop")) {
                return JIT;
            }
        }
        for (int i = stack.size() - 1; i >= 0; i--) {
            Bucket named = named(name(stack.get(i)));
            if (named != null) {
                return named;
            }
        }
        return stack.isEmpty() || java(stack.getLast()) ? OTHER : NATIVE;
    }

    /** The bucket a frame names by itself; null for the JDK's own utility frames and unnamed native ones. */
    private static Bucket named(String name) {
        if (startsWithAny(name, STRATEGY_FRAMES)
                || name.startsWith("dev/threadbench/") && name.contains("DelayStrategies")
                || name.startsWith("io/vertx/") && VERTX_STRATEGY_PARTS.stream().anyMatch(name::contains)) {
            return STRATEGY;
        }
        if (name.startsWith("dev/threadbench/")) {
            return PAGE;
        }
        if (startsWithAny(name, IO_FRAMES)) {
            return IO;
        }
        if (startsWithAny(name, GC_FRAMES)) {
            return GC;
        }
        if (startsWithAny(name, JIT_FRAMES)) {
            return JIT;
        }
        return null;
    }

    /** The frame's name without the converter's type suffix. */
    static String name(String frame) {
        return frame.length() > 4
                        && frame.endsWith("]")
                        && frame.charAt(frame.length() - 4) == '_'
                        && frame.charAt(frame.length() - 3) == '['
                ? frame.substring(0, frame.length() - 4)
                : frame;
    }

    /**
     * Interpreted, C1, C2 or inlined Java code: the suffixes _[0], _[1], _[j] and _[i]; native and JVM frames have
     * none, kernel ones _[k].
     */
    static boolean java(String frame) {
        return frame.endsWith("_[0]") || frame.endsWith("_[1]") || frame.endsWith("_[j]") || frame.endsWith("_[i]");
    }

    private static boolean startsWithAny(String name, List<String> prefixes) {
        for (String prefix : prefixes) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}
