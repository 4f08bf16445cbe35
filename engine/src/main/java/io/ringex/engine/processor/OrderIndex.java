package io.ringex.engine.processor;

import io.ringex.engine.book.Order;
import org.agrona.DirectBuffer;
import org.agrona.collections.Hashing;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * Every open order of the venue, findable by engine order id and by (account, client order id), and walkable in
 * acceptance order (order id ascending) through an intrusive list.
 * <p>
 * The client-order-id index hashes (account, 20 id bytes) to a 64-bit key; orders whose keys collide are chained
 * through {@link Order#clientOrderIdNext} and told apart by comparing the bytes, so no key object is ever allocated.
 * Hash maps are only used for lookups, never iterated.
 * <p>
 * Threading: single business-logic thread.
 */
public final class OrderIndex
{
    private final Long2ObjectHashMap<Order> byId;
    private final Long2ObjectHashMap<Order> byClientOrderId;
    private Order first;
    private Order last;
    private int size;

    /**
     * @param expectedOrders open orders to size the maps for.
     */
    public OrderIndex(final int expectedOrders)
    {
        // capacity for twice the expected orders at Agrona's default load factor: no resize in steady state
        byId = new Long2ObjectHashMap<>(Math.max(16, expectedOrders * 2), Hashing.DEFAULT_LOAD_FACTOR);
        byClientOrderId = new Long2ObjectHashMap<>(Math.max(16, expectedOrders * 2), Hashing.DEFAULT_LOAD_FACTOR);
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
        return byId.get(orderId);
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
        final long key = key(accountId, buffer, offset);
        for (Order order = byClientOrderId.get(key); order != null; order = order.clientOrderIdNext)
        {
            if (order.accountId() == accountId && order.clientOrderIdEquals(buffer, offset))
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
        byId.put(order.orderId(), order);
        addClientKey(order);
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
        size++;
    }

    /**
     * Remove an order that is done.
     *
     * @param order an indexed order.
     */
    public void remove(final Order order)
    {
        byId.remove(order.orderId());
        removeClientKey(order);
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
        removeClientKey(order);
        order.clientOrderId(buffer, offset);
        addClientKey(order);
    }

    private void addClientKey(final Order order)
    {
        final long key = key(order.accountId(), order.clientOrderId());
        order.clientOrderIdNext = byClientOrderId.get(key);
        byClientOrderId.put(key, order);
    }

    private void removeClientKey(final Order order)
    {
        final long key = key(order.accountId(), order.clientOrderId());
        Order previous = null;
        for (Order current = byClientOrderId.get(key); current != null; current = current.clientOrderIdNext)
        {
            if (current == order)
            {
                if (previous == null)
                {
                    if (order.clientOrderIdNext == null)
                    {
                        byClientOrderId.remove(key);
                    }
                    else
                    {
                        byClientOrderId.put(key, order.clientOrderIdNext);
                    }
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

    private static long key(final long accountId, final DirectBuffer buffer, final int offset)
    {
        long hash = accountId * 0x9E3779B97F4A7C15L;
        for (int i = 0; i < Order.CLIENT_ORDER_ID_LENGTH; i++)
        {
            hash = (hash ^ (buffer.getByte(offset + i) & 0xFF)) * 0x100000001B3L;
        }
        return hash;
    }

    private static long key(final long accountId, final byte[] clientOrderId)
    {
        long hash = accountId * 0x9E3779B97F4A7C15L;
        for (int i = 0; i < Order.CLIENT_ORDER_ID_LENGTH; i++)
        {
            hash = (hash ^ (clientOrderId[i] & 0xFF)) * 0x100000001B3L;
        }
        return hash;
    }
}
