package dev.threadbench.loadtest.cluster;

import io.vertx.core.impl.VertxThread;
import io.vertx.core.spi.VertxThreadFactory;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javax.security.auth.Subject;
import org.infinispan.security.Security;

/**
 * Infinispan 14 (the one vertx-infinispan 5.0 is built on) asks {@code Subject.getSubject} for the caller's subject
 * whenever a listener is added or a cluster task sent, unless a subject is set on its own thread-local stack; on JDK 24
 * and later {@code Subject.getSubject} always throws. So every thread that calls into Infinispan runs with an empty
 * subject on that stack (authorization is off: it is never checked): Vert.x's threads as this factory makes them
 * (registered as a Vert.x service provider), the threads that join and leave ({@link #call}), and the threads
 * Infinispan and JGroups start from those, which inherit it.
 */
public final class InfinispanSubjectThreads implements VertxThreadFactory {

    private static final Subject NONE = new Subject();

    @Override
    public VertxThread newVertxThread(
            Runnable target, String name, boolean worker, long maxExecTime, TimeUnit maxExecTimeUnit) {
        return VertxThreadFactory.super.newVertxThread(
                () -> Security.doAs(NONE, target), name, worker, maxExecTime, maxExecTimeUnit);
    }

    /** {@code action} on this thread with the empty subject set, and any thread it starts. */
    static <T> T call(Callable<T> action) throws Exception {
        try {
            return Security.doAs(NONE, (java.security.PrivilegedExceptionAction<T>) action::call);
        } catch (java.security.PrivilegedActionException e) {
            throw e.getException();
        }
    }
}
