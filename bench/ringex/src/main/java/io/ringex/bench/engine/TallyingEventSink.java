package io.ringex.bench.engine;

import io.ringex.engine.processor.EventSink;
import org.agrona.BufferUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * An {@link EventSink} that keeps nothing: every claim reuses the same off-heap scratch slot, and each commit only
 * counts the event in an {@link EventTally} (template, rejects by reason). For measuring the business-logic
 * processor alone: the cost left is encoding the events, not storing or sending them.
 * <p>
 * Threading: the business-logic thread only.
 */
public final class TallyingEventSink implements EventSink
{
    private final UnsafeBuffer buffer;
    private final EventTally tally;
    private final int maxEventLength;

    /**
     * @param maxEventLength longest event accepted, header included.
     * @param tally          where events are counted.
     */
    public TallyingEventSink(final int maxEventLength, final EventTally tally)
    {
        this.buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(maxEventLength, 64));
        this.maxEventLength = maxEventLength;
        this.tally = tally;
    }

    /** {@inheritDoc} */
    public MutableDirectBuffer buffer()
    {
        return buffer;
    }

    /** {@inheritDoc} */
    public int claim(final int maxLength)
    {
        return 0;
    }

    /** {@inheritDoc} */
    public void commit(final int length)
    {
        tally.onEvent(buffer, 0);
    }

    /** {@inheritDoc} */
    public int maxEventLength()
    {
        return maxEventLength;
    }

    /** @return the tally. */
    public EventTally tally()
    {
        return tally;
    }
}
