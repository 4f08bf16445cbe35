package io.ringex.client;

import io.ringex.protocol.MessageCatalog;
import io.ringex.protocol.codecs.MassQuoteEncoder;

/**
 * The entries of one mass quote, filled in and reused: {@link #clear()}, then {@link #add} once per instrument (up to
 * {@link #MAX_ENTRIES}), then hand it to {@link ExchangeClient#massQuote} or {@link CommandEncoder#massQuote}. Each
 * entry sets the account's two-sided quote in one instrument; a size of 0 pulls that side.
 * <p>
 * Prices are fixed point at the instrument's price scale, sizes whole units (the open quantity of each side).
 * Nothing is allocated after construction.
 * <p>
 * Threading: one thread at a time.
 */
public final class QuoteEntries
{
    /** Most entries in one mass quote (the engine refuses more: TOO_MANY_QUOTE_ENTRIES). */
    public static final int MAX_ENTRIES = MessageCatalog.MAX_QUOTE_ENTRIES;

    private final long[] quoteEntryIds = new long[MAX_ENTRIES];
    private final int[] quoteSetIds = new int[MAX_ENTRIES];
    private final int[] instrumentIds = new int[MAX_ENTRIES];
    private final long[] bidPrices = new long[MAX_ENTRIES];
    private final long[] bidSizes = new long[MAX_ENTRIES];
    private final long[] offerPrices = new long[MAX_ENTRIES];
    private final long[] offerSizes = new long[MAX_ENTRIES];
    private int count;

    /**
     * Start a new mass quote.
     *
     * @return this.
     */
    public QuoteEntries clear()
    {
        count = 0;
        return this;
    }

    /**
     * Add one instrument's quote.
     *
     * @param quoteEntryId your id of the entry (0 to 4294967295), echoed in its acknowledgement.
     * @param quoteSetId   the quote set (1 to 65535) the quote belongs to from now on (a quote cancel by set).
     * @param instrumentId the instrument.
     * @param bidPrice     the bid price (ignored when bidSize is 0).
     * @param bidSize      the bid's open quantity; 0 pulls the bid.
     * @param offerPrice   the offer price (ignored when offerSize is 0).
     * @param offerSize    the offer's open quantity; 0 pulls the offer.
     * @return this.
     * @throws IllegalStateException if it already holds {@link #MAX_ENTRIES}.
     */
    public QuoteEntries add(
        final long quoteEntryId,
        final int quoteSetId,
        final int instrumentId,
        final long bidPrice,
        final long bidSize,
        final long offerPrice,
        final long offerSize)
    {
        if (count == MAX_ENTRIES)
        {
            throw new IllegalStateException("a mass quote holds at most " + MAX_ENTRIES + " entries");
        }
        quoteEntryIds[count] = quoteEntryId;
        quoteSetIds[count] = quoteSetId;
        instrumentIds[count] = instrumentId;
        bidPrices[count] = bidPrice;
        bidSizes[count] = bidSize;
        offerPrices[count] = offerPrice;
        offerSizes[count] = offerSize;
        count++;
        return this;
    }

    /** @return entries added since {@link #clear()}. */
    public int count()
    {
        return count;
    }

    /**
     * @param index 0 to count - 1.
     * @return its quote entry id.
     */
    public long quoteEntryId(final int index)
    {
        return quoteEntryIds[index];
    }

    /**
     * @param index 0 to count - 1.
     * @return its quote set id.
     */
    public int quoteSetId(final int index)
    {
        return quoteSetIds[index];
    }

    /**
     * @param index 0 to count - 1.
     * @return its instrument.
     */
    public int instrumentId(final int index)
    {
        return instrumentIds[index];
    }

    /**
     * @param index 0 to count - 1.
     * @return its bid price.
     */
    public long bidPrice(final int index)
    {
        return bidPrices[index];
    }

    /**
     * @param index 0 to count - 1.
     * @return its bid size.
     */
    public long bidSize(final int index)
    {
        return bidSizes[index];
    }

    /**
     * @param index 0 to count - 1.
     * @return its offer price.
     */
    public long offerPrice(final int index)
    {
        return offerPrices[index];
    }

    /**
     * @param index 0 to count - 1.
     * @return its offer size.
     */
    public long offerSize(final int index)
    {
        return offerSizes[index];
    }

    /**
     * Write the entries as a MassQuote's group.
     *
     * @param massQuote wrapped, its root block written.
     */
    void writeTo(final MassQuoteEncoder massQuote)
    {
        final MassQuoteEncoder.EntriesEncoder group = massQuote.entriesCount(count);
        for (int i = 0; i < count; i++)
        {
            group.next()
                .quoteEntryId(quoteEntryIds[i])
                .quoteSetId(quoteSetIds[i])
                .instrumentId(instrumentIds[i])
                .bidPrice(bidPrices[i])
                .bidSize(bidSizes[i])
                .offerPrice(offerPrices[i])
                .offerSize(offerSizes[i]);
        }
    }
}
