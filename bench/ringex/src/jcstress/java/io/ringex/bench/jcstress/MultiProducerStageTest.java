package io.ringex.bench.jcstress;

import io.ringex.engine.ring.ProducerType;
import io.ringex.engine.ring.Ring;
import io.ringex.engine.ring.Sequencer;
import io.ringex.engine.ring.Stage;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A {@link Stage} on a multi-producer ring hands its handler only published slots, in order: the producer claims
 * sequences 0 and 1 and publishes 1 before 0 (as two producers finishing in the other order would) while the stage
 * runs one duty cycle. Its cursor gate is the claim sequence, so it must scan the per-slot flags.
 * <p>
 * r1: how many slots the stage handled; r2: 1 if every handled slot was the next in order and held its payload.
 */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "slot 0 not published yet: nothing handled")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "cursor read at the first claim: slot 0 alone, with its payload")
@Outcome(id = "2, 1", expect = ACCEPTABLE, desc = "both published: both handled, with their payloads")
@Outcome(id = ".*", expect = FORBIDDEN, desc = "a claimed slot handed over before its payload, or out of order")
@State
public class MultiProducerStageTest
{
    private final Ring ring = RingStates.ring(4, ProducerType.MULTI);
    private final Sequencer sequencer = ring.sequencer();
    private long handled;
    private boolean allPublished = true;
    private final Stage stage = ring.stage("consumer", (buffer, slotOffset, sequence, endOfBatch) ->
    {
        if (sequence != handled || buffer.getLong(slotOffset + RingStates.PAYLOAD) != 10 + sequence)
        {
            allPublished = false;
        }
        handled++;
    }).build();

    @Actor
    public void producer()
    {
        // Two claims on an empty 4-slot ring never wait for the stage: the idle strategy is never called.
        final long first = sequencer.next(NoOpIdleStrategy.INSTANCE);
        final long second = sequencer.next(NoOpIdleStrategy.INSTANCE);
        RingStates.putPayload(ring, second, 11);
        sequencer.publish(second);
        RingStates.putPayload(ring, first, 10);
        sequencer.publish(first);
    }

    @Actor
    public void consumer(final JJ_Result r)
    {
        stage.doWork();
        r.r1 = handled;
        r.r2 = allPublished ? 1 : 0;
    }
}
