package io.ringex.bench.jcstress;

import io.ringex.engine.ring.ProducerType;
import io.ringex.engine.ring.Ring;
import io.ringex.engine.ring.Sequencer;
import io.ringex.engine.ring.Stage;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The multi-producer sequencer's gating on a full ring, on its waiting path: a 2-slot ring holds two published
 * events; a stage reads them while a producer claims a third with {@link Sequencer#next} (fetch-and-add first, then
 * wait for room, then refresh the shared gating cache). The third claim wraps onto the first slot, so the producer
 * may write it only after the stage has released that slot: the stage always reads the first event's payload.
 * <p>
 * r1: the payload the stage read from sequence 0; r2: the producer's claim (always 2: it waits for the stage, which
 * always runs).
 */
@JCStressTest
@Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "the stage released the slot, then the claim wrapped onto it")
@Outcome(id = "3, .*", expect = FORBIDDEN, desc = "the producer overwrote a slot the stage had not released")
@Outcome(id = ".*", expect = FORBIDDEN, desc = "a claim other than the third sequence")
@State
public class MultiProducerWrapGatingTest
{
    private final Ring ring = RingStates.ring(2, ProducerType.MULTI);
    private final Sequencer sequencer = ring.sequencer();
    private long firstPayload;
    private final Stage stage = ring.stage("consumer", (buffer, slotOffset, sequence, endOfBatch) ->
    {
        if (sequence == 0)
        {
            firstPayload = buffer.getLong(slotOffset + RingStates.PAYLOAD);
        }
    }).build();

    public MultiProducerWrapGatingTest()
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
        // Spins until the other actor's stage releases a slot; that actor runs once per state and always can.
        final long sequence = sequencer.next(new BusySpinIdleStrategy());
        RingStates.putPayload(ring, sequence, 3);
        sequencer.publish(sequence);
        r.r2 = sequence;
    }
}
