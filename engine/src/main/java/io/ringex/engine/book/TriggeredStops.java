package io.ringex.engine.book;

/**
 * Stops whose stop price a trade reached, waiting their turn to enter their book: a FIFO in trigger order, linked
 * through the orders (their level links, free while they are in no book).
 * <p>
 * Why a queue: a stop cannot enter while the order whose trade triggered it is still matching. Every trade takes the
 * stops it reaches out of the book's {@link StopBook} and queues them at once, in the stop book's trigger order (buy
 * stops by stop price ascending, sell stops descending, then arrival); when the command's current order is done, the
 * processor enters them one by one, oldest trigger first, and the stops their trades trigger join the back. The queue
 * is empty between commands, so it is never part of a snapshot.
 * <p>
 * Threading: single business-logic thread.
 */
public final class TriggeredStops
{
    private Order head;
    private Order tail;

    /**
     * Queue every stop a trade at {@code price} reaches.
     *
     * @param book  the book the trade printed in.
     * @param price the trade's price.
     */
    public void onTrade(final OrderBook book, final long price)
    {
        Order order;
        while ((order = book.nextTriggeredStop(price)) != null)
        {
            order.levelPrev = tail;
            order.levelNext = null;
            if (tail == null)
            {
                head = order;
            }
            else
            {
                tail.levelNext = order;
            }
            tail = order;
            order.location = Order.AT_TRIGGERED;
        }
    }

    /**
     * @return the oldest triggered stop, taken out of the queue (its location NONE), or null.
     */
    public Order poll()
    {
        final Order order = head;
        if (order != null)
        {
            remove(order);
        }
        return order;
    }

    /**
     * @param order a queued stop (canceled before its turn: its instrument closed, or it expired).
     */
    public void remove(final Order order)
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
        order.levelPrev = null;
        order.levelNext = null;
        order.location = Order.AT_NONE;
    }

    /** @return true if no stop waits. */
    public boolean isEmpty()
    {
        return head == null;
    }
}
