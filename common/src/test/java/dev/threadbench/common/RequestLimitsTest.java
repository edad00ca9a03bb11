package dev.threadbench.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class RequestLimitsTest {

    @Test
    void withinEveryLimitIsAccepted() {
        assertNull(RequestLimits.check(HttpLimits.MAX_URI_LENGTH, HttpLimits.MAX_HEADERS, HttpLimits.MAX_HEADER_SIZE));
    }

    @Test
    void longTargetIs414() {
        assertEquals(FixedResponse.URI_TOO_LONG, RequestLimits.check(HttpLimits.MAX_URI_LENGTH + 1, 1, 10));
    }

    @Test
    void tooManyOrTooLargeHeadersAre431() {
        assertEquals(FixedResponse.HEADERS_TOO_LARGE, RequestLimits.check(1, HttpLimits.MAX_HEADERS + 1, 10));
        assertEquals(FixedResponse.HEADERS_TOO_LARGE, RequestLimits.check(1, 1, HttpLimits.MAX_HEADER_SIZE + 1));
    }

    @Test
    void aLongTargetWinsOverLargeHeaders() {
        assertEquals(
                FixedResponse.URI_TOO_LONG,
                RequestLimits.check(
                        HttpLimits.MAX_URI_LENGTH + 1, HttpLimits.MAX_HEADERS + 1, HttpLimits.MAX_HEADER_SIZE + 1));
    }

    @Test
    void fieldBytesCountNameColonSpaceValueAndCrlf() {
        assertEquals("Host: a\r\n".length(), RequestLimits.fieldBytes("Host".length(), "a".length()));
    }
}
