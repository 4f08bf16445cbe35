package io.ringex.bench.jcstress;

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
 * The single-producer sequencer's gating on a full ring: a 2-slot ring holds two published events; a stage reads
 * them while the producer tries to claim a third with {@link Sequencer#tryNext}, which wraps onto the first slot. The
 * claim must not succeed before the stage has finished with that slot, so the stage always reads the first event's
 * payload, never the third's.
 * <p>
 * r1: the payload the stage read from sequence 0; r2: the producer's claim (2, or
 * {@link Sequencer#INSUFFICIENT_CAPACITY} when the ring was still full).
 */
@JCStressTest
@Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "the stage finished first, then the claim wrapped")
@Outcome(id = "1, -2", expect = ACCEPTABLE, desc = "the ring was still full: the claim failed")
@Outcome(id = "3, .*", expect = FORBIDDEN, desc = "the producer overwrote a slot the stage had not released")
@Outcome(id = ".*", expect = FORBIDDEN, desc = "a claim other than the third sequence or a refusal")
@State
public class SingleProducerWrapGatingTest
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

    public SingleProducerWrapGatingTest()
    {
        for (int i = 0; i < 2; i++)
        {
            final long sequence = sequencer.tryNext();
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
        final long sequence = sequencer.tryNext();
        if (sequence >= 0)
        {
            RingStates.putPayload(ring, sequence, 3);
            sequencer.publish(sequence);
        }
        r.r2 = sequence;
    }
}
