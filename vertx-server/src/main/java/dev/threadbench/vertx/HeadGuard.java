package dev.threadbench.vertx;

import dev.threadbench.common.HttpLimits;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.concurrent.ScheduledFuture;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.impl.HttpServerConnection;
import java.util.concurrent.TimeUnit;

/**
 * Sits in front of Netty's HTTP decoder on every connection and passes the raw bytes on, a line at a
 * time through a {@link RequestHeadScanner}: the strictness Undertow's parser has and Netty's lacks
 * (refused as a request whose decoding failed, so Vert.x answers it in turn with Routes.badRequest),
 * Undertow's head read timeout (Vert.x has no such setting: the connection is closed, as Undertow closes
 * it), and content after a head dropped unread, since the rules refuse it and close the connection.
 * Lines are found with {@link ByteBuf#indexOf}; a line the read ends in is copied aside until its LF
 * comes. Vert.x has no public hook for this; its own extensions reach the pipeline the same way.
 *
 * <p>It also closes a connection that has read nothing for {@link HttpLimits#IDLE_TIMEOUT} (at most a
 * quarter of it more) by counting reads, where Vert.x's idle timeout (Netty's IdleStateHandler) would add
 * two handler calls and a clock read to every read, about 2 % of the fast path.
 */
final class HeadGuard extends ChannelInboundHandlerAdapter {

    private static final ChannelHandler SERVED_AS_HTTP_1_1 = new ServedAsHttp11();
    /** Reads are looked for this many times per idle timeout; so many looks in a row that find none close the connection. */
    private static final int IDLE_CHECKS = 4;

    private final RequestHeadScanner scanner = new RequestHeadScanner();
    /** The start of a line a read ended in, until its LF comes. */
    private ByteBuf partialLine;
    private boolean discarding;
    private boolean servingAsHttp11;
    private ScheduledFuture<?> headTimeout;
    private ScheduledFuture<?> idleCheck;
    private long reads;
    private long readsAtLastCheck;
    private int checksWithoutReads;

    /** Puts a guard in front of the decoder of a connection Vert.x has just accepted. */
    static void install(HttpConnection connection) {
        ((HttpServerConnection) connection).channelHandlerContext().pipeline()
                .addBefore("httpDecoder", "headGuard", new HeadGuard());
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        long every = HttpLimits.IDLE_TIMEOUT.toNanos() / IDLE_CHECKS;
        idleCheck = ctx.executor().scheduleAtFixedRate(() -> closeIfIdle(ctx), every, every, TimeUnit.NANOSECONDS);
    }

    private void closeIfIdle(ChannelHandlerContext ctx) {
        if (reads != readsAtLastCheck) {
            readsAtLastCheck = reads;
            checksWithoutReads = 0;
        } else if (++checksWithoutReads == IDLE_CHECKS) {
            ctx.close();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf bytes)) {
            ctx.fireChannelRead(msg);
            return;
        }
        reads++;
        if (discarding) {
            bytes.release();
            return;
        }
        int end = bytes.writerIndex();
        int from = bytes.readerIndex();
        // where the head being read began in these bytes; the reader index when it began in an earlier read
        int headStart = from;
        while (from < end) {
            int lf = bytes.indexOf(from, end, (byte) '\n');
            RequestHeadScanner.Step step;
            if (lf < 0) {
                keepPartialLine(bytes, from, end);
                step = scanner.partial(partialLine, partialLine.readerIndex(), partialLine.writerIndex());
                from = end;
            } else if (partialLine != null && partialLine.isReadable()) {
                partialLine.writeBytes(bytes, from, lf + 1 - from);
                step = scanner.line(partialLine, partialLine.readerIndex(), partialLine.writerIndex());
                partialLine.clear();
                from = lf + 1;
            } else {
                step = scanner.line(bytes, from, lf + 1);
                from = lf + 1;
            }
            if (step != RequestHeadScanner.Step.REFUSE && scanner.sawOtherVersion() && !servingAsHttp11) {
                // rare, so off the common path: only this connection's pipeline gets the extra handler
                ctx.pipeline().addAfter("httpDecoder", "servedAsHttp11", SERVED_AS_HTTP_1_1);
                servingAsHttp11 = true;
            }
            switch (step) {
                case MORE -> { }
                case HEAD_COMPLETE -> {
                    cancelHeadTimeout();
                    headStart = from;
                }
                case CONTENT_FOLLOWS -> {
                    forwardUpTo(ctx, bytes, from);
                    return;
                }
                case REFUSE -> {
                    forwardUpTo(ctx, bytes, headStart);
                    ctx.fireChannelRead(refusedRequest());
                    ctx.fireChannelRead(LastHttpContent.EMPTY_LAST_CONTENT);
                    return;
                }
            }
        }
        if (scanner.inHead() && headTimeout == null) {
            // a head still open with no timer began in this read: it has the whole timeout from now
            headTimeout = ctx.executor().schedule(() -> ctx.close(), HttpLimits.HEADER_READ_TIMEOUT.toNanos(), TimeUnit.NANOSECONDS);
        }
        ctx.fireChannelRead(bytes);
    }

    /** Copies the bytes from {@code from} to {@code end} after those of the line kept so far. */
    private void keepPartialLine(ByteBuf bytes, int from, int end) {
        if (partialLine == null) {
            partialLine = Unpooled.buffer(Math.max(256, end - from));
        }
        partialLine.writeBytes(bytes, from, end - from);
    }

    /** Passes on the bytes before {@code end} and reads nothing after them. */
    private void forwardUpTo(ChannelHandlerContext ctx, ByteBuf bytes, int end) {
        cancelHeadTimeout();
        releasePartialLine();
        discarding = true;
        if (end > bytes.readerIndex()) {
            ctx.fireChannelRead(bytes.retainedSlice(bytes.readerIndex(), end - bytes.readerIndex()));
        }
        bytes.release();
    }

    private static HttpRequest refusedRequest() {
        HttpRequest refused = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/");
        refused.setDecoderResult(DecoderResult.failure(new IllegalArgumentException("malformed request head")));
        return refused;
    }

    private void cancelHeadTimeout() {
        if (headTimeout != null) {
            headTimeout.cancel(false);
            headTimeout = null;
        }
    }

    private void releasePartialLine() {
        if (partialLine != null) {
            partialLine.release();
            partialLine = null;
        }
    }

    private void stopTimers() {
        cancelHeadTimeout();
        if (idleCheck != null) {
            idleCheck.cancel(false);
            idleCheck = null;
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        stopTimers();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        stopTimers();
        releasePartialLine();
    }

    /** Behind the decoder: a version the scanner let through other than 1.0 is served as 1.1, as Undertow does (Vert.x would answer 501). */
    @ChannelHandler.Sharable
    private static final class ServedAsHttp11 extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpRequest request && request.decoderResult().isSuccess()
                    && request.protocolVersion() != HttpVersion.HTTP_1_0) {
                request.setProtocolVersion(HttpVersion.HTTP_1_1);
            }
            ctx.fireChannelRead(msg);
        }
    }
}
