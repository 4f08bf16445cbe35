package io.ringex.bench.jcstress;

import io.ringex.engine.ring.ProducerType;
import io.ringex.engine.ring.Ring;
import io.ringex.engine.ring.Sequencer;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Two producers claiming at once through {@link Sequencer#next} (the multi-producer sequencer's fetch-and-add) get
 * distinct slots, and once both have published, both slots are readable with their own payloads.
 * <p>
 * r1, r2: the sequence each producer was given; r3: the highest slot readable after both published
 * ({@link Sequencer#highestPublished}); r4: 1 if each slot holds the payload of the producer that claimed it.
 */
@JCStressTest
@Outcome(id = {"0, 1, 1, 1", "1, 0, 1, 1"}, expect = ACCEPTABLE, desc = "two distinct claims, both published")
@Outcome(id = ".*", expect = FORBIDDEN, desc = "a sequence given twice, a publish lost or a payload overwritten")
@State
public class MultiProducerClaimTest
{
    private final Ring ring = RingStates.ring(4, ProducerType.MULTI);
    private final Sequencer sequencer = ring.sequencer();

    @Actor
    public void producer1(final JJJJ_Result r)
    {
        r.r1 = produce();
    }

    @Actor
    public void producer2(final JJJJ_Result r)
    {
        r.r2 = produce();
    }

    @Arbiter
    public void arbiter(final JJJJ_Result r)
    {
        r.r3 = sequencer.highestPublished(0, sequencer.cursor());
        r.r4 = RingStates.payload(ring, 0) == 100 && RingStates.payload(ring, 1) == 101 ? 1 : 0;
    }

    private long produce()
    {
        // No stage gates this ring, so the claim never waits: the idle strategy is never called.
        final long sequence = sequencer.next(NoOpIdleStrategy.INSTANCE);
        RingStates.putPayload(ring, sequence, 100 + sequence);
        sequencer.publish(sequence);

        return sequence;
    }
}
