package io.ringex.gateway;

import io.ringex.common.config.Config;
import io.ringex.common.config.KnownKeys;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.ringex.common.config.Config.require;
import static io.ringex.common.config.Config.requireChannel;

/**
 * The engine nodes a gateway follows, as configured: engine 1 from the unnumbered {@code ringex.gateway.engine.*}
 * keys (overridden by any {@code engine.1.*}), engines 2..n from {@code ringex.gateway.engine.<n>.<key>}, then any
 * added in code. Numbered engines must name their ingress and egress channels; their streams default to engine 1's,
 * their market-data and status channels to their own egress channel. A numbered key this class does not read, or an
 * engine numbered out of 1..{@value #MAX_ENGINES}, is refused naming the key.
 * <p>
 * Thread safety: not thread safe; part of the gateway's context, configured on one thread.
 */
final class EngineList
{
    /** Most engine nodes a gateway follows. */
    static final int MAX_ENGINES = 8;
    /** Prefix of the numbered keys, {@code ringex.gateway.engine.<n>.<key>}. */
    static final String PREFIX = "ringex.gateway.engine.";
    /** What each numbered key sets, in the reference's order. */
    static final Map<String, String> KEYS = keys();

    private static final Pattern NUMBERED = Pattern.compile(Pattern.quote(PREFIX) + "([0-9]+)\\.(.+)");

    private final TreeMap<Integer, Map<String, String>> numbered = new TreeMap<>();
    private final List<EngineEndpoint> added = new ArrayList<>();

    private static Map<String, String> keys()
    {
        final Map<String, String> keys = new LinkedHashMap<>();
        keys.put("ingress.channel", "engine n's command ingress (n = 2..8, without gaps; required for n >= 2; " +
            "`engine.1.*` overrides the unnumbered keys)");
        keys.put("ingress.stream", "its ingress stream (default engine 1's)");
        keys.put("egress.channel", "its outbound channel, joined as a subscriber (required for n >= 2)");
        keys.put("egress.stream", "its egress stream (default engine 1's)");
        keys.put("marketdata.channel", "its market data (default its egress channel)");
        keys.put("marketdata.stream", "its market-data stream (default engine 1's)");
        keys.put("marketdata.request.channel", "where its market-data recovery service takes requests (required " +
            "for n >= 2 when FIX or the web front end is enabled, whose market data recovers from it; never its " +
            "command ingress)");
        keys.put("status.channel", "where it publishes `EngineStatus` (default its egress channel)");
        keys.put("status.stream", "its `EngineStatus` stream (default engine 1's)");
        return Collections.unmodifiableMap(keys);
    }

    /**
     * Declare the numbered engine keys.
     *
     * @param known the keys of a process that runs a gateway.
     * @return the same.
     */
    static KnownKeys addKeys(final KnownKeys known)
    {
        for (final Map.Entry<String, String> key : KEYS.entrySet())
        {
            known.family(Pattern.quote(PREFIX) + "[0-9]+\\." + Pattern.quote(key.getKey()),
                PREFIX + "<n>." + key.getKey(), key.getValue());
        }
        return known;
    }

    /**
     * Read the numbered engines of a configuration.
     *
     * @param config the configuration.
     * @return the list, to be completed by {@link #add} and concluded with engine 1.
     * @throws io.aeron.exceptions.ConfigurationException naming a numbered key this class does not read, or an engine
     *                                                    numbered out of range.
     */
    static EngineList fromConfig(final Config config)
    {
        final EngineList list = new EngineList();
        for (final String key : config.keys(PREFIX))
        {
            final Matcher matcher = NUMBERED.matcher(key);
            if (!matcher.matches())
            {
                continue;
            }
            final String name = matcher.group(2);
            require(KEYS.containsKey(name), key, config.get(key), "unknown engine key; one of " + KEYS.keySet());
            final String number = matcher.group(1);
            require(number.length() <= 2 && Integer.parseInt(number) >= 1 && Integer.parseInt(number) <= MAX_ENGINES,
                key, config.get(key), "engines are numbered 1.." + MAX_ENGINES);
            list.numbered.computeIfAbsent(Integer.parseInt(number), (n) -> new HashMap<>()).put(name, config.get(key));
        }
        return list;
    }

