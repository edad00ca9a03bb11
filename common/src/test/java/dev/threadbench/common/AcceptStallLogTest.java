package dev.threadbench.common;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class AcceptStallLogTest {

    private final AtomicLong now = new AtomicLong();
    private final List<String> lines = new ArrayList<>();
    private final PriorityQueue<Task> tasks = new PriorityQueue<>();
    private final AcceptStallLog log = new AcceptStallLog(
            "undertow",
            lines::add,
            now::get,
            (nanos, task) -> tasks.add(new Task(now.get() + nanos, tasks.size(), task)));

    private record Task(long at, int order, Runnable run) implements Comparable<Task> {
        @Override
        public int compareTo(Task other) {
            return at != other.at ? Long.compare(at, other.at) : Integer.compare(order, other.order);
        }
    }

    /** Moves the clock on, running the tasks that fall due meanwhile. */
    private void advance(Duration by) {
        long until = now.get() + by.toNanos();
        while (!tasks.isEmpty() && tasks.peek().at() <= until) {
            Task task = tasks.poll();
            now.set(task.at());
            task.run().run();
        }
        now.set(until);
    }

    @Test
    void aSpellIsTwoLinesHoweverOftenAcceptingStopsAndStartsWithinIt() {
        log.stopped("out of file descriptors (ulimit -n 400)");
        for (int i = 0; i < 100; i++) {
            advance(Duration.ofMillis(50));
            log.resumed();
            log.stopped("out of file descriptors (ulimit -n 400)");
        }
        advance(Duration.ofMillis(300));
        log.resumed();
        log.resumed();
        assertEquals(
                List.of("undertow-server: WARNING: out of file descriptors (ulimit -n 400): new connections wait in"
                        + " the accept backlog"),
                lines);
        advance(AcceptStallLog.QUIET.minusMillis(1));
        assertEquals(1, lines.size(), "not over until accepting has gone QUIET without stopping");
        advance(Duration.ofMillis(1));
        assertEquals(
                "undertow-server: accepting again after 5.3 s; 102 connection(s) accepted late meanwhile",
                lines.get(1));
    }

    @Test
    void aStopAfterTheLastResumeKeepsTheSpellGoingHoweverLong() {
        log.stopped("full");
        advance(Duration.ofMillis(100));
        log.resumed();
        advance(Duration.ofMillis(100));
        log.stopped("full");
        advance(Duration.ofSeconds(30));
        assertEquals(1, lines.size(), "still stopped: no line saying it accepts again");
        log.resumed();
        advance(AcceptStallLog.QUIET);
        assertEquals(
                "undertow-server: accepting again after 30.2 s; 2 connection(s) accepted late meanwhile", lines.get(1));
    }

    @Test
    void acceptingOutsideASpellLogsNothingAndANewSpellIsLoggedAgain() {
        log.resumed();
        advance(Duration.ofSeconds(5));
        assertEquals(List.of(), lines);
        log.stopped("full");
        log.resumed();
        advance(AcceptStallLog.QUIET);
        log.stopped("full again");
        assertEquals(
                List.of(
                        "undertow-server: WARNING: full: new connections wait in the accept backlog",
                        "undertow-server: accepting again after 0.0 s; 1 connection(s) accepted late meanwhile",
                        "undertow-server: WARNING: full again: new connections wait in the accept backlog"),
                lines);
    }
}
