package dev.threadbench.loadtest.base;

/** The exit codes of every loadtest command. */
public final class ExitCodes {

    /** Done. */
    public static final int OK = 0;
    /** The run went wrong: a server would not start or stop, requests lost. */
    public static final int FAILED = 1;
    /** Bad input: one line on stderr naming it. */
    public static final int USAGE = 2;
    /**
     * A {@code --fail-if} limit was breached (one line per breach on stderr): the run itself went well. A run that went
     * wrong exits 1 whatever the limits.
     */
    public static final int LIMIT_BREACHED = 3;

    private ExitCodes() {}
}
