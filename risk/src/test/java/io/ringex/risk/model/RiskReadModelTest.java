package io.ringex.risk.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.ringex.protocol.codecs.AdminStatus;
import io.ringex.protocol.codecs.EngineCounter;
import io.ringex.protocol.codecs.EngineStatusDecoder;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TradingStatus;
import io.ringex.risk.aeron.EngineEventHandler;
import io.ringex.risk.synthetic.EventEncoders;

/**
 * The read model fed with real SBE-encoded events through the same handler the Aeron agent uses.
 */
class RiskReadModelTest
{
    private static final long M = 100_000_000L; // one currency unit at money scale

    private final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private final RiskReadModel model = new RiskReadModel(4, 5_000_000_000L, clock::get);
    private final List<String> responses = new ArrayList<>();
    private final EngineEventHandler handler = new EngineEventHandler(0, model,
        (requestId, templateId, status, reason, sequence) ->
            responses.add(requestId + ":" + templateId + ":" + status + ":" + reason + ":" + sequence));
    private final EventEncoders events = new EventEncoders();

    @BeforeEach
    void instruments()
    {
        feed(events.instrumentDefinition(1, "BTC-USD", 2, 50, 1, 6_425_000, TradingStatus.OPEN, 1));
        feed(events.instrumentDefinition(3, "EUR-USD", 5, 1, 1000, 108_450, TradingStatus.HALTED, 1));
    }

    private void feed(final int length)
    {
        // copy to an offset so the handler's offset arithmetic is exercised too
        final UnsafeBuffer copy = new UnsafeBuffer(new byte[length + 16]);
        copy.putBytes(16, events.buffer(), 0, length);
        handler.onFragment(copy, 16, length, null);
    }

    private static EventEncoders.Account account(
        final long id,
        final long balance,
        final long reserved,
        final long credit,
        final int openOrders,
        final int maxOpenOrders,
        final boolean killed,
        final List<EventEncoders.Position> positions)
    {
        return new EventEncoders.Account(id, 7, balance, reserved, 3 * M, -1 * M, 50_000 * M, credit, 100,
            250_000 * M, openOrders, maxOpenOrders, killed, positions);
    }

    @Test
    void accountsAreSortedWorstUtilisationFirstAndUsageIsExplained()
    {
        // credit: reserved 60k over a 10k balance = 50k of a 100k credit line: 50%
        feed(events.accountRiskUpdate(account(1, 10_000 * M, 60_000 * M, 100_000 * M, 1, 50, false, List.of())));
        // open orders 46/50: 92%
        feed(events.accountRiskUpdate(account(2, 1_000_000 * M, 0, 0, 46, 50, false, List.of())));
        // position: 30 long + 6 open buys of a 40 limit: 90%
        feed(events.accountRiskUpdate(account(3, 1_000_000 * M, 0, 0, 2, 50, true, List.of(
            new EventEncoders.Position(1, 30, 6_400_050, 2 * M, 75 * M, 6, 0, 40, 6_402_500)))));

        final List<Views.AccountSummary> rows = model.accounts(AccountSort.UTILISATION);
        assertEquals(List.of(2L, 3L, 1L), rows.stream().map(Views.AccountSummary::accountId).toList());
        assertEquals("OPEN_ORDERS", rows.get(0).utilisationOf());
        assertEquals(0.92, rows.get(0).utilisation(), 1e-9);
        assertEquals("POSITION", rows.get(1).utilisationOf());
        assertEquals(0.9, rows.get(1).positionUsage(), 1e-9);
        assertTrue(rows.get(1).killSwitch());
        assertEquals("CREDIT", rows.get(2).utilisationOf());
        assertEquals(0.5, rows.get(2).creditUsage(), 1e-9);
        assertEquals("10000.00000000", rows.get(2).balance());
        assertEquals("2.00000000", rows.get(2).totalPnl());

        assertEquals(List.of(1L, 2L, 3L),
            model.accounts(AccountSort.ACCOUNT).stream().map(Views.AccountSummary::accountId).toList());
    }

