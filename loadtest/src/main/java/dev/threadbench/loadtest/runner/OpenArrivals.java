package dev.threadbench.loadtest.runner;

import dev.threadbench.loadtest.runner.MeasuredWindow.Ticket;
import dev.threadbench.loadtest.runner.SlotGroup.Slot;
import io.netty.channel.EventLoop;
import io.vertx.core.Context;
import io.vertx.core.internal.ContextInternal;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * The open model on one slot group: plan runs started when the schedule says, whatever the answers, each on
 * the free slot idle longest (so the load spreads over all the connections). When none is free, the plan run
 * waits for one, its latency still counted from its intended time; one that found no free slot within the
 * timeout is never sent and fails as a timeout. Runs on the group's event loop only.
 */
final class OpenArrivals {

    private final SlotGroup group;
    private final ArrivalSchedule schedule;
    private final Context context;
    private final EventLoop eventLoop;
    private final MeasuredWindow window;
    private final Tally tally;
    private final long timeoutNanos;
    private final ArrayDeque<Slot> free = new ArrayDeque<>();
    private int busy;
    private boolean timerSet;

    OpenArrivals(
            SlotGroup group,
            ArrivalSchedule schedule,
            int slots,
            Context context,
            MeasuredWindow window,
            Tally tally,
            long timeoutNanos) {
        this.group = group;
        this.schedule = schedule;
        this.context = context;
        this.eventLoop = ((ContextInternal) context).nettyEventLoop();
        this.window = window;
        this.tally = tally;
        this.timeoutNanos = timeoutNanos;
        for (int i = 0; i < slots; i++) {
            free.add(group.newSlot());
        }
    }

    /** A slot's plan run is over: the slot takes the next one due. */
    void planRunDone(Slot slot) {
        busy--;
        free.addLast(slot);
        dispatch();
    }

    /** Sends every plan run that is due; then waits for the next intended time, or, none free, for a slot. */
    void dispatch() {
        long now = System.nanoTime();
        while (schedule.due(now)) {
            if (now - schedule.peek() >= timeoutNanos) {
                neverSent(schedule.take(), now);
                continue;
            }
            Slot slot = free.pollFirst();
            if (slot == null) {
                break;
            }
            long intended = schedule.take();
            Ticket ticket = window.inside(intended) ? Ticket.MEASURED : Ticket.WARMUP;
            if (ticket == Ticket.MEASURED) {
                long lateNanos = now - intended;
                tally.maxLateNanos = Math.max(tally.maxLateNanos, lateNanos);
                if (lateNanos > TimeUnit.MILLISECONDS.toNanos(LoadResult.Open.LATE_MILLIS)) {
                    tally.late++;
                }
            }
            if (window.inside(now)) {
                tally.sentInWindow++;
            }
            busy++;
            group.send(slot, 0, ticket, intended, now);
        }
        if (schedule.finished()) {
            if (busy == 0) {
                free.forEach(Slot::closeConnection);
                free.clear();
                group.allStopped();
            }
        } else if (!free.isEmpty() && !timerSet) {
            timerSet = true;
            // Netty's own timer, to the nanosecond (a timerfd with epoll): Vert.x timers round up to whole
            // milliseconds, which would add half a millisecond on average to every latency counted from its intended
            // time
            eventLoop.schedule(
                    () -> context.runOnContext(v -> {
                        timerSet = false;
                        dispatch();
                    }),
                    schedule.peek() - now,
                    TimeUnit.NANOSECONDS);
        }
    }

    private void neverSent(long intended, long now) {
        tally.seconds.record(now - window.startNanos(), (now - intended) / 1000, true);
        if (window.inside(intended)) {
            tally.unsent++;
            tally.recordMeasured((now - intended) / 1000, FailureCause.TIMEOUT);
        }
        group.completed.increment();
        group.failed.increment();
    }
}
