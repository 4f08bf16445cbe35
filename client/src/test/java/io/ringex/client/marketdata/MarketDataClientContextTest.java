package io.ringex.client.marketdata;

import java.util.function.UnaryOperator;

import io.aeron.exceptions.ConfigurationException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link MarketDataClient.Context#conclude()}: a missing or malformed setting stops the client before anything is
 * opened, with a message naming the setting. (The Aeron client is checked after the rest, so these need no driver.)
 */
class MarketDataClientContextTest
{
    private static final MarketDataListener LISTENER = new MarketDataListener()
    {
    };

    private static MarketDataClient.Context complete()
    {
        return new MarketDataClient.Context()
            .feedChannel("aeron:udp?endpoint=localhost:0|control=localhost:40101|control-mode=dynamic")
            .responseChannel("aeron:udp?endpoint=localhost:0")
            .requestChannel("aeron:udp?endpoint=localhost:40130")
            .listener(LISTENER);
    }

    private static void assertRefused(final String expected, final UnaryOperator<MarketDataClient.Context> change)
    {
        final ConfigurationException ex = assertThrows(ConfigurationException.class,
            () -> change.apply(complete()).conclude());
        assertTrue(ex.getMessage().contains(expected), () -> "expected '" + expected + "' in: " + ex.getMessage());
    }

    @Test
    void aMissingChannelListenerOrAeronIsNamed()
    {
        assertRefused("MarketDataClient.Context.feedChannel: missing", (c) -> c.feedChannel(null));
        assertRefused("MarketDataClient.Context.feedChannel: missing", (c) -> c.feedChannel(""));
        assertRefused("MarketDataClient.Context.responseChannel: missing", (c) -> c.responseChannel(null));
        assertRefused("MarketDataClient.Context.requestChannel: missing", (c) -> c.requestChannel(""));
        assertRefused("MarketDataClient.Context.listener: missing", (c) -> c.listener(null));
        assertRefused("MarketDataClient.Context.aeron: missing", UnaryOperator.identity());
    }

    @Test
    void aMalformedSettingIsNamedWithWhatIsWrong()
    {
        assertRefused("MarketDataClient.Context.feedChannel: not an Aeron channel: localhost:40101",
            (c) -> c.feedChannel("localhost:40101"));
        assertRefused("MarketDataClient.Context.requestChannel: not an Aeron channel: engine-host:40130",
            (c) -> c.requestChannel("engine-host:40130"));
        assertRefused("MarketDataClient.Context.responseChannel: this client's own channel",
            (c) -> c.responseChannel("aeron:udp?endpoint=localhost:0|tags=1,2"));
        assertRefused("MarketDataClient.Context.connectTimeoutNs: must be positive, not 0",
            (c) -> c.connectTimeoutNs(0));
        assertRefused("MarketDataClient.Context.nanoClock: missing", (c) -> c.nanoClock(null));
    }
}
