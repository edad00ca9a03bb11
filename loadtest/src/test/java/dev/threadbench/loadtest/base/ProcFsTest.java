package dev.threadbench.loadtest.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.common.ProcStat;
import dev.threadbench.loadtest.base.ProcFs;
import org.junit.jupiter.api.Test;

class ProcFsTest {

    @Test
    void statFieldsAfterACommandNameWithSpacesAndParentheses() {
        String line = "4242 (java (my app)) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 7 3 20 0 30 0 12345 0 0";
        assertEquals(Long.valueOf(250), ProcStat.field(line, 14), "utime");
        assertEquals(Long.valueOf(50), ProcStat.field(line, 15), "stime");
        assertEquals(Long.valueOf(7), ProcStat.field(line, 16), "cutime");
        assertEquals(Long.valueOf(3), ProcStat.field(line, 17), "cstime");
    }

    @Test
    void readsThisJvmsReapedChildren() {
        assertTrue(ProcFs.reapedChildrenCpuSeconds() >= 0);
    }
}
