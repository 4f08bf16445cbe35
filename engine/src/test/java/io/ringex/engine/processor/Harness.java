package io.ringex.engine.processor;

import io.ringex.client.CommandEncoder;
import io.ringex.protocol.codecs.AccountRiskUpdateDecoder;
import io.ringex.protocol.codecs.AdminResponseDecoder;
import io.ringex.protocol.codecs.AdminStatus;
import io.ringex.protocol.codecs.AuctionIndicativeDecoder;
import io.ringex.protocol.codecs.BestBidOfferDecoder;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.BookLevelUpdateDecoder;
import io.ringex.protocol.codecs.BookSnapshotDecoder;
import io.ringex.protocol.codecs.BusinessRejectDecoder;
import io.ringex.protocol.codecs.CancelAllAfterReportDecoder;
import io.ringex.protocol.codecs.CancelAllAfterStatus;
import io.ringex.protocol.codecs.MarketMakerProtectionEventDecoder;
import io.ringex.protocol.codecs.MassQuoteAckDecoder;
import io.ringex.protocol.codecs.MmpEventType;
import io.ringex.protocol.codecs.MmpLimit;
import io.ringex.protocol.codecs.QuoteCancelReportDecoder;
import io.ringex.protocol.codecs.QuoteEntryStatus;
import io.ringex.protocol.codecs.QuoteStatus;
import io.ringex.protocol.codecs.CancelReason;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.InstrumentDefinitionDecoder;
import io.ringex.protocol.codecs.LogonsUnlockedDecoder;
import io.ringex.protocol.codecs.UserDefinitionDecoder;
import io.ringex.protocol.codecs.UserDirectoryEndDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.OrderStatus;
import io.ringex.protocol.codecs.OrderStatusReportDecoder;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import io.ringex.protocol.codecs.TradeDecoder;
import io.ringex.protocol.codecs.TradingStatus;

import java.util.ArrayList;
import java.util.List;

/**
 * Drives a processor with encoded commands and decodes what it emits into records, for readable tests.
 */
final class Harness
{
    static final long SESSION = (1L << 32) | 7;
    static final long ADMIN_SOURCE = 1;
    static final int INSTRUMENT = 1;
    static final long BIG = 1_000_000_000_000L;

    final CapturingEventSink sink;
    final BusinessLogicProcessor processor;
    final CommandEncoder encoder = new CommandEncoder();
    long sequence;
    long time = 1_000_000_000L;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();

    Harness()
    {
        this(new CapturingEventSink());
    }

    Harness(final CapturingEventSink sink)
    {
        this.sink = sink;
        this.processor = new BusinessLogicProcessor(sink, 1024, null);
    }

    /** Instrument 1: scale 2, tick 5, lot 10, reference 100.00, band 1000 ticks; accounts 1..3 with big limits. */
    static Harness standard()
    {
        final Harness h = new Harness();
        h.send(h.encoder.addInstrument(1, INSTRUMENT, "ACME", 2, 5, 10, 10_000, PriceBandType.TICKS, 1000));
        for (long account = 1; account <= 3; account++)
        {
            h.account(account, SelfTradePrevention.CANCEL_NEWEST);
        }
        h.processor.onEndOfBatch();
        h.sink.clear();
        return h;
    }

    void account(final long account, final SelfTradePrevention stp)
    {
        send(encoder.addAccount(100 + account, account, stp));
        send(encoder.setLimits(200 + account, account, BIG, Long.MAX_VALUE / 4, Long.MAX_VALUE / 8, BIG, 10_000,
            true, new int[0], new long[0]));
        send(encoder.adjustBalance(300 + account, account, 1_000_000_00000000L));
    }

    /**
     * Process one command at a given time (the clock moves to it; it must not go back).
     *
     * @param timeNs the command's timestamp.
     * @param length the command's length in the encoder's buffer.
     * @return the events it produced.
     */
    List<Object> sendAt(final long timeNs, final int length)
    {
        time = timeNs - 1;
        return send(length);
    }

    /** Process one command (the encoder's buffer) and return the events it produced. */
    List<Object> send(final int length)
    {
        final int before = sink.size();
        processor.onCommand(++sequence, ++time, ADMIN_SOURCE, encoder.buffer(), 0, length);
        return decode(before, sink.size());
    }

    List<Object> endBatch()
    {
        final int before = sink.size();
        processor.onEndOfBatch();
        return decode(before, sink.size());
    }

