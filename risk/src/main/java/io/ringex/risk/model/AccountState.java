package io.ringex.risk.model;

import java.util.ArrayList;
import java.util.List;

import io.ringex.client.risk.AccountRisk;
import io.ringex.protocol.codecs.AccountDefinitionDecoder;
import io.ringex.protocol.codecs.AccountRiskUpdateDecoder;

/**
 * One account as the engine's risk stream tells it ({@link AccountRisk}: the stream's contract, docs/protocol.md, "The
 * risk stream"), plus its recent fills. Mutable; guarded by the {@link RiskReadModel}'s lock. Reused in place on every
 * update: no allocation once its positions exist.
 */
final class AccountState
{
    static final int FILLS_KEPT = 20;

    final long accountId;
    final AccountRisk risk;
    private final FillState[] fills = new FillState[FILLS_KEPT];
    private long fillCount;

    AccountState(final long accountId)
    {
        this.accountId = accountId;
        this.risk = new AccountRisk(accountId);
        for (int i = 0; i < FILLS_KEPT; i++)
        {
            fills[i] = new FillState();
        }
    }

    void apply(final AccountRiskUpdateDecoder update)
    {
        risk.apply(update);
    }

    void apply(final AccountDefinitionDecoder definition)
    {
        risk.apply(definition);
    }

    void addFill(
        final long tradeId,
        final long orderId,
        final int instrumentId,
        final boolean buy,
        final long price,
        final long quantity,
        final boolean aggressor,
        final long timestampNs)
    {
        final FillState fill = fills[(int)(fillCount % FILLS_KEPT)];
        fill.tradeId = tradeId;
        fill.orderId = orderId;
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
        return Money.ratio(Math.max(0, risk.reserved() - risk.balance()), risk.creditLimit());
    }

    double openOrdersUsage()
    {
        return risk.maxOpenOrders() <= 0 ? 0.0 : (double)risk.openOrders() / risk.maxOpenOrders();
    }

    double positionUsage()
    {
        double worst = 0.0;
        for (final AccountRisk.Position p : risk.positions())
        {
            if (!p.isFlat())
            {
                worst = Math.max(worst, usage(p));
            }
        }
        return worst;
    }

    /**
     * The position limit counts open orders: the worst case is all buys or all sells filling. A limit of 0 allows no
     * position at all: anything held is over it (counted against one unit, so it shows as far over).
     */
    static double usage(final AccountRisk.Position p)
    {
        final long worst = Math.max(Math.abs(p.position() + p.openBuyQuantity()),
            Math.abs(p.position() - p.openSellQuantity()));
        return (double)worst / Math.max(1, p.positionLimit());
    }

    /** A fill of this account. */
    static final class FillState
    {
        long tradeId;
        long orderId;
        int instrumentId;
        boolean buy;
        long price;
        long quantity;
        boolean aggressor;
        long timestampNs;
    }
}
