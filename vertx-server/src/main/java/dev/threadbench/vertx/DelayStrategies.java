package dev.threadbench.vertx;

import dev.threadbench.common.CpuWork;
import dev.threadbench.common.Strategy;
import io.vertx.core.Context;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;

/**
 * The three ways a delayed request waits out its delay on Vert.x. Only delayed requests come here; each does its
 * --work-us on the thread that waited, once the wait is over.
 */
final class DelayStrategies {

    /** Waits out the delay for one request, then runs {@code answer}: exactly once, on some thread. */
    @FunctionalInterface
    interface Delay {
        void answerLater(HttpServerRequest request, Answer answer);
    }

    /** What to send once the delay is over; never throws. */
    @FunctionalInterface
    interface Answer {
        void send(HttpServerRequest request);
    }

    private DelayStrategies() {}

    /** The strategy's delay; {@code virtual} first deploys the verticle its virtual threads run on. */
    static Future<Delay> of(Vertx vertx, Strategy strategy, long delayMs, CpuWork work) {
        return switch (strategy) {
            case BLOCKING -> Future.succeededFuture(blocking(vertx, delayMs, work));
            case TIMER -> Future.succeededFuture(timer(vertx, delayMs, work));
            case VIRTUAL -> virtual(vertx, delayMs, work);
        };
    }

    /**
     * A platform thread of the worker pool sleeps. Unordered: ordered blocking code of one context runs
     * one at a time, which would queue all of an event loop's delayed requests behind each other. The work is the
     * worker's too: the event loop only writes the answer.
     */
    static Delay blocking(Vertx vertx, long delayMs, CpuWork work) {
        return (request, answer) -> vertx.executeBlocking(
                        () -> {
                            Thread.sleep(delayMs);
                            work.run();
                            return null;
                        },
                        false)
                .onComplete(slept -> answer.send(request));
    }

    /** Nobody sleeps: the event loop answers when the timer fires, Vert.x's own way to wait. */
    static Delay timer(Vertx vertx, long delayMs, CpuWork work) {
        return (request, answer) -> vertx.setTimer(delayMs, id -> {
            work.run();
            answer.send(request);
        });
    }

    /**
     * A virtual thread per delayed request, on one virtual-thread verticle's context, awaits a timer.
     * The context runs its tasks one at a time, but {@code await} hands it to the next task, so all
     * delayed requests wait side by side (Thread.sleep there would make them wait in turn).
     */
    static Future<Delay> virtual(Vertx vertx, long delayMs, CpuWork work) {
        VirtualThreads virtualThreads = new VirtualThreads();
        return vertx.deployVerticle(
                        virtualThreads, new DeploymentOptions().setThreadingModel(ThreadingModel.VIRTUAL_THREAD))
                .map(id -> (request, answer) -> virtualThreads.context().runOnContext(v -> {
                    vertx.timer(delayMs).await();
                    work.run();
                    answer.send(request);
                }));
    }

    /** A verticle that does nothing itself: its virtual-thread context is where delayed requests wait. */
    private static final class VirtualThreads extends VerticleBase {
        Context context() {
            return context;
        }
    }
}
