package io.ringex.bench.jcstress.broken;

import io.ringex.bench.jcstress.RingStates;
import io.ringex.engine.ring.ProducerType;
import io.ringex.engine.ring.Ring;
import io.ringex.engine.ring.Sequencer;
import io.ringex.engine.ring.Stage;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * BROKEN copy of {@code SingleProducerWrapGatingTest}: the producer claims with a copy of
 * {@code SingleProducerSequencer.tryNext} whose wrap check is off by one ({@code wrapPoint - 1 > min} for
 * {@code wrapPoint > min}), so it may claim the slot the stage is still reading. A logic race, not a memory-ordering
 * one: it shows on any hardware.
 */
@JCStressTest
@Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "the stage finished first, then the claim wrapped")
@Outcome(id = "1, -2", expect = ACCEPTABLE, desc = "the ring was still full: the claim failed")
@Outcome(id = "3, .*", expect = FORBIDDEN, desc = "the producer overwrote a slot the stage had not released")
@Outcome(id = ".*", expect = FORBIDDEN, desc = "a claim other than the third sequence or a refusal")
@State
public class OffByOneWrapGatingTest
{
    private final Ring ring = RingStates.ring(2, ProducerType.SINGLE);
    private final Sequencer sequencer = ring.sequencer();
    private long firstPayload;
    private final Stage stage = ring.stage("consumer", (buffer, slotOffset, sequence, endOfBatch) ->
    {
        if (sequence == 0)
        {
            firstPayload = buffer.getLong(slotOffset + RingStates.PAYLOAD);
        }
    }).build();
    private long nextValue = -1;

    public OffByOneWrapGatingTest()
    {
        for (int i = 0; i < 2; i++)
        {
            final long sequence = tryNext();
            RingStates.putPayload(ring, sequence, sequence + 1);
            sequencer.publish(sequence);
        }
    }

    @Actor
    public void stage(final JJ_Result r)
    {
        stage.doWork();
        r.r1 = firstPayload;
    }

    @Actor
    public void producer(final JJ_Result r)
    {
        final long sequence = tryNext();
        if (sequence >= 0)
        {
            RingStates.putPayload(ring, sequence, 3);
            sequencer.publish(sequence);
        }
        r.r2 = sequence;
    }

    private long tryNext()
    {
        final long next = nextValue + 1;
        final long wrapPoint = next - ring.capacity();
        // The one gating stage is the minimum; the real check is wrapPoint > min.
        if (wrapPoint - 1 > Math.min(nextValue, stage.sequence()))
        {
            return Sequencer.INSUFFICIENT_CAPACITY;
        }
        nextValue = next;

        return next;
    }
}
