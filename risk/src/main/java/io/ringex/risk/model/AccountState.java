package io.ringex.risk.model;

import java.util.ArrayList;
import java.util.List;

import org.agrona.collections.Int2ObjectHashMap;

import io.ringex.protocol.codecs.AccountRiskUpdateDecoder;
import io.ringex.protocol.codecs.AccountStatus;
import io.ringex.protocol.codecs.BooleanType;

/**
 * One account's latest risk state as the engine reported it, plus its recent fills. Mutable; guarded by the
 * {@link RiskReadModel}'s lock. Reused in place on every update: no allocation once its positions exist.
 */
final class AccountState
{
    static final int FILLS_KEPT = 20;

    final long accountId;
    long timestampNs;
    long balance;
    long reserved;
    long realisedPnl;
    long unrealisedPnl;
    long exposure;
    long creditLimit;
    long maxOrderQuantity;
    long maxOrderNotional;
    int openOrders;
    int maxOpenOrders;
    boolean killSwitch;
    /** Learnt from the engine's answers to AddAccount and SetAccountStatus; null when not known. */
    AccountStatus status;
    final Int2ObjectHashMap<PositionState> positions = new Int2ObjectHashMap<>();
    private final FillState[] fills = new FillState[FILLS_KEPT];
    private long fillCount;

    AccountState(final long accountId)
    {
        this.accountId = accountId;
        for (int i = 0; i < FILLS_KEPT; i++)
        {
            fills[i] = new FillState();
        }
    }

    void apply(final AccountRiskUpdateDecoder update)
    {
        timestampNs = update.timestampNs();
        balance = update.balance();
        reserved = update.reserved();
        realisedPnl = update.realisedPnl();
        unrealisedPnl = update.unrealisedPnl();
        exposure = update.exposure();
        creditLimit = update.creditLimit();
        maxOrderQuantity = update.maxOrderQuantity();
        maxOrderNotional = update.maxOrderNotional();
        openOrders = update.openOrders();
        maxOpenOrders = update.maxOpenOrders();
        killSwitch = update.killSwitch() == BooleanType.TRUE;

        // The update carries the whole position list: positions it no longer names are gone.
        for (final PositionState p : positions.values())
        {
            p.seen = false;
        }
        for (final AccountRiskUpdateDecoder.PositionsDecoder p : update.positions())
        {
            final int instrumentId = p.instrumentId();
            PositionState state = positions.get(instrumentId);
            if (state == null)
            {
                state = new PositionState(instrumentId);
                positions.put(instrumentId, state);
            }
            state.position = p.position();
            state.averageCost = p.averageCost();
            state.realisedPnl = p.realisedPnl();
            state.unrealisedPnl = p.unrealisedPnl();
            state.openBuyQuantity = p.openBuyQuantity();
            state.openSellQuantity = p.openSellQuantity();
            state.positionLimit = p.positionLimit();
            state.markPrice = p.markPrice();
            state.seen = true;
        }
        positions.values().removeIf(p -> !p.seen);
    }

    void addFill(
        final long tradeId,
        final int instrumentId,
        final boolean buy,
        final long price,
        final long quantity,
        final boolean aggressor,
        final long timestampNs)
    {
        final FillState fill = fills[(int)(fillCount % FILLS_KEPT)];
        fill.tradeId = tradeId;
        fill.instrumentId = instrumentId;
        fill.buy = buy;
        fill.price = price;
        fill.quantity = quantity;
        fill.aggressor = aggressor;
        fill.timestampNs = timestampNs;
        fillCount++;
    }

    /** Fills newest first. */
    List<FillState> recentFills()
    {
        final int n = (int)Math.min(fillCount, FILLS_KEPT);
        final List<FillState> out = new ArrayList<>(n);
        for (int i = 1; i <= n; i++)
        {
            out.add(fills[(int)((fillCount - i) % FILLS_KEPT)]);
        }
        return out;
    }

    double creditUsage()
    {
        return Money.ratio(Math.max(0, reserved - balance), creditLimit);
    }

    double openOrdersUsage()
    {
        return maxOpenOrders <= 0 ? 0.0 : (double)openOrders / maxOpenOrders;
    }

    double positionUsage()
    {
        double worst = 0.0;
        for (final PositionState p : positions.values())
        {
            worst = Math.max(worst, p.usage());
        }
        return worst;
    }

    /** A position in one instrument. */
    static final class PositionState
    {
        final int instrumentId;
        long position;
        long averageCost;
        long realisedPnl;
        long unrealisedPnl;
        long openBuyQuantity;
        long openSellQuantity;
        long positionLimit;
        long markPrice;
        boolean seen;

        PositionState(final int instrumentId)
        {
            this.instrumentId = instrumentId;
        }

        /** The position limit counts open orders: the worst case is all buys or all sells filling. */
        double usage()
        {
            final long worst = Math.max(Math.abs(position + openBuyQuantity), Math.abs(position - openSellQuantity));
            return positionLimit <= 0 ? 0.0 : (double)worst / positionLimit;
        }
    }

    /** A fill of this account. */
    static final class FillState
    {
        long tradeId;
        int instrumentId;
        boolean buy;
        long price;
        long quantity;
        boolean aggressor;
        long timestampNs;
    }
}