    List<Object> decode(final int from, final int to)
    {
        final List<Object> out = new ArrayList<>();
        for (int i = from; i < to; i++)
        {
            out.add(decode(sink.offset(i)));
        }
        return out;
    }

    Object decode(final int offset)
    {
        header.wrap(sink.events(), offset);
        final int o = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        final int bl = header.blockLength();
        final int v = header.version();
        switch (header.templateId())
        {
            case ExecutionReportDecoder.TEMPLATE_ID:
            {
                final ExecutionReportDecoder d = new ExecutionReportDecoder().wrap(sink.events(), o, bl, v);
                return new Er(d.epoch(), d.sessionId(), d.accountId(), d.orderId(), d.clientOrderId(),
                    d.origClientOrderId(), d.execType(), d.orderStatus(), d.side(), d.price(), d.quantity(),
                    d.leavesQuantity(), d.cumulativeQuantity(), d.lastPrice(), d.lastQuantity(), d.averagePrice(),
                    d.tradeId(), d.rejectReason(), d.cancelReason(), d.transactTimeNs(), d.commandSequence(),
                    d.orderType(), d.timeInForce(), d.stopPrice(), d.displayQuantity());
            }
            case CancelRejectDecoder.TEMPLATE_ID:
            {
                final CancelRejectDecoder d = new CancelRejectDecoder().wrap(sink.events(), o, bl, v);
                return new CxlRej(d.orderId(), d.responseTo().name(), d.rejectReason());
            }
            case BookLevelUpdateDecoder.TEMPLATE_ID:
            {
                final BookLevelUpdateDecoder d = new BookLevelUpdateDecoder().wrap(sink.events(), o, bl, v);
                return new Level(d.mdSequence(), d.side(), d.price(), d.quantity(), d.orderCount());
            }
            case TradeDecoder.TEMPLATE_ID:
            {
                final TradeDecoder d = new TradeDecoder().wrap(sink.events(), o, bl, v);
                return new TradeEv(d.tradeId(), d.price(), d.quantity(), d.aggressorSide(), d.buyOrderId(),
                    d.sellOrderId(), d.buyAccountId(), d.sellAccountId(), d.auction() == BooleanType.TRUE);
            }
            case BestBidOfferDecoder.TEMPLATE_ID:
            {
                final BestBidOfferDecoder d = new BestBidOfferDecoder().wrap(sink.events(), o, bl, v);
                return new Bbo(d.bidPrice(), d.bidQuantity(), d.askPrice(), d.askQuantity());
            }
            case AdminResponseDecoder.TEMPLATE_ID:
            {
                final AdminResponseDecoder d = new AdminResponseDecoder().wrap(sink.events(), o, bl, v);
                return new Admin(d.requestId(), d.status(), d.rejectReason());
            }
            case InstrumentDefinitionDecoder.TEMPLATE_ID:
            {
                final InstrumentDefinitionDecoder d = new InstrumentDefinitionDecoder().wrap(sink.events(), o, bl, v);
                return new Definition(d.instrumentId(), d.status());
            }
            case AccountRiskUpdateDecoder.TEMPLATE_ID:
            {
                final AccountRiskUpdateDecoder d = new AccountRiskUpdateDecoder().wrap(sink.events(), o, bl, v);
                final Risk r = new Risk(d.accountId(), d.balance(), d.reserved(), d.realisedPnl(),
                    d.unrealisedPnl(), d.exposure(), d.openOrders(), d.killSwitch().value() == 1, new ArrayList<>());
                for (final AccountRiskUpdateDecoder.PositionsDecoder p : d.positions())
                {
                    r.positions().add(new Pos(p.instrumentId(), p.position(), p.averageCost(), p.realisedPnl(),
                        p.unrealisedPnl(), p.openBuyQuantity(), p.openSellQuantity()));
                }
                return r;
            }
            case BookSnapshotDecoder.TEMPLATE_ID:
            {
                final BookSnapshotDecoder d = new BookSnapshotDecoder().wrap(sink.events(), o, bl, v);
                final List<Level> levels = new ArrayList<>();
                final long md = d.mdSequence();
                for (final BookSnapshotDecoder.LevelsDecoder l : d.levels())
                {
                    levels.add(new Level(md, l.side(), l.price(), l.quantity(), l.orderCount()));
                }
                return new Snapshot(md, levels);
            }
            case AuctionIndicativeDecoder.TEMPLATE_ID:
            {
                final AuctionIndicativeDecoder d = new AuctionIndicativeDecoder().wrap(sink.events(), o, bl, v);
                return new Indicative(d.mdSequence(), d.status(),
                    d.price() == AuctionIndicativeDecoder.priceNullValue() ? 0 : d.price(), d.matchedQuantity(),
                    d.imbalanceQuantity(), d.auctionEndNs());
            }
            case BusinessRejectDecoder.TEMPLATE_ID:
            {
                final BusinessRejectDecoder d = new BusinessRejectDecoder().wrap(sink.events(), o, bl, v);
                return new BizRej(d.refTemplateId(), d.rejectReason(), d.text());
            }
            case UserDefinitionDecoder.TEMPLATE_ID:
            {
                final UserDefinitionDecoder d = new UserDefinitionDecoder().wrap(sink.events(), o, bl, v);
                final int gatewayId = d.gatewayId();
                final long requestId = d.requestId();
                final boolean enabled = d.enabled() == io.ringex.protocol.codecs.BooleanType.TRUE;
                final io.ringex.protocol.codecs.UserRole role = d.role();
                final List<Long> accounts = new ArrayList<>();
                for (final UserDefinitionDecoder.AccountsDecoder a : d.accounts())
                {
                    accounts.add(a.accountId());
                }
                return new UserDef(gatewayId, requestId, d.username(), enabled, accounts, d.fixSenderCompId(),
                    d.credentialHash(), role);
            }
            case UserDirectoryEndDecoder.TEMPLATE_ID:
            {
                final UserDirectoryEndDecoder d = new UserDirectoryEndDecoder().wrap(sink.events(), o, bl, v);
                return new DirectoryEnd(d.gatewayId(), d.requestId(), d.userCount());
            }
            case OrderStatusReportDecoder.TEMPLATE_ID:
            {
                final OrderStatusReportDecoder d = new OrderStatusReportDecoder().wrap(sink.events(), o, bl, v);
                return new StatusRep(d.sessionId(), d.statusRequestId(),
                    d.massStatus() == io.ringex.protocol.codecs.BooleanType.TRUE, d.reportNumber(), d.totalReports(),
                    d.rejectReason(), d.accountId(), d.instrumentId(), d.orderId(), d.clientOrderId(), d.orderStatus(),
                    d.side(), d.price(), d.quantity(), d.leavesQuantity(), d.cumulativeQuantity(), d.averagePrice(),
                    d.commandSequence());
            }
            case LogonsUnlockedDecoder.TEMPLATE_ID:
            {
                final LogonsUnlockedDecoder d = new LogonsUnlockedDecoder().wrap(sink.events(), o, bl, v);
                return new Unlocked(d.commandSequence(), d.username(), d.address());
            }
            case MassQuoteAckDecoder.TEMPLATE_ID:
            {
                final MassQuoteAckDecoder d = new MassQuoteAckDecoder().wrap(sink.events(), o, bl, v);
                final QuoteAck ack = new QuoteAck(d.sessionId(), d.accountId(), d.quoteId(), d.quoteStatus(),
                    d.rejectReason(), d.commandSequence(), new ArrayList<>());
                for (final MassQuoteAckDecoder.EntriesDecoder e : d.entries())
                {
                    ack.entries().add(new QuoteAckEntry(e.quoteEntryId(), e.quoteSetId(), e.instrumentId(),
                        e.entryStatus(), e.rejectReason(), e.bidOrderId(), e.offerOrderId()));
                }
                return ack;
            }
            case QuoteCancelReportDecoder.TEMPLATE_ID:
            {
                final QuoteCancelReportDecoder d = new QuoteCancelReportDecoder().wrap(sink.events(), o, bl, v);
                return new QuoteCancelRep(d.sessionId(), d.accountId(), d.quoteId(), d.scopeRaw(), d.rejectReason(),
                    d.sidesCanceled());
            }
            case MarketMakerProtectionEventDecoder.TEMPLATE_ID:
            {
                final MarketMakerProtectionEventDecoder d =
                    new MarketMakerProtectionEventDecoder().wrap(sink.events(), o, bl, v);
                final Mmp mmp = new Mmp(d.sessionId(), d.accountId(), d.mmpGroupId(), d.eventType(), d.limitReached(),
                    d.quantityTraded(), d.notionalTraded(), d.fills(), d.frozen() == BooleanType.TRUE,
                    d.frozenUntilNs(), d.quotesCanceled(), d.ordersCanceled(), d.transactTimeNs(), new ArrayList<>());
                for (final MarketMakerProtectionEventDecoder.InstrumentsDecoder i : d.instruments())
                {
                    mmp.instruments().add(i.instrumentId());
                }
                return mmp;
            }
            case CancelAllAfterReportDecoder.TEMPLATE_ID:
            {
                final CancelAllAfterReportDecoder d = new CancelAllAfterReportDecoder().wrap(sink.events(), o, bl, v);
                return new Caa(d.sessionId(), d.status(), d.rejectReason(), d.timeoutMs(), d.deadlineNs(),
                    d.ordersCanceled(), d.transactTimeNs());
            }
            default:
                return "template " + header.templateId();
        }
    }

