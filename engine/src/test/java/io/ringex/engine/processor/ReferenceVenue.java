package io.ringex.engine.processor;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A deliberately simple model of one instrument's venue (TreeMap of price to ArrayList, plain objects, lists searched
 * in full, no pooling, no risk) that describes what the processor must report, as text lines: execution reports,
 * trades, cancel rejects, admin answers, phase changes and auction indicatives.
 * <p>
 * It covers every order type (limit, market, stop, stop-limit; icebergs; minimum quantity; GTC, IOC, FOK, DAY, GTD),
 * self-trade prevention, the trading phases and the uncrossing ({@link ReferenceUncross}: every candidate price tried
 * by brute force), the dynamic band, and the ring's clock (GTD expiries and phase ends before each command, in time
 * order). Where the processor takes shortcuts (the fill-or-kill and minimum-quantity look-ahead, which icebergs need
 * a refresh after an uncrossing, the next stop to trigger) this model does the literal thing.
 */
final class ReferenceVenue
{
    static final int CANCEL_NEWEST = 1;
    static final int CANCEL_OLDEST = 2;
    static final int CANCEL_BOTH = 3;
    static final int DECREMENT = 4;

    static final int LIMIT = 1;
    static final int MARKET = 2;
    static final int STOP = 3;
    static final int STOP_LIMIT = 4;

    static final int GTC = 1;
    static final int IOC = 2;
    static final int FOK = 3;
    static final int DAY = 4;
    static final int GTD = 5;

    static final int OPEN = 1;
    static final int HALTED = 2;
    static final int CLOSED = 3;
    static final int PRE_OPEN = 4;
    static final int OPENING = 5;
    static final int CLOSING = 6;
    static final int VOLATILITY = 7;
    static final String[] STATUS_NAMES = { "?", "OPEN", "HALTED", "CLOSED", "PRE_OPEN", "OPENING_AUCTION",
        "CLOSING_AUCTION", "VOLATILITY_AUCTION" };

    static final int NONE = 0;
    static final int BOOK = 1;
    static final int STOPS = 2;
    static final int MARKET_QUEUE = 3;
    static final int TRIGGERED = 4;

    final long tick;
    final long lot;
    final long minPrice;
    final long maxPrice;
    final long referencePrice;
    final TreeMap<Long, List<Ord>> bids = new TreeMap<>(Comparator.reverseOrder());
    final TreeMap<Long, List<Ord>> asks = new TreeMap<>();
    final List<Ord> marketBuys = new ArrayList<>();
    final List<Ord> marketSells = new ArrayList<>();
    final List<Ord> stops = new ArrayList<>();
    final ArrayDeque<Ord> triggered = new ArrayDeque<>();
    final TreeMap<Long, Ord> open = new TreeMap<>();
    long lastOrderId;
    long lastTradeId;
    long lastTradePrice;
    long stamp;
    int status = OPEN;
    long phaseEnd = Long.MAX_VALUE;
    int bandBasisPoints;
    long auctionNs;
    long now;
    String lastIndicative;
    final List<String> out = new ArrayList<>();

    static final class Ord
    {
        long id;
        long account;
        boolean buy;
        int type;
        int tif;
        long price;
        long quantity;
        long filled;
        int stp;
        long stopPrice;
        long display;
        long peak;
        long minQuantity;
        long expire;
        int location;
        long stamp;

        long leaves()
        {
            return quantity - filled;
        }

        long visible()
        {
            return display == 0 ? leaves() : peak;
        }

        boolean marketLike()
        {
            return type == MARKET || type == STOP;
        }

        boolean isStop()
        {
            return type == STOP || type == STOP_LIMIT;
        }
    }

    ReferenceVenue(final long tick, final long lot, final long minPrice, final long maxPrice, final long reference)
    {
        this.tick = tick;
        this.lot = lot;
        this.minPrice = minPrice;
        this.maxPrice = maxPrice;
        this.referencePrice = reference;
    }

    static boolean callPhase(final int status)
    {
        return status >= PRE_OPEN && status <= VOLATILITY;
    }

