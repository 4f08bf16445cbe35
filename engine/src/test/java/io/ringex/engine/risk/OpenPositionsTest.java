package io.ringex.engine.risk;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The packed list of an account's non-flat positions against a plain array by slot: after every change it holds
 * exactly the slots whose net is not zero, each with its net and mark index.
 */
final class OpenPositionsTest
{
    @Test
    void holdsExactlyTheNonFlatSlotsThroughRandomChanges()
    {
        final OpenPositions open = new OpenPositions();
        final long[] netBySlot = new long[40];
        final SplittableRandom random = new SplittableRandom(7);
        int slots = 0;
        for (int step = 0; step < 20_000; step++)
        {
            if (slots < netBySlot.length && random.nextInt(50) == 0)
            {
                open.addSlot(slots++);
            }
            if (slots == 0)
            {
                continue;
            }
            final int slot = random.nextInt(slots);
            // flat often, so entries leave as well as enter, from the middle and from the end
            final long net = random.nextInt(3) == 0 ? 0 : random.nextLong(-1_000, 1_000);
            open.net(slot, markIndexOf(slot), net);
            netBySlot[slot] = net;
            assertMatches(open, netBySlot, slots);
        }
    }

    @Test
    void aPositionLeavingFromTheMiddleMovesTheLastIntoItsPlace()
    {
        final OpenPositions open = new OpenPositions();
        for (int slot = 0; slot < 3; slot++)
        {
            open.addSlot(slot);
            open.net(slot, markIndexOf(slot), 10 + slot);
        }
        open.net(0, markIndexOf(0), 0);

        assertEquals(2, open.count());
        assertEquals(2, open.slotAt(0));
        assertEquals(12, open.nets()[0]);
        assertEquals(markIndexOf(2), open.markIndexes()[0]);
        assertEquals(1, open.slotAt(1));

        open.net(0, markIndexOf(0), -5); // back in, at the end
        assertEquals(3, open.count());
        assertEquals(0, open.slotAt(2));
        assertEquals(-5, open.nets()[2]);
    }

    private static void assertMatches(final OpenPositions open, final long[] netBySlot, final int slots)
    {
        int nonFlat = 0;
        for (int slot = 0; slot < slots; slot++)
        {
            nonFlat += netBySlot[slot] != 0 ? 1 : 0;
        }
        assertEquals(nonFlat, open.count());
        for (int entry = 0; entry < open.count(); entry++)
        {
            final int slot = open.slotAt(entry);
            assertEquals(netBySlot[slot], open.nets()[entry], "net of slot " + slot);
            assertEquals(markIndexOf(slot), open.markIndexes()[entry], "mark index of slot " + slot);
        }
    }

    private static int markIndexOf(final int slot)
    {
        return 100 + slot * 3;
    }
}
