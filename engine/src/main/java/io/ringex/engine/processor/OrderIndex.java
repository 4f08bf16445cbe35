package io.ringex.engine.processor;

import io.ringex.engine.book.Order;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Every open order of the venue, findable by engine order id and by (account, client order id), and walkable in
 * acceptance order (order id ascending) through an intrusive list. Both lookups are intrusive chained hash tables whose
 * chains run through the orders themselves; nothing is allocated after construction, and how a table grows depends only
 * on how many orders are open, so it is deterministic (docs/matching.md, "Allocation"). A quote's orders are indexed by
 * order id only.
 * <p>
 * Threading: single business-logic thread.
 */
public final class OrderIndex
{
    private static final int MIN_BUCKETS = 16;
    /** Buckets in use stay at least 2^LOAD_SHIFT per open order: fewer made the chains, i.e. order misses, longer. */
    private static final int LOAD_SHIFT = 3;

    private final Order[] byId;
    private final Order[] byClientOrderId;
    private final int capacity;
    private int activeBuckets;
    private int shift;
    private Order first;
    private Order last;
    private int size;

    /**
     * @param expectedOrders open orders to size the tables for (one bucket per expected order, rounded up to a power
     *                       of two).
     */
    public OrderIndex(final int expectedOrders)
    {
        capacity = Math.max(MIN_BUCKETS, Integer.highestOneBit(Math.max(1, expectedOrders - 1)) << 1);
        byId = new Order[capacity];
        byClientOrderId = new Order[capacity];
        activeBuckets = MIN_BUCKETS;
        shift = 64 - Integer.numberOfTrailingZeros(MIN_BUCKETS);
    }

    /** @return buckets in use per table (tests). */
    int activeBuckets()
    {
        return activeBuckets;
    }

    /** @return number of open orders. */
    public int size()
    {
        return size;
    }

    /** @return the oldest open order, or null. */
    public Order first()
    {
        return first;
    }

    /**
     * @param orderId engine order id.
     * @return the open order or null.
     */
    public Order byId(final long orderId)
    {
        for (Order order = byId[bucket(orderId)]; order != null; order = order.orderIdNext)
        {
            if (order.orderId() == orderId)
            {
                return order;
            }
        }
        return null;
    }

