package io.ringex.bench.jcstress;

import io.ringex.engine.ring.ProducerType;
import io.ringex.engine.ring.Ring;
import io.ringex.engine.ring.SlotDescriptor;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;

/**
 * Small rings for the jcstress tests: a few slots and a counters file of their own just large enough for a cursor,
 * a gating cache and two stages (jcstress builds many thousands of states).
 * <p>
 * Threading: built in a state's constructor, before jcstress starts the actors.
 */
final class RingStates
{
    /** Where a test's payload word sits in a slot. */
    static final int PAYLOAD = SlotDescriptor.PAYLOAD_OFFSET;

    private static final int COUNTERS = 4;

    private RingStates()
    {
    }

    static Ring ring(final int capacity, final ProducerType producerType)
    {
        final CountersManager counters = new CountersManager(
            new UnsafeBuffer(new byte[COUNTERS * CountersReader.METADATA_LENGTH]),
            new UnsafeBuffer(new byte[COUNTERS * CountersReader.COUNTER_LENGTH]));
        return Ring.builder().name("jcstress").capacity(capacity).slotLength(64).producerType(producerType)
            .countersManager(counters).build();
    }
}
