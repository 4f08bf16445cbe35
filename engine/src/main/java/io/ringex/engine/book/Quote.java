package io.ringex.engine.book;

/**
 * A market maker's two-sided quote in one instrument: the account's resting bid and offer there, each an ordinary
 * {@link Order} of the book (or absent). A mass quote replaces it side by side; its orders point back at it
 * ({@link Order#quote()}) and leave it when they are done.
 * <p>
 * One per (account, instrument) for the venue's life once the account first quotes the instrument: the processor
 * keeps and reuses it, so quoting allocates nothing in steady state.
 * <p>
 * Threading: single business-logic thread.
 */
public final class Quote
{
    private final long accountId;
    private final int instrumentId;
    private Order bid;
    private Order offer;

    /**
     * @param accountId    the market maker's account.
     * @param instrumentId the instrument.
     */
    public Quote(final long accountId, final int instrumentId)
    {
        this.accountId = accountId;
        this.instrumentId = instrumentId;
    }

    /** @return the account. */
    public long accountId()
    {
        return accountId;
    }

    /** @return the instrument. */
    public int instrumentId()
    {
        return instrumentId;
    }

    /**
     * @param buy side.
     * @return the open order of that side, or null.
     */
    public Order side(final boolean buy)
    {
        return buy ? bid : offer;
    }

    /**
     * Make an open quote order one of this quote's sides.
     *
     * @param order an open order of the quote's account and instrument.
     */
    public void attach(final Order order)
    {
        if (order.isBuy())
        {
            bid = order;
        }
        else
        {
            offer = order;
        }
        order.quote(this);
    }

    /**
     * A side's order is done: it leaves the quote.
     *
     * @param order one of the quote's sides.
     */
    public void detach(final Order order)
    {
        if (bid == order)
        {
            bid = null;
        }
        else if (offer == order)
        {
            offer = null;
        }
        order.quote(null);
    }
}
