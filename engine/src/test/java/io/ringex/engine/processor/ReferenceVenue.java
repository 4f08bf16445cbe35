package io.ringex.engine.processor;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A deliberately simple model of one instrument's matching (TreeMap of price to ArrayList, plain objects, no pooling,
 * no risk) that describes what the processor must report, as text lines: execution reports and trades.
 */
final class ReferenceVenue
{
    static final int CANCEL_NEWEST = 1;
    static final int CANCEL_OLDEST = 2;
    static final int CANCEL_BOTH = 3;
    static final int DECREMENT = 4;

    final long tick;
    final long lot;
    final long minPrice;
    final long maxPrice;
    final TreeMap<Long, List<Ord>> bids = new TreeMap<>(Comparator.reverseOrder());
    final TreeMap<Long, List<Ord>> asks = new TreeMap<>();
    final Map<Long, Ord> open = new HashMap<>();
    long lastOrderId;
    long lastTradeId;
    final List<String> out = new ArrayList<>();

    static final class Ord
    {
        long id;
        long account;
        boolean buy;
        long price;
        long quantity;
        long filled;
        int stp;
        boolean market;
        int tif;

        long leaves()
        {
            return quantity - filled;
        }
    }

    ReferenceVenue(final long tick, final long lot, final long minPrice, final long maxPrice)
    {
        this.tick = tick;
        this.lot = lot;
        this.minPrice = minPrice;
        this.maxPrice = maxPrice;
    }

    private void er(final long id, final String type, final long leaves, final long cum, final long px, final long qty,
        final String reason, final String cancel)
    {
        out.add("ER " + id + " " + type + " leaves=" + leaves + " cum=" + cum + " last=" + qty + "@" + px + " " +
            reason + " " + cancel);
    }

    /** tif: 1 GTC 2 IOC 3 FOK 4 DAY. */
    void newOrder(final long account, final boolean buy, final boolean market, final int tif, final int stp,
        final long price, final long quantity)
    {
        String reason = "NONE";
        if (market && (tif == 1 || tif == 4))
        {
            reason = "INVALID_ORDER_TYPE";
        }
        else if (quantity <= 0)
        {
            reason = "INVALID_QUANTITY";
        }
        else if (quantity % lot != 0)
        {
            reason = "INVALID_LOT";
        }
        else if (!market && price <= 0)
        {
            reason = "INVALID_PRICE";
        }
        else if (!market && price % tick != 0)
        {
            reason = "INVALID_TICK";
        }
        else if (!market && (price < minPrice || price > maxPrice))
        {
            reason = "PRICE_OUTSIDE_BAND";
        }
        final Ord o = new Ord();
        o.account = account;
        o.buy = buy;
        o.market = market;
        o.price = market ? (buy ? maxPrice : minPrice) : price;
        o.quantity = quantity;
        o.stp = stp;
        o.tif = tif;
        if (reason.equals("NONE") && tif == 3 && !canFill(o))
        {
            reason = "FOK_NOT_FILLABLE";
        }
        if (!reason.equals("NONE"))
        {
            er(0, "REJECTED", 0, 0, 0, 0, reason, "NONE");
            return;
        }
        o.id = ++lastOrderId;
        open.put(o.id, o);
        er(o.id, "NEW", o.leaves(), 0, 0, 0, "NONE", "NONE");
        execute(o);
    }

    private void execute(final Ord o)
    {
        final long filledBefore = o.filled;
        final boolean stpCanceled = match(o);
        if (stpCanceled)
        {
            end(o, "SELF_TRADE_PREVENTION", "NONE");
        }
        else if (o.leaves() == 0)
        {
            open.remove(o.id);
        }
        else if (o.market)
        {
            end(o, "MARKET_PROTECTION", o.filled == filledBefore ? "NO_LIQUIDITY" : "NONE");
        }
        else if (o.tif == 2 || o.tif == 3)
        {
            end(o, "IOC_REMAINDER", "NONE");
        }
        else
        {
            (o.buy ? bids : asks).computeIfAbsent(o.price, p -> new ArrayList<>()).add(o);
        }
    }

    private void end(final Ord o, final String cancelReason, final String reason)
    {
        open.remove(o.id);
        er(o.id, "CANCELED", 0, o.filled, 0, 0, reason, cancelReason);
    }

    private boolean crosses(final Ord o, final long price)
    {
        return o.buy ? price <= o.price : price >= o.price;
    }

    private boolean canFill(final Ord o)
    {
        long remaining = o.quantity;
        for (final Map.Entry<Long, List<Ord>> level : (o.buy ? asks : bids).entrySet())
        {
            if (!crosses(o, level.getKey()))
            {
                return false;
            }
            for (final Ord m : level.getValue())
            {
                if (m.account == o.account)
                {
                    if (o.stp == CANCEL_OLDEST)
                    {
                        continue;
                    }
                    return false;
                }
                remaining -= Math.min(remaining, m.leaves());
                if (remaining == 0)
                {
                    return true;
                }
            }
        }
        return false;
    }

