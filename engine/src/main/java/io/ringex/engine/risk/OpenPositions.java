package io.ringex.engine.risk;

import java.util.Arrays;

/**
 * The positions of one account that are not flat, packed: net quantity and book mark index of each, side by side in
 * two primitive arrays, in no particular order.
 * <p>
 * Why: an account's risk update values every position at its book's mark, and a flat position is worth nothing.
 * With 100 instruments an account held ~71 positions, of which 47% were not flat; walking only those reads half the
 * memory, in arrays packed from the start. Which order the walk takes does not show: it only sums (two's-complement
 * sums are the same in any order).
 * <p>
 * A position enters when its net quantity leaves zero and leaves when it returns to zero, by swapping the last entry
 * into its place. It is derived from the positions (not part of the state), so restoring a snapshot rebuilds it.
 * <p>
 * Threading: single business-logic thread.
 */
public final class OpenPositions
{
    private static final int ABSENT = -1;

    private long[] nets = new long[4];
    private int[] markIndexes = new int[4];
    private int[] slots = new int[4];
    private int[] entryBySlot = new int[4];
    private int count;

    /**
     * Make room for a new slot, flat.
     *
     * @param slot the position's slot, the next one.
     */
    void addSlot(final int slot)
    {
        if (slot >= entryBySlot.length)
        {
            final int capacity = Math.max(slot + 1, entryBySlot.length * 2);
            entryBySlot = Arrays.copyOf(entryBySlot, capacity);
            nets = Arrays.copyOf(nets, capacity);
            markIndexes = Arrays.copyOf(markIndexes, capacity);
            slots = Arrays.copyOf(slots, capacity);
        }
        entryBySlot[slot] = ABSENT;
    }

    /**
     * Record a position's net quantity now.
     *
     * @param slot      its slot.
     * @param markIndex its book's mark index.
     * @param net       its net quantity.
     */
    void net(final int slot, final int markIndex, final long net)
    {
        final int entry = entryBySlot[slot];
        if (net != 0)
        {
            if (entry == ABSENT)
            {
                nets[count] = net;
                markIndexes[count] = markIndex;
                slots[count] = slot;
                entryBySlot[slot] = count++;
            }
            else
            {
                nets[entry] = net;
            }
        }
        else if (entry != ABSENT)
        {
            final int last = --count;
            if (entry != last)
            {
                nets[entry] = nets[last];
                markIndexes[entry] = markIndexes[last];
                slots[entry] = slots[last];
                entryBySlot[slots[entry]] = entry;
            }
            entryBySlot[slot] = ABSENT;
        }
    }

    /** @return positions not flat. */
    public int count()
    {
        return count;
    }

    /** @return net quantity by entry, 0..count-1 (read-only; replaced when it grows, so do not keep it). */
    public long[] nets()
    {
        return nets;
    }

    /** @return book mark index by entry, 0..count-1 (read-only; replaced when it grows, so do not keep it). */
    public int[] markIndexes()
    {
        return markIndexes;
    }

    /**
     * @param entry 0..count-1.
     * @return the slot of the position at that entry.
     */
    public int slotAt(final int entry)
    {
        return slots[entry];
    }
}
