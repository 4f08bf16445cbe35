package io.ringex.engine.book;

/**
 * A free list of {@link Order} records, so accepting an order allocates nothing once the pool has grown to the
 * high-water mark of open orders. The pool grows (allocates) only when empty, which happens during warm-up.
 * <p>
 * Threading: single business-logic thread.
 */
public final class OrderPool
{
    private Order[] free;
    private int size;
    private long created;

    /**
     * @param initialSize orders to preallocate.
     */
    public OrderPool(final int initialSize)
    {
        free = new Order[Math.max(16, initialSize)];
        for (int i = 0; i < initialSize; i++)
        {
            free[size++] = new Order();
        }
        created = initialSize;
    }

    /**
     * Take an order record; its fields are reset.
     *
     * @return a reset order.
     */
    public Order acquire()
    {
        if (size == 0)
        {
            created++;
            return new Order();
        }
        final Order order = free[--size];
        free[size] = null;
        return order;
    }

    /**
     * Give an order record back; the caller must hold no further reference to it.
     *
     * @param order a done order.
     */
    public void release(final Order order)
    {
        order.reset();
        if (size == free.length)
        {
            free = java.util.Arrays.copyOf(free, size * 2);
        }
        free[size++] = order;
    }

    /** @return records available without allocation. */
    public int available()
    {
        return size;
    }

    /** @return records ever created by this pool. */
    public long created()
    {
        return created;
    }
}
