package io.ringex.engine.processor;

import io.ringex.engine.book.Order;

import java.util.Arrays;

/**
 * The open GTD orders of the venue by expiry: a binary heap ordered by (expire time, order id), each order knowing
 * its place ({@link Order#expiryIndex()}) so a fill or cancel takes it out in O(log n). The order is total, so what
 * expires first, and the order of orders expiring together (order id ascending), does not depend on how the heap was
 * built: a restore rebuilds it from the snapshot's orders and expires the same orders in the same order.
 * <p>
 * Derived, not part of the state (each order's expire time is). The array grows when full (warm-up only).
 * <p>
 * Threading: single business-logic thread.
 */
final class Expiries
{
    private Order[] heap = new Order[64];
    private int size;

    /**
     * @param order an open GTD order not yet here.
     */
    void add(final Order order)
    {
        if (size == heap.length)
        {
            heap = Arrays.copyOf(heap, size * 2);
        }
        heap[size] = order;
        order.expiryIndex(size);
        size++;
        siftUp(size - 1);
    }

    /**
     * @param order an order here (a GTD order that filled, was canceled or expired).
     */
    void remove(final Order order)
    {
        final int index = order.expiryIndex();
        order.expiryIndex(-1);
        size--;
        if (index == size)
        {
            heap[size] = null;
            return;
        }
        final Order last = heap[size];
        heap[size] = null;
        heap[index] = last;
        last.expiryIndex(index);
        siftDown(index);
        siftUp(last.expiryIndex());
    }

    /** @return the earliest expire time, or {@link Long#MAX_VALUE} if none. */
    long nextExpiryNs()
    {
        return size == 0 ? Long.MAX_VALUE : heap[0].expireTimeNs();
    }

    /** @return the order that expires first (ties: lowest order id), or null. */
    Order first()
    {
        return size == 0 ? null : heap[0];
    }

    /** @return orders here. */
    int size()
    {
        return size;
    }

    private static boolean before(final Order a, final Order b)
    {
        return a.expireTimeNs() < b.expireTimeNs() ||
            (a.expireTimeNs() == b.expireTimeNs() && a.orderId() < b.orderId());
    }

    private void siftUp(final int from)
    {
        int index = from;
        final Order order = heap[index];
        while (index > 0)
        {
            final int parent = (index - 1) >>> 1;
            if (!before(order, heap[parent]))
            {
                break;
            }
            heap[index] = heap[parent];
            heap[index].expiryIndex(index);
            index = parent;
        }
        heap[index] = order;
        order.expiryIndex(index);
    }

    private void siftDown(final int from)
    {
        int index = from;
        final Order order = heap[index];
        while (true)
        {
            final int left = 2 * index + 1;
            if (left >= size)
            {
                break;
            }
            final int right = left + 1;
            final int child = right < size && before(heap[right], heap[left]) ? right : left;
            if (!before(heap[child], order))
            {
                break;
            }
            heap[index] = heap[child];
            heap[index].expiryIndex(index);
            index = child;
        }
        heap[index] = order;
        order.expiryIndex(index);
    }
}
