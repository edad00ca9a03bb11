package dev.threadbench.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class FixedResponseTest {

    @Test
    void bodiesAreOneLineOfTextAndLengthsMatch() {
        for (FixedResponse r : FixedResponse.values()) {
            String body = new String(r.body(), StandardCharsets.UTF_8);
            assertTrue(body.endsWith("\n") && body.indexOf('\n') == body.length() - 1, r + ": " + body);
            assertEquals(r.body().length, r.length());
        }
    }

    @Test
    void statusesAreTheOnesTheContractNames() {
        assertEquals(200, FixedResponse.HEALTHY.status());
        assertEquals(503, FixedResponse.DRAINING.status());
        assertEquals(404, FixedResponse.NOT_FOUND.status());
        assertEquals(405, FixedResponse.METHOD_NOT_ALLOWED.status());
        assertEquals(414, FixedResponse.URI_TOO_LONG.status());
        assertEquals(431, FixedResponse.HEADERS_TOO_LARGE.status());
        assertEquals(500, FixedResponse.INTERNAL_ERROR.status());
    }
}