    long reference()
    {
        return lastTradePrice != 0 ? lastTradePrice : referencePrice;
    }

    void er(final long id, final String type, final long leaves, final long cum, final long px, final long qty,
        final String reason, final String cancel)
    {
        out.add("ER " + id + " " + type + " leaves=" + leaves + " cum=" + cum + " last=" + qty + "@" + px + " " +
            reason + " " + cancel);
    }

    // ------------------------------------------------------------------------------------------------ the clock

    /** The clock reaches a command's time: expiries and phase ends due, in time order (expiry first at a tie). */
    void advanceTo(final long time)
    {
        now = time;
        while (true)
        {
            Ord expiring = null;
            for (final Ord o : open.values())
            {
                if (o.tif == GTD && (expiring == null || o.expire < expiring.expire))
                {
                    expiring = o;
                }
            }
            final long expiry = expiring == null ? Long.MAX_VALUE : expiring.expire;
            if (Math.min(expiry, phaseEnd) > time)
            {
                return;
            }
            if (expiry <= phaseEnd)
            {
                takeOut(expiring);
                open.remove(expiring.id);
                er(expiring.id, "EXPIRED", 0, expiring.filled, 0, 0, "NONE", "EXPIRE_TIME");
            }
            else
            {
                transition(status == CLOSING ? CLOSED : OPEN, 0);
                out.add("PHASE " + STATUS_NAMES[status]);
            }
            drainTriggered();
        }
    }

