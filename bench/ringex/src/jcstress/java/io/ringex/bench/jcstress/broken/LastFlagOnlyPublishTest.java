package io.ringex.bench.jcstress.broken;

import io.ringex.bench.jcstress.RingStates;
import io.ringex.engine.ring.ProducerType;
import io.ringex.engine.ring.Ring;
import io.ringex.engine.ring.Sequencer;
import io.ringex.engine.ring.SlotDescriptor;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * BROKEN copy of {@code MultiProducerPublishTest}: the consumer uses a copy of
 * {@code MultiProducerSequencer.highestPublished} that checks only the flag of the last slot it is asked about, as
 * if claims completed in order. With slot 1 published before slot 0 it hands out slot 0 before its payload. A logic
 * race: it shows on any hardware.
 */
@JCStressTest
@Outcome(id = "-1, -1, 0, 0", expect = ACCEPTABLE, desc = "nothing claimed yet")
@Outcome(id = {"0, -1, 0, 0", "1, -1, 0, 0"}, expect = ACCEPTABLE, desc = "claimed, slot 0 not published yet")
@Outcome(id = "0, 0, 10, 0", expect = ACCEPTABLE,
    desc = "cursor read at the first claim, slot 0 published by the time its flag was read")
@Outcome(id = "1, 1, 10, 11", expect = ACCEPTABLE, desc = "both published, both payloads")
@Outcome(id = "1, 0, .*", expect = FORBIDDEN, desc = "slot 0's flag seen without slot 1's, released before it")
@Outcome(id = ".*", expect = FORBIDDEN, desc = "a slot handed out before its payload or before a slot below it")
@State
public class LastFlagOnlyPublishTest
{
    private final Ring ring = RingStates.ring(4, ProducerType.MULTI);
    private final Sequencer sequencer = ring.sequencer();

    @Actor
    public void producer()
    {
        final long first = sequencer.next(NoOpIdleStrategy.INSTANCE);
        final long second = sequencer.next(NoOpIdleStrategy.INSTANCE);
        RingStates.putPayload(ring, second, 11);
        sequencer.publish(second);
        RingStates.putPayload(ring, first, 10);
        sequencer.publish(first);
    }

    @Actor
    public void consumer(final JJJJ_Result r)
    {
        final long cursor = sequencer.cursor();
        final long highest = highestPublished(0, cursor);
        r.r1 = cursor;
        r.r2 = highest;
        r.r3 = highest >= 0 ? RingStates.payload(ring, 0) : 0;
        r.r4 = highest >= 1 ? RingStates.payload(ring, 1) : 0;
    }

    private long highestPublished(final long lo, final long available)
    {
        // The real one scans lo..available and stops at the first slot whose flag is not its sequence.
        if (available < lo ||
            ring.buffer().getLongAcquire(ring.slotOffset(available) + SlotDescriptor.SEQUENCE_OFFSET) != available)
        {
            return lo - 1;
        }

        return available;
    }
}
