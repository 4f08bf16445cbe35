package io.ringex.client.dropcopy;

import java.util.function.UnaryOperator;

import io.aeron.exceptions.ConfigurationException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link DropCopyClient.Context#conclude()}: a missing or malformed setting stops the session before anything is
 * opened, with a message naming the setting as this context calls it. (The Aeron client is checked after the rest,
 * so these need no driver.)
 */
class DropCopyClientContextTest
{
    private static DropCopyClient.Context complete()
    {
        return new DropCopyClient.Context()
            .gatewayChannel("aeron:udp?endpoint=localhost:40200")
            .responseChannel("aeron:udp?endpoint=localhost:40310")
            .username("dc")
            .password("secret")
            .listener((report) ->
            {
            });
    }

    private static void assertRefused(final String expected, final UnaryOperator<DropCopyClient.Context> change)
    {
        final ConfigurationException ex = assertThrows(ConfigurationException.class,
            () -> change.apply(complete()).conclude());
        assertTrue(ex.getMessage().contains(expected), () -> "expected '" + expected + "' in: " + ex.getMessage());
        assertTrue(!ex.getMessage().contains("ExchangeClient"), ex::getMessage);
    }

    @Test
    void aMissingListenerChannelCredentialOrAeronIsNamed()
    {
        assertRefused("DropCopyClient.Context.listener: missing", (c) -> c.listener(null));
        assertRefused("DropCopyClient.Context.gatewayChannel: missing", (c) -> c.gatewayChannel(null));
        assertRefused("DropCopyClient.Context.responseChannel: missing", (c) -> c.responseChannel(""));
        assertRefused("DropCopyClient.Context.username: missing", (c) -> c.username(null));
        assertRefused("DropCopyClient.Context.password: missing for dc", (c) -> c.password(""));
        assertRefused("DropCopyClient.Context.aeron: missing", UnaryOperator.identity());
    }

    @Test
    void aMalformedSettingIsNamedWithWhatIsWrong()
    {
        assertRefused("DropCopyClient.Context.gatewayChannel: not an Aeron channel: localhost:40200",
            (c) -> c.gatewayChannel("localhost:40200"));
        assertRefused("DropCopyClient.Context.responseChannel: the wildcard address names no host",
            (c) -> c.responseChannel("aeron:udp?endpoint=0.0.0.0:40310"));
        assertRefused("DropCopyClient.Context.connectTimeoutNs: must be positive, not -1",
            (c) -> c.connectTimeoutNs(-1));
        assertRefused("DropCopyClient.Context.heartbeatIntervalNs: 0 (the gateway's) or 1 ms",
            (c) -> c.heartbeatIntervalNs(5));
        assertRefused("DropCopyClient.Context.nanoClock: missing", (c) -> c.nanoClock(null));
    }
}