    /** What the processor does after every command: triggered stops enter, then the indicative if it changed. */
    void endCommand()
    {
        drainTriggered();
        if (callPhase(status))
        {
            final ReferenceUncross u = ReferenceUncross.compute(this);
            final String line = "IND " + STATUS_NAMES[status] + " " + u.price + " " + u.matched + " " + u.imbalance +
                " " + (phaseEnd == Long.MAX_VALUE ? 0 : phaseEnd);
            if (!line.equals(lastIndicative))
            {
                out.add(line);
                lastIndicative = line;
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ admin

    void setTradingStatus(final int to, final long duration)
    {
        if (to < OPEN || to > VOLATILITY || duration < 0 || (duration > 0 && !callPhase(to)))
        {
            out.add("ADMIN REJECTED INVALID_ARGUMENT");
            return;
        }
        transition(to, duration);
        out.add("ADMIN ACCEPTED NONE");
        out.add("PHASE " + STATUS_NAMES[status]);
    }

    void setDynamicBand(final int basisPoints, final long duration)
    {
        if (basisPoints < 0 || basisPoints > 1_000_000 || duration < 0 || (basisPoints > 0 && duration == 0))
        {
            out.add("ADMIN REJECTED INVALID_ARGUMENT");
            return;
        }
        bandBasisPoints = basisPoints;
        auctionNs = duration;
        out.add("ADMIN ACCEPTED NONE");
    }

    private void transition(final int to, final long duration)
    {
        final int from = status;
        if (from != to && (to == OPEN || (from == CLOSING && to == CLOSED)))
        {
            ReferenceUncross.compute(this).execute(this);
        }
        status = to;
        phaseEnd = callPhase(to) && duration > 0 ? now + duration : Long.MAX_VALUE;
        if (to == OPEN && from != OPEN)
        {
            cancelLeftovers();
        }
        if (to == CLOSED)
        {
            for (final Ord o : new ArrayList<>(open.values()))
            {
                takeOut(o);
                end(o, "INSTRUMENT_HALTED", "NONE");
            }
        }
        if (!callPhase(to))
        {
            lastIndicative = null;
        }
    }

    private void cancelLeftovers()
    {
        for (final boolean buy : new boolean[]{ true, false })
        {
            for (final Ord o : new ArrayList<>(buy ? marketBuys : marketSells))
            {
                takeOut(o);
                end(o, "IOC_REMAINDER", "NONE");
            }
            for (final List<Ord> level : new ArrayList<>((buy ? bids : asks).values()))
            {
                for (final Ord o : new ArrayList<>(level))
                {
                    if (o.tif == IOC)
                    {
                        takeOut(o);
                        end(o, "IOC_REMAINDER", "NONE");
                    }
                }
            }
        }
    }

    private void interrupt()
    {
        transition(VOLATILITY, auctionNs);
        out.add("PHASE " + STATUS_NAMES[status]);
    }

    // ------------------------------------------------------------------------------------------------ entry

    void newOrder(final long account, final boolean buy, final int type, final int tif, final int stp,
        final long price, final long quantity, final long stopPrice, final long display, final long minQuantity,
        final long expire)
    {
        final Ord o = new Ord();
        o.account = account;
        o.buy = buy;
        o.type = type;
        o.tif = tif;
        o.stp = stp;
        o.price = o.marketLike() ? (buy ? maxPrice : minPrice) : price;
        o.quantity = quantity;
        o.stopPrice = stopPrice;
        o.display = display;
        o.minQuantity = minQuantity;
        o.expire = expire;
        final String reason = check(o);
        if (!reason.equals("NONE"))
        {
            er(0, "REJECTED", 0, 0, 0, 0, reason, "NONE");
            return;
        }
        o.id = ++lastOrderId;
        open.put(o.id, o);
        er(o.id, "NEW", o.leaves(), 0, 0, 0, "NONE", "NONE");
        if (o.isStop())
        {
            addStop(o);
            return;
        }
        execute(o);
    }

    private String check(final Ord o)
    {
        final boolean immediate = o.tif == IOC || o.tif == FOK;
        if (status != OPEN && !callPhase(status))
        {
            return "INSTRUMENT_HALTED";
        }
        if ((o.type == MARKET && !immediate) || (o.isStop() && (immediate || o.display != 0 || o.minQuantity != 0)) ||
            (o.display != 0 && (immediate || o.type == MARKET)))
        {
            return "INVALID_ORDER_TYPE";
        }
        if (callPhase(status) && (o.tif == FOK || (o.tif == IOC && o.minQuantity != 0)))
        {
            return "NOT_ALLOWED_IN_PHASE";
        }
        final String priceAndQuantity = checkPriceAndQuantity(o.marketLike(), o.price, o.quantity);
        if (!priceAndQuantity.equals("NONE"))
        {
            return priceAndQuantity;
        }
        if (o.isStop() ? !validStop(o.buy, o.stopPrice) : o.stopPrice != 0)
        {
            return "INVALID_STOP_PRICE";
        }
        if (!validPart(o.display, o.quantity))
        {
            return "INVALID_DISPLAY_QUANTITY";
        }
        if (!validPart(o.minQuantity, o.quantity))
        {
            return "INVALID_MIN_QUANTITY";
        }
        if (o.tif == GTD ? o.expire <= now : o.expire != 0)
        {
            return "INVALID_EXPIRE_TIME";
        }
        if (status == OPEN && !o.isStop())
        {
            final long limit = o.buy ? Math.min(o.price, bandEdge(true)) : Math.max(o.price, bandEdge(false));
            if (o.tif == FOK && executable(o, limit) < o.quantity)
            {
                return "FOK_NOT_FILLABLE";
            }
            if (o.minQuantity != 0)
            {
                final long executable = executable(o, limit);
                final boolean mustTrade = o.marketLike() || immediate;
                if (executable < o.minQuantity && (executable > 0 || mustTrade))
                {
                    return "MIN_QUANTITY_NOT_MET";
                }
            }
        }
        return "NONE";
    }

    private String checkPriceAndQuantity(final boolean market, final long price, final long quantity)
    {
        if (quantity <= 0)
        {
            return "INVALID_QUANTITY";
        }
        if (quantity % lot != 0)
        {
            return "INVALID_LOT";
        }
        if (!market && price <= 0)
        {
            return "INVALID_PRICE";
        }
        if (!market && price % tick != 0)
        {
            return "INVALID_TICK";
        }
        if (!market && (price < minPrice || price > maxPrice))
        {
            return "PRICE_OUTSIDE_BAND";
        }
        return "NONE";
    }

    private boolean validStop(final boolean buy, final long stopPrice)
    {
        return stopPrice > 0 && stopPrice % tick == 0 && stopPrice >= minPrice && stopPrice <= maxPrice &&
            (buy ? stopPrice > reference() : stopPrice < reference());
    }

    private boolean validPart(final long part, final long quantity)
    {
        return part == 0 || (part > 0 && part <= quantity && part % lot == 0);
    }

    long bandEdge(final boolean buy)
    {
        if (bandBasisPoints == 0)
        {
            return buy ? Long.MAX_VALUE : Long.MIN_VALUE;
        }
        final long ref = reference();
        final long width = ref * bandBasisPoints / 10_000 / tick * tick;
        return buy ? ref + width : ref - width;
    }

    /**
     * How much the order would trade at once: a literal dry run over a copy of each level's queue, icebergs showing
     * their next peak at the back, stopping at the first resting order of the same account (skipping it under
     * CANCEL_OLDEST) and at the limit.
     */
    private long executable(final Ord o, final long limit)
    {
        long found = 0;
        for (final Map.Entry<Long, List<Ord>> level : (o.buy ? asks : bids).entrySet())
        {
            if (!crosses(o.buy, limit, level.getKey()))
            {
                return found;
            }
            final ArrayDeque<long[]> queue = new ArrayDeque<>();
            for (final Ord m : level.getValue())
            {
                queue.add(new long[]{ m.account, m.visible(), m.leaves(), m.display });
            }
            while (!queue.isEmpty())
            {
                final long[] m = queue.poll();
                if (m[0] == o.account)
                {
                    if (o.stp == CANCEL_OLDEST)
                    {
                        continue;
                    }
                    return found;
                }
                found += m[1];
                final long left = m[2] - m[1];
                if (left > 0)
                {
                    queue.add(new long[]{ m[0], Math.min(m[3], left), left, m[3] });
                }
            }
        }
        return found;
    }

    private static boolean crosses(final boolean buy, final long limit, final long price)
    {
        return buy ? price <= limit : price >= limit;
    }

    private void execute(final Ord o)
    {
        if (callPhase(status))
        {
            if (o.marketLike())
            {
                o.stamp = ++stamp;
                o.location = MARKET_QUEUE;
                (o.buy ? marketBuys : marketSells).add(o);
            }
            else
            {
                rest(o);
            }
            return;
        }
        final long filledBefore = o.filled;
        final int outcome = match(o, bandEdge(o.buy));
        if (outcome == 1)
        {
            end(o, "SELF_TRADE_PREVENTION", "NONE");
            return;
        }
        if (o.leaves() == 0)
        {
            open.remove(o.id);
            return;
        }
        if (outcome == 2)
        {
            interrupt();
        }
        if (o.marketLike())
        {
            end(o, "MARKET_PROTECTION", o.filled == filledBefore ? "NO_LIQUIDITY" : "NONE");
        }
        else if (o.tif == IOC || o.tif == FOK)
        {
            end(o, "IOC_REMAINDER", "NONE");
        }
        else
        {
            rest(o);
        }
    }

    void rest(final Ord o)
    {
        if (o.display != 0)
        {
            o.peak = Math.min(o.display, o.leaves());
        }
        o.stamp = ++stamp;
        o.location = BOOK;
        (o.buy ? bids : asks).computeIfAbsent(o.price, p -> new ArrayList<>()).add(o);
    }

    private void addStop(final Ord o)
    {
        o.stamp = ++stamp;
        o.location = STOPS;
        stops.add(o);
    }

    void end(final Ord o, final String cancelReason, final String reason)
    {
        open.remove(o.id);
        er(o.id, "CANCELED", 0, o.filled, 0, 0, reason, cancelReason);
    }

    /** Take an order out of wherever it waits. */
    void takeOut(final Ord o)
    {
        switch (o.location)
        {
            case BOOK:
                removeResting(o);
                break;
            case STOPS:
                stops.remove(o);
                break;
            case MARKET_QUEUE:
                (o.buy ? marketBuys : marketSells).remove(o);
                break;
            case TRIGGERED:
                triggered.remove(o);
                break;
            default:
                break;
        }
        o.location = NONE;
    }

    void removeResting(final Ord m)
    {
        final TreeMap<Long, List<Ord>> side = m.buy ? bids : asks;
        final List<Ord> queue = side.get(m.price);
        queue.remove(m);
        if (queue.isEmpty())
        {
            side.remove(m.price);
        }
        m.location = NONE;
    }

    /** Show an iceberg's next peak at the back of its price's queue. */
    void refresh(final Ord m)
    {
        removeResting(m);
        rest(m);
    }

    /** @return 0 done, 1 the incoming order's self-trade prevention ended it, 2 interrupted by the dynamic band. */
    private int match(final Ord o, final long edge)
    {
        final TreeMap<Long, List<Ord>> side = o.buy ? asks : bids;
        while (o.leaves() > 0 && !side.isEmpty())
        {
            final long price = side.firstKey();
            if (!crosses(o.buy, o.price, price))
            {
                return 0;
            }
            if (!crosses(o.buy, edge, price))
            {
                return 2;
            }
            final Ord m = side.get(price).get(0);
            if (m.account == o.account)
            {
                switch (o.stp)
                {
                    case CANCEL_OLDEST:
                        removeResting(m);
                        end(m, "SELF_TRADE_PREVENTION", "NONE");
                        continue;
                    case CANCEL_BOTH:
                        removeResting(m);
                        end(m, "SELF_TRADE_PREVENTION", "NONE");
                        return 1;
                    case DECREMENT:
                    {
                        final long d = Math.min(o.leaves(), m.visible());
                        o.quantity -= d;
                        if (m.leaves() == d)
                        {
                            removeResting(m);
                            m.quantity -= d;
                            end(m, "SELF_TRADE_PREVENTION", "NONE");
                        }
                        else
                        {
                            m.quantity -= d;
                            if (m.display != 0)
                            {
                                m.peak -= d;
                                if (m.peak == 0)
                                {
                                    refresh(m);
                                }
                            }
                            er(m.id, "REPLACED", m.leaves(), m.filled, 0, 0, "NONE", "SELF_TRADE_PREVENTION");
                        }
                        if (o.leaves() == 0)
                        {
                            return 1;
                        }
                        continue;
                    }
                    default:
                        return 1;
                }
            }
            final long q = Math.min(o.leaves(), m.visible());
            m.filled += q;
            if (m.display != 0)
            {
                m.peak -= q;
            }
            o.filled += q;
            final long tradeId = ++lastTradeId;
            if (m.leaves() == 0)
            {
                removeResting(m);
                open.remove(m.id);
            }
            else if (m.display != 0 && m.peak == 0)
            {
                refresh(m);
            }
            lastTradePrice = price;
            er(o.id, o.leaves() == 0 ? "FILL" : "PARTIAL_FILL", o.leaves(), o.filled, price, q, "NONE", "NONE");
            er(m.id, m.leaves() == 0 ? "FILL" : "PARTIAL_FILL", m.leaves(), m.filled, price, q, "NONE", "NONE");
            out.add("T " + tradeId + " " + (o.buy ? o.id : m.id) + "/" + (o.buy ? m.id : o.id) + " " + q + "@" + price);
            triggerStops(price);
        }
        return 0;
    }

    /** A trade at {@code price}: every pending stop it reaches joins the triggered queue, in trigger order. */
    void triggerStops(final long price)
    {
        while (true)
        {
            Ord next = null;
            for (final Ord s : stops)
            {
                if (s.buy && s.stopPrice <= price && (next == null || s.stopPrice < next.stopPrice ||
                    (s.stopPrice == next.stopPrice && s.stamp < next.stamp)))
                {
                    next = s;
                }
            }
            if (next == null)
            {
                for (final Ord s : stops)
                {
                    if (!s.buy && s.stopPrice >= price && (next == null || s.stopPrice > next.stopPrice ||
                        (s.stopPrice == next.stopPrice && s.stamp < next.stamp)))
                    {
                        next = s;
                    }
                }
            }
            if (next == null)
            {
                return;
            }
            stops.remove(next);
            next.location = TRIGGERED;
            triggered.add(next);
        }
    }

    private void drainTriggered()
    {
        while (!triggered.isEmpty())
        {
            final Ord o = triggered.poll();
            o.location = NONE;
            if (status != OPEN && !callPhase(status))
            {
                end(o, "TRIGGER_REJECTED", "INSTRUMENT_HALTED");
                continue;
            }
            er(o.id, "TRIGGERED", o.leaves(), o.filled, 0, 0, "NONE", "NONE");
            execute(o);
        }
    }

    // ------------------------------------------------------------------------------------------------ amendments

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
        takeOut(o);
        end(o, "CLIENT_REQUEST", "NONE");
    }

    void replace(final long account, final long orderId, final long price, final long quantity, final long newStop)
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
        else if (status != OPEN && !callPhase(status))
        {
            reason = "INSTRUMENT_HALTED";
        }
        else if (o.location == MARKET_QUEUE)
        {
            reason = "INVALID_ORDER_TYPE";
        }
        else
        {
            final boolean pendingStop = o.location == STOPS;
            reason = checkPriceAndQuantity(pendingStop && o.type == STOP, price, quantity);
            if (reason.equals("NONE") && pendingStop && newStop != 0 && !validStop(o.buy, newStop))
            {
                reason = "INVALID_STOP_PRICE";
            }
        }
        if (!reason.equals("NONE"))
        {
            out.add("CXLREJ " + reason);
            return;
        }
        if (quantity <= o.filled)
        {
            takeOut(o);
            end(o, "REPLACE_BELOW_FILLED", "NONE");
            return;
        }
        if (o.location == STOPS)
        {
            final long stop = newStop != 0 ? newStop : o.stopPrice;
            if (o.type == STOP_LIMIT)
            {
                o.price = price;
            }
            if (stop == o.stopPrice && quantity <= o.quantity)
            {
                o.quantity = quantity;
            }
            else
            {
                stops.remove(o);
                o.stopPrice = stop;
                o.quantity = quantity;
                addStop(o);
            }
            er(o.id, "REPLACED", o.leaves(), o.filled, 0, 0, "NONE", "NONE");
            return;
        }
        if (price == o.price && quantity <= o.quantity)
        {
            o.quantity = quantity;
            if (o.display != 0)
            {
                o.peak = Math.min(o.peak, o.leaves());
            }
            er(o.id, "REPLACED", o.leaves(), o.filled, 0, 0, "NONE", "NONE");
            return;
        }
        removeResting(o);
        o.price = price;
        o.quantity = quantity;
        er(o.id, "REPLACED", o.leaves(), o.filled, 0, 0, "NONE", "NONE");
        execute(o);
    }

    // ------------------------------------------------------------------------------------------------ views

    /** L2 as text (bids best first, then asks, visible quantities), then the phase, stops and queued market orders. */
    String depth()
    {
        final StringBuilder b = new StringBuilder();
        bids.forEach((p, q) -> b.append("B").append(q.stream().mapToLong(Ord::visible).sum()).append('@').append(p)
            .append('x').append(q.size()).append(' '));
        asks.forEach((p, q) -> b.append("A").append(q.stream().mapToLong(Ord::visible).sum()).append('@').append(p)
            .append('x').append(q.size()).append(' '));
        b.append("status=").append(status);
        final List<Ord> buyStops = new ArrayList<>();
        final List<Ord> sellStops = new ArrayList<>();
        for (final Ord s : stops)
        {
            (s.buy ? buyStops : sellStops).add(s);
        }
        buyStops.sort(Comparator.comparingLong((Ord s) -> s.stopPrice).thenComparingLong(s -> s.stamp));
        sellStops.sort(Comparator.comparingLong((Ord s) -> -s.stopPrice).thenComparingLong(s -> s.stamp));
        b.append(" SB");
        buyStops.forEach(s -> b.append(' ').append(s.id).append('@').append(s.stopPrice));
        b.append(" SS");
        sellStops.forEach(s -> b.append(' ').append(s.id).append('@').append(s.stopPrice));
        b.append(" MB");
        marketBuys.forEach(m -> b.append(' ').append(m.id));
        b.append(" MS");
        marketSells.forEach(m -> b.append(' ').append(m.id));
        return b.toString();
    }
}
