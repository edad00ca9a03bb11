package dev.threadbench.loadtest.runner;

import dev.threadbench.loadtest.runner.MeasuredWindow.Ticket;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The slots of one event loop, their connections and their counts. Each slot has its own keep-alive connection
 * and one plan run at a time: it sends a request, waits for the whole answer, checks it (status 2xx, body
 * length = Content-Length) and records it. In a closed loop ({@link #startSlot}) each slot then sends its
 * next plan run; in the open model ({@link #startOpen}) the schedule starts plan runs on free slots, whatever
 * the answers, and the first request's latency counts from its intended time. Everything here runs on the
 * loop's thread, except the live counts, which the progress line reads.
 *
 * <p>The connections are plain Netty channels on the loop (the Vert.x client cost about 1.3 x wrk's CPU per
 * request): a request is its step's bytes, encoded once ({@link StepExchange}); an answer is parsed as it
 * arrives and never kept ({@link AnswerParser}); and one timer per group, not one per request, fails the
 * exchanges that have waited a whole timeout without a byte.
 */
final class SlotGroup {

    private final Vertx vertx;
    private final Context context;
    private final EventLoop eventLoop;
    private final int slots;
    private final MeasuredWindow window;
    private final Bootstrap bootstrap;
    private final List<StepExchange> steps;
    /** The local addresses slots bind to in turn; empty: the system's choice. */
    private final List<InetAddress> sources;
    /** This group's first slot's index among all the runner's slots: the round-robin over sources spans the groups. */
    private final int firstSlotIndex;

    private final List<Slot> created = new ArrayList<>();
    /** Set by {@link #stop}: the run was aborted. */
    private boolean stopped;

    final Tally tally = new Tally(); // off the loop's thread, only its seconds' latest() is read
    private final CompletableFuture<Tally> done = new CompletableFuture<>();
    private final long timeoutNanos;
    private ScheduledFuture<?> timeoutSweep;
    private int running;
    /** The open model's schedule on this group; null in a closed loop. */
    private OpenArrivals open;
    /** The event loop thread the group ran on, to prove the groups were spread over the loops. */
    private volatile String thread;

    final LongAdder completed = new LongAdder();
    final LongAdder failed = new LongAdder();

    /** The group's share of the connections: {@code count} of them, numbered from {@code firstIndex} over all. */
    record Slots(int count, int firstIndex) {}

    SlotGroup(
            Context context,
            ChannelFactory<? extends Channel> channels,
            Slots slots,
            LoadSpec spec,
            List<StepExchange> steps,
            MeasuredWindow window) {
        this.vertx = context.owner();
        this.context = context;
        this.eventLoop = ((ContextInternal) context).nettyEventLoop();
        this.slots = slots.count();
        this.firstSlotIndex = slots.firstIndex();
        this.running = slots.count();
        this.window = window;
        this.steps = steps;
        this.sources = spec.sourceAddresses();
        this.timeoutNanos = spec.timeout().toNanos();
        this.bootstrap = new Bootstrap()
                .group(eventLoop)
                .channelFactory(channels)
                .option(ChannelOption.TCP_NODELAY, true)
                // a close resets the connection: no TIME_WAIT holds the port for a minute, which the next run's
                // connect() would have to search past (a sweep's points follow each other within seconds)
                .option(ChannelOption.SO_LINGER, 0)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int)
                        Math.min(Integer.MAX_VALUE, spec.timeout().toMillis()))
                .handler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        // the slot's handler is added once connected
                    }
                });
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
            started();
            Slot slot = newSlot();
            long delayMillis = TimeUnit.NANOSECONDS.toMillis(delayNanos);
            if (delayMillis > 0) {
                vertx.setTimer(delayMillis, id -> nextPlanRun(slot, System.nanoTime()));
            } else {
                nextPlanRun(slot, System.nanoTime());
            }
        });
    }

    /** Open model: every slot free, plan runs sent as {@code schedule} says until it ends, then the drain. */
    void startOpen(ArrivalSchedule schedule) {
        context.runOnContext(v -> {
            started();
            open = new OpenArrivals(this, schedule, slots, context, window, tally, timeoutNanos);
            open.dispatch();
        });
    }

    private void started() {
        if (thread == null) {
            thread = Thread.currentThread().getName();
            // a tenth of the timeout: an exchange fails between 1 and 1.1 timeouts after its last byte
            long period = Math.max(
                    TimeUnit.MILLISECONDS.toNanos(10), Math.min(TimeUnit.SECONDS.toNanos(1), timeoutNanos / 10));
            timeoutSweep = eventLoop.scheduleAtFixedRate(this::failTimedOut, period, period, TimeUnit.NANOSECONDS);
        }
    }

    /** A new slot, bound to the next source address in turn. */
    Slot newSlot() {
        Slot slot = new Slot(SourceAddresses.bindAddress(sources, firstSlotIndex + created.size()));
        created.add(slot);
        return slot;
    }

    /**
     * An aborted run: every connection closed at once, on the group's loop, and nothing more sent (a slot's ramp-up
     * timer or the open model's schedule may still fire). The group is never done then; the run throws instead.
     */
    void stop() {
        context.runOnContext(v -> {
            stopped = true;
            created.forEach(Slot::closeConnection);
            if (timeoutSweep != null) {
                timeoutSweep.cancel(false);
            }
        });
    }

    /** Every slot has stopped: the group is done. */
    void allStopped() {
        if (timeoutSweep != null) {
            timeoutSweep.cancel(false);
        }
        done.complete(tally);
    }

    /**
     * One client and its own connection, taken from no pool: a pool as large as the slots would scan its
     * connections on every request. A broken connection is replaced by the next request's.
     */
    static final class Slot {
        /** The local address to bind to; null: the system's choice. */
        final InetSocketAddress source;

        final AnswerParser answer = new AnswerParser();
        Channel channel;
        InetSocketAddress connectedTo;
        /** The exchange under way: set while a request waits for its answer ({@code exchanging}). */
        boolean exchanging;

        int step;
        Ticket ticket;
        long start;
        /** When the last byte of the exchange went out or came in: the timeout counts from there. */
        long lastActivity;

        Slot(InetSocketAddress source) {
            this.source = source;
        }

        void closeConnection() {
            if (channel != null) {
                channel.close();
                channel = null;
            }
        }
    }

    private void nextPlanRun(Slot slot, long now) {
        Ticket ticket = window.next(now);
        if (ticket == null) {
            slotFinished(slot);
        } else {
            send(slot, 0, ticket, now, now);
        }
    }

    private void slotFinished(Slot slot) {
        slot.closeConnection();
        if (--running == 0) {
            allStopped();
        }
    }

    /**
     * @param start when the request's latency starts: now, or, the open model's first step, its intended time
     * @param now   the time now
     */
    void send(Slot slot, int step, Ticket ticket, long start, long now) {
        if (stopped) {
            return;
        }
        StepExchange exchange = steps.get(step);
        tally.sent++;
        slot.step = step;
        slot.ticket = ticket;
        slot.start = start;
        if (slot.channel != null && exchange.remote().equals(slot.connectedTo)) {
            write(slot, slot.channel, exchange, now);
        } else {
            connect(slot, exchange);
        }
    }

    private void connect(Slot slot, StepExchange exchange) {
        slot.closeConnection();
        ChannelFuture connecting = slot.source == null
                ? bootstrap.connect(exchange.remote())
                : bootstrap.connect(exchange.remote(), slot.source);
        Channel channel = connecting.channel();
        slot.channel = channel;
        slot.connectedTo = exchange.remote();
        connecting.addListener(connected -> {
            if (slot.channel != channel) {
                return; // abandoned meanwhile
            }
            if (!connected.isSuccess()) {
                slot.channel = null;
                finish(slot, FailureCause.of(connected.cause(), false), connected.cause(), System.nanoTime());
                return;
            }
            tally.connectionsOpened++;
            channel.pipeline().addLast(new Answers(slot, channel));
            write(slot, channel, exchange, System.nanoTime());
        });
    }

    private void write(Slot slot, Channel channel, StepExchange exchange, long now) {
        slot.answer.expect(exchange.head());
        slot.exchanging = true;
        slot.lastActivity = now;
        channel.writeAndFlush(exchange.bytes(), channel.voidPromise());
    }

    /** A connection's bytes, for its slot while it is the slot's. */
    private final class Answers extends ChannelInboundHandlerAdapter {
        private final Slot slot;
        private final Channel channel;

        Answers(Slot slot, Channel channel) {
            this.slot = slot;
            this.channel = channel;
        }

        private boolean current() {
            return slot.channel == channel && slot.exchanging;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf in = (ByteBuf) msg;
            try {
                if (!current()) {
                    channel.close(); // bytes nobody asked for: the connection is out of step
                    return;
                }
                long now = System.nanoTime();
                slot.lastActivity = now;
                boolean headBefore = slot.answer.headDone();
                boolean complete;
                try {
                    complete = slot.answer.read(in);
                } catch (AnswerParser.Malformed e) {
                    finish(slot, FailureCause.OTHER, e, now);
                    return;
                }
                if (!headBefore && slot.answer.headDone()) {
                    tally.answered++;
                }
                if (complete) {
                    if (!slot.answer.keepAlive()) {
                        slot.closeConnection();
                    }
                    finish(slot, slot.answer.check(), null, now);
                }
            } finally {
                in.release();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (current()) {
                finish(slot, FailureCause.of(cause, slot.answer.headDone()), cause, System.nanoTime());
            }
            channel.close();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (slot.channel != channel) {
                return;
            }
            slot.channel = null;
            if (slot.exchanging) {
                long now = System.nanoTime();
                slot.answer.closed();
                if (slot.answer.done()) {
                    finish(slot, slot.answer.check(), null, now);
                } else {
                    finish(slot, slot.answer.headDone() ? FailureCause.SHORT_BODY : FailureCause.RESET, null, now);
                }
            }
        }
    }

    /** The group's timer: every exchange that has waited a whole timeout without a byte fails as a timeout. */
    private void failTimedOut() {
        long now = System.nanoTime();
        for (Slot slot : created) {
            if (slot.exchanging
                    && now - slot.lastActivity >= timeoutNanos
                    && slot.channel != null
                    && slot.channel.isActive()) {
                finish(slot, FailureCause.TIMEOUT, null, now);
            }
        }
    }

    private void finish(Slot slot, FailureCause failure, Throwable cause, long end) {
        slot.exchanging = false;
        int step = slot.step;
        Ticket ticket = slot.ticket;
        long start = slot.start;
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
        if (step + 1 == steps.size()) {
            if (open != null) {
                open.planRunDone(slot);
            } else {
                nextPlanRun(slot, end);
            }
        } else if (ticket == Ticket.BY_COMPLETION && window.over(end)) {
            slotFinished(slot);
        } else {
            send(slot, step + 1, ticket, end, end);
        }
    }
}
