package io.ringex.engine.book;

/**
 * The market orders of one side of a book that wait, in a call phase, for the next uncrossing: a FIFO in arrival
 * order (the priority they execute in, ahead of every limit order), linked through the orders themselves, with the
 * sum of their leaves. They are not in the price levels and not shown in the book's market data; they count in the
 * auction's indicative volume.
 * <p>
 * Threading: single business-logic thread.
 */
public final class MarketQueue
{
    private Order head;
    private Order tail;
    private long quantity;
    private int count;

    /**
     * Queue an order at the back.
     *
     * @param order    an accepted market order in no book.
     * @param priority its stamp (arrival).
     */
    void add(final Order order, final long priority)
    {
        order.priority(priority);
        order.levelNext = null;
        order.levelPrev = tail;
        if (tail == null)
        {
            head = order;
        }
        else
        {
            tail.levelNext = order;
        }
        tail = order;
        quantity += order.leavesQuantity();
        count++;
        order.location = Order.AT_AUCTION_MARKET;
    }

    /**
     * Take an order out.
     *
     * @param order a queued order.
     */
    void remove(final Order order)
    {
        if (order.levelPrev == null)
        {
            head = order.levelNext;
        }
        else
        {
            order.levelPrev.levelNext = order.levelNext;
        }
        if (order.levelNext == null)
        {
            tail = order.levelPrev;
        }
        else
        {
            order.levelNext.levelPrev = order.levelPrev;
        }
        quantity -= order.leavesQuantity();
        count--;
        order.levelPrev = null;
        order.levelNext = null;
        order.location = Order.AT_NONE;
    }

    /**
     * Fill a queued order; a filled one leaves the queue.
     *
     * @param order    a queued order.
     * @param filled   at most its leaves.
     * @param notional its notional.
     */
    void fill(final Order order, final long filled, final long notional)
    {
        order.fill(filled, notional);
        quantity -= filled;
        if (order.leavesQuantity() == 0)
        {
            remove(order);
        }
    }

    /** @return the oldest order, or null; follow {@link PriceLevels#next(Order)}. */
    public Order first()
    {
        return head;
    }

    /** @return the queued orders' leaves. */
    public long quantity()
    {
        return quantity;
    }

    /** @return queued orders. */
    public int count()
    {
        return count;
    }
}
