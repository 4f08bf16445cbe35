package io.ringex.risk.model;

import io.ringex.client.CommandEncoder;
import io.ringex.client.QuoteEntries;
import io.ringex.engine.processor.BusinessLogicProcessor;
import io.ringex.engine.processor.CapturingEventSink;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.risk.aeron.EngineEventHandler;
import io.ringex.risk.synthetic.EventEncoders;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The risk service's market-maker protection per account, read from what the engine's business-logic processor
 * really writes (every event it emits handed to the handler the Aeron agent uses): the operator's limits, a breach
 * that freezes the group, the maker's reset, and the operator removing the group.
 */
class MarketMakerProtectionStreamTest
{
    private static final long MAKER = 1;
    private static final long TAKER = 2;
    private static final long MAKER_SESSION = (1L << 32) | 7;
    private static final long TAKER_SESSION = (1L << 32) | 8;
    private static final long MS = 1_000_000L;

    private final AtomicLong clock = new AtomicLong(5_000_000_000L);
    private final RiskReadModel model = new RiskReadModel(List.of("streams"), 4, 1_000_000_000L, clock::get);
    private final EngineEventHandler handler = new EngineEventHandler(0, model, (a, b, c, d, e) -> { });
    private final CapturingEventSink sink = new CapturingEventSink();
    private final BusinessLogicProcessor processor = new BusinessLogicProcessor(sink, 1024, null);
    private final CommandEncoder commands = new CommandEncoder();
    private long sequence;
    private long timeNs = 1_000_000_000L;

    private void send(final int length)
    {
        final int before = sink.size();
        processor.onCommand(++sequence, timeNs += MS, 1, commands.buffer(), 0, length);
        processor.onEndOfBatch();
        for (int i = before; i < sink.size(); i++)
        {
            handler.onFragment(new UnsafeBuffer(sink.events(), sink.offset(i), sink.length(i)), 0, sink.length(i),
                null);
        }
    }

    @Test
    void theDashboardSeesLimitsBreachFreezeResetAndRemoval()
    {
        final EventEncoders status = new EventEncoders();
        final int statusLength = status.engineStatus(0, 1, NodeRole.PRIMARY, clock.get(), 1024,
            new long[]{ 1, 1, 1, 1, 1, 0 }, new long[]{ 1, 2, 3, 4 }, new long[16], new long[64]);
        handler.onFragment(new UnsafeBuffer(status.buffer(), 0, statusLength), 0, statusLength, null);

        send(commands.addInstrument(1, 1, "ACME", 2, 5, 10, 10_000, PriceBandType.TICKS, 1000));
        for (long account = MAKER; account <= TAKER; account++)
        {
            send(commands.addAccount(10 + account, account, SelfTradePrevention.CANCEL_NEWEST));
            send(commands.setLimits(20 + account, account, 1_000_000L, Long.MAX_VALUE / 4, Long.MAX_VALUE / 8,
                1_000_000L, 10_000, true, new int[0], new long[0]));
            send(commands.adjustBalance(30 + account, account, 1_000_000_00000000L));
        }
        send(commands.setMarketMakerProtection(40, MAKER, 3, 10_000 * MS, 0, 0, 2, 0, false, new int[]{ 1 },
            "desk limits"));

        final List<MarketMakerProtections.Group> configured = model.protections().of(MAKER);
        assertEquals(1, configured.size());
        final MarketMakerProtections.Group group = configured.get(0);
        assertEquals("CONFIGURED", group.lastEvent());
        assertEquals(List.of(1), group.instruments());
        assertEquals(2, group.fillLimit());
        assertEquals(10_000 * MS, group.intervalNs());
        assertFalse(group.frozen());

        send(commands.massQuote(MAKER_SESSION, MAKER, "q1", SelfTradePrevention.ACCOUNT_DEFAULT,
            new QuoteEntries().add(1, 1, 1, 9_900, 50, 10_100, 50)));
        send(commands.limit(TAKER_SESSION, TAKER, 1, 1, Side.SELL, 9_900, 10));
        assertEquals(0, model.protections().of(MAKER).get(0).fills(), "no event before the breach");
        send(commands.limit(TAKER_SESSION, TAKER, 2, 1, Side.SELL, 9_900, 10));

        final MarketMakerProtections.Group breached = model.protections().of(MAKER).get(0);
        assertEquals("BREACHED", breached.lastEvent());
        assertEquals("FILLS", breached.limitReached());
        assertEquals(2, breached.fills());
        assertEquals(20, breached.quantityTraded());
        assertTrue(breached.frozen());
        assertEquals(0, breached.frozenUntilNs(), "frozen until the maker resets");
        assertEquals(2, breached.quotesCanceled());
        assertEquals(model.protections().all(), model.protections().of(MAKER));

        send(commands.resetMarketMakerProtection(MAKER_SESSION, MAKER, 3));
        final MarketMakerProtections.Group reset = model.protections().of(MAKER).get(0);
        assertEquals("RESET", reset.lastEvent());
        assertFalse(reset.frozen());
        assertEquals(0, reset.fills());

        send(commands.setMarketMakerProtection(41, MAKER, 3, 0, 0, 0, 0, 0, false, new int[0], "desk off"));
        assertTrue(model.protections().of(MAKER).isEmpty());
        assertTrue(model.protections().all().isEmpty());
    }
}
