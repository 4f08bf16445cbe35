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
 * The multi-producer publish: the cursor moves at the claim, before the payload is written, so a consumer must go by
 * the per-slot flags ({@link Sequencer#highestPublished}) and is never handed a claimed slot whose payload is not yet
 * there.
 * <p>
 * r1: the highest slot the consumer may read; r2: the payload it read there (0 when it may read none).
 */
@JCStressTest
@Outcome(id = "-1, 0", expect = ACCEPTABLE, desc = "not published yet (claimed or not)")
@Outcome(id = "0, 42", expect = ACCEPTABLE, desc = "published, and the payload with it")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "a slot handed out before its payload")
@State
public class MultiProducerPublishTest
{
    private final Ring ring = RingStates.ring(4, ProducerType.MULTI);
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
        final long highest = sequencer.highestPublished(0, sequencer.cursor());
        r.r1 = highest;
        r.r2 = highest >= 0 ? ring.buffer().getLong(ring.slotOffset(0) + RingStates.PAYLOAD) : 0;
    }
}
