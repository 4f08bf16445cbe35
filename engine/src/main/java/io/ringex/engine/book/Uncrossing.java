package io.ringex.engine.book;

/**
 * Finds the single price a call phase's uncrossing executes at, and what it would execute: the equilibrium price, by
 * the Xetra and Euronext chain (largest volume, smallest surplus, market pressure, nearest the reference price;
 * docs/matching.md, "The uncrossing").
 * <p>
 * One pass over the occupied levels in ascending price with running sums; no allocation.
 * <p>
 * Threading: single business-logic thread; one instance reused, its results valid until the next {@link #compute}.
 */
public final class Uncrossing
{
    private long price;
    private long matched;
    private long imbalance;

    private long bestVolume;
    private long bestAbsSurplus;
    private long lowPrice;
    private long lowSurplus;
    private long highPrice;
    private long highSurplus;
    private boolean anyNonPositive;
    private boolean anyNonNegative;
    private boolean referenceInSet;
    private long referenceSurplus;
    private long nearestPrice;
    private long nearestSurplus;

    /**
     * Compute the equilibrium of a book as it stands.
     *
     * @param book the book.
     * @return true if something would execute ({@link #price()} is then set).
     */
    public boolean compute(final OrderBook book)
    {
        final PriceLevels levels = book.levels();
        final long marketBuys = book.marketQueue(true).quantity();
        final long marketSells = book.marketQueue(false).quantity();
        final long reference = book.dynamicReferencePrice();
        final int referenceIndex = levels.index(reference);
        bestVolume = -1;
        price = 0;
        matched = 0;
        imbalance = 0;

        long bidsAtOrAbove = 0;
        for (int i = levels.bestBid(); i != PriceLevels.NONE; i = levels.nextBidBelow(i))
        {
            bidsAtOrAbove += levels.quantity(i, true) + levels.hiddenQuantity(i, true);
        }
        long asksAtOrBelow = 0;
        int bid = levels.bidAtOrAbove(0);
        int ask = levels.askAtOrAbove(0);
        boolean referenceDone = referenceIndex < 0 || referenceIndex >= levels.levelCount();
        while (true)
        {
            int index = Integer.MAX_VALUE;
            if (bid != PriceLevels.NONE)
            {
                index = bid;
            }
            if (ask != PriceLevels.NONE)
            {
                index = Math.min(index, ask);
            }
            if (!referenceDone)
            {
                index = Math.min(index, referenceIndex);
            }
            if (index == Integer.MAX_VALUE)
            {
                break;
            }
            if (index == ask)
            {
                asksAtOrBelow += levels.quantity(index, false) + levels.hiddenQuantity(index, false);
                ask = levels.nextAskAbove(index);
            }
            if (index == referenceIndex)
            {
                referenceDone = true;
            }
            consider(levels.price(index), marketBuys + bidsAtOrAbove, marketSells + asksAtOrBelow, reference);
            if (index == bid)
            {
                bidsAtOrAbove -= levels.quantity(index, true) + levels.hiddenQuantity(index, true);
                bid = levels.bidAtOrAbove(index + 1);
            }
        }

        if (bestVolume <= 0)
        {
            return false;
        }
        matched = bestVolume;
        if (!anyNonPositive)
        {
            price = highPrice;
            imbalance = highSurplus;
        }
        else if (!anyNonNegative)
        {
            price = lowPrice;
            imbalance = lowSurplus;
        }
        else if (referenceInSet)
        {
            price = reference;
            imbalance = referenceSurplus;
        }
        else
        {
            price = nearestPrice;
            imbalance = nearestSurplus;
        }
        return true;
    }

    private void consider(final long candidate, final long buyVolume, final long sellVolume, final long reference)
    {
        final long volume = Math.min(buyVolume, sellVolume);
        final long surplus = buyVolume - sellVolume;
        final long absSurplus = Math.abs(surplus);
        if (volume > bestVolume || (volume == bestVolume && absSurplus < bestAbsSurplus))
        {
            bestVolume = volume;
            bestAbsSurplus = absSurplus;
            lowPrice = candidate;
            lowSurplus = surplus;
            anyNonPositive = false;
            anyNonNegative = false;
            referenceInSet = false;
            nearestPrice = candidate;
            nearestSurplus = surplus;
        }
        else if (volume != bestVolume || absSurplus != bestAbsSurplus)
        {
            return;
        }
        highPrice = candidate;
        highSurplus = surplus;
        anyNonPositive |= surplus <= 0;
        anyNonNegative |= surplus >= 0;
        if (candidate == reference)
        {
            referenceInSet = true;
            referenceSurplus = surplus;
        }
        if (Math.abs(candidate - reference) <= Math.abs(nearestPrice - reference))
        {
            nearestPrice = candidate;
            nearestSurplus = surplus;
        }
    }

    /** @return the equilibrium price after a {@link #compute} that returned true, else 0. */
    public long price()
    {
        return price;
    }

    /** @return the volume it executes. */
    public long matched()
    {
        return matched;
    }

    /** @return what it leaves: positive on the buy side, negative on the sell side. */
    public long imbalance()
    {
        return imbalance;
    }
}
