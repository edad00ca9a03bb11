package dev.threadbench.loadtest.runner;

import dev.threadbench.loadtest.base.UsageException;
import io.vertx.core.transport.Transport;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The runner's I/O: epoll (the default on Linux), io_uring (fewer syscalls per request: reads and writes are
 * queued to the kernel and reaped in batches) or NIO, the JDK's own, which runs anywhere.
 */
public enum GeneratorTransport {
    EPOLL("epoll", Transport.EPOLL),
    IO_URING("io_uring", Transport.IO_URING),
    NIO("nio", Transport.NIO);

    public static final GeneratorTransport DEFAULT = EPOLL;

    private final String key;
    private final Transport vertx;

    GeneratorTransport(String key, Transport vertx) {
        this.key = key;
        this.vertx = vertx;
    }

    /** The name on the command line and in results.json. */
    public String key() {
        return key;
    }

    /** {@code --transport}'s value. */
    public static GeneratorTransport parse(String name) {
        String wanted = name.trim().toLowerCase(Locale.ROOT).replace('-', '_');
        return Arrays.stream(values())
                .filter(t -> t.key.equals(wanted))
                .findFirst()
                .orElseThrow(() -> new UsageException("--transport: unknown transport '" + name + "' (expected "
                        + Arrays.stream(values()).map(GeneratorTransport::key).collect(Collectors.joining(", "))
                        + ")"));
    }

    /**
     * What can run of what was asked: this transport when it can start here, else epoll, else NIO.
     *
     * @param why receives one line saying why the transport asked for cannot start, when it cannot
     */
    Started start(Consumer<String> why) {
        if (vertx.available()) {
            return new Started(this, vertx);
        }
        GeneratorTransport fallback = this != EPOLL && EPOLL.vertx.available() ? EPOLL : NIO;
        Throwable cause = vertx.unavailabilityCause();
        why.accept(key + " cannot start here (" + (cause == null ? "unavailable" : rootMessage(cause))
                + "): running on " + fallback.key);
        return new Started(fallback, fallback.vertx);
    }

    record Started(GeneratorTransport transport, Transport vertx) {}

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }
}
