package io.ringex.client.marketdata;

import io.ringex.protocol.codecs.BookLevelUpdateDecoder;
import io.ringex.protocol.codecs.BookOrdersDecoder;
import io.ringex.protocol.codecs.Side;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * One instrument's book as the market-data feed describes it: order by order (L3), each price level's queue in time
 * priority, and the level totals (L2) kept with it. Built from a snapshot ({@link #clear()}, then each BookOrders
 * part in turn: {@link #add(BookOrdersDecoder)}) and kept with each BookLevelUpdate ({@link #apply}), which also says
 * whether the book still agrees with the engine's level totals.
 * <p>
 * Allocation: orders and levels are pooled and reused; the order map grows only when the book holds more orders
 * than it ever did. In steady state nothing is allocated.
 * <p>
 * Threading: not thread safe; one thread (the client's, or the engine's recovery agent) owns a book.
 */
public final class MarketDataBook
{
    /** Returned by the level lookups when there is no such level. */
    public static final int NONE = -1;

    private final int instrumentId;
    private final Long2ObjectHashMap<BookOrder> orders = new Long2ObjectHashMap<>();
    private final SideLevels bids = new SideLevels(true);
    private final SideLevels asks = new SideLevels(false);
    private BookOrder freeOrders;
    private Level freeLevels;
    private long mdSequence;

    /**
     * @param instrumentId the instrument.
     */
    public MarketDataBook(final int instrumentId)
    {
        this.instrumentId = instrumentId;
    }

    /** @return the instrument. */
    public int instrumentId()
    {
        return instrumentId;
    }

    /** @return the instrument's sequence the book is at. */
    public long mdSequence()
    {
        return mdSequence;
    }

    /**
     * @param mdSequence the instrument's sequence the book is at now.
     */
    public void mdSequence(final long mdSequence)
    {
        this.mdSequence = mdSequence;
    }

    /** @return orders in the book. */
    public int orderCount()
    {
        return orders.size();
    }

    /**
     * Empty the book (before a snapshot is applied), keeping its storage.
     */
    public void clear()
    {
        clear(bids);
        clear(asks);
        orders.clear();
    }

    /**
     * Add one BookOrders part's orders (a snapshot's, or the engine's refresh), each to the back of its level in the
     * part's order.
     *
     * @param part a BookOrders message of this instrument, wrapped; its orders group is read.
     */
    public void add(final BookOrdersDecoder part)
    {
        for (final BookOrdersDecoder.OrdersDecoder order : part.orders())
        {
            add(order.orderId(), order.side() == Side.BUY, order.price(), order.quantity());
        }
    }

    /**
     * Apply one BookLevelUpdate's order-by-order change (ADD; MODIFY and EXECUTE set the quantity left; DELETE) and
     * check the level it names against the total the engine sent. The caller keeps the instrument's sequence.
     *
     * @param update a BookLevelUpdate of this instrument, wrapped.
     * @return true if the change applied and the level at the update's price now holds the update's quantity and order
     * count; false if the book is out of step with the engine (an unknown order, a duplicate, a version 1 update
     * without an order event, or other totals): the caller rebuilds it from a snapshot rather than show a wrong book.
     */
    public boolean apply(final BookLevelUpdateDecoder update)
    {
        final boolean buy = update.side() == Side.BUY;
        final boolean applied;
        switch (update.orderAction())
        {
            case ADD:
                applied = add(update.orderId(), buy, update.price(), update.orderQuantity());
                break;
            case MODIFY:
            case EXECUTE:
                applied = update(update.orderId(), update.orderQuantity());
                break;
            case DELETE:
                applied = delete(update.orderId());
                break;
            default:
                applied = false;
                break;
        }
        final int level = levelIndex(buy, update.price());
        final long quantity = level == NONE ? 0 : levelQuantity(buy, level);
        final int orders = level == NONE ? 0 : levelOrderCount(buy, level);
        return applied && quantity == update.quantity() && orders == update.orderCount();
    }

    /**
     * An order joins the back of its price level.
     *
     * @param orderId  its public id.
     * @param buy      its side.
     * @param price    its price.
     * @param quantity its quantity in the book.
     * @return false if an order of that id is already in the book (the book is then unchanged).
     */
    public boolean add(final long orderId, final boolean buy, final long price, final long quantity)
    {
        if (orders.containsKey(orderId) || quantity <= 0)
        {
            return false;
        }
        final SideLevels side = buy ? bids : asks;
        final Level level = side.levelFor(price, this);
        final BookOrder order = newOrder();
        order.orderId = orderId;
        order.quantity = quantity;
        order.level = level;
        order.prev = level.tail;
        order.next = null;
        if (null == level.tail)
        {
            level.head = order;
        }
        else
        {
            level.tail.next = order;
        }
        level.tail = order;
        level.quantity += quantity;
        level.orderCount++;
        orders.put(orderId, order);
        return true;
    }

    /**
     * Set an order's quantity in place (a reduction or a partial execution keeps its queue position); 0 removes it.
     *
     * @param orderId  the order.
     * @param quantity its quantity now.
     * @return false if the order is not in the book.
     */
    public boolean update(final long orderId, final long quantity)
    {
        final BookOrder order = orders.get(orderId);
        if (null == order)
        {
            return false;
        }
        if (quantity <= 0)
        {
            remove(order);
            return true;
        }
        order.level.quantity += quantity - order.quantity;
        order.quantity = quantity;
        return true;
    }

    /**
     * Take an order out of the book.
     *
     * @param orderId the order.
     * @return false if it was not in the book.
     */
    public boolean delete(final long orderId)
    {
        final BookOrder order = orders.get(orderId);
        if (null == order)
        {
            return false;
        }
        remove(order);
        return true;
    }

    /**
     * @param buy the side.
     * @return how many price levels it has.
     */
    public int levelCount(final boolean buy)
    {
        return (buy ? bids : asks).count;
    }

    /**
     * @param buy   the side.
     * @param index 0 for the best level.
     * @return the level's price.
     */
    public long levelPrice(final boolean buy, final int index)
    {
        return (buy ? bids : asks).levels[index].price;
    }

    /**
     * @param buy   the side.
     * @param index 0 for the best level.
     * @return the level's total quantity.
     */
    public long levelQuantity(final boolean buy, final int index)
    {
        return (buy ? bids : asks).levels[index].quantity;
    }

    /**
     * @param buy   the side.
     * @param index 0 for the best level.
     * @return how many orders the level holds.
     */
    public int levelOrderCount(final boolean buy, final int index)
    {
        return (buy ? bids : asks).levels[index].orderCount;
    }

    /**
     * @param buy   the side.
     * @param price a price.
     * @return the index of the level at that price, or {@link #NONE}.
     */
    public int levelIndex(final boolean buy, final long price)
    {
        final SideLevels side = buy ? bids : asks;
        final int i = side.search(price);
        return i >= 0 ? i : NONE;
    }

    /**
     * Visit a level's orders in queue order.
     *
     * @param buy     the side.
     * @param index   0 for the best level.
     * @param visitor called per order.
     */
    public void forEachOrder(final boolean buy, final int index, final OrderVisitor visitor)
    {
        for (BookOrder o = (buy ? bids : asks).levels[index].head; null != o; o = o.next)
        {
            visitor.onOrder(o.orderId, buy, o.level.price, o.quantity);
        }
    }

    /**
     * @param orderId an order id.
     * @return its quantity in the book, or 0 if it is not there.
     */
    public long orderQuantity(final long orderId)
    {
        final BookOrder order = orders.get(orderId);
        return null == order ? 0 : order.quantity;
    }

    /** Receives the orders of {@link #forEachOrder}. */
    @FunctionalInterface
    public interface OrderVisitor
    {
        /**
         * @param orderId  public id.
         * @param buy      side.
         * @param price    price.
         * @param quantity quantity in the book.
         */
        void onOrder(long orderId, boolean buy, long price, long quantity);
    }

    private void remove(final BookOrder order)
    {
        final Level level = order.level;
        if (null == order.prev)
        {
            level.head = order.next;
        }
        else
        {
            order.prev.next = order.next;
        }
        if (null == order.next)
        {
            level.tail = order.prev;
        }
        else
        {
            order.next.prev = order.prev;
        }
        level.quantity -= order.quantity;
        level.orderCount--;
        orders.remove(order.orderId);
        if (0 == level.orderCount)
        {
            (level.buy ? bids : asks).removeLevel(level, this);
        }
        order.level = null;
        order.prev = null;
        order.next = freeOrders;
        freeOrders = order;
    }

    private void clear(final SideLevels side)
    {
        for (int i = 0; i < side.count; i++)
        {
            final Level level = side.levels[i];
            BookOrder o = level.head;
            while (null != o)
            {
                final BookOrder next = o.next;
                o.level = null;
                o.prev = null;
                o.next = freeOrders;
                freeOrders = o;
                o = next;
            }
            releaseLevel(level);
            side.levels[i] = null;
        }
        side.count = 0;
    }

    private BookOrder newOrder()
    {
        final BookOrder order = freeOrders;
        if (null == order)
        {
            return new BookOrder();
        }
        freeOrders = order.next;
        order.next = null;
        return order;
    }

    private Level newLevel(final boolean buy, final long price)
    {
        Level level = freeLevels;
        if (null == level)
        {
            level = new Level();
        }
        else
        {
            freeLevels = level.nextFree;
            level.nextFree = null;
        }
        level.buy = buy;
        level.price = price;
        level.quantity = 0;
        level.orderCount = 0;
        level.head = null;
        level.tail = null;
        return level;
    }

    private void releaseLevel(final Level level)
    {
        level.head = null;
        level.tail = null;
        level.nextFree = freeLevels;
        freeLevels = level;
    }

    private static final class BookOrder
    {
        long orderId;
        long quantity;
        Level level;
        BookOrder prev;
        BookOrder next;
    }

    private static final class Level
    {
        boolean buy;
        long price;
        long quantity;
        int orderCount;
        BookOrder head;
        BookOrder tail;
        Level nextFree;
    }

    /** Levels of one side, best first, in a sorted array (books have tens of levels, not millions). */
    private static final class SideLevels
    {
        private final boolean buy;
        private Level[] levels = new Level[64];
        private int count;

        SideLevels(final boolean buy)
        {
            this.buy = buy;
        }

        /** @return the index of the price, or -(insertion point) - 1. */
        int search(final long price)
        {
            int low = 0;
            int high = count - 1;
            while (low <= high)
            {
                final int mid = (low + high) >>> 1;
                final long midPrice = levels[mid].price;
                if (midPrice == price)
                {
                    return mid;
                }
                // best first: bids descend, asks ascend
                final boolean before = buy ? midPrice > price : midPrice < price;
                if (before)
                {
                    low = mid + 1;
                }
                else
                {
                    high = mid - 1;
                }
            }
            return -(low + 1);
        }

        Level levelFor(final long price, final MarketDataBook book)
        {
            final int found = search(price);
            if (found >= 0)
            {
                return levels[found];
            }
            final int at = -found - 1;
            if (count == levels.length)
            {
                levels = java.util.Arrays.copyOf(levels, count * 2);
            }
            System.arraycopy(levels, at, levels, at + 1, count - at);
            final Level level = book.newLevel(buy, price);
            levels[at] = level;
            count++;
            return level;
        }

        void removeLevel(final Level level, final MarketDataBook book)
        {
            final int at = search(level.price);
            System.arraycopy(levels, at + 1, levels, at, count - at - 1);
            levels[--count] = null;
            book.releaseLevel(level);
        }
    }
}