    static <T> List<T> only(final List<Object> events, final Class<T> type)
    {
        final List<T> out = new ArrayList<>();
        for (final Object e : events)
        {
            if (type.isInstance(e))
            {
                out.add(type.cast(e));
            }
        }
        return out;
    }

    record Er(long epoch, long sessionId, long accountId, long orderId, String clientOrderId,
        String origClientOrderId, ExecType execType, OrderStatus status, Side side, long price, long quantity,
        long leaves, long cumulative, long lastPrice, long lastQuantity, long averagePrice, long tradeId,
        RejectReason rejectReason, CancelReason cancelReason, long transactTimeNs, long commandSequence,
        OrderType orderType, TimeInForce timeInForce, long stopPrice, long displayQuantity)
    {
    }

    record StatusRep(long sessionId, String statusRequestId, boolean mass, int reportNumber, int totalReports,
        RejectReason reason, long accountId, int instrumentId, long orderId, String clientOrderId, OrderStatus status,
        Side side, long price, long quantity, long leaves, long cumulative, long averagePrice, long commandSequence)
    {
    }

    record CxlRej(long orderId, String responseTo, RejectReason reason)
    {
    }

    record Level(long mdSequence, Side side, long price, long quantity, int orderCount)
    {
    }

    record TradeEv(long tradeId, long price, long quantity, Side aggressor, long buyOrderId, long sellOrderId,
        long buyAccountId, long sellAccountId, boolean auction)
    {
    }

