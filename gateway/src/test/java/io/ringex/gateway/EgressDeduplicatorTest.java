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

    /** An event of a node at an epoch starting at a sequence: command sequence and index among its events. */
    private void offer(final int source, final long epoch, final long start, final long sequence, final int index)
    {
        if (deduplicator.isNew(source, epoch, start, sequence))
        {
            deduplicator.delivered(source, epoch, start, sequence);
            delivered.add(sequence + "." + index);
        }
    }

    @Test
    void deliversEveryEventOfOneStreamIncludingSeveralPerCommand()
    {
        offer(OLD, 1, 1, 1, 0);
        offer(OLD, 1, 1, 2, 0);
        offer(OLD, 1, 1, 2, 1);
        offer(OLD, 1, 1, 2, 2);
        offer(OLD, 1, 1, 5, 0);
        assertEquals(List.of("1.0", "2.0", "2.1", "2.2", "5.0"), delivered);
        assertEquals(5, deduplicator.highestSequence());
    }

    @Test
    void aNewPrimaryRepublishingAWindowAddsOnlyWhatWasNotDelivered()
    {
        offer(OLD, 1, 1, 10, 0);
        offer(OLD, 1, 1, 11, 0);
        offer(OLD, 1, 1, 12, 0);
        offer(OLD, 1, 1, 12, 1);
        // The old primary died after the second of command 12's three events; the new one (epoch 2 from its NewEpoch,
        // 13) re-publishes 10..12 and goes on with 14.
        offer(NEW, 2, 13, 10, 0);
        offer(NEW, 2, 13, 11, 0);
        offer(NEW, 2, 13, 12, 0);
        offer(NEW, 2, 13, 12, 1);
        offer(NEW, 2, 13, 12, 2);
        offer(NEW, 2, 13, 14, 0);
        offer(NEW, 2, 13, 14, 1);
        assertEquals(List.of("10.0", "11.0", "12.0", "12.1", "12.2", "14.0", "14.1"), delivered);
    }

    @Test
    void aNewPrimaryLackingTheOldOnesLastCommandsHasItsNewCommandsDelivered()
    {
        // The old primary delivered 10..13; the new one had journaled only up to 11, so its NewEpoch is 12 and its
        // new commands are 13, 14: numbers the old primary used for other commands.
        for (long sequence = 10; sequence <= 13; sequence++)
        {
            offer(OLD, 1, 1, sequence, 0);
        }
        offer(NEW, 2, 12, 10, 0);
        offer(NEW, 2, 12, 11, 0);
        offer(NEW, 2, 12, 13, 0);
        offer(NEW, 2, 12, 13, 1);
        offer(NEW, 2, 12, 14, 0);
        assertEquals(List.of("10.0", "11.0", "12.0", "13.0", "13.0", "13.1", "14.0"), delivered);
        assertEquals(14, deduplicator.highestSequence());
        // From here on the new primary's numbering holds.
        offer(NEW, 2, 12, 14, 1);
        offer(NEW, 2, 12, 13, 0);
        assertEquals(List.of("10.0", "11.0", "12.0", "13.0", "13.0", "13.1", "14.0", "14.1"), delivered);
    }

    @Test
    void aPrimaryStartedAgainFromItsJournalHasItsReusedSequencesDelivered()
    {
        offer(OLD, 1, 1, 7, 0);
        offer(OLD, 1, 1, 8, 0);
        // Restarted as primary at the same epoch, its journal ending at 6.
        offer(OLD, 1, 7, 7, 0);
        offer(OLD, 1, 7, 8, 0);
        assertEquals(List.of("7.0", "8.0", "7.0", "8.0"), delivered);
    }

    @Test
    void lateEventsOfAnEarlierEraAreDroppedOnceTheNewOneIsAhead()
    {
        offer(OLD, 1, 1, 1, 0);
        offer(NEW, 2, 2, 1, 0);
        offer(NEW, 2, 2, 2, 0);
        offer(OLD, 1, 1, 2, 0);
        offer(OLD, 1, 1, 1, 0);
        assertEquals(List.of("1.0", "2.0"), delivered);
    }

    @Test
    void anotherNodeClaimingTheSameEpochAddsOnlyWhatWasNotDelivered()
    {
        offer(OLD, 1, 1, 5, 0);
        offer(NEW, 1, 3, 5, 0);
        offer(NEW, 1, 3, 6, 0);
        assertEquals(List.of("5.0", "6.0"), delivered);
    }

    @Test
    void aGatewayThatDeliveredNothingTakesTheWindowBeforeItJoinedAsDelivered()
    {
        // Joined while the followed node had taken in 20 commands; then the new primary (NewEpoch 25) re-sends 18..24.
        deduplicator.joined(20);
        for (long sequence = 18; sequence <= 24; sequence++)
        {
            offer(NEW, 2, 25, sequence, 0);
            offer(NEW, 2, 25, sequence, 1);
        }
        offer(NEW, 2, 25, 26, 0);
        assertEquals(List.of("21.0", "21.1", "22.0", "22.1", "23.0", "23.1", "24.0", "24.1", "26.0"), delivered);
    }

    @Test
    void joiningAfterDeliveringChangesNothing()
    {
        offer(OLD, 1, 1, 3, 0);
        deduplicator.joined(20);
        offer(NEW, 2, 25, 4, 0);
        assertEquals(List.of("3.0", "4.0"), delivered);
    }

    @Test
    void anEventToBeRedeliveredGetsTheSameAnswer()
    {
        offer(OLD, 1, 1, 7, 0);
        // A handler that ABORTs does not call delivered(): asking again must still say yes.
        assertTrue(deduplicator.isNew(NEW, 2, 9, 8));
        assertTrue(deduplicator.isNew(NEW, 2, 9, 8));
        assertTrue(deduplicator.isNew(NEW, 2, 9, 9));
        assertTrue(deduplicator.isNew(NEW, 2, 9, 9));
        assertFalse(deduplicator.isNew(NEW, 2, 9, 6));
        assertFalse(deduplicator.isNew(OLD, 1, 1, 6));
    }
}