    @Test
    void positionsArePricedAtTheirInstrumentsScaleAndAPositionNamedFlatIsGone()
    {
        feed(events.accountRiskUpdate(account(9, 0, 0, 0, 0, 10, false, List.of(
            new EventEncoders.Position(1, -2, 6_400_050, 0, -5 * M, 0, 1, 40, Long.MIN_VALUE),
            new EventEncoders.Position(3, 5000, 108_455, 0, 0, 0, 0, 1_000_000, 108_460)))));
        Views.AccountDetail detail = model.account(9);
        assertEquals(2, detail.positions().size());
        final Views.PositionView btc = detail.positions().get(0);
        assertEquals("BTC-USD", btc.symbol());
        assertEquals("64000.50", btc.averageCost());
        assertNull(btc.markPrice(), "a null OptionalPrice is shown as no mark");
        assertEquals("-5.00000000", btc.unrealisedPnl());
        assertEquals("1.08455", detail.positions().get(1).averageCost());

        // an update names only what changed (docs/protocol.md, "The risk stream"): EUR-USD closed, BTC-USD kept
        feed(events.accountRiskUpdate(account(9, 0, 0, 0, 0, 10, false, List.of(
            new EventEncoders.Position(3, 0, 0, 0, 0, 0, 0, 1_000_000, 108_460)))));
        detail = model.account(9);
        assertEquals(List.of(1), detail.positions().stream().map(Views.PositionView::instrumentId).toList());
        assertFalse(detail.summary().positionsComplete(), "no AccountDefinition has listed its positions yet");
        assertNull(model.account(404));
    }

    @Test
    void tradesWithAccountsBecomeFillsAndTheTapeIgnoresTheSameTradeFromTheOtherStream()
    {
        // risk stream: with accounts
        feed(events.trade(1, 10, 77, 6_425_050, 3, Side.BUY, 5, 6, 100));
        // market-data stream: the same trade, accounts zeroed
        feed(events.trade(1, 10, 77, 6_425_050, 3, Side.BUY, 0, 0, 100));
        feed(events.trade(1, 11, 78, 6_425_100, 1, Side.SELL, 0, 0, 200));

        final Views.InstrumentDetail btc = model.instrument(1);
        assertEquals(List.of(78L, 77L), btc.tape().stream().map(Views.TradeView::tradeId).toList());
        assertEquals("64251.00", btc.summary().lastPrice());
        assertEquals(4, btc.summary().volume());

        final Views.FillView buy = model.account(5).recentFills().get(0);
        assertEquals("BUY", buy.side());
        assertTrue(buy.aggressor());
        assertEquals("64250.50", buy.price());
        final Views.FillView sell = model.account(6).recentFills().get(0);
        assertEquals("SELL", sell.side());
        assertFalse(sell.aggressor());
    }

    @Test
    void theLadderComesFromSnapshotsAndLevelUpdatesBestFirstAtMostTen()
    {
        final List<EventEncoders.Level> levels = new ArrayList<>();
        for (int i = 0; i < 12; i++)
        {
            levels.add(new EventEncoders.Level(Side.BUY, 6_400_000 - i * 50, 1 + i, 1));
            levels.add(new EventEncoders.Level(Side.SELL, 6_400_050 + i * 50, 1 + i, 1));
        }
        feed(events.bookSnapshot(1, 5, TradingStatus.HALTED, 6_400_000, levels, 1));
        feed(events.bookLevelUpdate(1, 6, Side.BUY, 6_400_000, 0, 0, 2));
        feed(events.bookLevelUpdate(1, 7, Side.SELL, 6_400_040, 9, 2, 2));
        feed(events.bestBidOffer(1, 7, 6_399_950, 2, 6_400_040, 9, 2));

        final Views.InstrumentDetail btc = model.instrument(1);
        assertEquals("HALTED", btc.summary().status());
        assertEquals(10, btc.bids().size());
        assertEquals("63999.50", btc.bids().get(0).price(), "level removed by a zero quantity");
        assertEquals("64000.40", btc.asks().get(0).price());
        assertEquals(9, btc.asks().get(0).quantity());
        assertEquals("63999.50", btc.summary().bidPrice());
        assertEquals("64000.40", btc.summary().askPrice());
        assertEquals("HALTED", model.instrument(3).summary().status());
    }