    record Bbo(long bidPrice, long bidQuantity, long askPrice, long askQuantity)
    {
    }

    record Admin(long requestId, AdminStatus status, RejectReason reason)
    {
    }

    record Definition(int instrumentId, TradingStatus status)
    {
    }

    record Indicative(long mdSequence, TradingStatus status, long price, long matched, long imbalance, long endNs)
    {
        Indicative withMdSequence(final long sequence)
        {
            return new Indicative(sequence, status, price, matched, imbalance, endNs);
        }
    }

    record Risk(long accountId, long balance, long reserved, long realisedPnl, long unrealisedPnl, long exposure,
        int openOrders, boolean killed, List<Pos> positions)
    {
    }

    record Pos(int instrumentId, long position, long averageCost, long realisedPnl, long unrealisedPnl,
        long openBuy, long openSell)
    {
    }

    record Snapshot(long mdSequence, List<Level> levels)
    {
    }

    record Unlocked(long commandSequence, String username, String address)
    {
    }

    record UserDef(int gatewayId, long requestId, String username, boolean enabled, List<Long> accounts,
        String fixSenderCompId, String credentialHash, io.ringex.protocol.codecs.UserRole role)
    {
    }

    record DirectoryEnd(int gatewayId, long requestId, int userCount)
    {
    }

    record BizRej(int refTemplateId, RejectReason reason, String text)
    {
    }

    record QuoteAck(long sessionId, long accountId, String quoteId, QuoteStatus status, RejectReason reason,
        long commandSequence, List<QuoteAckEntry> entries)
    {
    }

    record QuoteAckEntry(long quoteEntryId, int quoteSetId, int instrumentId, QuoteEntryStatus status,
        RejectReason reason, long bidOrderId, long offerOrderId)
    {
    }

    record QuoteCancelRep(long sessionId, long accountId, String quoteId, short scope, RejectReason reason,
        int sidesCanceled)
    {
    }

    record Mmp(long sessionId, long accountId, int groupId, MmpEventType type, MmpLimit limit, long quantity,
        long notional, int fills, boolean frozen, long frozenUntilNs, int quotesCanceled, int ordersCanceled,
        long transactTimeNs, List<Integer> instruments)
    {
    }

    record Caa(long sessionId, CancelAllAfterStatus status, RejectReason reason, long timeoutMs, long deadlineNs,
        int ordersCanceled, long transactTimeNs)
    {
    }
}
