package io.ringex.engine.node;

import io.ringex.engine.ring.Ring;
import io.ringex.engine.ring.Sequencer;
import io.ringex.engine.ring.SlotDescriptor;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;

/**
 * A single node's ingress writes straight into the input ring: claim the next slot, fill it, publish it.
 * <p>
 * Thread safety: the ring's only producer's thread.
 */
final class RingCommandSink implements CommandSink
{
    private final Ring ring;
    private final Sequencer sequencer;
    private final StageTrace trace;

    /**
     * @param ring  the input ring, of which the caller is the only producer.
     * @param trace told each command's receipt.
     */
    RingCommandSink(final Ring ring, final StageTrace trace)
    {
        this.ring = ring;
        this.sequencer = ring.sequencer();
        this.trace = trace;
    }

    public boolean offer(
        final long timestampNs,
        final long sourceId,
        final int templateId,
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final long receivedNs)
    {
        final long sequence = sequencer.tryNext();
        if (sequence < 0)
        {
            return false;
        }
        write(ring, sequence, timestampNs, sourceId, templateId, buffer, offset, length);
        trace.received(sequence, receivedNs);
        sequencer.publish(sequence);
        return true;
    }

    /**
     * Fill a claimed slot (not publish it).
     */
    static void write(
        final Ring ring,
        final long sequence,
        final long timestampNs,
        final long sourceId,
        final int templateId,
        final DirectBuffer buffer,
        final int offset,
        final int length)
    {
        final AtomicBuffer slots = ring.buffer();
        final int slot = ring.slotOffset(sequence);
        slots.putLong(slot + SlotDescriptor.TIMESTAMP_OFFSET, timestampNs);
        slots.putLong(slot + SlotDescriptor.SOURCE_ID_OFFSET, sourceId);
        slots.putInt(slot + SlotDescriptor.TEMPLATE_ID_OFFSET, templateId);
        slots.putInt(slot + SlotDescriptor.LENGTH_OFFSET, length);
        slots.putBytes(slot + SlotDescriptor.PAYLOAD_OFFSET, buffer, offset, length);
    }
}