    @Test
    void aNodeThatReplicatesNothingShowsReplicationOffNotALagGrowingWithTheJournal()
    {
        final long off = EngineStatusDecoder.replicationSequenceNullValue();
        final long[] counters = new long[16];
        final long[] rejects = new long[64];
        // Replication off: the journal runs ahead while the status says there is no replication sequence.
        for (int i = 1; i <= 3; i++)
        {
            final long journal = 1_000L * i;
            feed(events.engineStatus(1, 1, NodeRole.PRIMARY, i * 1_000_000_000L, 1000,
                new long[] {journal, journal, off, journal, journal, 0}, new long[] {1, 1, 1, 1}, counters, rejects));
        }
        Views.EngineView engine = model.engine(true);
        assertFalse(engine.replicating());
        assertEquals(0, engine.replicationLag());
        assertNull(engine.sequences().get("replication"));
        assertArrayEquals(new long[] {-1, -1, -1}, engine.history().replicationLag(), "no lag charted");
        assertTrue(Double.isNaN(model.engineMetric(EngineMetric.REPLICATION_LAG)), "no lag gauge");

        // A cluster member shows what it journaled and the cluster has not yet committed.
        feed(events.engineStatus(1, 1, NodeRole.PRIMARY, 4_000_000_000L, 1000,
            new long[] {4_000, 4_000, 3_990, 4_000, 4_000, 0}, new long[] {1, 1, 1, 1}, counters, rejects));
        engine = model.engine(true);
        assertTrue(engine.replicating());
        assertEquals(10, engine.replicationLag());
        assertEquals(Long.valueOf(3_990), engine.sequences().get("replication"));
        assertEquals(10, engine.history().replicationLag()[3]);
        assertEquals(10.0, model.engineMetric(EngineMetric.REPLICATION_LAG));
    }

    @Test
    void engineStatusFeedsHealthHistoryAndCounters()
    {
        final long[] counters = new long[16];
        final long[] rejects = new long[64];
        counters[EngineCounter.COMMANDS.value()] = 1000;
        final long[] sequences = {1000, 990, 900, 980, 975, 500};
        feed(events.engineStatus(3, 1, NodeRole.PRIMARY, 1_000_000_000L, 1000, sequences,
            new long[] {10_000, 40_000, 90_000, 400_000}, counters, rejects));
        assertTrue(model.isEngineUp());

        counters[EngineCounter.COMMANDS.value()] = 3000;
        rejects[RejectReason.ACCOUNT_KILLED.value()] = 4;
        feed(events.engineStatus(3, 1, NodeRole.PRIMARY, 1_500_000_000L, 1000, sequences,
            new long[] {10_000, 40_000, 90_000, 400_000}, counters, rejects));

        final Views.EngineView engine = model.engine(true);
        assertEquals("PRIMARY", engine.role());
        assertEquals(3, engine.epoch());
        assertEquals(0.025, engine.ringOccupancy(), 1e-9, "ingress 1000 - slowest stage 975 over 1000 slots");
        assertEquals(10, engine.journalLag());
        assertEquals(90, engine.replicationLag());
        assertTrue(engine.replicating());
        assertEquals(Long.valueOf(4), engine.rejects().get("ACCOUNT_KILLED"));
        assertEquals(Long.valueOf(3000), engine.counters().get("COMMANDS"));
        assertEquals(2, engine.history().timeMs().length);
        assertEquals(4000.0, engine.history().throughput()[1], 1e-6, "2000 commands in 0.5 s");
        assertEquals(4, model.engineRejects(RejectReason.ACCOUNT_KILLED));
        assertEquals(0.00001, model.engineMetric(EngineMetric.LATENCY_P50), 1e-12);

        clock.addAndGet(6_000_000_000L);
        assertFalse(model.isEngineUp(), "no status for longer than the timeout");
        assertFalse(model.engine(false).up());
        assertNull(model.engine(false).history());
    }

