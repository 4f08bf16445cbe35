package io.ringex.engine.replay;

import io.ringex.engine.book.OrderBook;
import io.ringex.engine.processor.EngineState;
import io.ringex.engine.risk.Account;
import io.ringex.engine.risk.Position;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.TradeBustedDecoder;
import io.ringex.protocol.codecs.TradeDecoder;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Post-trade files from the journal: the trade file (every trade of a day or a sequence range, both sides) and the
 * account statements (opening and closing balance, cash from trades, other adjustments, fees, positions and P&amp;L,
 * every fill). Both are a function of the journal and the range only (no clock, no host, ordered by trade id and
 * account id), so regenerating them gives the same bytes.
 * <p>
 * The venue charges no fees today: the fee column is there, and zero, so a file reader need not change when it does.
 * <p>
 * Threading: the caller's, which owns the replayer.
 */
public final class PostTrade
{
    /** One trade, both sides, or the bust of one (a BustTrade that reversed it: {@code bust}, with its reason). */
    public record TradeRow(long tradeId, long sequence, long timestampNs, int instrumentId, long price, long quantity,
        boolean aggressorBuy, long buyOrderId, long sellOrderId, long buyAccountId, long sellAccountId,
        String buyClientOrderId, String sellClientOrderId, boolean bust, String operator, String reason)
    {
    }

    /** What an account's position and cash were at one point. */
    record AccountImage(long balance, Map<Integer, long[]> positions)
    {
        static final int POSITION = 0;
        static final int REALISED = 1;
        static final int AVERAGE_COST = 2;
        static final int UNREALISED = 3;
        static final int MARK = 4;
    }

    /** A replayed period. */
    public record Period(long fromSequence, long toSequence, long fromNs, long toNs, List<TradeRow> trades,
        Map<Long, AccountImage> opening, Map<Long, AccountImage> closing, Map<Integer, String> symbols,
        Map<Integer, Integer> scales)
    {
    }

    private PostTrade()
    {
    }

    /**
     * Replay the journal up to the period's end, recording the accounts as they were just before it and at its end,
     * and every trade in it.
     *
     * @param replayer a replayer not yet started.
     * @param from     first command of the period (a sequence, or a time: the first command at or after it).
     * @param to       last command (a sequence, or a time: the last command at or before it).
     * @return the period.
     * @throws ReplayException if the range is empty or lies outside the journal.
     */
    static Period collect(final Replayer replayer, final ReplayCli.Point from, final ReplayCli.Point to)
    {
        final var ends = replayer.ends();
        final long fromSequence;
        final long fromNs;
        final long toSequence;
        final long toNs;
        if (from.isTime())
        {
            fromNs = from.timestampNs();
            fromSequence = 1;
        }
        else
        {
            fromSequence = replayer.checkSequence(from.sequence());
            fromNs = Long.MIN_VALUE;
        }
        if (to.isTime())
        {
            toNs = to.timestampNs();
            toSequence = Long.MAX_VALUE;
        }
        else
        {
            toSequence = replayer.checkSequence(to.sequence());
            toNs = Long.MAX_VALUE;
        }
        if ((from.isTime() && fromNs > ends.lastTimestampNs()) || (to.isTime() && toNs < ends.firstTimestampNs()))
        {
            throw new ReplayException("no command of the journal lies in the period: it holds " +
                Instant.ofEpochSecond(0, ends.firstTimestampNs()) + " .. " +
                Instant.ofEpochSecond(0, ends.lastTimestampNs()));
        }
        if (!from.isTime() && !to.isTime() && toSequence < fromSequence)
        {
            throw new ReplayException("the period ends (" + toSequence + ") before it starts (" + fromSequence + ")");
        }

        // opening: the state after the last command before the period
        final long openingSequence = from.isTime() ? Long.MAX_VALUE : fromSequence - 1;
        final long openingNs = from.isTime() ? fromNs - 1 : Long.MAX_VALUE;
        replayer.startAtOrBefore(openingSequence, openingNs);
        replayer.replay(openingSequence, openingNs, null);
        final Map<Long, AccountImage> opening = images(replayer.processor().state());

        final List<TradeRow> trades = new ArrayList<>();
        final long[] first = { 0, 0 };
        final TradeDecoder trade = new TradeDecoder();
        final TradeBustedDecoder busted = new TradeBustedDecoder();
        final ExecutionReportDecoder report = new ExecutionReportDecoder();
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final Map<Long, String> clientIds = new HashMap<>();
        replayer.replay(toSequence, toNs, (sequence, timestampNs, sourceId, buffer, offset, length, log) ->
        {
            if (first[0] == 0)
            {
                first[0] = sequence;
                first[1] = timestampNs;
            }
            clientIds.clear();
            for (int i = 0, n = log.count(); i < n; i++)
            {
                if (log.templateId(i) == ExecutionReportDecoder.TEMPLATE_ID)
                {
                    header.wrap(log.events(), log.offset(i));
                    report.wrap(log.events(), log.offset(i) + MessageHeaderDecoder.ENCODED_LENGTH,
                        header.blockLength(), header.version());
                    if (report.tradeId() != 0)
                    {
                        clientIds.put(report.orderId(), report.clientOrderId().trim());
                    }
                }
            }
            for (int i = 0, n = log.count(); i < n; i++)
            {
                if (log.templateId(i) == TradeDecoder.TEMPLATE_ID)
                {
                    header.wrap(log.events(), log.offset(i));
                    trade.wrap(log.events(), log.offset(i) + MessageHeaderDecoder.ENCODED_LENGTH,
                        header.blockLength(), header.version());
                    trades.add(new TradeRow(trade.tradeId(), sequence, timestampNs, trade.instrumentId(),
                        trade.price(), trade.quantity(), trade.aggressorSide() ==
                        io.ringex.protocol.codecs.Side.BUY, trade.buyOrderId(), trade.sellOrderId(),
                        trade.buyAccountId(), trade.sellAccountId(), clientIds.getOrDefault(trade.buyOrderId(), ""),
                        clientIds.getOrDefault(trade.sellOrderId(), ""), false, "", ""));
                }
                else if (log.templateId(i) == TradeBustedDecoder.TEMPLATE_ID)
                {
                    header.wrap(log.events(), log.offset(i));
                    busted.wrap(log.events(), log.offset(i) + MessageHeaderDecoder.ENCODED_LENGTH,
                        header.blockLength(), header.version());
                    trades.add(new TradeRow(busted.tradeId(), sequence, timestampNs, busted.instrumentId(),
                        busted.price(), busted.quantity(), false, busted.buyOrderId(), busted.sellOrderId(),
                        busted.buyAccountId(), busted.sellAccountId(), "", "", true, busted.operatorName(),
                        busted.reason()));
                }
            }
            return true;
        });
        if (first[0] == 0)
        {
            throw new ReplayException("no command of the journal lies in the period");
        }
        final EngineState state = replayer.processor().state();
        final Map<Integer, String> symbols = new TreeMap<>();
        final Map<Integer, Integer> scales = new TreeMap<>();
        for (int i = 0; i < state.bookCount(); i++)
        {
            final OrderBook book = state.bookAt(i);
            symbols.put(book.instrument().instrumentId(), StateExport.symbol(book.instrument()));
            scales.put(book.instrument().instrumentId(), book.instrument().priceScale());
        }
        return new Period(first[0], replayer.lastApplied(), first[1],
            replayer.lastTimestampNs(), trades, opening, images(state), symbols, scales);
    }

