package io.ringex.engine.book;

import io.ringex.protocol.FixedPoint;

import java.util.Arrays;

/**
 * The mark price and price scale of every book, side by side in two arrays indexed by the book's creation index.
 * <p>
 * Why: an account's risk totals value every position at its instrument's mark. Reading the mark through each
 * position's book (book, then instrument, for the reference price) is a chain of dependent loads per position; with
 * a hundred positions per account those misses were most of the end-of-batch risk flush. The marks of all books fit a
 * few cache lines here. A book writes its mark whenever it changes ({@link OrderBook#lastTradePrice(long)}).
 * <p>
 * Each mark is also kept at money scale ({@link #markMoney()}: mark x 10^(money scale - price scale), or
 * {@link FixedPoint#INVALID} if that does not fit), so valuing a position is one multiplication.
 * <p>
 * Not part of the state: it is derived from the books, rebuilt as they are added or restored.
 * <p>
 * Threading: single business-logic thread.
 */
public final class MarkPrices
{
    private long[] marks = new long[16];
    private int[] scales = new int[16];
    private long[] markMoney = new long[16];
    private int count;

    /**
     * Give a book the next index and record its current mark.
     *
     * @param book a book not yet registered.
     * @return its index.
     */
    public int register(final OrderBook book)
    {
        if (count == marks.length)
        {
            marks = Arrays.copyOf(marks, count * 2);
            scales = Arrays.copyOf(scales, count * 2);
            markMoney = Arrays.copyOf(markMoney, count * 2);
        }
        final int index = count++;
        scales[index] = book.instrument().priceScale();
        book.attachMarks(this, index);
        return index;
    }

    /**
     * @param index a book index.
     * @param mark  its mark price now.
     */
    void set(final int index, final long mark)
    {
        marks[index] = mark;
        final long factor = FixedPoint.powerOfTen(FixedPoint.MONEY_SCALE - scales[index]);
        final long money = mark * factor;
        markMoney[index] = Math.multiplyHigh(mark, factor) != (money >> 63) ? FixedPoint.INVALID : money;
    }

    /**
     * The value of a net quantity at a book's mark, exactly as {@link FixedPoint#notional(long, long, int)} of the
     * mark, the quantity and the book's price scale.
     *
     * @param markMoney the book's {@link #markMoney()} entry.
     * @param quantity  signed quantity.
     * @return mark x quantity at money scale, or {@link FixedPoint#INVALID} if it does not fit an int64.
     */
    public static long value(final long markMoney, final long quantity)
    {
        if (markMoney == FixedPoint.INVALID)
        {
            return FixedPoint.INVALID;
        }
        final long result = markMoney * quantity;
        return Math.multiplyHigh(markMoney, quantity) != (result >> 63) ? FixedPoint.INVALID : result;
    }

    /**
     * @param index a book index.
     * @return its mark price.
     */
    public long mark(final int index)
    {
        return marks[index];
    }

    /**
     * @param index a book index.
     * @return its instrument's price scale.
     */
    public int scale(final int index)
    {
        return scales[index];
    }

    /** @return the marks array (read-only by convention; replaced when it grows, so do not keep it). */
    public long[] marks()
    {
        return marks;
    }

    /** @return marks at money scale, INVALID where one does not fit (read-only; replaced when it grows). */
    public long[] markMoney()
    {
        return markMoney;
    }

    /** @return the scales array (read-only by convention; replaced when it grows, so do not keep it). */
    public int[] scales()
    {
        return scales;
    }
}
