package io.ringex.gateway;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.ringex.gateway.GatewayContext.ENGINE_PREFIX;
import static io.ringex.gateway.GatewayContext.MAX_ENGINES;
import static io.ringex.gateway.GatewayContext.bad;
import static io.ringex.gateway.GatewayContext.check;
import static io.ringex.gateway.GatewayContext.checkChannel;

/**
 * The engine nodes a gateway follows, as configured: engine 1 from the unnumbered {@code ringex.gateway.engine.*}
 * keys (overridden by any {@code engine.1.*}), engines 2..n from {@code ringex.gateway.engine.<n>.*}, then any added
 * in code. Numbered engines must name their ingress and egress channels; their streams default to engine 1's, their
 * market-data and status channels to their own egress channel.
 * <p>
 * Thread safety: not thread safe; part of {@link GatewayContext}, configured on one thread.
 */
final class EngineList
{
    static final List<String> KEYS = List.of("ingress.channel", "ingress.stream", "egress.channel", "egress.stream",
        "marketdata.channel", "marketdata.stream", "status.channel", "status.stream");

    private final TreeMap<Integer, Map<String, String>> numbered = new TreeMap<>();
    private final List<EngineEndpoint> added = new ArrayList<>();

    /**
     * @param key a property name.
     * @return true for {@code ringex.gateway.engine.<digits>.<something>}.
     */
    static boolean isNumberedKey(final String key)
    {
        if (!key.startsWith(ENGINE_PREFIX))
        {
            return false;
        }
        final int start = ENGINE_PREFIX.length();
        int i = start;
        while (i < key.length() && Character.isDigit(key.charAt(i)))
        {
            i++;
        }
        return i > start && i - start <= 4 && i < key.length() && key.charAt(i) == '.';
    }

    void put(final String key, final String value)
    {
        final String rest = key.substring(ENGINE_PREFIX.length());
        final int dot = rest.indexOf('.');
        numbered.computeIfAbsent(Integer.parseInt(rest.substring(0, dot)), (n) -> new HashMap<>())
            .put(rest.substring(dot + 1), value);
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
            check(numbered.containsKey(n), ENGINE_PREFIX + "<n>.*", "engines must be numbered 2.." + count +
                " without gaps (engine 1 is the unnumbered keys)", numbered.keySet());
        }
        final Map<String, String> one = numbered.getOrDefault(1, Map.of());
        result.add(endpoint(1, one, first,
            one.getOrDefault("ingress.channel", first.ingressChannel()),
            one.getOrDefault("egress.channel", first.egressChannel()),
            one.getOrDefault("marketdata.channel", first.marketDataChannel()),
            one.getOrDefault("status.channel", first.statusChannel())));
        for (int n = 2; n <= count; n++)
        {
            final Map<String, String> keys = numbered.get(n);
            result.add(endpoint(n, keys, first, keys.get("ingress.channel"), keys.get("egress.channel"),
                keys.get("marketdata.channel"), keys.get("status.channel")));
        }
        result.addAll(added);
        check(result.size() <= MAX_ENGINES, ENGINE_PREFIX + "<n>.*", "at most " + MAX_ENGINES + " engines",
            result.size());
        for (int i = 0; i < result.size(); i++)
        {
            for (int j = 0; j < i; j++)
            {
                final EngineEndpoint a = result.get(j);
                final EngineEndpoint b = result.get(i);
                check(!(a.ingressChannel().equals(b.ingressChannel()) && a.ingressStreamId() == b.ingressStreamId()),
                    ENGINE_PREFIX + (i + 1) + ".ingress.channel", "engines " + (j + 1) + " and " + (i + 1) +
                    " share an ingress", b.ingressChannel() + "/" + b.ingressStreamId());
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
        final String statusChannelOrNull)
    {
        final String base = ENGINE_PREFIX + number + '.';
        for (final String key : keys.keySet())
        {
            check(KEYS.contains(key), base + key, "unknown engine key; one of " + KEYS, keys.get(key));
        }
        checkChannel(base + "ingress.channel", ingressChannel);
        checkChannel(base + "egress.channel", egressChannel);
        final String marketData = marketDataChannelOrNull == null ? egressChannel : marketDataChannelOrNull;
        final String status = statusChannelOrNull == null ? egressChannel : statusChannelOrNull;
        checkChannel(base + "marketdata.channel", marketData);
        checkChannel(base + "status.channel", status);
        return new EngineEndpoint(
            ingressChannel, stream(base, "ingress.stream", keys, first.ingressStreamId()),
            egressChannel, stream(base, "egress.stream", keys, first.egressStreamId()),
            marketData, stream(base, "marketdata.stream", keys, first.marketDataStreamId()),
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
            throw bad(base + name, "must be an integer", value);
        }
        check(stream != 0, base + name, "must not be 0", stream);
        return stream;
    }
}
