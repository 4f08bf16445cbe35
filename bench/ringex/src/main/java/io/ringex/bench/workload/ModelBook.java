package io.ringex.bench.workload;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * The generator's reference order book for one instrument: price-time priority, trades at the resting price, a
 * replace that changes the price loses its place (and may match), a reduce keeps it. The generator runs every
 * command through it so it knows which orders are live and what is left of them, as exchange-core's generator runs
 * its own naive book. Not on any hot path: plain collections, allocation allowed.
 * <p>
 * Threading: single-threaded.
 */
final class ModelBook
{
    /** Returned by {@link #bestBid()}/{@link #bestAsk()} for an empty side. */
    static final long NO_PRICE = Long.MIN_VALUE;

    private final TreeMap<Long, ArrayDeque<ModelOrder>> bids = new TreeMap<>(Comparator.reverseOrder());
    private final TreeMap<Long, ArrayDeque<ModelOrder>> asks = new TreeMap<>();
    private final ArrayList<ModelOrder> live = new ArrayList<>();
    private final ArrayList<ModelOrder> stops = new ArrayList<>();
    private final ArrayDeque<ModelOrder> triggered = new ArrayDeque<>();
    private long trades;
    private long lastTradePrice;
    private long stopArrivals;

    int liveCount()
    {
        return live.size();
    }

    int levelCount()
    {
        return bids.size() + asks.size();
    }

    long trades()
    {
        return trades;
    }

    long bestBid()
    {
        return bids.isEmpty() ? NO_PRICE : bids.firstKey();
    }

    long bestAsk()
    {
        return asks.isEmpty() ? NO_PRICE : asks.firstKey();
    }

    /**
     * A live order picked uniformly; deterministic for the random's state.
     *
     * @param random the generator's random.
     * @return the order, or null when the book is empty.
     */
    ModelOrder randomLive(final SplittableRandom random)
    {
        return live.isEmpty() ? null : live.get(random.nextInt(live.size()));
    }

    /**
     * Match a new order, then rest what is left if {@code rest}.
     *
     * @param order the new order.
     * @param rest  true for GTC, false for IOC.
     */
    void place(final ModelOrder order, final boolean rest)
    {
        enter(order, rest);
        drainTriggered();
    }

    /** @return the last trade price, or {@code reference} before any trade. */
    long lastTradePrice(final long reference)
    {
        return lastTradePrice == 0 ? reference : lastTradePrice;
    }

    /** @return stop-limits waiting for a trade to reach their stop price. */
    int pendingStops()
    {
        return stops.size();
    }

    /**
     * A stop-limit waits (unseen, not live) until a trade reaches its stop price, then enters as a GTC limit order:
     * the Ringex engine's rules (buy stops by stop price ascending, sell stops descending, then arrival; entered after
     * the order whose trade triggered them, in trigger order).
     *
     * @param order     the order, its price the limit.
     * @param stopPrice its stop price, not yet reached.
     */
    void placeStop(final ModelOrder order, final long stopPrice)
    {
        order.stopPrice = stopPrice;
        order.stopArrival = ++stopArrivals;
        stops.add(order);
    }

    private void enter(final ModelOrder order, final boolean rest)
    {
        match(order);
        if (rest && order.open() > 0)
        {
            addResting(order);
        }
    }

    private void drainTriggered()
    {
        ModelOrder order;
        while ((order = triggered.pollFirst()) != null)
        {
            order.stopPrice = 0;
            enter(order, true);
        }
    }

