package dev.threadbench.loadtest;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A small server for the runner's tests, speaking the servers' contract on / (every Nth request
 * delayed, /health, /stats) and misbehaving on purpose elsewhere: /status/500, /slow (never answers), and, on
 * a second raw TCP port, answers cut short or connections reset.
 */
public final class StandInServer implements AutoCloseable {

    public static final String PAGE = "<html><body>stand-in</body></html>";

    private final Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong inFlight = new AtomicLong();
    private volatile boolean statsBroken;
    private volatile String name = "stand-in";
    /** With {@link #holdingAtMost}: the delayed requests being held, and those waiting for a slot (event loop only). */
    private volatile int slots = Integer.MAX_VALUE;

    private int held;
    private final Queue<Runnable> waiting = new ArrayDeque<>();
    private final HttpServer http;
    private final NetServer raw;

    public StandInServer(int delayEvery, long delayMs) {
        http = vertx.createHttpServer()
                .requestHandler(request -> {
                    switch (request.path()) {
                        case "/" -> {
                            long n = requests.incrementAndGet();
                            inFlight.incrementAndGet();
                            Runnable answer = () -> {
                                request.response()
                                        .putHeader("Content-Type", "text/html")
                                        .end(PAGE);
                                inFlight.decrementAndGet();
                            };
                            if (delayEvery > 0 && n % delayEvery == 0) {
                                hold(() -> vertx.setTimer(delayMs, id -> {
                                    answer.run();
                                    release();
                                }));
                            } else {
                                answer.run();
                            }
                        }
                        case "/health" -> request.response().end("ok");
                        case "/stats" -> {
                            if (statsBroken) {
                                request.response().setStatusCode(500).end("broken");
                                return;
                            }
                            request.response()
                                    .end("{\"server\":\"" + name + "\",\"strategy\":\"timer\",\"requests\":"
                                            + requests.get() + ",\"delayed\":"
                                            + (delayEvery > 0 ? requests.get() / delayEvery : 0) + ",\"inFlight\":"
                                            + inFlight.get() + "}");
                        }
                        case "/status/500" ->
                            request.response().setStatusCode(500).end("no");
                        case "/slow" -> {
                            /* never answers */
                        }
                        default -> request.response().setStatusCode(404).end();
                    }
                })
                .listen(0, "127.0.0.1")
                .await();
        raw = vertx.createNetServer(new NetServerOptions().setSoLinger(0))
                .connectHandler(socket -> socket.handler(bytes -> {
                    String head = bytes.toString();
                    if (head.startsWith("GET /short")) {
                        socket.write(Buffer.buffer("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly ten b"))
                                .onComplete(v -> socket.close());
                    } else {
                        socket.close(); // SO_LINGER 0: the close is a reset
                    }
                }))
                .listen(0, "127.0.0.1")
                .await();
    }

    public int port() {
        return http.actualPort();
    }

    /** The port where answers are cut short (/short) or connections reset (anything else). */
    public int rawPort() {
        return raw.actualPort();
    }

    /** /stats names the server so, as compare --targets wants it to ("undertow", say). */
    public StandInServer namedAs(String server) {
        name = server;
        return this;
    }

    /**
     * At most {@code slots} delayed requests held at once, the others waiting for one, as a worker pool of that size
     * would hold them: with every 10th request held, the bound is then reached up to about {@code slots} connections.
     * Before the first request.
     */
    public StandInServer holdingAtMost(int slots) {
        this.slots = slots;
        return this;
    }

    private void hold(Runnable delay) {
        if (held < slots) {
            held++;
            delay.run();
        } else {
            waiting.add(delay);
        }
    }

    private void release() {
        held--;
        Runnable next = waiting.poll();
        if (next != null) {
            held++;
            next.run();
        }
    }

    /** From now on /stats answers 500, as a server that has stopped answering it would fail compare. */
    public void breakStats() {
        statsBroken = true;
    }

    public long requests() {
        return requests.get();
    }

    @Override
    public void close() {
        vertx.close().await();
    }

    public static void main(String[] args) throws InterruptedException {
        try (StandInServer server = new StandInServer(Integer.parseInt(args[0]), Long.parseLong(args[1]))) {
            System.out.println("http " + server.port() + " raw " + server.rawPort());
            Thread.sleep(Long.parseLong(args[2]) * 1000);
        }
    }
}
