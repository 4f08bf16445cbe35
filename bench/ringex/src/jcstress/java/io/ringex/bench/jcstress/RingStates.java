package io.ringex.bench.jcstress;

import io.ringex.engine.ring.ProducerType;
import io.ringex.engine.ring.Ring;
import io.ringex.engine.ring.SlotDescriptor;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;

/**
 * Small rings for the jcstress tests: a few slots and a counters file of their own just large enough for a cursor,
 * a gating cache and three stages (jcstress builds many thousands of states).
 * <p>
 * The counters sit in small direct buffers aligned like the ring's own: Agrona refuses an atomic buffer over a
 * {@code byte[]} (its alignment is not guaranteed), and a state whose constructor throws that message for each of
 * jcstress's thousands of states floods the host JVM with the fork's output until it runs out of heap.
 * <p>
 * Threading: built in a state's constructor, before jcstress starts the actors.
 */
public final class RingStates
{
    /** Where a test's payload word sits in a slot: written by the producer. */
    public static final int PAYLOAD = SlotDescriptor.PAYLOAD_OFFSET;

    /** A word a first upstream stage writes into the slot (as the journal stage would record a position). */
    public static final int MARK_A = PAYLOAD + 8;

    /** A word a second upstream stage writes into the slot. */
    public static final int MARK_B = PAYLOAD + 16;

    // The cursor plus a gating cache or up to three stages (a sequence and an error count each).
    private static final int COUNTERS = 8;

    private RingStates()
    {
    }

    /**
     * @param capacity     slots, a power of two.
     * @param producerType single or multi producer.
     * @return a ring of 64-byte slots with a counters file of its own.
     */
    public static Ring ring(final int capacity, final ProducerType producerType)
    {
        final CountersManager counters = new CountersManager(
            new UnsafeBuffer(BufferUtil.allocateDirectAligned(
                COUNTERS * CountersReader.METADATA_LENGTH, SlotDescriptor.BUFFER_ALIGNMENT)),
            new UnsafeBuffer(BufferUtil.allocateDirectAligned(
                COUNTERS * CountersReader.COUNTER_LENGTH, SlotDescriptor.BUFFER_ALIGNMENT)));
        return Ring.builder().name("jcstress").capacity(capacity).slotLength(64).producerType(producerType)
            .countersManager(counters).build();
    }

    /**
     * @param ring     the ring.
     * @param sequence the slot's sequence.
     * @param value    the payload word to write (plain store: the publish orders it).
     */
    public static void putPayload(final Ring ring, final long sequence, final long value)
    {
        ring.buffer().putLong(ring.slotOffset(sequence) + PAYLOAD, value);
    }

    /**
     * @param ring     the ring.
     * @param sequence the slot's sequence.
     * @return the payload word (plain load: the consumer's acquire of the cursor or flag orders it).
     */
    public static long payload(final Ring ring, final long sequence)
    {
        return ring.buffer().getLong(ring.slotOffset(sequence) + PAYLOAD);
    }
}
