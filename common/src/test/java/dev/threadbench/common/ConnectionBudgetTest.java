package dev.threadbench.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ConnectionBudgetTest {

    @Test
    void theLimitLessTheDescriptorsOpenLessAReserve() {
        assertEquals(new ConnectionBudget(400 - 15 - ConnectionBudget.RESERVE, 400), ConnectionBudget.of(400, 15));
    }

    @Test
    void atLeastOneConnectionAndAtMostAnInt() {
        assertEquals(1, ConnectionBudget.of(20, 15).connections());
        assertEquals(Integer.MAX_VALUE, ConnectionBudget.of(Long.MAX_VALUE, 15).connections());
    }

    @Test
    void thisProcessHasRoomBelowItsLimit() {
        ConnectionBudget budget = ConnectionBudget.ofThisProcess();
        assertTrue(budget.connections() >= 1 && budget.connections() < budget.descriptorLimit(), budget.toString());
    }
}
