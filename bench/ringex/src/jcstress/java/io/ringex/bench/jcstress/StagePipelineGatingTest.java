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
 * Stage-to-stage gating in a pipeline: two events are published; an upstream stage (gated on the cursor) writes a
 * mark into each slot, as the journal stage records where it wrote the command; a downstream stage gated on it runs
 * at the same time. The downstream stage never handles a slot the upstream stage has not released: it sees the mark
 * in every slot it handles and the upstream sequence at or past it.
 * <p>
 * r1: how many slots the downstream stage handled; r2: 1 if each of them carried the upstream mark while the
 * upstream sequence was at or past it.
 */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the upstream stage had released nothing yet")
@Outcome(id = "1, 1", expect = ACCEPTABLE,
    desc = "the upstream stage had released one slot (it releases its batch of two at once: not seen)")
@Outcome(id = "2, 1", expect = ACCEPTABLE, desc = "both released, both marked")
@Outcome(id = ".*", expect = FORBIDDEN, desc = "the downstream stage passed its upstream stage")
@State
public class StagePipelineGatingTest
{
    private final Ring ring = RingStates.ring(4, ProducerType.SINGLE);
    private final Stage upstream = ring.stage("upstream", (buffer, slotOffset, sequence, endOfBatch) ->
        buffer.putLong(slotOffset + RingStates.MARK_A, 100 + sequence)).build();
    private long handled;
    private boolean gated = true;
    private final Stage downstream = ring.stage("downstream", (buffer, slotOffset, sequence, endOfBatch) ->
    {
        if (buffer.getLong(slotOffset + RingStates.MARK_A) != 100 + sequence || upstream.sequence() < sequence)
        {
            gated = false;
        }
        handled++;
    }).gatedOn(upstream).build();

    public StagePipelineGatingTest()
    {
        final Sequencer sequencer = ring.sequencer();
        for (int i = 0; i < 2; i++)
        {
            final long sequence = sequencer.tryNext();
            RingStates.putPayload(ring, sequence, sequence);
            sequencer.publish(sequence);
        }
    }

    @Actor
    public void upstream()
    {
        upstream.doWork();
    }

    @Actor
    public void downstream(final JJ_Result r)
    {
        downstream.doWork();
        r.r1 = handled;
        r.r2 = gated ? 1 : 0;
    }
}