    private static Map<Long, AccountImage> images(final EngineState state)
    {
        final Map<Long, AccountImage> images = new TreeMap<>();
        for (int i = 0; i < state.accountCount(); i++)
        {
            final Account account = state.accountAt(i);
            final Map<Integer, long[]> positions = new TreeMap<>();
            for (int p = 0; p < account.positionCount(); p++)
            {
                final Position position = account.positionAt(p);
                final OrderBook book = state.book(position.instrumentId());
                final long mark = book == null ? 0 : book.markPrice();
                positions.put(position.instrumentId(), new long[]{ position.position(), position.realisedPnl(),
                    position.averageCost(), io.ringex.engine.risk.Settlement.unrealisedPnl(position, mark), mark });
            }
            images.put(account.accountId(), new AccountImage(account.balance(), positions));
        }
        return images;
    }

    /**
     * The trade file: a header line, then one line per trade in trade id order.
     *
     * @param period a collected period.
     * @return the CSV.
     */
    public static String tradeFile(final Period period)
    {
        final StringBuilder out = new StringBuilder(256 + period.trades().size() * 160);
        out.append("record,trade_id,sequence,time,instrument_id,symbol,price,quantity,notional,aggressor_side," +
            "buy_order_id,buy_account_id,buy_client_order_id,sell_order_id,sell_account_id,sell_client_order_id," +
            "operator,reason\n");
        for (final TradeRow t : period.trades())
        {
            final int scale = period.scales().getOrDefault(t.instrumentId(), 0);
            StateExport.row(out, t.bust() ? "BUST" : "TRADE", t.tradeId(), t.sequence(),
                Instant.ofEpochSecond(0, t.timestampNs()), t.instrumentId(),
                period.symbols().getOrDefault(t.instrumentId(), ""), StateExport.price(t.price(), scale),
                t.quantity(), StateExport.money(FixedPoint.notional(t.price(), t.quantity(), scale)),
                t.bust() ? "" : t.aggressorBuy() ? "BUY" : "SELL", t.buyOrderId(), t.buyAccountId(),
                t.buyClientOrderId(), t.sellOrderId(), t.sellAccountId(), t.sellClientOrderId(), t.operator(),
                t.reason());
        }
        return out.toString();
    }

