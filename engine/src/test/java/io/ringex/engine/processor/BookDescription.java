package io.ringex.engine.processor;

import io.ringex.engine.book.Order;
import io.ringex.engine.book.OrderBook;
import io.ringex.engine.book.PriceLevels;
import io.ringex.engine.book.StopBook;

/**
 * Every book of a state as text: each level with its visible and hidden totals, order count and queue (order id and
 * priority stamp), the pending stops in trigger order and the market orders queued for an uncrossing. Two states that
 * should be the same (a restore and its original) are compared this way first, so a difference reads as a diff rather
 * than as two hashes.
 */
final class BookDescription
{
    private BookDescription()
    {
    }

    static String describe(final EngineState state)
    {
        final StringBuilder b = new StringBuilder();
        for (int k = 0; k < state.bookCount(); k++)
        {
            final OrderBook book = state.bookAt(k);
            final PriceLevels levels = book.levels();
            b.append("\nbook ").append(k).append(" status ").append(book.instrument().status());
            for (int i = levels.bestBid(); i != PriceLevels.NONE; i = levels.nextBidBelow(i))
            {
                b.append("\n B ").append(levels.price(i)).append(' ').append(levels.quantity(i, true)).append('/')
                    .append(levels.hiddenQuantity(i, true)).append('x').append(levels.orderCount(i, true))
                    .append(':');
                for (Order o = levels.head(i, true); o != null; o = PriceLevels.next(o))
                {
                    b.append(' ').append(o.orderId()).append('p').append(o.priority());
                }
            }
            for (int i = levels.bestAsk(); i != PriceLevels.NONE; i = levels.nextAskAbove(i))
            {
                b.append("\n A ").append(levels.price(i)).append(' ').append(levels.quantity(i, false)).append('/')
                    .append(levels.hiddenQuantity(i, false)).append('x').append(levels.orderCount(i, false))
                    .append(':');
                for (Order o = levels.head(i, false); o != null; o = PriceLevels.next(o))
                {
                    b.append(' ').append(o.orderId()).append('p').append(o.priority());
                }
            }
            final StopBook stops = book.stopsIfAny();
            for (int side = 0; stops != null && side < 2; side++)
            {
                for (int i = stops.first(side == 0); i != PriceLevels.NONE; i = stops.next(side == 0, i))
                {
                    b.append("\n S").append(side).append(' ').append(stops.price(i)).append(':');
                    for (Order o = stops.head(side == 0, i); o != null; o = PriceLevels.next(o))
                    {
                        b.append(' ').append(o.orderId()).append('p').append(o.priority());
                    }
                }
            }
            for (int side = 0; side < 2; side++)
            {
                b.append("\n M").append(side).append(':');
                for (Order o = book.marketQueue(side == 0).first(); o != null; o = PriceLevels.next(o))
                {
                    b.append(' ').append(o.orderId());
                }
            }
        }
        return b.toString();
    }
}
