package io.ringex.gateway.fix;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FixProblemLogTest
{
    private final List<String> lines = new ArrayList<>();
    private final FixProblemLog log = new FixProblemLog("gw fix ", lines::add);

    @Test
    void eachKindIsLoggedOnceWithTheFirstMessagesIdentity()
    {
        assertTrue(log.record("could not encode ExecutionReport: ArithmeticException", "ClOrdID A1 OrderID 7"));
        assertFalse(log.record("could not encode ExecutionReport: ArithmeticException", "ClOrdID A2 OrderID 8"));
        assertTrue(log.record("could not encode OrderCancelReject: ArithmeticException", "ClOrdID C1"));
        assertEquals(List.of(
            "gw fix could not encode ExecutionReport: ArithmeticException: ClOrdID A1 OrderID 7 (further ones of " +
                "this kind are counted, not logged)",
            "gw fix could not encode OrderCancelReject: ArithmeticException: ClOrdID C1 (further ones of this kind " +
                "are counted, not logged)"), lines);
    }

    @Test
    void kindsAreBoundedSoNoClientCanGrowTheLogWithoutEnd()
    {
        for (int i = 0; i < FixProblemLog.MAX_KINDS + 50; i++)
        {
            log.record("kind " + i, "detail");
        }
        assertEquals(FixProblemLog.MAX_KINDS, lines.size());
    }
}
