package io.ringex.gateway;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EgressDeduplicatorTest
{
    private static final int OLD = 0;
    private static final int NEW = 1;

    private final EgressDeduplicator deduplicator = new EgressDeduplicator();
    private final List<String> delivered = new ArrayList<>();

    /** An event: command sequence and its index among that command's events. */
    private void offer(final int source, final long sequence, final int index)
    {
        if (deduplicator.isNew(source, sequence))
        {
            deduplicator.delivered(source, sequence);
            delivered.add(sequence + "." + index);
        }
    }

    @Test
    void deliversEveryEventOfOneStreamIncludingSeveralPerCommand()
    {
        offer(OLD, 1, 0);
        offer(OLD, 2, 0);
        offer(OLD, 2, 1);
        offer(OLD, 2, 2);
        offer(OLD, 5, 0);
        assertEquals(List.of("1.0", "2.0", "2.1", "2.2", "5.0"), delivered);
        assertEquals(5, deduplicator.highestSequence());
    }

    @Test
    void aNewPrimaryRepublishingAWindowAddsOnlyWhatWasNotDelivered()
    {
        offer(OLD, 10, 0);
        offer(OLD, 11, 0);
        offer(OLD, 12, 0);
        offer(OLD, 12, 1);
        // The old primary died after the second of command 12's three events; the new one re-publishes 10..12 and
        // goes on with 13.
        offer(NEW, 10, 0);
        offer(NEW, 11, 0);
        offer(NEW, 12, 0);
        offer(NEW, 12, 1);
        offer(NEW, 12, 2);
        offer(NEW, 13, 0);
        offer(NEW, 13, 1);
        assertEquals(List.of("10.0", "11.0", "12.0", "12.1", "12.2", "13.0", "13.1"), delivered);
    }

    @Test
    void lateEventsOfTheOldPrimaryAreDroppedOnceTheNewOneIsAhead()
    {
        offer(OLD, 1, 0);
        offer(NEW, 1, 0);
        offer(NEW, 2, 0);
        offer(OLD, 2, 0);
        offer(OLD, 1, 0);
        assertEquals(List.of("1.0", "2.0"), delivered);
    }

    @Test
    void anEventToBeRedeliveredGetsTheSameAnswer()
    {
        offer(OLD, 7, 0);
        // A handler that ABORTs does not call delivered(): asking again must still say yes.
        assertTrue(deduplicator.isNew(NEW, 8));
        assertTrue(deduplicator.isNew(NEW, 8));
        assertFalse(deduplicator.isNew(NEW, 6));
        assertFalse(deduplicator.isNew(OLD, 6));
    }
}
