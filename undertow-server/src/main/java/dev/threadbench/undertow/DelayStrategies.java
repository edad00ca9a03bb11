package dev.threadbench.undertow;

import dev.threadbench.common.CpuWork;
import dev.threadbench.common.Strategy;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.SameThreadExecutor;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * The three ways a delayed request waits out its delay on Undertow. Only delayed requests come here; each does its
 * --work-us on the thread that waited, once the wait is over.
 */
final class DelayStrategies {

    /** Waits out the delay for one exchange, then runs {@code answer}: exactly once, on some thread. */
    @FunctionalInterface
    interface Delay {
        void answerLater(HttpServerExchange exchange, Answer answer);
    }

    /** What to send once the delay is over; never throws. */
    @FunctionalInterface
    interface Answer {
        void send(HttpServerExchange exchange);
    }

    private DelayStrategies() {}

    static Delay of(Strategy strategy, long delayMs, CpuWork work, Executor virtualThreads) {
        return switch (strategy) {
            case BLOCKING -> blocking(delayMs, work);
            case TIMER -> timer(delayMs, work);
            case VIRTUAL -> virtual(delayMs, work, virtualThreads);
        };
    }

    /** A platform thread of the XNIO worker pool sleeps: Undertow's own way to run blocking work. */
    static Delay blocking(long delayMs, CpuWork work) {
        return (exchange, answer) -> exchange.dispatch(ex -> {
            sleep(delayMs);
            work.run();
            answer.send(ex);
        });
    }

    /** Nobody sleeps: the exchange stays on its IO thread, which answers when the timer fires. */
    static Delay timer(long delayMs, CpuWork work) {
        return (exchange, answer) -> exchange.dispatch(
                SameThreadExecutor.INSTANCE,
                () -> exchange.getIoThread()
                        .executeAfter(
                                () -> {
                                    work.run();
                                    answer.send(exchange);
                                },
                                delayMs,
                                TimeUnit.MILLISECONDS));
    }

    /** A virtual thread, one per delayed request, sleeps. */
    static Delay virtual(long delayMs, CpuWork work, Executor virtualThreads) {
        return (exchange, answer) -> exchange.dispatch(virtualThreads, ex -> {
            sleep(delayMs);
            work.run();
            answer.send(ex);
        });
    }

    /** Interrupted only when the process is forced down: then the answer goes out early rather than never. */
    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
