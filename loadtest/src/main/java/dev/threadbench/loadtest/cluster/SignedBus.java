package dev.threadbench.loadtest.cluster;

import dev.threadbench.loadtest.cluster.messages.ClusterMessage;
import dev.threadbench.loadtest.cluster.messages.MessageCodec;
import dev.threadbench.loadtest.cluster.messages.MessageSeals;
import dev.threadbench.loadtest.cluster.messages.Refused;
import dev.threadbench.loadtest.cluster.messages.Sealed;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The event bus as compare and the agents use it: every message sealed on its way out and opened on its way in
 * ({@link MessageSeals}). A message that does not open (forged, altered, replayed, misaddressed, stale) is never handed
 * on: the receiver says so in one line and, if it was a request, answers with a sealed {@link Refused}; an answer that
 * does not open fails its request.
 */
final class SignedBus {

    /** A request refused because it did not open: unsigned, altered, replayed, misaddressed or stale. */
    static final int UNTRUSTED = 401;
    /** A request failed by a node without a sealed answer (Vert.x's own failure replies carry no MAC). */
    static final int UNSIGNED_FAILURE = 499;

    private final Vertx vertx;
    private final MessageSeals seals;

    SignedBus(Vertx vertx, ClusterKey key) {
        this(vertx, new MessageSeals(key == null ? null : key::mac, System::currentTimeMillis));
    }

    SignedBus(Vertx vertx, MessageSeals seals) {
        this.vertx = vertx;
        this.seals = seals;
    }

    MessageSeals seals() {
        return seals;
    }

    void send(String address, ClusterMessage message) {
        vertx.eventBus().send(address, seals.seal(message, address, null), MessageCodec.options());
    }

    /** The answer to {@code message}, opened; a sealed {@link Refused} fails it as a {@link ReplyException}. */
    Future<ClusterMessage> request(String address, ClusterMessage message, long timeoutMillis) {
        return request(address, seals.seal(message, address, null), timeoutMillis);
    }

    /** An already sealed request: as it is, so that a test can send one twice. */
    Future<ClusterMessage> request(String address, Sealed sealed, long timeoutMillis) {
        return vertx.eventBus()
                .<ClusterMessage>request(address, sealed, MessageCodec.options().setSendTimeout(timeoutMillis))
                .recover(failure -> Future.failedFuture(
                        failure instanceof ReplyException reply && reply.failureType() == ReplyFailure.RECIPIENT_FAILURE
                                ? new ReplyException(ReplyFailure.ERROR, UNSIGNED_FAILURE, reply.getMessage())
                                : failure))
                .compose(reply -> {
                    MessageSeals.Opened opened = seals.open(reply.body(), null, sealed.nonce());
                    if (opened.refusal() != null) {
                        return Future.failedFuture(new ReplyException(
                                ReplyFailure.ERROR, UNTRUSTED, "dropped the answer: " + opened.refusal()));
                    }
                    if (opened.message() instanceof Refused refused) {
                        return Future.failedFuture(
                                new ReplyException(ReplyFailure.RECIPIENT_FAILURE, refused.code(), refused.reason()));
                    }
                    return Future.succeededFuture(opened.message());
                });
    }

    /**
     * Hands {@code handler} each message received on {@code address} that opens, with the raw message to answer
     * ({@link #reply}); tells {@code dropped} in one line why any other was dropped.
     */
    MessageConsumer<ClusterMessage> consumer(
            String address, Consumer<String> dropped, BiConsumer<ClusterMessage, Message<ClusterMessage>> handler) {
        return vertx.eventBus().<ClusterMessage>consumer(address, message -> {
            MessageSeals.Opened opened = seals.open(message.body(), address, null);
            if (opened.refusal() != null) {
                dropped.accept("dropped " + opened.refusal());
                if (message.replyAddress() != null) {
                    refuse(message, UNTRUSTED, opened.refusal());
                }
                return;
            }
            handler.accept(opened.message(), message);
        });
    }

    void reply(Message<ClusterMessage> request, ClusterMessage answer) {
        String nonce = request.body() instanceof Sealed sealed ? sealed.nonce() : null;
        request.reply(seals.seal(answer, null, nonce), MessageCodec.options());
    }

    /** Answers {@code request} with a sealed refusal: the requester's future fails with this code and reason. */
    void refuse(Message<ClusterMessage> request, int code, String reason) {
        reply(request, new Refused(code, reason));
    }
}
