package dev.threadbench.loadtest.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ProcFsTest {

    @Test
    void statFieldsAfterACommandNameWithSpacesAndParentheses() {
        String line = "4242 (java (my app)) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 7 3 20 0 30 0 12345 0 0";
        long[] fields = ProcFs.parseStat(line);
        assertEquals(250, fields[13], "utime");
        assertEquals(50, fields[14], "stime");
        assertEquals(7, fields[15], "cutime");
        assertEquals(3, fields[16], "cstime");
    }

    @Test
    void readsThisJvmsReapedChildren() {
        assertTrue(ProcFs.reapedChildrenCpuSeconds() >= 0);
    }
}
