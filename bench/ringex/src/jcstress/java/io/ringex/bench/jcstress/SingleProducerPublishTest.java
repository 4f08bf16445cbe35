package io.ringex.bench.jcstress;

import io.ringex.engine.ring.ProducerType;
import io.ringex.engine.ring.Ring;
import io.ringex.engine.ring.Sequencer;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The single-producer publish: a consumer that sees the cursor at a slot sees what the producer wrote into the slot
 * before publishing it (the cursor's release store against the consumer's acquire load).
 */
@JCStressTest
@Outcome(id = "-1, 0", expect = ACCEPTABLE, desc = "the consumer looked before the publish")
@Outcome(id = "0, 42", expect = ACCEPTABLE, desc = "published, and the payload with it")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "the cursor was visible before the payload")
@State
public class SingleProducerPublishTest
{
    private final Ring ring = RingStates.ring(4, ProducerType.SINGLE);
    private final Sequencer sequencer = ring.sequencer();

    @Actor
    public void producer()
    {
        final long sequence = sequencer.next(new BusySpinIdleStrategy());
        ring.buffer().putLong(ring.slotOffset(sequence) + RingStates.PAYLOAD, 42);
        sequencer.publish(sequence);
    }

    @Actor
    public void consumer(final JJ_Result r)
    {
        final long cursor = sequencer.cursor();
        r.r1 = cursor;
        r.r2 = cursor >= 0 ? ring.buffer().getLong(ring.slotOffset(0) + RingStates.PAYLOAD) : 0;
    }
}
