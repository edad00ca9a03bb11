package dev.threadbench.loadtest.base;

/** The run itself went wrong (a server would not start, a tool failed): its message is the one line shown, exit 1. */
public class RunFailure extends RuntimeException {
    public RunFailure(String message) {
        super(message, null, false, false);
    }
}
