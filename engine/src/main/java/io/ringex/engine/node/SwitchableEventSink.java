package io.ringex.engine.node;

import io.ringex.engine.processor.EventSink;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The processor's sink, which the node points at a scratch buffer while it replays the journal or follows a cluster's
 * leader (clients get those events from the leader), or at a follower's report window, and at the output ring once it
 * serves clients. Everything goes to the target of the moment, the command stamp included.
 * <p>
 * Thread safety: the processor's thread; {@link #target} is switched on that thread or before it starts.
 */
final class SwitchableEventSink implements EventSink
{
    private final EventSink discard;
    private EventSink target;

    SwitchableEventSink(final int maxEventLength)
    {
        this.discard = new ScratchSink(maxEventLength);
        this.target = discard;
    }

    void target(final EventSink sink)
    {
        this.target = null == sink ? discard : sink;
    }

    boolean isDiscarding()
    {
        return target == discard;
    }

    public void command(final long commandSequence, final long timestampNs)
    {
        target.command(commandSequence, timestampNs);
    }

    public MutableDirectBuffer buffer()
    {
        return target.buffer();
    }

    public int claim(final int maxLength)
    {
        return target.claim(maxLength);
    }

    public void commit(final int length)
    {
        target.commit(length);
    }

    public int maxEventLength()
    {
        return target.maxEventLength();
    }

    /** Overwrites one scratch buffer with every event. */
    private static final class ScratchSink implements EventSink
    {
        private final UnsafeBuffer buffer;

        ScratchSink(final int maxEventLength)
        {
            this.buffer = new UnsafeBuffer(new byte[maxEventLength]);
        }

        public MutableDirectBuffer buffer()
        {
            return buffer;
        }

        public int claim(final int maxLength)
        {
            return 0;
        }

        public void commit(final int length)
        {
        }

        public int maxEventLength()
        {
            return buffer.capacity();
        }
    }
}
