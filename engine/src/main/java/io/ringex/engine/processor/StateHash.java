package io.ringex.engine.processor;

import io.ringex.engine.book.Order;
import io.ringex.engine.book.OrderBook;
import io.ringex.engine.book.PriceLevels;
import io.ringex.engine.book.StopBook;
import org.agrona.ExpandableArrayBuffer;

import java.nio.ByteOrder;

/**
 * A 64-bit hash of the whole business state, for checking a replay and the cluster's members against each other.
 * <p>
 * It covers the canonical snapshot image ({@link SnapshotWriter}: books' static and market-data state, accounts,
 * positions, open orders, id counters, epoch, kill switch; the last sequence is left out so a node that replayed
 * the same commands agrees whatever its snapshot history) and then walks every book's levels best first, mixing in
 * each level's price, visible and hidden totals and order count and each queued order's id, so the queue order itself
 * is covered; then the pending stops in trigger order and the market orders queued for an uncrossing, by id.
 * <p>
 * Threading: single business-logic thread, between commands. Allocation-free once the scratch buffer has grown.
 */
public final class StateHash
{
    private static final long MULTIPLIER = 0x9E3779B97F4A7C15L;

    private final SnapshotWriter writer = new SnapshotWriter();
    private final ExpandableArrayBuffer scratch = new ExpandableArrayBuffer(4096);

    /**
     * @param state the state.
     * @return its hash.
     */
    public long compute(final EngineState state)
    {
        final int length = writer.write(state, scratch, 0);
        scratch.putLong(SnapshotDescriptor.SEQUENCE_OFFSET, 0);
        long hash = 0x2545F4914F6CDD1DL;
        int i = 0;
        for (; i + 8 <= length; i += 8)
        {
            hash = mix(hash, scratch.getLong(i, ByteOrder.LITTLE_ENDIAN));
        }
        for (; i < length; i++)
        {
            hash = mix(hash, scratch.getByte(i));
        }
        for (int b = 0, n = state.bookCount(); b < n; b++)
        {
            final OrderBook book = state.bookAt(b);
            final PriceLevels levels = book.levels();
            for (int level = levels.bestBid(); level != PriceLevels.NONE; level = levels.nextBidBelow(level))
            {
                hash = mixLevel(hash, levels, level, true);
            }
            hash = mix(hash, -1);
            for (int level = levels.bestAsk(); level != PriceLevels.NONE; level = levels.nextAskAbove(level))
            {
                hash = mixLevel(hash, levels, level, false);
            }
            hash = mix(hash, -2);
            // a book that never had a stop has no stop book: the same as an empty one, which a restore may not make
            final StopBook stops = book.stopsIfAny();
            for (int side = 0; side < 2; side++)
            {
                final boolean buy = side == 0;
                for (int s = stops == null ? PriceLevels.NONE : stops.first(buy); s != PriceLevels.NONE;
                    s = stops.next(buy, s))
                {
                    hash = mix(hash, stops.price(s));
                    hash = mixOrders(hash, stops.head(buy, s));
                }
                hash = mix(hash, -3);
            }
            hash = mixOrders(hash, book.marketQueue(true).first());
            hash = mixOrders(mix(hash, -4), book.marketQueue(false).first());
        }
        return hash;
    }

    private static long mixLevel(final long seed, final PriceLevels levels, final int level, final boolean bid)
    {
        long hash = mix(seed, levels.price(level));
        hash = mix(hash, levels.quantity(level, bid));
        hash = mix(hash, levels.hiddenQuantity(level, bid));
        hash = mix(hash, levels.orderCount(level, bid));
        return mixOrders(hash, levels.head(level, bid));
    }

    private static long mixOrders(final long seed, final Order first)
    {
        long hash = seed;
        for (Order order = first; order != null; order = PriceLevels.next(order))
        {
            hash = mix(hash, order.orderId());
        }
        return hash;
    }

    private static long mix(final long hash, final long value)
    {
        long h = (hash ^ value) * MULTIPLIER;
        h ^= h >>> 29;
        return h;
    }
}
