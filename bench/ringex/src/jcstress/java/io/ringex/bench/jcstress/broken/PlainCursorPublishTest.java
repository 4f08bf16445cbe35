package io.ringex.bench.jcstress.broken;

import io.ringex.bench.jcstress.RingStates;
import io.ringex.engine.ring.ProducerType;
import io.ringex.engine.ring.Ring;
import org.agrona.concurrent.status.AtomicCounter;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * BROKEN copy of {@code SingleProducerPublishTest}: the single-producer publish with a plain store of the cursor
 * instead of the release store, and a consumer that loads it plainly instead of with acquire. Nothing then orders the
 * payload store before the cursor store, or the payload load after the cursor load: the JIT may reorder either pair.
 * On x86 the hardware keeps stores in order and loads in order (TSO), so only a compiler reordering can show it.
 */
@JCStressTest
@Outcome(id = "-1, 0", expect = ACCEPTABLE, desc = "the consumer looked before the publish")
@Outcome(id = "0, 42", expect = ACCEPTABLE, desc = "published, and the payload with it")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "the cursor was visible before the payload")
@State
public class PlainCursorPublishTest
{
    private final Ring ring = RingStates.ring(4, ProducerType.SINGLE);
    private final AtomicCounter cursor = ring.cursorCounter();

    @Actor
    public void producer()
    {
        // The claim of sequence 0 on an empty ring, then SingleProducerSequencer.publish with setPlain for setRelease.
        RingStates.putPayload(ring, 0, 42);
        cursor.setPlain(0);
    }

    @Actor
    public void consumer(final JJ_Result r)
    {
        // SingleProducerSequencer.cursor with getPlain for getAcquire.
        final long published = cursor.getPlain();
        r.r1 = published;
        r.r2 = published >= 0 ? RingStates.payload(ring, 0) : 0;
    }
}
