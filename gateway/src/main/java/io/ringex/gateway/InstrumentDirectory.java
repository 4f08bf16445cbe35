package io.ringex.gateway;

import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Object2ObjectHashMap;

/**
 * What the gateway knows of each instrument: id, symbol and price scale, so FIX decimal prices can be converted to
 * the instrument's fixed point exactly. Filled from the static list in configuration and from the engine's
 * InstrumentDefinition messages (which win: the engine is the source of truth).
 * <p>
 * Thread safety: single-threaded; owned by the agent that polls the market-data stream.
 */
public final class InstrumentDirectory
{
    /** Returned by {@link #priceScale(int)} for an unknown instrument. */
    public static final int UNKNOWN = -1;

    private final Int2ObjectHashMap<Entry> byId = new Int2ObjectHashMap<>();
    private final Object2ObjectHashMap<String, Entry> bySymbol = new Object2ObjectHashMap<>();
    private final StringBuilder lookupKey = new StringBuilder(16);

    /**
     * Add or update an instrument.
     *
     * @param instrumentId id.
     * @param symbol       symbol, ASCII, at most 16 characters.
     * @param priceScale   0..8.
     */
    public void put(final int instrumentId, final String symbol, final int priceScale)
    {
        final Entry existing = byId.get(instrumentId);
        if (existing != null && existing.symbol.equals(symbol) && existing.priceScale == priceScale)
        {
            return;
        }
        if (existing != null)
        {
            bySymbol.remove(existing.symbol);
        }
        final Entry entry = new Entry(instrumentId, symbol, priceScale);
        byId.put(instrumentId, entry);
        bySymbol.put(symbol, entry);
    }

    /**
     * @param instrumentId id.
     * @return its price scale, or {@link #UNKNOWN}.
     */
    public int priceScale(final int instrumentId)
    {
        final Entry entry = byId.get(instrumentId);
        return entry == null ? UNKNOWN : entry.priceScale;
    }

    /**
     * @param instrumentId id.
     * @return its symbol, or null.
     */
    public String symbol(final int instrumentId)
    {
        final Entry entry = byId.get(instrumentId);
        return entry == null ? null : entry.symbol;
    }

    /**
     * Look up by symbol. Allocates one short String per call (FIX path only); a char-keyed open-addressing map
     * would remove it if profiling says so.
     *
     * @param symbol characters of the symbol.
     * @return the instrument id, or {@link #UNKNOWN}.
     */
    public int instrumentId(final CharSequence symbol)
    {
        lookupKey.setLength(0);
        lookupKey.append(symbol);
        final Entry entry = bySymbol.get(lookupKey.toString());
        return entry == null ? UNKNOWN : entry.instrumentId;
    }

    /**
     * @return how many instruments are known.
     */
    public int size()
    {
        return byId.size();
    }

    /** Told each instrument by {@link #forEach}. */
    @FunctionalInterface
    public interface Visitor
    {
        /**
         * @param instrumentId id.
         * @param symbol       symbol.
         * @param priceScale   price scale.
         */
        void visit(int instrumentId, String symbol, int priceScale);
    }

    /**
     * Visit every instrument, in no particular order.
     *
     * @param visitor told each.
     */
    public void forEach(final Visitor visitor)
    {
        for (final Entry entry : byId.values())
        {
            visitor.visit(entry.instrumentId, entry.symbol, entry.priceScale);
        }
    }

    private static final class Entry
    {
        final int instrumentId;
        final String symbol;
        final int priceScale;

        Entry(final int instrumentId, final String symbol, final int priceScale)
        {
            this.instrumentId = instrumentId;
            this.symbol = symbol;
            this.priceScale = priceScale;
        }
    }
}