    /**
     * Every reject reason the schema has is counted: reasons 64 and above (the drop-copy ones, NO_PRIMARY,
     * OUTCOME_UNKNOWN) used to be dropped from the health and to throw ArrayIndexOutOfBoundsException when asked for
     * (Prometheus showed NaN). The engine writes a reason's count with its raw value; every one is read back.
     */
    @Test
    void everyRejectReasonTheSchemaHasIsCounted()
    {
        final long[] rejects = new long[RejectReason.NULL_VAL.value() + 1];
        long total = 0;
        for (final RejectReason reason : RejectReason.values())
        {
            if (reason != RejectReason.NULL_VAL)
            {
                rejects[reason.value()] = 1000 + reason.value();
                total += rejects[reason.value()];
            }
        }
        feed(events.engineStatus(1, 1, NodeRole.PRIMARY, 1_000_000_000L, 1000, new long[] {10, 10, 10, 10, 10, 0},
            new long[] {1, 1, 1, 1}, new long[16], rejects));

        final Views.EngineView engine = model.engine(true);
        for (final RejectReason reason : RejectReason.values())
        {
            if (reason != RejectReason.NULL_VAL)
            {
                assertEquals(1000 + reason.value(), model.engineRejects(reason), reason.name());
                assertEquals(Long.valueOf(1000 + reason.value()), engine.rejects().get(reason.name()), reason.name());
            }
        }
        assertEquals(total, engine.history().rejects()[0], "the chart's total counts them all");
    }

    @Test
    void throughputIsAveragedOverAWindowSoBurstsAtAnotherPeriodDoNotDrawABand()
    {
        final RiskReadModel long20 = new RiskReadModel(20, 5_000_000_000L, clock::get);
        final EngineEventHandler h = new EngineEventHandler(0, long20, (a, b, c, d, e) -> { });
        final long[] counters = new long[16];
        // a flow of 21-command bursts every 0.4 s: a one-second window holds two or three of them (42 or 63)
        for (int second = 0; second <= 12; second++)
        {
            counters[EngineCounter.COMMANDS.value()] = 21L * (second * 10 / 4);
            final int length = events.engineStatus(1, 1, NodeRole.PRIMARY, 1_000_000_000L * (second + 1), 1000,
                new long[6], new long[4], counters, new long[64]);
            final UnsafeBuffer copy = new UnsafeBuffer(new byte[length]);
            copy.putBytes(0, events.buffer(), 0, length);
            h.onFragment(copy, 0, length, null);
        }
        final double[] throughput = long20.engine(true).history().throughput();
        for (int k = 6; k < throughput.length; k++)
        {
            assertEquals(52.5, throughput[k], 4.5, "sample " + k + ": the rate over 5 s, " +
                java.util.Arrays.toString(throughput));
        }
    }

    @Test
    void theHistoryKeepsTheNewestSamples()
    {
        for (int i = 1; i <= 6; i++)
        {
            feed(events.engineStatus(1, 1, NodeRole.STANDBY, i * 1_000_000_000L, 8, new long[6], new long[4],
                new long[16], new long[64]));
        }
        assertEquals(List.of(3000L, 4000L, 5000L, 6000L),
            java.util.Arrays.stream(model.engine(true).history().timeMs()).boxed().toList());
    }

    @Test
    void adminResponsesGoToTheListenerAndMalformedMessagesAreSkipped()
    {
        feed(events.adminResponse(42, 35, AdminStatus.REJECTED, RejectReason.UNKNOWN_ACCOUNT, 9, 1));
        assertEquals(List.of("42:35:REJECTED:UNKNOWN_ACCOUNT:9"), responses);

        final long before = model.changeCount();
        handler.onFragment(new UnsafeBuffer(new byte[4]), 0, 4, null);
        assertEquals(1, handler.malformedCount());
        assertEquals(before, model.changeCount());
    }
}
