package io.ringex.risk.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.function.IntUnaryOperator;

import org.junit.jupiter.api.Test;

import io.ringex.client.CommandEncoder;
import io.ringex.engine.processor.BusinessLogicProcessor;
import io.ringex.engine.processor.CapturingEventSink;
import io.ringex.engine.replay.MessageText;
import io.ringex.protocol.codecs.AccountRiskUpdateDecoder;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;

/**
 * The audit's texts, as the engine's replay tools write them from real commands and events, with money and prices
 * shown as decimals: a price at its instrument's scale (each position of an AccountRiskUpdate at its own), money at
 * 8 places, engine time in UTC, a price of an unknown instrument as it is.
 */
class AuditTextTest
{
    private final AuditText text = new AuditText();
    private final MessageText reader = new MessageText();
    private final CommandEncoder commands = new CommandEncoder().operator("ops1");
    private final IntUnaryOperator scales = (id) -> Map.of(1, 2, 3, 4).getOrDefault(id, -1);

    @Test
    void moneyAndPricesReadAsDecimals()
    {
        int length = commands.limit(1, 1003, 7, 1, Side.BUY, 4_975, 10);
        reader.wrap(commands.buffer(), 0);
        final String order = text.readable(reader.text(), scales);
        assertTrue(order.startsWith("NewOrder "), order);
        assertTrue(order.contains("|price=49.75|"), order);
        assertTrue(order.contains("quantity=10"), order);

        length = commands.adjustBalance(2, 2001, 100_000_000_000_000L, "WIRE-1", "funding");
        reader.wrap(commands.buffer(), 0);
        final String deposit = text.readable(reader.text(), scales);
        assertTrue(deposit.contains("amount=1000000.00000000"), deposit);
        assertTrue(deposit.contains("accountId=2001"), deposit);

        commands.limit(1, 1003, 8, 9, Side.BUY, 4_975, 10);
        reader.wrap(commands.buffer(), 0);
        assertTrue(text.readable(reader.text(), scales).contains("|price=4975|"), "unknown instrument: as it is");
        assertTrue(length > 0);
    }

    @Test
    void eachPositionOfARiskUpdateAtItsOwnInstrumentsScale()
    {
        final CapturingEventSink sink = new CapturingEventSink();
        final BusinessLogicProcessor engine = new BusinessLogicProcessor(sink, 64, null);
        long sequence = 0;
        engine.onCommand(++sequence, 1, 0, commands.buffer(), 0, commands.addInstrument(1, 1, "RGX-USD", 2, 1, 1,
            10_000, PriceBandType.BASIS_POINTS, 1_000));
        engine.onCommand(++sequence, 2, 0, commands.buffer(), 0, commands.addInstrument(2, 3, "EUR-USD", 4, 1, 1,
            11_650, PriceBandType.BASIS_POINTS, 1_000));
        for (long account = 1; account <= 2; account++)
        {
            engine.onCommand(++sequence, 3, 0, commands.buffer(), 0, commands.addAccount(10 + account, account,
                SelfTradePrevention.CANCEL_NEWEST));
            engine.onCommand(++sequence, 4, 0, commands.buffer(), 0, commands.setLimits(20 + account, account, 1000,
                Long.MAX_VALUE / 4, Long.MAX_VALUE / 8, 1000, 10, true, new int[0], new long[0]));
        }
        engine.onCommand(++sequence, 5, 1L << 32, commands.buffer(), 0,
            commands.limit(1L << 32, 1, 1, 1, Side.SELL, 10_050, 5));
        engine.onCommand(++sequence, 6, 1L << 32, commands.buffer(), 0,
            commands.limit(1L << 32, 2, 2, 1, Side.BUY, 10_050, 5));
        engine.onCommand(++sequence, 7, 1L << 32, commands.buffer(), 0,
            commands.limit(1L << 32, 1, 3, 3, Side.BUY, 11_640, 1));
        engine.onEndOfBatch();
        String update = null;
        for (int i = 0; i < sink.size(); i++)
        {
            if (sink.templateId(i) == AccountRiskUpdateDecoder.TEMPLATE_ID)
            {
                reader.wrap(sink.events(), sink.offset(i));
                final String t = text.readable(reader.text(), scales);
                update = t.contains("accountId=1|") ? t : update;
            }
        }
        assertTrue(update != null && update.contains("balance=") && update.contains("exposure=502.50000000"), update);
        assertTrue(update.contains("(instrumentId=1|position=-5|averageCost=100.50|"), update);
        assertTrue(update.contains("|markPrice=100.50)"), update);
        assertTrue(update.contains("(instrumentId=3|position=0|averageCost=0.0000|"), update);
        assertTrue(update.contains("|markPrice=1.1650)"), update);
        assertEquals(1, update.split("exposure=").length - 1);
        assertTrue(update.contains("timestampNs=1970-01-01T00:00:00.000000007Z"), "engine time as a UTC instant");
    }
}
