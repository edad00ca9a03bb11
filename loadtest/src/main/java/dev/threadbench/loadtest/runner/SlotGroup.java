package dev.threadbench.loadtest.runner;

import dev.threadbench.loadtest.runner.MeasuredWindow.Ticket;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientConnection;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpConnectOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The slots of one event loop, their client and their counts. Each slot has its own keep-alive connection
 * and one plan run at a time: it sends a request, waits for the whole answer, checks it (status 2xx, body
 * length = Content-Length) and records it. In a closed loop ({@link #startSlot}) each slot then sends its
 * next plan run; in the open model ({@link #startOpen}) the schedule starts plan runs on free slots, whatever
 * the answers, and the first request's latency counts from its intended time. Everything here runs on the
 * loop's thread, except the live counts, which the progress line reads.
 */
final class SlotGroup {

    private final Vertx vertx;
    private final Context context;
    private final int slots;
    private final MeasuredWindow window;
    private final HttpClientAgent client;
    private final List<RequestOptions> requests;
    private final List<HttpConnectOptions> endpoints;
    private final Tally tally = new Tally();
    private final CompletableFuture<Tally> done = new CompletableFuture<>();
    private final long timeoutNanos;
    private int running;
    /** The open model's schedule on this group; null in a closed loop. */
    private OpenArrivals open;
    /** The event loop thread the group ran on, to prove the groups were spread over the loops. */
    private volatile String thread;
    final LongAdder completed = new LongAdder();
    final LongAdder failed = new LongAdder();

    SlotGroup(Vertx vertx, Context context, int slots, LoadSpec spec, MeasuredWindow window) {
        this.vertx = vertx;
        this.context = context;
        this.slots = slots;
        this.running = slots;
        this.window = window;
        this.timeoutNanos = spec.timeout().toNanos();
        int timeoutMillis = (int) Math.min(Integer.MAX_VALUE, spec.timeout().toMillis());
        this.client = vertx.createHttpClient(new HttpClientOptions()
                .setKeepAlive(true)
                .setPipelining(false)
                .setTcpNoDelay(true)
                .setConnectTimeout(timeoutMillis));
        this.requests = spec.steps().stream().map(step -> StepExchange.options(step, timeoutMillis)).toList();
        this.endpoints = requests.stream().map(r -> new HttpConnectOptions().setHost(r.getHost()).setPort(r.getPort())
                .setConnectTimeout(timeoutMillis)).toList();
    }

    int slots() {
        return slots;
    }

    /** What the group's slots did, once they have all stopped. */
    CompletableFuture<Tally> done() {
        return done;
    }

    String thread() {
        return thread;
    }

    void startSlot(long delayNanos) {
        context.runOnContext(v -> {
            thread = Thread.currentThread().getName();
            Slot slot = new Slot();
            long delayMillis = TimeUnit.NANOSECONDS.toMillis(delayNanos);
            if (delayMillis > 0) {
                vertx.setTimer(delayMillis, id -> nextPlanRun(slot));
            } else {
                nextPlanRun(slot);
            }
        });
    }

    /** Open model: every slot free, plan runs sent as {@code schedule} says until it ends, then the drain. */
    void startOpen(ArrivalSchedule schedule) {
        context.runOnContext(v -> {
            thread = Thread.currentThread().getName();
            open = new OpenArrivals(this, schedule, slots, context, window, tally, timeoutNanos);
            open.dispatch();
        });
    }

    /** Every slot has stopped: the group is done. */
    void allStopped() {
        done.complete(tally);
    }

    /**
     * One closed-loop client and its own connection, taken from no pool: a pool as large as the slots
     * would scan its connections on every request. A broken connection is replaced by the next request's.
     */
    static final class Slot {
        HttpClientConnection connection;
        HttpConnectOptions connectedTo;

        void closeConnection() {
            if (connection != null) {
                connection.close();
                connection = null;
            }
        }
    }

    private void nextPlanRun(Slot slot) {
        Ticket ticket = window.next(System.nanoTime());
        if (ticket == null) {
            slotFinished(slot);
        } else {
            send(slot, 0, ticket, System.nanoTime());
        }
    }

    private void slotFinished(Slot slot) {
        slot.closeConnection();
        if (--running == 0) {
            allStopped();
        }
    }

    /** @param start when the request's latency starts: now, or, the open model's first step, its intended time */
    void send(Slot slot, int step, Ticket ticket, long start) {
        RequestOptions options = requests.get(step);
        tally.sent++;
        if (slot.connection != null && slot.connectedTo == endpoints.get(step)) {
            exchange(slot.connection, slot, step, ticket, start, options);
        } else {
            connect(slot, step).onComplete(connected -> {
                if (connected.failed()) {
                    finish(slot, step, ticket, start, FailureCause.of(connected.cause(), false), connected.cause());
                } else {
                    exchange(connected.result(), slot, step, ticket, start, options);
                }
            });
        }
    }

    private Future<HttpClientConnection> connect(Slot slot, int step) {
        HttpConnectOptions endpoint = endpoints.get(step);
        slot.closeConnection();
        return client.connect(endpoint).andThen(connected -> {
            if (connected.succeeded()) {
                HttpClientConnection connection = connected.result();
                tally.connectionsOpened++;
                slot.connection = connection;
                slot.connectedTo = endpoint;
                connection.closeHandler(v -> {
                    if (slot.connection == connection) {
                        slot.connection = null;
                    }
                });
            }
        });
    }

    /** One request and its whole answer on the slot's connection; plain callbacks, no future chains, per request. */
    private void exchange(HttpClientConnection connection, Slot slot, int step, Ticket ticket, long start, RequestOptions options) {
        connection.request(options).onComplete(created -> {
            if (created.failed()) {
                finish(slot, step, ticket, start, FailureCause.of(created.cause(), false), created.cause());
                return;
            }
            created.result().send().onComplete(answer -> {
                if (answer.failed()) {
                    finish(slot, step, ticket, start, FailureCause.of(answer.cause(), false), answer.cause());
                    return;
                }
                HttpClientResponse response = answer.result();
                tally.answered++;
                response.body().onComplete(body -> {
                    if (body.failed()) {
                        finish(slot, step, ticket, start, FailureCause.of(body.cause(), true), body.cause());
                    } else {
                        finish(slot, step, ticket, start, StepExchange.check(response, body.result(), options.getMethod() == HttpMethod.HEAD), null);
                    }
                });
            });
        });
    }

    private void finish(Slot slot, int step, Ticket ticket, long start, FailureCause failure, Throwable cause) {
        long end = System.nanoTime();
        tally.seconds.record(end - window.startNanos(), (end - start) / 1000, failure != null);
        if (open != null && window.inside(end)) {
            tally.completedInWindow++;
        }
        if (window.measured(ticket, end)) {
            tally.recordMeasured((end - start) / 1000, failure);
            if (failure == FailureCause.OTHER && tally.firstOtherFailure == null && cause != null) {
                tally.firstOtherFailure = cause.getClass().getName() + ": " + cause.getMessage();
            }
        }
        completed.increment();
        if (failure != null) {
            failed.increment();
            if (failure != FailureCause.NON_2XX) {
                // the connection's state is unknown after a broken exchange: start the next on a new one
                slot.closeConnection();
            }
        }
        if (step + 1 == requests.size()) {
            if (open != null) {
                open.planRunDone(slot);
            } else {
                nextPlanRun(slot);
            }
        } else if (ticket == Ticket.BY_COMPLETION && window.over(end)) {
            slotFinished(slot);
        } else {
            send(slot, step + 1, ticket, System.nanoTime());
        }
    }
}
