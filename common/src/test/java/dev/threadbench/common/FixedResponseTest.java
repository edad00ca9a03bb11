package dev.threadbench.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class FixedResponseTest {

    @Test
    void textBodiesAreOneLineAndJsonBodiesAreOneObject() {
        for (FixedResponse r : FixedResponse.values()) {
            String body = new String(r.body(), StandardCharsets.UTF_8);
            if (r == FixedResponse.BAD_REQUEST) {
                continue;
            }
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
        assertEquals(400, FixedResponse.BAD_REQUEST.status());
        assertEquals(413, FixedResponse.CONTENT_TOO_LARGE.status());
        assertEquals(501, FixedResponse.NOT_IMPLEMENTED.status());
    }

    @Test
    void theBare400LooksLikeTheParsers() {
        assertNull(FixedResponse.BAD_REQUEST.contentType());
        assertEquals(0, FixedResponse.BAD_REQUEST.length());
    }

    @Test
    void refusalsCloseTheConnectionAndNormalAnswersKeepIt() {
        for (FixedResponse r : FixedResponse.values()) {
            boolean refusal = r.status() >= 400
                    && r != FixedResponse.NOT_FOUND
                    && r != FixedResponse.METHOD_NOT_ALLOWED
                    && r != FixedResponse.HEALTH_DRAINING;
            assertEquals(refusal, r.closesConnection(), r.name());
        }
    }
}
