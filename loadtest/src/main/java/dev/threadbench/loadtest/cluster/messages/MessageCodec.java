package dev.threadbench.loadtest.cluster.messages;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.atomic.LongAdder;

/**
 * The one codec for every {@link ClusterMessage}: JSON, so that a message from another build still reads far enough to
 * be refused by name. It counts what this node sent and received over the wire: the coordination traffic a run cost.
 */
public final class MessageCodec implements io.vertx.core.eventbus.MessageCodec<ClusterMessage, ClusterMessage> {

    public static final String NAME = "threadbench";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper CANONICAL = JsonMapper.builder()
            .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .build();

    private final LongAdder messages = new LongAdder();
    private final LongAdder bytes = new LongAdder();

    /** Send options naming this codec. */
    public static DeliveryOptions options() {
        return new DeliveryOptions().setCodecName(NAME);
    }

    @Override
    public void encodeToWire(Buffer buffer, ClusterMessage message) {
        byte[] json = encode(message);
        buffer.appendInt(json.length).appendBytes(json);
        messages.increment();
        bytes.add(json.length + 4L);
    }

    @Override
    public ClusterMessage decodeFromWire(int pos, Buffer buffer) {
        int length = buffer.getInt(pos);
        messages.increment();
        bytes.add(length + 4L);
        return decode(buffer.getBytes(pos + 4, pos + 4 + length));
    }

    /** Local delivery: messages are immutable records. */
    @Override
    public ClusterMessage transform(ClusterMessage message) {
        return message;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public byte systemCodecID() {
        return -1;
    }

    /** Messages sent or received over the wire so far, and their bytes. */
    public long messages() {
        return messages.sum();
    }

    public long bytes() {
        return bytes.sum();
    }

    static byte[] encode(ClusterMessage message) {
        try {
            return JSON.writeValueAsBytes(message);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    "cannot encode " + message.getClass().getSimpleName(), e);
        }
    }

    /** One encoding for equal messages whatever built them: what a MAC is computed over. */
    static byte[] canonical(ClusterMessage message) {
        try {
            return CANONICAL.writeValueAsBytes(message);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    "cannot encode " + message.getClass().getSimpleName(), e);
        }
    }

    static ClusterMessage decode(byte[] json) {
        try {
            return JSON.readValue(json, ClusterMessage.class);
        } catch (IOException e) {
            throw new UncheckedIOException("a cluster message this build cannot read: " + e.getMessage(), e);
        }
    }
}
