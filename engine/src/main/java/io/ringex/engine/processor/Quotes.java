package io.ringex.engine.processor;

import io.ringex.engine.book.Order;
import io.ringex.engine.book.Quote;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * Every market maker's quotes, by account and instrument: where a mass quote finds the orders it replaces. A
 * {@link Quote} is made when an account first quotes an instrument and kept for the venue's life (reused, so quoting
 * allocates nothing once each pair has been seen). The maps are only looked up, never iterated: bulk operations walk
 * the account's open orders in acceptance order and pick the quote orders ({@link Order#isQuote()}).
 * <p>
 * Derived from the open orders (each quote order carries its quote set id), not part of the snapshot.
 * <p>
 * Threading: single business-logic thread.
 */
final class Quotes
{
    private final Long2ObjectHashMap<Int2ObjectHashMap<Quote>> byAccount = new Long2ObjectHashMap<>();

    /**
     * @param accountId    the account.
     * @param instrumentId the instrument.
     * @return its quote there (maybe without sides), or null if it never quoted the instrument.
     */
    Quote find(final long accountId, final int instrumentId)
    {
        final Int2ObjectHashMap<Quote> quotes = byAccount.get(accountId);
        return null == quotes ? null : quotes.get(instrumentId);
    }

    /**
     * @param accountId    the account.
     * @param instrumentId the instrument.
     * @return its quote there, made if it is the first.
     */
    Quote obtain(final long accountId, final int instrumentId)
    {
        Int2ObjectHashMap<Quote> quotes = byAccount.get(accountId);
        if (null == quotes)
        {
            quotes = new Int2ObjectHashMap<>();
            byAccount.put(accountId, quotes);
        }
        Quote quote = quotes.get(instrumentId);
        if (null == quote)
        {
            quote = new Quote(accountId, instrumentId);
            quotes.put(instrumentId, quote);
        }
        return quote;
    }

    /**
     * A restored quote order takes its place in its quote.
     *
     * @param order an open order with a quote set id.
     */
    void attach(final Order order)
    {
        obtain(order.accountId(), order.instrumentId()).attach(order);
    }
}