    private void triggerStops(final long price)
    {
        while (true)
        {
            ModelOrder next = null;
            for (final ModelOrder stop : stops)
            {
                if (stop.isBuy() && stop.stopPrice <= price && (next == null || stop.stopPrice < next.stopPrice ||
                    (stop.stopPrice == next.stopPrice && stop.stopArrival < next.stopArrival)))
                {
                    next = stop;
                }
            }
            if (next == null)
            {
                for (final ModelOrder stop : stops)
                {
                    if (!stop.isBuy() && stop.stopPrice >= price && (next == null ||
                        stop.stopPrice > next.stopPrice ||
                        (stop.stopPrice == next.stopPrice && stop.stopArrival < next.stopArrival)))
                    {
                        next = stop;
                    }
                }
            }
            if (next == null)
            {
                return;
            }
            stops.remove(next);
            triggered.addLast(next);
        }
    }

    void cancel(final ModelOrder order)
    {
        removeResting(order);
    }

    /**
     * Replace the price: the order leaves its level, matches if it now crosses, rests what is left at the back of
     * the new level.
     */
    void move(final ModelOrder order, final long newPrice)
    {
        removeResting(order);
        order.price = newPrice;
        enter(order, true);
        drainTriggered();
    }

    /**
     * Take {@code delta} off the open quantity, keeping the order's place.
     */
    void reduce(final ModelOrder order, final long delta)
    {
        if (delta <= 0 || delta >= order.open())
        {
            throw new IllegalStateException("reduce by " + delta + " of open " + order.open());
        }
        order.total -= delta;
        if (order.display != 0)
        {
            order.peak = Math.min(order.peak, order.open());
        }
    }

    private void match(final ModelOrder aggressor)
    {
        final TreeMap<Long, ArrayDeque<ModelOrder>> opposite = aggressor.isBuy() ? asks : bids;
        while (aggressor.open() > 0 && !opposite.isEmpty())
        {
            final Map.Entry<Long, ArrayDeque<ModelOrder>> best = opposite.firstEntry();
            final long price = best.getKey();
            if (aggressor.isBuy() ? price > aggressor.price : price < aggressor.price)
            {
                return;
            }
            final ArrayDeque<ModelOrder> level = best.getValue();
            while (aggressor.open() > 0 && !level.isEmpty())
            {
                final ModelOrder resting = level.peekFirst();
                final long quantity = Math.min(aggressor.open(), resting.visible());
                resting.filled += quantity;
                aggressor.filled += quantity;
                trades++;
                if (resting.open() == 0)
                {
                    level.pollFirst();
                    removeLive(resting);
                }
                else if (resting.display != 0)
                {
                    resting.peak -= quantity;
                    if (resting.peak == 0)
                    {
                        // an iceberg's next peak joins the back of the queue at its price
                        level.pollFirst();
                        resting.peak = Math.min(resting.display, resting.open());
                        level.addLast(resting);
                    }
                }
                lastTradePrice = price;
                triggerStops(price);
            }
            if (level.isEmpty())
            {
                opposite.pollFirstEntry();
            }
        }
    }

    private void addResting(final ModelOrder order)
    {
        final TreeMap<Long, ArrayDeque<ModelOrder>> side = order.isBuy() ? bids : asks;
        if (order.display != 0)
        {
            order.peak = Math.min(order.display, order.open());
        }
        side.computeIfAbsent(order.price, p -> new ArrayDeque<>()).addLast(order);
        order.liveIndex = live.size();
        live.add(order);
    }

    private void removeResting(final ModelOrder order)
    {
        final TreeMap<Long, ArrayDeque<ModelOrder>> side = order.isBuy() ? bids : asks;
        final ArrayDeque<ModelOrder> level = side.get(order.price);
        final Iterator<ModelOrder> it = level.iterator();
        while (it.hasNext())
        {
            if (it.next() == order)
            {
                it.remove();
                break;
            }
        }
        if (level.isEmpty())
        {
            side.remove(order.price);
        }
        removeLive(order);
    }

    private void removeLive(final ModelOrder order)
    {
        final int index = order.liveIndex;
        final ModelOrder last = live.remove(live.size() - 1);
        if (last != order)
        {
            live.set(index, last);
            last.liveIndex = index;
        }
        order.liveIndex = -1;
    }
}
