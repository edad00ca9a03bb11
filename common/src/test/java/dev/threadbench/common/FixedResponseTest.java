package dev.threadbench.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class FixedResponseTest {

    @Test
    void textBodiesAreOneLineAndJsonBodiesAreOneObject() {
        for (FixedResponse r : FixedResponse.values()) {
            String body = new String(r.body(), StandardCharsets.UTF_8);
            if (r.contentType().equals(FixedResponse.Type.JSON)) {
                assertTrue(body.startsWith("{") && body.endsWith("}"), r + ": " + body);
            } else {
                assertEquals(FixedResponse.Type.TEXT, r.contentType());
                assertTrue(body.endsWith("\n") && body.indexOf('\n') == body.length() - 1, r + ": " + body);
            }
            assertEquals(r.body().length, r.length());
        }
    }

    @Test
    void healthSaysUpOrDraining() {
        assertEquals("{\"status\":\"UP\"}", new String(FixedResponse.HEALTH_UP.body(), StandardCharsets.UTF_8));
        assertEquals(200, FixedResponse.HEALTH_UP.status());
        assertEquals(503, FixedResponse.HEALTH_DRAINING.status());
    }

    @Test
    void statusesAreTheOnesTheContractNames() {
        assertEquals(503, FixedResponse.DRAINING.status());
        assertEquals(404, FixedResponse.NOT_FOUND.status());
        assertEquals(405, FixedResponse.METHOD_NOT_ALLOWED.status());
        assertEquals(414, FixedResponse.URI_TOO_LONG.status());
        assertEquals(431, FixedResponse.HEADERS_TOO_LARGE.status());
        assertEquals(500, FixedResponse.INTERNAL_ERROR.status());
    }
}
