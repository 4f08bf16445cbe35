package io.ringex.risk.model;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2LongHashMap;

import io.ringex.client.risk.AccountRisk;

/**
 * The JSON views of an account ({@link Views}) made from what the read model holds of it: its summary row, its
 * detail (positions that are not flat, recent fills, limits), its limits, and the orders of the accounts table.
 * <p>
 * Threading: called by the {@link RiskReadModel} under its lock only.
 */
final class AccountViews
{
    private AccountViews()
    {
    }

    static Views.AccountDetail detail(final AccountState a, final Int2ObjectHashMap<InstrumentState> instruments)
    {
        final List<Views.PositionView> positions = new ArrayList<>();
        for (final AccountRisk.Position p : a.risk.positions())
        {
            if (p.isFlat())
            {
                continue; // closed: nothing at risk (the stream's contract)
            }
            final int scale = scale(instruments, p.instrumentId());
            positions.add(new Views.PositionView(p.instrumentId(), symbol(instruments, p.instrumentId()),
                p.position(), Money.price(p.averageCost(), scale), Money.price(p.markPrice(), scale),
                Money.money(p.realisedPnl()), Money.money(p.unrealisedPnl()), p.openBuyQuantity(),
                p.openSellQuantity(), p.positionLimit(), AccountState.usage(p)));
        }
        positions.sort(Comparator.comparingInt(Views.PositionView::instrumentId));
        final List<Views.FillView> fills = new ArrayList<>();
        for (final AccountState.FillState f : a.recentFills())
        {
            fills.add(new Views.FillView(f.tradeId, f.orderId, f.instrumentId, symbol(instruments, f.instrumentId),
                f.buy ? "BUY" : "SELL", Money.price(f.price, scale(instruments, f.instrumentId)), f.quantity,
                f.aggressor, f.timestampNs));
        }
        return new Views.AccountDetail(summary(a), a.risk.maxOrderQuantity(), Money.money(a.risk.maxOrderNotional()),
            limits(a, instruments), positions, fills);
    }

    static Views.AccountLimits limits(final AccountState a, final Int2ObjectHashMap<InstrumentState> instruments)
    {
        final AccountRisk r = a.risk;
        if (!r.defined())
        {
            return new Views.AccountLimits(a.accountId, false, null, null, null, null, null, null, null, null, null);
        }
        final List<Views.PositionLimitView> own = new ArrayList<>();
        final Long2LongHashMap.KeyIterator ids = r.ownPositionLimits().keySet().iterator();
        while (ids.hasNext())
        {
            final int instrumentId = (int)ids.nextValue();
            own.add(new Views.PositionLimitView(instrumentId, symbol(instruments, instrumentId),
                r.ownPositionLimit(instrumentId)));
        }
        own.sort(Comparator.comparingInt(Views.PositionLimitView::instrumentId));
        return new Views.AccountLimits(a.accountId, true, r.status().name(), r.selfTradePrevention().name(),
            r.maxOrderQuantity(), Money.money(r.maxOrderNotional()), Money.money(r.creditLimit()),
            r.defaultPositionLimit(), r.maxOpenOrders(), r.allowShort(), own);
    }

    static Views.AccountSummary summary(final AccountState a)
    {
        final double credit = a.creditUsage();
        final double orders = a.openOrdersUsage();
        final double position = a.positionUsage();
        double worst = credit;
        String worstOf = "CREDIT";
        if (orders > worst)
        {
            worst = orders;
            worstOf = "OPEN_ORDERS";
        }
        if (position > worst)
        {
            worst = position;
            worstOf = "POSITION";
        }
        final AccountRisk r = a.risk;
        return new Views.AccountSummary(a.accountId, Money.money(r.balance()), Money.money(r.reserved()),
            Money.money(r.realisedPnl()), Money.money(r.unrealisedPnl()),
            Money.money(r.realisedPnl() + r.unrealisedPnl()), Money.money(r.exposure()), Money.money(r.creditLimit()),
            r.openOrders(), r.maxOpenOrders(), r.killSwitch(), r.status() == null ? null : r.status().name(),
            r.complete(), credit, orders, position, worst, worstOf, r.timestampNs());
    }

    static Comparator<Views.AccountSummary> order(final AccountSort sort)
    {
        final Comparator<Views.AccountSummary> byId = Comparator.comparingLong(Views.AccountSummary::accountId);
        switch (sort)
        {
            case EXPOSURE:
                return Comparator.comparing((Views.AccountSummary s) -> new BigDecimal(s.exposure()))
                    .reversed().thenComparing(byId);
            case PNL:
                return Comparator.comparing((Views.AccountSummary s) -> new BigDecimal(s.totalPnl()))
                    .thenComparing(byId);
            case BALANCE:
                return Comparator.comparing((Views.AccountSummary s) -> new BigDecimal(s.balance()))
                    .thenComparing(byId);
            case ACCOUNT:
                return byId;
            case UTILISATION:
            default:
                return Comparator.comparingDouble(Views.AccountSummary::utilisation).reversed().thenComparing(byId);
        }
    }

    static String symbol(final Int2ObjectHashMap<InstrumentState> instruments, final int instrumentId)
    {
        final InstrumentState i = instruments.get(instrumentId);
        return i == null || !i.defined ? "#" + instrumentId : i.symbol;
    }

    private static int scale(final Int2ObjectHashMap<InstrumentState> instruments, final int instrumentId)
    {
        final InstrumentState i = instruments.get(instrumentId);
        return i == null ? 0 : i.priceScale;
    }
}
