package dev.threadbench.common;

/** A bad option or environment value: its message is the one line the user sees. */
public final class OptionException extends RuntimeException {
    public OptionException(String message) {
        super(message, null, false, false);
    }
}
