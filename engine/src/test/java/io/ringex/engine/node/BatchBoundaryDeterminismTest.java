package io.ringex.engine.node;

import java.util.Random;

import io.ringex.engine.processor.BusinessLogicProcessor;
import io.ringex.client.CommandEncoder;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The node calls the processor at points that depend on timing (ends of batches, status hashes, book snapshots):
 * none of them may change the state, or replay would not reproduce it.
 */
class BatchBoundaryDeterminismTest
{
    @Test
    void batchBoundariesHashQueriesAndBookSnapshotsDoNotChangeTheState()
    {
        final Random random = new Random(1);
        final CommandEncoder c = new CommandEncoder();
        final BusinessLogicProcessor a = new BusinessLogicProcessor(new SwitchableEventSink(4096));
        final BusinessLogicProcessor b = new BusinessLogicProcessor(new SwitchableEventSink(4096));
        final long session = io.ringex.protocol.SessionIds.sessionId(1, 7);
        long seq = 0;
        long id = 1;
        for (int i = 0; i < 3000; i++)
        {
            final int length;
            if (i == 0)
            {
                length = c.addInstrument(1, 1, "RGX", 2, 1, 1, 10_000, PriceBandType.BASIS_POINTS, 1_000);
            }
            else if (i <= 12)
            {
                final int acc = 1 + (i - 1) / 3;
                length = (i - 1) % 3 == 0 ? c.addAccount(1, acc, SelfTradePrevention.CANCEL_NEWEST) :
                    (i - 1) % 3 == 1 ? c.setLimits(1, acc, 1_000_000, 1_000_000_000_000_000L, 0, 10_000_000, 100_000,
                    true, new int[0], new long[0]) : c.adjustBalance(1, acc, 1_000_000_000_000_000L);
            }
            else if (random.nextInt(4) == 0)
            {
                length = c.cancel(session, 1 + random.nextInt(4), 100_000 + i, 1 + random.nextInt((int)id), 0, 1);
            }
            else
            {
                final boolean buy = random.nextBoolean();
                length = c.newOrder(session, 1 + random.nextInt(4), id++, 1, buy ? Side.BUY : Side.SELL,
                    OrderType.LIMIT, TimeInForce.GTC, false, SelfTradePrevention.ACCOUNT_DEFAULT,
                    9_900 + random.nextInt(200), 1 + random.nextInt(10));
            }
            seq++;
            a.onCommand(seq, 1_700_000_000_000_000_000L + seq * 1000, session, c.buffer(), 0, length);
            a.onEndOfBatch();
            b.onCommand(seq, 1_700_000_000_000_000_000L + seq * 1000, session, c.buffer(), 0, length);
            if (seq % 3 == 0)
            {
                b.stateHash();
            }
            if (seq % 50 == 0 && seq > 1)
            {
                b.publishBookSnapshot(1);
            }
            if (seq % 7 == 0)
            {
                b.onEndOfBatch();
                assertEquals(a.stateHash(), b.stateHash(), "after command " + seq);
            }
        }
    }
}
