package io.ringex.engine.node;

import java.util.Random;

import io.ringex.engine.processor.BusinessLogicProcessor;
import io.ringex.client.CommandEncoder;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import org.agrona.ExpandableArrayBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Snapshots of processors that were themselves restored from snapshots keep step with a processor that never was:
 * the engine recovers through chains of them after repeated crashes.
 */
class ChainedSnapshotTest
{
    @Test
    void restoringASnapshotOfARestoredProcessorKeepsStepWithTheOriginal()
    {
        final Random random = new Random(1);
        final CommandEncoder c = new CommandEncoder();
        final BusinessLogicProcessor a = new BusinessLogicProcessor(new SwitchableEventSink(4096));
        long seq = 0;
        final long session = io.ringex.protocol.SessionIds.sessionId(1, 7);
        apply(a, ++seq, c, c.addInstrument(1, 1, "RGX", 2, 1, 1, 10_000, PriceBandType.BASIS_POINTS, 1_000));
        for (int acc = 1; acc <= 4; acc++)
        {
            apply(a, ++seq, c, c.addAccount(1, acc, SelfTradePrevention.CANCEL_NEWEST));
            apply(a, ++seq, c, c.setLimits(1, acc, 1_000_000, 1_000_000_000_000_000L, 0, 10_000_000, 100_000, true,
                new int[0], new long[0]));
            apply(a, ++seq, c, c.adjustBalance(1, acc, 1_000_000_000_000_000L));
        }
        long id = 1;
        for (int i = 0; i < 300; i++)
        {
            final boolean buy = random.nextBoolean();
            apply(a, ++seq, c, c.newOrder(session, 1 + random.nextInt(4), id++, 1, buy ? Side.BUY : Side.SELL,
                OrderType.LIMIT, TimeInForce.GTC, false, SelfTradePrevention.ACCOUNT_DEFAULT,
                buy ? 9_000 + random.nextInt(500) : 10_500 + random.nextInt(500), 1 + random.nextInt(10)));
        }
        for (long o = 1; o < 150; o++)
        {
            for (int acc = 1; acc <= 4; acc++)
            {
                apply(a, ++seq, c, c.cancel(session, acc, 5000 + o, o, 0, 1));
            }
        }
        BusinessLogicProcessor b = a;
        long cancelId = 100_000;
        for (int hop = 0; hop < 4; hop++)
        {
            final ExpandableArrayBuffer snap = new ExpandableArrayBuffer();
            final int len = b.writeSnapshot(snap, 0);
            final BusinessLogicProcessor restored = new BusinessLogicProcessor(new SwitchableEventSink(4096));
            restored.restore(snap, 0, len);
            assertEquals(a.stateHash(), restored.stateHash(), "right after restore, hop " + hop);
            b = restored;
            for (int i = 0; i < 300; i++)
            {
                final int length;
                if (random.nextInt(3) == 0)
                {
                    final long target = 1 + random.nextInt((int)id);
                    length = c.cancel(session, 1 + random.nextInt(4), cancelId++, target, 0, 1);
                }
                else
                {
                    final boolean buy = random.nextBoolean();
                    length = c.newOrder(session, 1 + random.nextInt(4), id++, 1, buy ? Side.BUY : Side.SELL,
                        OrderType.LIMIT, TimeInForce.GTC, false, SelfTradePrevention.ACCOUNT_DEFAULT,
                        buy ? 9_000 + random.nextInt(500) : 10_500 + random.nextInt(500), 1 + random.nextInt(10));
                }
                ++seq;
                apply(a, seq, c, length);
                if (b != a)
                {
                    apply(b, seq, c, length);
                }
                assertEquals(a.stateHash(), b.stateHash(), "hop " + hop + " after command " + i);
            }
        }
    }

    private static void apply(final BusinessLogicProcessor p, final long seq, final CommandEncoder c, final int len)
    {
        p.onCommand(seq, seq * 1000, io.ringex.protocol.SessionIds.sessionId(1, 7), c.buffer(), 0, len);
        p.onEndOfBatch();
    }
}
