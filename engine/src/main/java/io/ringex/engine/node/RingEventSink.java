package io.ringex.engine.node;

import io.ringex.engine.processor.EventSink;
import io.ringex.engine.ring.Ring;
import io.ringex.engine.ring.Sequencer;
import io.ringex.engine.ring.SlotDescriptor;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.IdleStrategy;

/**
 * The processor's events go straight into the output ring's slots: a claim is a slot, a commit fills in its header,
 * and {@link #publish()} makes every committed slot visible to the publishers at once, which the processor stage does
 * after each command. One cursor store per command instead of one per event: each store takes the cursor's cache line
 * back from the publishers polling it, and a command makes three events on average. A long run of events without a
 * {@code publish()} (a new leader re-sending its report window) is published every {@link #MAX_UNPUBLISHED} events,
 * so the claims never wait for slots that only their own publication would free. A full output ring makes the
 * processor wait (it never drops an event); the publishers behind it are what it waits for.
 * <p>
 * Thread safety: the processor's thread only (the output ring's single producer).
 */
public final class RingEventSink implements EventSink
{
    /** Committed events published at the latest when this many wait (or half the ring, if smaller). */
    public static final int MAX_UNPUBLISHED = 256;

    private final Ring ring;
    private final Sequencer sequencer;
    private final AtomicBuffer buffer;
    private final IdleStrategy idleStrategy;
    private final int maxUnpublished;
    private long claimed = -1;
    private long firstUnpublished = -1;
    private long lastCommitted = -1;
    private long timestampNs;
    private long sourceSequence;

    /**
     * @param ring         the output ring; this sink is its single producer.
     * @param idleStrategy how to wait while the ring is full.
     */
    public RingEventSink(final Ring ring, final IdleStrategy idleStrategy)
    {
        this.ring = ring;
        this.sequencer = ring.sequencer();
        this.buffer = ring.buffer();
        this.idleStrategy = idleStrategy;
        this.maxUnpublished = Math.min(MAX_UNPUBLISHED, ring.capacity() / 2);
    }

    /**
     * The command whose events follow: stamped on their slots so publishers can measure latency.
     *
     * @param commandSequence the command's sequence.
     * @param timestampNs     the command's ingress time.
     */
    public void command(final long commandSequence, final long timestampNs)
    {
        this.sourceSequence = commandSequence;
        this.timestampNs = timestampNs;
    }

    /**
     * @return the sequence of the command whose events are being written.
     */
    public long commandSequence()
    {
        return sourceSequence;
    }

    /**
     * @return the ingress time of the command whose events are being written.
     */
    public long timestampNs()
    {
        return timestampNs;
    }

    public MutableDirectBuffer buffer()
    {
        return buffer;
    }

    public int claim(final int maxLength)
    {
        if (maxLength > ring.maxPayloadLength())
        {
            throw new IllegalArgumentException("event of " + maxLength + " bytes exceeds the output slot payload " +
                ring.maxPayloadLength());
        }
        if (claimed >= 0)
        {
            // The last claim was never committed (its writer threw): reuse its slot rather than publish it unwritten.
            return ring.slotOffset(claimed) + SlotDescriptor.PAYLOAD_OFFSET;
        }
        if (firstUnpublished >= 0 && lastCommitted - firstUnpublished + 1 >= maxUnpublished)
        {
            publish();
        }
        final long sequence = sequencer.next(idleStrategy);
        if (sequence < 0)
        {
            throw new IllegalStateException("output ring closed");
        }
        claimed = sequence;
        return ring.slotOffset(sequence) + SlotDescriptor.PAYLOAD_OFFSET;
    }

    public void commit(final int length)
    {
        final int slot = ring.slotOffset(claimed);
        final int templateId = buffer.getShort(slot + SlotDescriptor.PAYLOAD_OFFSET +
            MessageHeaderDecoder.templateIdEncodingOffset(), MessageHeaderDecoder.BYTE_ORDER) & 0xFFFF;
        buffer.putLong(slot + SlotDescriptor.TIMESTAMP_OFFSET, timestampNs);
        buffer.putLong(slot + SlotDescriptor.SOURCE_ID_OFFSET, sourceSequence);
        buffer.putInt(slot + SlotDescriptor.TEMPLATE_ID_OFFSET, templateId);
        buffer.putInt(slot + SlotDescriptor.LENGTH_OFFSET, length);
        if (firstUnpublished < 0)
        {
            firstUnpublished = claimed;
        }
        lastCommitted = claimed;
        claimed = -1;
    }

    /**
     * Make every committed event visible to the output ring's stages: one release of the cursor.
     */
    public void publish()
    {
        if (firstUnpublished >= 0)
        {
            sequencer.publish(firstUnpublished, lastCommitted);
            firstUnpublished = -1;
        }
    }

    public int maxEventLength()
    {
        return ring.maxPayloadLength();
    }
}