    /**
     * The statements: per account (in id order), a summary line of cash, one line per position, one per fill.
     *
     * @param period    a collected period.
     * @param accountId only this account, or 0 for every one.
     * @return the CSV.
     */
    public static String statements(final Period period, final long accountId)
    {
        if (accountId != 0 && !period.closing().containsKey(accountId))
        {
            throw new ReplayException("unknown account " + accountId + " (the journal has accounts " +
                period.closing().keySet() + " at sequence " + period.toSequence() + ")");
        }
        final StringBuilder summary = new StringBuilder("record,account_id,from_sequence,to_sequence," +
            "opening_balance,trade_cash,fees,other_adjustments,closing_balance,realised_pnl,unrealised_pnl,trades\n");
        final StringBuilder positions = new StringBuilder("record,account_id,instrument_id,symbol,opening_position," +
            "bought,sold,closing_position,closing_average_cost,realised_pnl,mark_price,unrealised_pnl\n");
        final StringBuilder fills = new StringBuilder("record,account_id,trade_id,sequence,time,instrument_id," +
            "symbol,side,liquidity,price,quantity,notional,fee,order_id,client_order_id,reason\n");
        for (final Map.Entry<Long, AccountImage> entry : period.closing().entrySet())
        {
            final long account = entry.getKey();
            if (accountId != 0 && account != accountId)
            {
                continue;
            }
            final AccountImage close = entry.getValue();
            final AccountImage open = period.opening().getOrDefault(account, new AccountImage(0, Map.of()));
            long tradeCash = 0;
            int count = 0;
            final Map<Integer, long[]> flows = new TreeMap<>();
            for (final TradeRow t : period.trades())
            {
                final boolean buyer = t.buyAccountId() == account;
                final boolean seller = t.sellAccountId() == account;
                if (!buyer && !seller)
                {
                    continue;
                }
                final int scale = period.scales().getOrDefault(t.instrumentId(), 0);
                final long notional = FixedPoint.notional(t.price(), t.quantity(), scale);
                for (final boolean buySide : new boolean[]{ true, false })
                {
                    if (buySide ? !buyer : !seller)
                    {
                        continue;
                    }
                    // a bust reverses the side: the buyer sells the quantity back at the trade's price
                    final boolean bought = buySide != t.bust();
                    count++;
                    tradeCash += bought ? -notional : notional;
                    final long[] flow = flows.computeIfAbsent(t.instrumentId(), (k) -> new long[2]);
                    flow[bought ? 0 : 1] += t.quantity();
                    StateExport.row(fills, t.bust() ? "bust" : "fill", account, t.tradeId(), t.sequence(),
                        Instant.ofEpochSecond(0, t.timestampNs()), t.instrumentId(),
                        period.symbols().getOrDefault(t.instrumentId(), ""), bought ? "BUY" : "SELL",
                        t.bust() ? "BUST" : buySide == t.aggressorBuy() ? "TAKER" : "MAKER",
                        StateExport.price(t.price(), scale), t.quantity(), StateExport.money(notional),
                        StateExport.money(0), buySide ? t.buyOrderId() : t.sellOrderId(),
                        buySide ? t.buyClientOrderId() : t.sellClientOrderId(), t.reason());
                }
            }
            long realised = 0;
            long unrealised = 0;
            final java.util.TreeSet<Integer> instruments = new java.util.TreeSet<>(close.positions().keySet());
            instruments.addAll(open.positions().keySet());
            for (final int instrument : instruments)
            {
                final long[] before = open.positions().getOrDefault(instrument, new long[5]);
                final long[] after = close.positions().getOrDefault(instrument, new long[5]);
                final long[] flow = flows.getOrDefault(instrument, new long[2]);
                final int scale = period.scales().getOrDefault(instrument, 0);
                final long realisedInPeriod = after[AccountImage.REALISED] - before[AccountImage.REALISED];
                realised += realisedInPeriod;
                unrealised += after[AccountImage.UNREALISED];
                StateExport.row(positions, "position", account, instrument,
                    period.symbols().getOrDefault(instrument, ""), before[AccountImage.POSITION], flow[0], flow[1],
                    after[AccountImage.POSITION], StateExport.price(after[AccountImage.AVERAGE_COST], scale),
                    StateExport.money(realisedInPeriod), StateExport.price(after[AccountImage.MARK], scale),
                    StateExport.money(after[AccountImage.UNREALISED]));
            }
            final BigDecimal other = StateExport.money(close.balance() - open.balance() - tradeCash);
            StateExport.row(summary, "account", account, period.fromSequence(), period.toSequence(),
                StateExport.money(open.balance()), StateExport.money(tradeCash), StateExport.money(0), other,
                StateExport.money(close.balance()), StateExport.money(realised), StateExport.money(unrealised), count);
        }
        return summary + "\n" + positions + "\n" + fills;
    }
}
