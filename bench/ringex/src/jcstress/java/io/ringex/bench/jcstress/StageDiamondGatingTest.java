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
 * Stage-to-stage gating in a diamond, the node's shape (the business logic gated on the journal AND replication):
 * two events are published; stage A runs on one thread while stage B and then stage C (gated on A and B) run on the
 * other. C never handles a slot that either A or B has not released: it sees both marks in every slot it handles,
 * so it handles nothing while A lags, however far B is ahead.
 * <p>
 * r1: how many slots C handled; r2: 1 if each of them carried both marks while both upstream sequences were at or
 * past it.
 */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "A had released nothing yet")
@Outcome(id = "1, 1", expect = ACCEPTABLE,
    desc = "A had released one slot (it releases its batch of two at once: not seen)")
@Outcome(id = "2, 1", expect = ACCEPTABLE, desc = "A and B released both, both marked")
@Outcome(id = ".*", expect = FORBIDDEN, desc = "C passed one of its upstream stages")
@State
public class StageDiamondGatingTest
{
    private final Ring ring = RingStates.ring(4, ProducerType.SINGLE);
    private final Stage stageA = ring.stage("a", (buffer, slotOffset, sequence, endOfBatch) ->
        buffer.putLong(slotOffset + RingStates.MARK_A, 100 + sequence)).build();
    private final Stage stageB = ring.stage("b", (buffer, slotOffset, sequence, endOfBatch) ->
        buffer.putLong(slotOffset + RingStates.MARK_B, 200 + sequence)).build();
    private long handled;
    private boolean gated = true;
    private final Stage stageC = ring.stage("c", (buffer, slotOffset, sequence, endOfBatch) ->
    {
        if (buffer.getLong(slotOffset + RingStates.MARK_A) != 100 + sequence ||
            buffer.getLong(slotOffset + RingStates.MARK_B) != 200 + sequence ||
            stageA.sequence() < sequence || stageB.sequence() < sequence)
        {
            gated = false;
        }
        handled++;
    }).gatedOn(stageA, stageB).build();

    public StageDiamondGatingTest()
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
    public void stageA()
    {
        stageA.doWork();
    }

    @Actor
    public void stageBThenC(final JJ_Result r)
    {
        stageB.doWork();
        stageC.doWork();
        r.r1 = handled;
        r.r2 = gated ? 1 : 0;
    }
}
