package io.ringex.engine.node;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RecoverySummaryTest
{
    @Test
    void theNextSequenceFollowsTheJournalsLastWhateverWasReplayed()
    {
        assertEquals("the journal to sequence 363 (363 commands replayed, no snapshot), next sequence 364",
            NodeRecovery.summary(363, 0, 363));
        assertEquals("the journal to sequence 363 (snapshot at 300, 63 commands replayed after it), next sequence 364",
            NodeRecovery.summary(363, 300, 63));
        assertEquals("the journal to sequence 0 (0 commands replayed, no snapshot), next sequence 1",
            NodeRecovery.summary(0, 0, 0));
    }
}