    /**
     * Find an account's open order by its client order id.
     *
     * @param accountId account.
     * @param buffer    holding 20 id bytes.
     * @param offset    where they start.
     * @return the open order or null.
     */
    public Order byClientOrderId(final long accountId, final DirectBuffer buffer, final int offset)
    {
        return byClientOrderId(accountId, buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN),
            buffer.getLong(offset + 8, ByteOrder.LITTLE_ENDIAN), buffer.getInt(offset + 16, ByteOrder.LITTLE_ENDIAN));
    }

    /**
     * Find an account's open order by its client order id given as its words.
     *
     * @param accountId account.
     * @param w0        id bytes 0-7, little-endian.
     * @param w1        id bytes 8-15, little-endian.
     * @param w2        id bytes 16-19, little-endian.
     * @return the open order or null.
     */
    public Order byClientOrderId(final long accountId, final long w0, final long w1, final int w2)
    {
        final long hash = hash(accountId, w0, w1, w2);
        for (Order order = byClientOrderId[bucket(hash)]; order != null; order = order.clientOrderIdNext)
        {
            if (order.clientOrderIdHash == hash && order.accountId() == accountId &&
                order.clientOrderIdLong(0) == w0 && order.clientOrderIdLong(8) == w1 && order.clientOrderIdTail() == w2)
            {
                return order;
            }
        }
        return null;
    }

    /**
     * Add a newly accepted order at the end of the venue list.
     *
     * @param order the order, its id and client order id set.
     */
    public void add(final Order order)
    {
        final int idBucket = bucket(order.orderId());
        order.orderIdNext = byId[idBucket];
        byId[idBucket] = order;
        if (!order.isQuote())
        {
            addClientKey(order);
        }
        order.venuePrev = last;
        order.venueNext = null;
        if (last == null)
        {
            first = order;
        }
        else
        {
            last.venueNext = order;
        }
        last = order;
        if (++size > activeBuckets >> LOAD_SHIFT && activeBuckets < capacity)
        {
            grow();
        }
    }

    /** Double the buckets in use and split every chain between the two buckets its orders now hash to. */
    private void grow()
    {
        final int oldBuckets = activeBuckets;
        activeBuckets = oldBuckets << 1;
        shift--;
        // from the top down: bucket i's orders go to 2i and 2i+1, which are either new or already split
        for (int i = oldBuckets - 1; i >= 0; i--)
        {
            Order order = byId[i];
            byId[2 * i] = null;
            byId[2 * i + 1] = null;
            while (order != null)
            {
                final Order next = order.orderIdNext;
                final int bucket = bucket(order.orderId());
                order.orderIdNext = byId[bucket];
                byId[bucket] = order;
                order = next;
            }
            order = byClientOrderId[i];
            byClientOrderId[2 * i] = null;
            byClientOrderId[2 * i + 1] = null;
            while (order != null)
            {
                final Order next = order.clientOrderIdNext;
                final int bucket = bucket(order.clientOrderIdHash);
                order.clientOrderIdNext = byClientOrderId[bucket];
                byClientOrderId[bucket] = order;
                order = next;
            }
        }
    }

    /**
     * Remove an order that is done.
     *
     * @param order an indexed order.
     */
    public void remove(final Order order)
    {
        removeById(order);
        if (!order.isQuote())
        {
            removeClientKey(order);
        }
        if (order.venuePrev == null)
        {
            first = order.venueNext;
        }
        else
        {
            order.venuePrev.venueNext = order.venueNext;
        }
        if (order.venueNext == null)
        {
            last = order.venuePrev;
        }
        else
        {
            order.venueNext.venuePrev = order.venuePrev;
        }
        order.venuePrev = null;
        order.venueNext = null;
        size--;
    }

    /**
     * Give an indexed order a new client order id (replace).
     *
     * @param order  the order.
     * @param buffer holding the new 20 id bytes.
     * @param offset where they start.
     */
    public void changeClientOrderId(final Order order, final DirectBuffer buffer, final int offset)
    {
        changeClientOrderId(order, buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN),
            buffer.getLong(offset + 8, ByteOrder.LITTLE_ENDIAN), buffer.getInt(offset + 16, ByteOrder.LITTLE_ENDIAN));
    }

    /**
     * Give an indexed order a new client order id (replace), given as its words.
     *
     * @param order the order.
     * @param w0    id bytes 0-7, little-endian.
     * @param w1    id bytes 8-15, little-endian.
     * @param w2    id bytes 16-19, little-endian.
     */
    public void changeClientOrderId(final Order order, final long w0, final long w1, final int w2)
    {
        removeClientKey(order);
        order.clientOrderId(w0, w1, w2);
        addClientKey(order);
    }

    private void addClientKey(final Order order)
    {
        final long hash = hash(order.accountId(), order.clientOrderIdLong(0), order.clientOrderIdLong(8),
            order.clientOrderIdTail());
        final int bucket = bucket(hash);
        order.clientOrderIdHash = hash;
        order.clientOrderIdNext = byClientOrderId[bucket];
        byClientOrderId[bucket] = order;
    }

    private void removeById(final Order order)
    {
        final int bucket = bucket(order.orderId());
        Order previous = null;
        for (Order current = byId[bucket]; current != null; current = current.orderIdNext)
        {
            if (current == order)
            {
                if (previous == null)
                {
                    byId[bucket] = order.orderIdNext;
                }
                else
                {
                    previous.orderIdNext = order.orderIdNext;
                }
                order.orderIdNext = null;
                return;
            }
            previous = current;
        }
    }

    private void removeClientKey(final Order order)
    {
        final int bucket = bucket(order.clientOrderIdHash);
        Order previous = null;
        for (Order current = byClientOrderId[bucket]; current != null; current = current.clientOrderIdNext)
        {
            if (current == order)
            {
                if (previous == null)
                {
                    byClientOrderId[bucket] = order.clientOrderIdNext;
                }
                else
                {
                    previous.clientOrderIdNext = order.clientOrderIdNext;
                }
                order.clientOrderIdNext = null;
                return;
            }
            previous = current;
        }
    }

    private int bucket(final long key)
    {
        // Fibonacci hashing: the high bits of key x golden ratio; spreads sequential order ids evenly too
        return (int)((key * 0x9E3779B97F4A7C15L) >>> shift);
    }

    private static long hash(final long accountId, final long w0, final long w1, final int w2)
    {
        long hash = accountId * 0x9E3779B97F4A7C15L;
        hash = (hash ^ w0) * 0xC2B2AE3D27D4EB4FL;
        hash = (hash ^ w1) * 0xC2B2AE3D27D4EB4FL;
        hash = (hash ^ (w2 & 0xFFFF_FFFFL)) * 0xC2B2AE3D27D4EB4FL;
        return hash ^ (hash >>> 31);
    }
}
