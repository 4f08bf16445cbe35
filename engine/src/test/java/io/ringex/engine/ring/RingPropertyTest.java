package io.ringex.engine.ring;

import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.AtomicBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

/**
 * Random single-threaded interleavings of claim (try, batch), publish (out of order for multi-producer) and two
 * pipelined stages, checked against a plain reference model: claims succeed exactly when the slowest stage leaves
 * room, stages see exactly the contiguously published sequences in order and never pass their gate.
 * <p>
 * QuickTheories runs 300 sequences of 1 to 200 operations for a random producer type and shrinks a failing one.
 * A failure ends with {@code Seed was N}; {@code -DQT_SEED=N} replays that run, e.g.
 * {@code mvn -B -o test -pl engine -am -Dtest=RingPropertyTest -Dsurefire.failIfNoSpecifiedTests=false -DQT_SEED=N}.
 */
class RingPropertyTest
{
    private static final int CAPACITY = 8;

    @Test
    void shouldMatchReferenceModel()
    {
        qt().withExamples(300)
            .forAll(lists().of(integers().between(0, 400)).ofSizeBetween(1, 200),
                arbitrary().enumValues(ProducerType.class))
            .checkAssert(RingPropertyTest::shouldMatchReferenceModel);
    }

    private static void shouldMatchReferenceModel(final List<Integer> operations, final ProducerType producerType)
    {
        // Closed on failure too: a shrinking run builds thousands of rings.
        try (Ring ring = Ring.builder().name("model").producerType(producerType).capacity(CAPACITY).slotLength(64)
            .build())
        {
            check(ring, operations, producerType);
        }
    }

    private static void check(final Ring ring, final List<Integer> operations, final ProducerType producerType)
    {
        final List<Long> seenByA = new ArrayList<>();
        final List<Long> seenByB = new ArrayList<>();
        final Stage a = ring.stage("a", recorder(seenByA)).build();
        final Stage b = ring.stage("b", recorder(seenByB)).gatedOn(a).build();
        final Sequencer sequencer = ring.sequencer();

        final List<Boolean> published = new ArrayList<>();
        final List<Long> pending = new ArrayList<>();
        long modelA = -1;
        long modelB = -1;
        for (final int operation : operations)
        {
            final int kind = operation % 4;
            final int argument = operation / 4;
            if (0 == kind)
            {
                final int n = 1 + argument % 3;
                final long claimed = published.size();
                final long hi = sequencer.tryNext(n);
                if (claimed + n - 1 - modelB <= CAPACITY)
                {
                    assertEquals(claimed + n - 1, hi);
                    for (long s = claimed; s <= hi; s++)
                    {
                        ring.buffer().putLong(ring.slotOffset(s) + SlotDescriptor.PAYLOAD_OFFSET, s * 31);
                        published.add(false);
                        pending.add(s);
                    }
                }
                else
                {
                    assertEquals(Sequencer.INSUFFICIENT_CAPACITY, hi);
                }
            }
            else if (1 == kind && !pending.isEmpty())
            {
                final int index = ProducerType.MULTI == producerType ? argument % pending.size() : 0;
                final long s = pending.remove(index);
                sequencer.publish(s);
                published.set((int)s, true);
            }
            else if (2 == kind)
            {
                long visible = modelA;
                while (visible + 1 < published.size() && published.get((int)visible + 1))
                {
                    visible++;
                }
                assertEquals(visible - modelA, a.doWork());
                modelA = visible;
            }
            else if (3 == kind)
            {
                assertEquals(modelA - modelB, b.doWork());
                modelB = modelA;
            }
            assertEquals(modelA, a.sequence());
            assertEquals(modelB, b.sequence());
        }

        assertEquals(modelA + 1, seenByA.size());
        assertEquals(modelB + 1, seenByB.size());
        for (int i = 0; i < seenByA.size(); i++)
        {
            assertEquals(i * 31L, seenByA.get(i));
        }
        for (int i = 0; i < seenByB.size(); i++)
        {
            assertEquals(i * 31L, seenByB.get(i));
        }
    }

    private static SlotHandler recorder(final List<Long> seen)
    {
        return (final AtomicBuffer buffer, final int offset, final long sequence, final boolean endOfBatch) ->
            seen.add(buffer.getLong(offset + SlotDescriptor.PAYLOAD_OFFSET));
    }
}
