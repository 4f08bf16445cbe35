package io.ringex.engine.risk;

import io.ringex.protocol.FixedPoint;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Average-cost accounting: opening, reducing, flipping a position, and money conserved between the two sides.
 */
final class SettlementTest
{
    private static final int SCALE = 2;

    private static long notional(final long price, final long quantity)
    {
        return FixedPoint.notional(price, quantity, SCALE);
    }

    @Test
    void shortThenCoverThenFlipLong()
    {
        final Account a = new Account(1, (byte)1);
        final Account b = new Account(2, (byte)1);
        final Position pa = a.positionFor(7, SCALE);
        final Position pb = b.positionFor(7, SCALE);

        Settlement.settle(b, pb, a, pa, 10, notional(10_000, 10));
        assertEquals(-10, pa.position());
        assertEquals(10_000, pa.averageCost());

        Settlement.settle(a, pa, b, pb, 4, notional(9_000, 4));
        assertEquals(-6, pa.position());
        assertEquals(notional(1_000, 4), pa.realisedPnl(), "covered 4 at 10.00 better");
        assertEquals(10_000, pa.averageCost());

        Settlement.settle(a, pa, b, pb, 10, notional(9_500, 10));
        assertEquals(4, pa.position());
        assertEquals(notional(1_000, 4) + notional(500, 6), pa.realisedPnl());
        assertEquals(9_500, pa.averageCost());
        assertEquals(notional(125, 4), Settlement.unrealisedPnl(pa, 9_625));

        assertEquals(0, a.balance() + b.balance(), "cash conserved");
        assertEquals(0, pa.position() + pb.position(), "positions conserved");
        assertEquals(pa.realisedPnl() + Settlement.unrealisedPnl(pa, 9_500),
            a.balance() + notional(9_500, pa.position()), "P&L equals cash plus marked position");
    }
}
