package dev.threadbench.loadtest.base;

/** Bad input from the user (an option, a plan, a results file): its message is the one line they see. */
public class UsageException extends RuntimeException {
    public UsageException(String message) {
        super(message, null, false, false);
    }
}
