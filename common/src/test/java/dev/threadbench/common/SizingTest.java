package dev.threadbench.common;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SizingTest {

    @Test
    void warnsBelowConnectionsPlusMargin() {
        String warning = Sizing.fileDescriptorWarning("vertx", 1024).orElseThrow();
        assertTrue(warning.startsWith("vertx-server: WARNING: file descriptor limit (ulimit -n) is 1024"), warning);
    }

    @Test
    void quietAtOrAboveConnectionsPlusMargin() {
        assertFalse(Sizing.fileDescriptorWarning("vertx", Sizing.CONNECTIONS + Sizing.DESCRIPTOR_MARGIN)
                .isPresent());
    }

    @Test
    void atLeastOneIoThread() {
        assertTrue(Sizing.ioThreads() >= 1);
    }
}
