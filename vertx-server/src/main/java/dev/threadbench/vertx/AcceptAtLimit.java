package dev.threadbench.vertx;

import dev.threadbench.common.AcceptStallLog;
import dev.threadbench.common.ConnectionBudget;
import io.netty.channel.Channel;
import io.netty.channel.ChannelConfig;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.AttributeKey;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.impl.HttpServerConnection;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Accepting at the file-descriptor limit, Vert.x's way (Undertow's: its own {@code AcceptAtLimit}). First on the
 * listening channel: what Netty's ServerBootstrapAcceptor does when an accept fails (out of
 * file descriptors, say), without its warning on every failure and with a shorter pause. Netty stops
 * reading the listening channel for 1 s and lets the exception reach the end of the pipeline, which
 * logs it; here reading stops for {@link #RETRY}, so accepting resumes within that of descriptors coming
 * free, and an {@link AcceptStallLog} says when the spell began and when it ended. No accept loop spins:
 * each failure costs one accept call per {@link #RETRY} until one succeeds.
 */
final class AcceptAtLimit extends ChannelInboundHandlerAdapter {

    static final Duration RETRY = Duration.ofMillis(250);
    private static final AttributeKey<AcceptAtLimit> WATCHING = AttributeKey.valueOf(AcceptAtLimit.class.getName());

    private final AcceptStallLog log = new AcceptStallLog("vertx");
    private final long descriptorLimit = ConnectionBudget.ofThisProcess().descriptorLimit();

    /**
     * For each new connection: Vert.x has no hook on the listening channel, so the first connection
     * reaches it through its parent and puts this handler there (once per listening channel).
     */
    static void watch(HttpConnection connection) {
        Channel listening = ((HttpServerConnection) connection)
                .channelHandlerContext()
                .channel()
                .parent();
        if (listening == null || listening.attr(WATCHING).get() != null) {
            return;
        }
        AcceptAtLimit handler = new AcceptAtLimit();
        if (listening.attr(WATCHING).setIfAbsent(handler) == null) {
            listening.pipeline().addFirst("acceptFailures", handler);
        }
    }

    /** An accepted connection, on its way to Vert.x. */
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        log.resumed();
        ctx.fireChannelRead(msg);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!(cause instanceof IOException)) {
            ctx.fireExceptionCaught(cause);
            return;
        }
        log.stopped(reason(cause));
        ChannelConfig config = ctx.channel().config();
        if (config.isAutoRead()) {
            config.setAutoRead(false);
            ctx.executor().schedule(() -> config.setAutoRead(true), RETRY.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private String reason(Throwable cause) {
        String message = String.valueOf(cause.getMessage());
        return message.contains("Too many open files")
                ? "out of file descriptors (ulimit -n " + descriptorLimit + ")"
                : "accepting failed (" + message + ")";
    }
}
