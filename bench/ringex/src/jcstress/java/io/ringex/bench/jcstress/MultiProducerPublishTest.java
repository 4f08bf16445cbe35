package io.ringex.bench.jcstress;

import io.ringex.engine.ring.ProducerType;
import io.ringex.engine.ring.Ring;
import io.ringex.engine.ring.Sequencer;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The multi-producer publish, out of order: the cursor moves at the claim, before any payload is written, and claims
 * complete in any order, so a consumer goes by the per-slot flags ({@link Sequencer#highestPublished}). The producer
 * claims sequences 0 and 1, then publishes 1 before 0, as two producers finishing in the other order would. The
 * consumer is never handed a slot before its payload, never slot 1 while slot 0 is unpublished, and, having seen
 * slot 0's flag (released after slot 1's), always sees slot 1's.
 * <p>
 * r1: the cursor the consumer read; r2: the highest slot it may read up to that cursor; r3, r4: the payloads it then
 * read in slots 0 and 1 (0 where it may not read).
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
public class MultiProducerPublishTest
{
    private final Ring ring = RingStates.ring(4, ProducerType.MULTI);
    private final Sequencer sequencer = ring.sequencer();

    @Actor
    public void producer()
    {
        // No stage gates this ring, so the claims never wait: the idle strategy is never called.
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
        final long highest = sequencer.highestPublished(0, cursor);
        r.r1 = cursor;
        r.r2 = highest;
        r.r3 = highest >= 0 ? RingStates.payload(ring, 0) : 0;
        r.r4 = highest >= 1 ? RingStates.payload(ring, 1) : 0;
    }
}