    private boolean match(final Ord o)
    {
        final TreeMap<Long, List<Ord>> side = o.buy ? asks : bids;
        while (o.leaves() > 0 && !side.isEmpty())
        {
            final long price = side.firstKey();
            if (!crosses(o, price))
            {
                return false;
            }
            final List<Ord> queue = side.get(price);
            final Ord m = queue.get(0);
            if (m.account == o.account)
            {
                switch (o.stp)
                {
                    case CANCEL_OLDEST:
                        removeResting(side, m);
                        end(m, "SELF_TRADE_PREVENTION", "NONE");
                        continue;
                    case CANCEL_BOTH:
                        removeResting(side, m);
                        end(m, "SELF_TRADE_PREVENTION", "NONE");
                        return true;
                    case DECREMENT:
                    {
                        final long d = Math.min(o.leaves(), m.leaves());
                        o.quantity -= d;
                        m.quantity -= d;
                        if (m.leaves() == 0)
                        {
                            removeResting(side, m);
                            end(m, "SELF_TRADE_PREVENTION", "NONE");
                        }
                        else
                        {
                            er(m.id, "REPLACED", m.leaves(), m.filled, 0, 0, "NONE", "SELF_TRADE_PREVENTION");
                        }
                        if (o.leaves() == 0)
                        {
                            return true;
                        }
                        continue;
                    }
                    default:
                        return true;
                }
            }
            final long q = Math.min(o.leaves(), m.leaves());
            m.filled += q;
            o.filled += q;
            final long tradeId = ++lastTradeId;
            if (m.leaves() == 0)
            {
                removeResting(side, m);
                open.remove(m.id);
            }
            er(o.id, o.leaves() == 0 ? "FILL" : "PARTIAL_FILL", o.leaves(), o.filled, price, q, "NONE", "NONE");
            er(m.id, m.leaves() == 0 ? "FILL" : "PARTIAL_FILL", m.leaves(), m.filled, price, q, "NONE", "NONE");
            out.add("T " + tradeId + " " + (o.buy ? o.id : m.id) + "/" + (o.buy ? m.id : o.id) + " " + q + "@" + price);
        }
        return false;
    }

    private static void removeResting(final TreeMap<Long, List<Ord>> side, final Ord m)
    {
        final List<Ord> queue = side.get(m.price);
        queue.remove(m);
        if (queue.isEmpty())
        {
            side.remove(m.price);
        }
    }

    void cancel(final long account, final long orderId)
    {
        final Ord o = open.get(orderId);
        if (o == null)
        {
            out.add("CXLREJ " + (orderId > 0 && orderId <= lastOrderId ? "ORDER_NOT_OPEN" : "UNKNOWN_ORDER"));
            return;
        }
        if (o.account != account)
        {
            out.add("CXLREJ NOT_AUTHORISED");
            return;
        }
        removeResting(o.buy ? bids : asks, o);
        end(o, "CLIENT_REQUEST", "NONE");
    }

    void replace(final long account, final long orderId, final long price, final long quantity)
    {
        final Ord o = open.get(orderId);
        String reason = "NONE";
        if (o == null)
        {
            reason = orderId > 0 && orderId <= lastOrderId ? "ORDER_NOT_OPEN" : "UNKNOWN_ORDER";
        }
        else if (o.account != account)
        {
            reason = "NOT_AUTHORISED";
        }
        else if (quantity <= 0)
        {
            reason = "INVALID_QUANTITY";
        }
        else if (quantity % lot != 0)
        {
            reason = "INVALID_LOT";
        }
        else if (price <= 0)
        {
            reason = "INVALID_PRICE";
        }
        else if (price % tick != 0)
        {
            reason = "INVALID_TICK";
        }
        else if (price < minPrice || price > maxPrice)
        {
            reason = "PRICE_OUTSIDE_BAND";
        }
        if (!reason.equals("NONE"))
        {
            out.add("CXLREJ " + reason);
            return;
        }
        final TreeMap<Long, List<Ord>> side = o.buy ? bids : asks;
        if (quantity <= o.filled)
        {
            removeResting(side, o);
            end(o, "REPLACE_BELOW_FILLED", "NONE");
            return;
        }
        if (price == o.price && quantity <= o.quantity)
        {
            o.quantity = quantity;
            er(o.id, "REPLACED", o.leaves(), o.filled, 0, 0, "NONE", "NONE");
            return;
        }
        removeResting(side, o);
        o.price = price;
        o.quantity = quantity;
        er(o.id, "REPLACED", o.leaves(), o.filled, 0, 0, "NONE", "NONE");
        execute(o);
    }

    /** L2 as text: bids best first, then asks. */
    String depth()
    {
        final StringBuilder b = new StringBuilder();
        bids.forEach((p, q) -> b.append("B").append(q.stream().mapToLong(Ord::leaves).sum()).append('@').append(p)
            .append('x').append(q.size()).append(' '));
        asks.forEach((p, q) -> b.append("A").append(q.stream().mapToLong(Ord::leaves).sum()).append('@').append(p)
            .append('x').append(q.size()).append(' '));
        return b.toString();
    }
}
