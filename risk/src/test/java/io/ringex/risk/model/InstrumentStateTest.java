package io.ringex.risk.model;

import java.util.List;

import io.ringex.protocol.codecs.Side;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * An instrument's one-minute candles, built from its trades on the engine's clock.
 */
class InstrumentStateTest
{
    private static final long MINUTE_NS = 60_000_000_000L;

    @Test
    void tradesMakeOneCandleAMinuteWithItsOpenHighLowCloseAndVolume()
    {
        final InstrumentState instrument = new InstrumentState(1);
        instrument.priceScale = 2;
        final long start = 1_000 * MINUTE_NS;
        instrument.trade(1, 10_000, 2, Side.BUY, start + 1);
        instrument.trade(2, 10_200, 1, Side.BUY, start + 2);
        instrument.trade(3, 9_900, 4, Side.SELL, start + 3);
        instrument.trade(4, 10_100, 1, Side.BUY, start + MINUTE_NS - 1);
        instrument.trade(5, 10_050, 3, Side.SELL, start + 2 * MINUTE_NS + 5);
        instrument.trade(5, 99_999, 3, Side.SELL, start + 2 * MINUTE_NS + 6);

        assertEquals(List.of(
            new Views.CandleView(start, "100.00", "102.00", "99.00", "101.00", 8),
            new Views.CandleView(start + 2 * MINUTE_NS, "100.50", "100.50", "100.50", "100.50", 3)),
            instrument.candles(), "a minute without trades has no candle; a trade seen twice counts once");
    }

    @Test
    void theLastHourWithTradesIsKept()
    {
        final InstrumentState instrument = new InstrumentState(1);
        for (int minute = 0; minute < InstrumentState.CANDLES_KEPT + 5; minute++)
        {
            instrument.trade(minute + 1, 100 + minute, 1, Side.BUY, minute * MINUTE_NS);
        }
        final List<Views.CandleView> candles = instrument.candles();
        assertEquals(InstrumentState.CANDLES_KEPT, candles.size());
        assertEquals(5 * MINUTE_NS, candles.get(0).startNs());
        assertEquals((InstrumentState.CANDLES_KEPT + 4) * MINUTE_NS, candles.get(candles.size() - 1).startNs());
    }
}
