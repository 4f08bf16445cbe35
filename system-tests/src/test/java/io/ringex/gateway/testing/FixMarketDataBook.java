package io.ringex.gateway.testing;

import quickfix.FieldNotFound;
import quickfix.Group;
import quickfix.Message;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A FIX client's book of one symbol as a market-data subscriber would keep it: replaced by each
 * MarketDataSnapshotFullRefresh (W), changed by each MarketDataIncrementalRefresh (X) entry (New/Change set the
 * level, Delete removes it); trades collected from X. Independent of the gateway's code: it reads QuickFIX/J
 * messages.
 */
public final class FixMarketDataBook
{
    private final TreeMap<BigDecimal, Long> bids = new TreeMap<>();
    private final TreeMap<BigDecimal, Long> asks = new TreeMap<>();
    private final List<BigDecimal> tradePrices = new ArrayList<>();
    private final List<Long> tradeSizes = new ArrayList<>();
    private final Map<Character, BigDecimal> statistics = new TreeMap<>();
    private int fullRefreshes;
    private int incrementals;

    /**
     * Apply a W or X (others are ignored).
     *
     * @param m the message.
     * @throws FieldNotFound if an entry lacks a field the gateway always sends.
     */
    public void apply(final Message m) throws FieldNotFound
    {
        final String type = m.getHeader().getString(35);
        if ("W".equals(type))
        {
            bids.clear();
            asks.clear();
            fullRefreshes++;
            for (final Group entry : m.getGroups(268))
            {
                entry(entry.getChar(269), '0', price(entry), size(entry), false);
            }
        }
        else if ("X".equals(type))
        {
            incrementals++;
            for (final Group entry : m.getGroups(268))
            {
                entry(entry.getChar(269), entry.getChar(279), price(entry), size(entry), true);
            }
        }
    }

    private void entry(final char type, final char action, final BigDecimal price, final Long size,
        final boolean incremental)
    {
        switch (type)
        {
            case '0', '1' ->
            {
                final TreeMap<BigDecimal, Long> side = type == '0' ? bids : asks;
                if (incremental && action == '2')
                {
                    if (side.remove(price) == null)
                    {
                        throw new AssertionError("delete of a level the subscriber does not hold: " + price);
                    }
                }
                else
                {
                    if (incremental && action == '0' && side.containsKey(price))
                    {
                        throw new AssertionError("new level the subscriber already holds: " + price);
                    }
                    if (incremental && action == '1' && !side.containsKey(price))
                    {
                        throw new AssertionError("change of a level the subscriber does not hold: " + price);
                    }
                    side.put(price, size);
                }
            }
            case '2' ->
            {
                if (incremental)
                {
                    tradePrices.add(price);
                    tradeSizes.add(size);
                }
            }
            default -> statistics.put(type, type == 'B' ? BigDecimal.valueOf(size) : price);
        }
    }

    private static BigDecimal price(final Group entry) throws FieldNotFound
    {
        return entry.isSetField(270) ? entry.getDecimal(270).stripTrailingZeros() : null;
    }

    private static Long size(final Group entry) throws FieldNotFound
    {
        return entry.isSetField(271) ? (long)entry.getDouble(271) : null;
    }

    /**
     * @return bids, price to quantity.
     */
    public TreeMap<BigDecimal, Long> bids()
    {
        return bids;
    }

    /**
     * @return asks, price to quantity.
     */
    public TreeMap<BigDecimal, Long> asks()
    {
        return asks;
    }

    /**
     * @return sizes of the trades received in X messages.
     */
    public List<Long> tradeSizes()
    {
        return tradeSizes;
    }

    /**
     * @return prices of the trades received in X messages.
     */
    public List<BigDecimal> tradePrices()
    {
        return tradePrices;
    }

    /**
     * @return the last value of each statistic entry type received.
     */
    public Map<Character, BigDecimal> statistics()
    {
        return statistics;
    }

    /**
     * @return W applied.
     */
    public int fullRefreshes()
    {
        return fullRefreshes;
    }

    /**
     * @return X applied.
     */
    public int incrementals()
    {
        return incrementals;
    }

    /**
     * {@inheritDoc}
     */
    public String toString()
    {
        return "bids " + bids.descendingMap() + " asks " + asks;
    }
}
