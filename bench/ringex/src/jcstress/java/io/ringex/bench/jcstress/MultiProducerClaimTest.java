package io.ringex.bench.jcstress;

import io.ringex.engine.ring.ProducerType;
import io.ringex.engine.ring.Ring;
import io.ringex.engine.ring.Sequencer;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Two producers claiming at once get distinct slots, and once both have published, both slots are readable with
 * their own payloads.
 * <p>
 * r1: the highest slot readable after both published; r2: 1 if both slots hold the payload of the producer that
 * claimed them, else 0.
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "two distinct claims, both published")
@Outcome(id = ".*", expect = FORBIDDEN, desc = "a claim given twice, or a publish lost")
@State
public class MultiProducerClaimTest
{
    private final Ring ring = RingStates.ring(4, ProducerType.MULTI);
    private final Sequencer sequencer = ring.sequencer();

    @Actor
    public void producer1()
    {
        produce();
    }

    @Actor
    public void producer2()
    {
        produce();
    }

    @Arbiter
    public void arbiter(final JJ_Result r)
    {
        r.r1 = sequencer.highestPublished(0, sequencer.cursor());
        r.r2 = ring.buffer().getLong(ring.slotOffset(0) + RingStates.PAYLOAD) == 100 &&
            ring.buffer().getLong(ring.slotOffset(1) + RingStates.PAYLOAD) == 101 ? 1 : 0;
    }

    private void produce()
    {
        final long sequence = sequencer.next(new BusySpinIdleStrategy());
        ring.buffer().putLong(ring.slotOffset(sequence) + RingStates.PAYLOAD, 100 + sequence);
        sequencer.publish(sequence);
    }
}
