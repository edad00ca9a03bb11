package dev.threadbench.vertx;

import dev.threadbench.common.HttpLimits;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.concurrent.FastThreadLocal;
import io.netty.util.concurrent.ScheduledFuture;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.impl.HttpServerConnection;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * Sits in front of Netty's HTTP decoder on every connection and passes the raw bytes on, a line at a time through a
 * {@link RequestHeadScanner}: the strictness Undertow's parser has and Netty's lacks (refused as a request whose
 * decoding failed, so Vert.x answers it in turn with Routes.badRequest), Undertow's head read timeout (Vert.x has no
 * such setting: the connection is closed, as Undertow closes it), and content after a head dropped unread, since the
 * rules refuse it and close the connection. Each read is copied once into an array of the event loop's and scanned
 * there (see RequestHeadScanner for why); a line the read ends in is copied aside until its LF comes. Vert.x has no
 * public hook for this; its own extensions reach the pipeline the same way.
 *
 * <p>It also closes a connection that has read nothing for {@link HttpLimits#IDLE_TIMEOUT} (at most a
 * quarter of it more) by counting reads, where Vert.x's idle timeout (Netty's IdleStateHandler) would add
 * two handler calls and a clock read to every read, about 2 % of the fast path.
 */
final class HeadGuard extends ChannelInboundHandlerAdapter {

    private static final ChannelHandler SERVED_AS_HTTP_1_1 = new ServedAsHttp11();
    /**
     * Reads are looked for this many times per idle timeout; so many looks in a row that find none close the
     * connection.
     */
    private static final int IDLE_CHECKS = 4;

    private static final byte[] NO_BYTES = {};
    /** A read's bytes are copied here to be scanned; a larger read than this gets an array of its own. */
    private static final int MAX_SCRATCH = 64 * 1024;

    private static final FastThreadLocal<byte[]> SCRATCH = new FastThreadLocal<>() {
        @Override
        protected byte[] initialValue() {
            return new byte[4096];
        }
    };

    private final RequestHeadScanner scanner = new RequestHeadScanner();
    /** The start of a line a read ended in, until its LF comes: the first {@code partialLength} bytes. */
    private byte[] partialLine = NO_BYTES;

    private int partialLength;
    private boolean discarding;
    private boolean servingAsHttp11;
    private ScheduledFuture<?> headTimeout;
    private ScheduledFuture<?> idleCheck;
    private long reads;
    private long readsAtLastCheck;
    private int checksWithoutReads;

    /** Puts a guard in front of the decoder of a connection Vert.x has just accepted. */
    static void install(HttpConnection connection) {
        ((HttpServerConnection) connection)
                .channelHandlerContext()
                .pipeline()
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
        int base = bytes.readerIndex();
        int end = bytes.readableBytes();
        byte[] read = scratch(end);
        bytes.getBytes(base, read, 0, end);
        int from = 0;
        // where the head being read began in this read; 0 when it began in an earlier one
        int headStart = 0;
        while (from < end) {
            int lf = RequestHeadScanner.indexOf(read, from, end, (byte) '\n');
            RequestHeadScanner.Step step;
            if (lf < 0) {
                keepPartialLine(read, from, end);
                step = scanner.partial(partialLine, 0, partialLength);
                from = end;
            } else if (partialLength > 0) {
                keepPartialLine(read, from, lf + 1);
                step = scanner.line(partialLine, 0, partialLength);
                partialLength = 0;
                from = lf + 1;
            } else {
                step = scanner.line(read, from, lf + 1);
                from = lf + 1;
            }
            if (step != RequestHeadScanner.Step.REFUSE && scanner.sawOtherVersion() && !servingAsHttp11) {
                // rare, so off the common path: only this connection's pipeline gets the extra handler
                ctx.pipeline().addAfter("httpDecoder", "servedAsHttp11", SERVED_AS_HTTP_1_1);
                servingAsHttp11 = true;
            }
            switch (step) {
                case MORE -> {}
                case HEAD_COMPLETE -> {
                    cancelHeadTimeout();
                    headStart = from;
                }
                case CONTENT_FOLLOWS -> {
                    forwardUpTo(ctx, bytes, base + from);
                    return;
                }
                case REFUSE -> {
                    forwardUpTo(ctx, bytes, base + headStart);
                    ctx.fireChannelRead(refusedRequest());
                    ctx.fireChannelRead(LastHttpContent.EMPTY_LAST_CONTENT);
                    return;
                }
            }
        }
        if (scanner.inHead() && headTimeout == null) {
            // a head still open with no timer began in this read: it has the whole timeout from now
            headTimeout = ctx.executor()
                    .schedule(() -> ctx.close(), HttpLimits.HEADER_READ_TIMEOUT.toNanos(), TimeUnit.NANOSECONDS);
        }
        ctx.fireChannelRead(bytes);
    }

    /** This event loop's array for a read's bytes, at least {@code length} long; used only within one channelRead. */
    private static byte[] scratch(int length) {
        byte[] scratch = SCRATCH.get();
        if (scratch.length < length) {
            scratch = new byte[Math.max(length, 2 * scratch.length)];
            if (scratch.length <= MAX_SCRATCH) {
                SCRATCH.set(scratch);
            }
        }
        return scratch;
    }

    /** Copies the bytes from {@code from} to {@code end} after those of the line kept so far. */
    private void keepPartialLine(byte[] read, int from, int end) {
        int length = end - from;
        if (partialLine.length < partialLength + length) {
            partialLine = Arrays.copyOf(partialLine, Math.max(256, 2 * (partialLength + length)));
        }
        System.arraycopy(read, from, partialLine, partialLength, length);
        partialLength += length;
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
        partialLine = NO_BYTES;
        partialLength = 0;
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

    /**
     * Behind the decoder: a version the scanner let through other than 1.0 is served as 1.1, as Undertow does (Vert.x
     * would answer 501).
     */
    @ChannelHandler.Sharable
    private static final class ServedAsHttp11 extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpRequest request
                    && request.decoderResult().isSuccess()
                    && request.protocolVersion() != HttpVersion.HTTP_1_0) {
                request.setProtocolVersion(HttpVersion.HTTP_1_1);
            }
            ctx.fireChannelRead(msg);
        }
    }
}
