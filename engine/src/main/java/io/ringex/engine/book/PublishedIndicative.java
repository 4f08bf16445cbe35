package io.ringex.engine.book;

/**
 * The auction indicative a book last published in its call phase, so the next is published only when it differs (as
 * the book's published best bid and offer are kept). Not part of the state: a restore records what it would publish
 * now.
 * <p>
 * Threading: single business-logic thread.
 */
public final class PublishedIndicative
{
    private boolean published;
    private byte status;
    private long price;
    private long matched;
    private long imbalance;
    private long endNs;

    /**
     * Whether an indicative differs from the last one published; if so it is recorded as published.
     *
     * @param status    the phase.
     * @param price     indicative price, 0 for none.
     * @param matched   matched quantity.
     * @param imbalance signed imbalance.
     * @param endNs     the phase's end.
     * @return true if an AuctionIndicative should be published.
     */
    public boolean take(final byte status, final long price, final long matched, final long imbalance, final long endNs)
    {
        if (published && status == this.status && price == this.price && matched == this.matched &&
            imbalance == this.imbalance && endNs == this.endNs)
        {
            return false;
        }
        published = true;
        this.status = status;
        this.price = price;
        this.matched = matched;
        this.imbalance = imbalance;
        this.endNs = endNs;
        return true;
    }

    /**
     * Take what another book last published (the book of an amended instrument takes its predecessor's place).
     *
     * @param other the predecessor's.
     */
    public void copy(final PublishedIndicative other)
    {
        published = other.published;
        status = other.status;
        price = other.price;
        matched = other.matched;
        imbalance = other.imbalance;
        endNs = other.endNs;
    }

    /** Forget it (a call phase ended: the next one publishes its first at once). */
    public void clear()
    {
        published = false;
    }
}
