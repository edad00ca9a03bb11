package dev.threadbench.common;

import java.io.IOException;
import java.net.BindException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;

/** Turns a failure to listen into the one line naming the option at fault, and exits 2. */
public final class StartupFailure {

    private StartupFailure() {}

    /** Prints the line for {@code failure} on stderr and exits 2: nothing has been served. */
    public static void exit(String server, ServerOptions options, Throwable failure) {
        System.err.println(server + "-server: " + describe(options, failure));
        System.exit(2);
    }

    /** The one-line reason, naming {@code --port} or {@code --host} where one of them is at fault. */
    public static String describe(ServerOptions options, Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            String message = String.valueOf(t.getMessage());
            if (isBindFailure(t, message)) {
                if (message.contains("already in use")) {
                    return "--port: " + options.port() + " is already in use";
                }
                if (message.contains("ermission denied")) {
                    return "--port: " + options.port() + ": permission denied";
                }
                if (message.contains("assign requested address")) {
                    return "--host: " + options.host() + " is not an address of this machine";
                }
                return "--host/--port: cannot listen on " + options.host() + ":" + options.port() + ": " + message;
            }
            if (t instanceof UnknownHostException || t instanceof UnresolvedAddressException) {
                return "--host: cannot resolve " + options.host();
            }
        }
        return "cannot listen on " + options.host() + ":" + options.port() + ": " + failure;
    }

    /** The JDK's BindException, or the IOException a native transport (Netty's epoll) throws from bind(2). */
    private static boolean isBindFailure(Throwable t, String message) {
        return t instanceof BindException || (t instanceof IOException && message.startsWith("bind("));
    }
}
