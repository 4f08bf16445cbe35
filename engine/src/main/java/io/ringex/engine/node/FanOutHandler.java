package io.ringex.engine.node;

import io.ringex.engine.ring.SlotHandler;
import org.agrona.concurrent.AtomicBuffer;

/**
 * Hands each slot to several handlers in turn, so that one stage (one sequence, one poll of the ring, one read of each
 * event's header) does the work of several: the node's output ring has one consumer stage for the egress, the market
 * data and the risk stream, instead of three stages each polling the ring and reading every event.
 * A handler that throws does not keep the slot from the handlers after it; the first exception is rethrown once they
 * have all had the slot, for the stage's error policy.
 * <p>
 * Thread safety: the stage's thread only.
 */
final class FanOutHandler implements SlotHandler
{
    private final SlotHandler[] handlers;

    FanOutHandler(final SlotHandler... handlers)
    {
        this.handlers = handlers.clone();
    }

    public void onSlot(final AtomicBuffer buffer, final int slotOffset, final long sequence, final boolean endOfBatch)
        throws Exception
    {
        Exception first = null;
        for (final SlotHandler handler : handlers)
        {
            try
            {
                handler.onSlot(buffer, slotOffset, sequence, endOfBatch);
            }
            catch (final Exception ex)
            {
                if (null == first)
                {
                    first = ex;
                }
                else
                {
                    first.addSuppressed(ex);
                }
            }
        }
        if (null != first)
        {
            throw first;
        }
    }
}
