package io.ringex.gateway;

import io.ringex.common.config.Config;
import io.ringex.common.config.KnownKeys;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The instruments a gateway knows before the engine's InstrumentDefinitions arrive (which add to and override them),
 * from the keys {@code ringex.gateway.instrument.<id>=<symbol>,<priceScale>}, or added in code: so FIX prices of the
 * first orders convert at the right scale. A key whose id, symbol or scale is not one is refused naming the key.
 * <p>
 * Thread safety: not thread safe; part of {@link GatewayContext}, configured on one thread.
 */
final class StaticInstruments
{
    /** Prefix of the keys, {@code ringex.gateway.instrument.<id>}. */
    static final String PREFIX = "ringex.gateway.instrument.";
    /** The largest price scale. */
    static final int MAX_PRICE_SCALE = 8;
    /** The longest symbol. */
    static final int MAX_SYMBOL_LENGTH = 16;

    private static final String RULE = "must be <symbol>,<priceScale> under a numeric instrument id, e.g. " + PREFIX +
        "1=BTC-USD,2";

    private record Instrument(int instrumentId, String symbol, int priceScale)
    {
    }

    private final List<Instrument> instruments = new ArrayList<>();

    /**
     * Declare the instrument keys.
     *
     * @param known the keys of a process that runs a gateway.
     * @return the same.
     */
    static KnownKeys addKeys(final KnownKeys known)
    {
        return known.family(Pattern.quote(PREFIX) + "[^.]+", PREFIX + "<id>", "a static instrument, " +
            "`<symbol>,<priceScale>` (symbol of 1..16 characters, scale 0..8); the engine's InstrumentDefinitions " +
            "add to and override these");
    }

    /**
     * @param config the configuration.
     * @return the instruments it lists.
     * @throws io.aeron.exceptions.ConfigurationException naming the first key that does not describe an instrument.
     */
    static StaticInstruments fromConfig(final Config config)
    {
        final StaticInstruments list = new StaticInstruments();
        for (final String key : config.keys(PREFIX))
        {
            final String value = config.get(key);
            final int comma = value.indexOf(',');
            final int instrumentId;
            final int priceScale;
            try
            {
                Config.require(comma >= 0, key, value, RULE);
                instrumentId = Integer.parseInt(key.substring(PREFIX.length()));
                priceScale = Integer.parseInt(value.substring(comma + 1).trim());
            }
            catch (final NumberFormatException ex)
            {
                throw Config.bad(key, value, RULE);
            }
            list.add(instrumentId, value.substring(0, comma).trim(), priceScale);
        }
        return list;
    }

    /**
     * @param instrumentId id.
     * @param symbol       FIX Symbol(55), 1..16 characters.
     * @param priceScale   0..8.
     * @throws io.aeron.exceptions.ConfigurationException naming the instrument's key if the symbol or scale is out of
     *                                                    range.
     */
    void add(final int instrumentId, final String symbol, final int priceScale)
    {
        final String key = PREFIX + instrumentId;
        Config.require(priceScale >= 0 && priceScale <= MAX_PRICE_SCALE, key, symbol + "," + priceScale,
            "price scale must be 0.." + MAX_PRICE_SCALE);
        Config.require(null != symbol && !symbol.isEmpty() && symbol.length() <= MAX_SYMBOL_LENGTH, key,
            symbol + "," + priceScale, "symbol must be 1.." + MAX_SYMBOL_LENGTH + " characters");
        instruments.add(new Instrument(instrumentId, symbol, priceScale));
    }

    /**
     * @param directory filled with the instruments.
     */
    void populate(final InstrumentDirectory directory)
    {
        for (final Instrument instrument : instruments)
        {
            directory.put(instrument.instrumentId, instrument.symbol, instrument.priceScale);
        }
    }
}
