package io.ringex.bench.engine;

import io.ringex.engine.processor.EventSink;
import io.ringex.engine.ring.Ring;
import io.ringex.engine.ring.Sequencer;
import io.ringex.engine.ring.SlotDescriptor;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.IdleStrategy;

/**
 * The processor's events straight into an output {@link Ring}'s slots, as the engine node's (package-private)
 * {@code RingEventSink} does: a claim is a slot (waiting with the idle strategy while the ring is full), a commit
 * stamps the slot header and publishes it.
 * <p>
 * Threading: the processor's thread only (the output ring's single producer).
 */
public final class OutputRingSink implements EventSink
{
    private final Ring ring;
    private final Sequencer sequencer;
    private final AtomicBuffer buffer;
    private final IdleStrategy idleStrategy;
    private long claimed = -1;
    private long timestampNs;
    private long sourceSequence;

    /**
     * @param ring         the output ring.
     * @param idleStrategy how to wait on a full ring.
     */
    public OutputRingSink(final Ring ring, final IdleStrategy idleStrategy)
    {
        this.ring = ring;
        this.sequencer = ring.sequencer();
        this.buffer = ring.buffer();
        this.idleStrategy = idleStrategy;
    }

    /**
     * The command whose events follow.
     *
     * @param commandSequence its sequence.
     * @param timestampNs     its timestamp.
     */
    public void command(final long commandSequence, final long timestampNs)
    {
        this.sourceSequence = commandSequence;
        this.timestampNs = timestampNs;
    }

    /** {@inheritDoc} */
    public MutableDirectBuffer buffer()
    {
        return buffer;
    }

    /** {@inheritDoc} */
    public int claim(final int maxLength)
    {
        if (maxLength > ring.maxPayloadLength())
        {
            throw new IllegalArgumentException("event of " + maxLength + " bytes exceeds the slot payload");
        }
        final long sequence = sequencer.next(idleStrategy);
        if (sequence < 0)
        {
            throw new IllegalStateException("output ring closed");
        }
        claimed = sequence;
        return ring.slotOffset(sequence) + SlotDescriptor.PAYLOAD_OFFSET;
    }

    /** {@inheritDoc} */
    public void commit(final int length)
    {
        final int slot = ring.slotOffset(claimed);
        final int templateId = buffer.getShort(slot + SlotDescriptor.PAYLOAD_OFFSET +
            MessageHeaderDecoder.templateIdEncodingOffset(), MessageHeaderDecoder.BYTE_ORDER) & 0xFFFF;
        buffer.putLong(slot + SlotDescriptor.TIMESTAMP_OFFSET, timestampNs);
        buffer.putLong(slot + SlotDescriptor.SOURCE_ID_OFFSET, sourceSequence);
        buffer.putInt(slot + SlotDescriptor.TEMPLATE_ID_OFFSET, templateId);
        buffer.putInt(slot + SlotDescriptor.LENGTH_OFFSET, length);
        sequencer.publish(claimed);
        claimed = -1;
    }

    /** {@inheritDoc} */
    public int maxEventLength()
    {
        return ring.maxPayloadLength();
    }
}