    void add(final EngineEndpoint endpoint)
    {
        added.add(endpoint);
    }

    /**
     * Validate and build the list.
     *
     * @param first engine 1 from the unnumbered keys; its market-data and status channels may be null (its egress).
     * @return the engines, engine 1 first.
     */
    List<EngineEndpoint> conclude(final EngineEndpoint first)
    {
        final List<EngineEndpoint> result = new ArrayList<>();
        final int count = numbered.isEmpty() ? 1 : Math.max(1, numbered.lastKey());
        for (int n = 2; n <= count; n++)
        {
            require(numbered.containsKey(n), PREFIX + "<n>.*", numbered.keySet(), "engines must be numbered 2.." +
                count + " without gaps (engine 1 is the unnumbered keys)");
        }
        final Map<String, String> one = numbered.getOrDefault(1, Map.of());
        result.add(endpoint(1, one, first,
            one.getOrDefault("ingress.channel", first.ingressChannel()),
            one.getOrDefault("egress.channel", first.egressChannel()),
            one.getOrDefault("marketdata.channel", first.marketDataChannel()),
            one.getOrDefault("marketdata.request.channel", first.marketDataRequestChannel()),
            one.getOrDefault("status.channel", first.statusChannel())));
        for (int n = 2; n <= count; n++)
        {
            final Map<String, String> keys = numbered.get(n);
            result.add(endpoint(n, keys, first, keys.get("ingress.channel"), keys.get("egress.channel"),
                keys.get("marketdata.channel"), keys.get("marketdata.request.channel"), keys.get("status.channel")));
        }
        result.addAll(added);
        require(result.size() <= MAX_ENGINES, PREFIX + "<n>.*", result.size(), "at most " + MAX_ENGINES + " engines");
        for (int i = 0; i < result.size(); i++)
        {
            for (int j = 0; j < i; j++)
            {
                final EngineEndpoint a = result.get(j);
                final EngineEndpoint b = result.get(i);
                require(!(a.ingressChannel().equals(b.ingressChannel()) && a.ingressStreamId() == b.ingressStreamId()),
                    PREFIX + (i + 1) + ".ingress.channel", b.ingressChannel() + "/" + b.ingressStreamId(),
                    "engines " + (j + 1) + " and " + (i + 1) + " share an ingress");
            }
        }
        return List.copyOf(result);
    }

    private static EngineEndpoint endpoint(
        final int number,
        final Map<String, String> keys,
        final EngineEndpoint first,
        final String ingressChannel,
        final String egressChannel,
        final String marketDataChannelOrNull,
        final String marketDataRequestChannel,
        final String statusChannelOrNull)
    {
        final String base = PREFIX + number + '.';
        requireChannel(base + "ingress.channel", ingressChannel);
        requireChannel(base + "egress.channel", egressChannel);
        if (null != marketDataRequestChannel)
        {
            requireChannel(base + "marketdata.request.channel", marketDataRequestChannel);
        }
        final String marketData = marketDataChannelOrNull == null ? egressChannel : marketDataChannelOrNull;
        final String status = statusChannelOrNull == null ? egressChannel : statusChannelOrNull;
        requireChannel(base + "marketdata.channel", marketData);
        requireChannel(base + "status.channel", status);
        return new EngineEndpoint(
            ingressChannel, stream(base, "ingress.stream", keys, first.ingressStreamId()),
            egressChannel, stream(base, "egress.stream", keys, first.egressStreamId()),
            marketData, stream(base, "marketdata.stream", keys, first.marketDataStreamId()), marketDataRequestChannel,
            status, stream(base, "status.stream", keys, first.statusStreamId()));
    }

    private static int stream(final String base, final String name, final Map<String, String> keys,
        final int defaultValue)
    {
        final String value = keys.get(name);
        if (value == null)
        {
            return defaultValue;
        }
        final int stream;
        try
        {
            stream = Integer.parseInt(value);
        }
        catch (final NumberFormatException ex)
        {
            throw Config.bad(base + name, value, "must be an integer");
        }
        require(stream != 0, base + name, stream, "must not be 0");
        return stream;
    }
}
