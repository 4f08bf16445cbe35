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
    private long trades;

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
        match(order);
        if (rest && order.open() > 0)
        {
            addResting(order);
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
        match(order);
        if (order.open() > 0)
        {
            addResting(order);
        }
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
                final long quantity = Math.min(aggressor.open(), resting.open());
                resting.filled += quantity;
                aggressor.filled += quantity;
                trades++;
                if (resting.open() == 0)
                {
                    level.pollFirst();
                    removeLive(resting);
                }
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
