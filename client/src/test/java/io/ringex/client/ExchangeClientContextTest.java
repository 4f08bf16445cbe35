package io.ringex.client;

import java.util.function.UnaryOperator;

import io.aeron.exceptions.ConfigurationException;
import io.ringex.protocol.codecs.BusinessRejectDecoder;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.LogonResponseDecoder;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ExchangeClient.Context#conclude()}: a missing or malformed setting stops the client before anything is
 * opened, with a message naming the setting. (The Aeron client is checked after the rest, so these need no driver.)
 */
class ExchangeClientContextTest
{
    private static final ExchangeListener LISTENER = new ExchangeListener()
    {
        public void onLogonResponse(final LogonResponseDecoder response)
        {
        }

        public void onExecutionReport(final ExecutionReportDecoder report)
        {
        }

        public void onCancelReject(final CancelRejectDecoder reject)
        {
        }

        public void onBusinessReject(final BusinessRejectDecoder reject)
        {
        }
    };

    private static ExchangeClient.Context complete()
    {
        return new ExchangeClient.Context()
            .gatewayChannel("aeron:udp?endpoint=localhost:40200")
            .responseChannel("aeron:udp?endpoint=localhost:40300")
            .username("alice")
            .password("secret")
            .listener(LISTENER);
    }

    private static void assertRefused(final String expected, final UnaryOperator<ExchangeClient.Context> change)
    {
        final ConfigurationException ex = assertThrows(ConfigurationException.class,
            () -> change.apply(complete()).conclude());
        assertTrue(ex.getMessage().contains(expected), () -> "expected '" + expected + "' in: " + ex.getMessage());
    }

    @Test
    void aMissingCredentialIsNamed()
    {
        assertRefused("ExchangeClient.Context.username: missing", (c) -> c.username(null));
        assertRefused("ExchangeClient.Context.username: missing", (c) -> c.username(""));
        assertRefused("ExchangeClient.Context.password: missing for alice", (c) -> c.password(null));
        assertRefused("ExchangeClient.Context.password: missing for alice", (c) -> c.password(""));
    }

    @Test
    void aMissingChannelListenerOrAeronIsNamed()
    {
        assertRefused("ExchangeClient.Context.gatewayChannel: missing", (c) -> c.gatewayChannel(null));
        assertRefused("ExchangeClient.Context.responseChannel: missing", (c) -> c.responseChannel(""));
        assertRefused("ExchangeClient.Context.listener: missing", (c) -> c.listener(null));
        assertRefused("ExchangeClient.Context.aeron: missing", UnaryOperator.identity());
    }

    @Test
    void aMalformedChannelIsNamedWithWhatIsWrong()
    {
        assertRefused("ExchangeClient.Context.gatewayChannel: not an Aeron channel: localhost:40200",
            (c) -> c.gatewayChannel("localhost:40200"));
        assertRefused("ExchangeClient.Context.gatewayChannel: aeron:udp or aeron:ipc, not aeron:tcp?endpoint=h:1",
            (c) -> c.gatewayChannel("aeron:tcp?endpoint=h:1"));
        assertRefused("ExchangeClient.Context.gatewayChannel: names no endpoint host:port: aeron:udp?mtu=1408",
            (c) -> c.gatewayChannel("aeron:udp?mtu=1408"));
        assertRefused("ExchangeClient.Context.responseChannel: the endpoint's port is not a number",
            (c) -> c.responseChannel("aeron:udp?endpoint=localhost:http"));
        assertRefused("ExchangeClient.Context.responseChannel: the endpoint's port is out of range",
            (c) -> c.responseChannel("aeron:udp?endpoint=localhost:70000"));
        assertRefused("ExchangeClient.Context.responseChannel: the wildcard address",
            (c) -> c.responseChannel("aeron:udp?endpoint=0.0.0.0:40300"));
    }

    @Test
    void badTimesAreNamed()
    {
        assertRefused("ExchangeClient.Context.connectTimeoutNs: must be positive, not 0", (c) -> c.connectTimeoutNs(0));
        assertRefused("ExchangeClient.Context.heartbeatIntervalNs: 0 (the gateway's) or 1 ms to",
            (c) -> c.heartbeatIntervalNs(5));
        assertRefused("ExchangeClient.Context.heartbeatIntervalNs", (c) -> c.heartbeatIntervalNs(-1));
    }

    @Test
    void ipcNeedsNoEndpointAndTheDefaultsAreSet()
    {
        final ExchangeClient.Context ctx = complete().gatewayChannel("aeron:ipc").responseChannel("aeron:ipc");
        assertEquals(ExchangeClient.Context.GATEWAY_STREAM_ID_DEFAULT, ctx.gatewayStreamId());
        assertEquals(ExchangeClient.Context.RESPONSE_STREAM_ID_DEFAULT, ctx.responseStreamId());
        assertEquals(ExchangeClient.Context.CONNECT_TIMEOUT_NS_DEFAULT, ctx.connectTimeoutNs());
        assertEquals(0, ctx.heartbeatIntervalNs(), "0: the gateway's interval");
        // past the channels: only the Aeron client is missing
        assertRefused("ExchangeClient.Context.aeron: missing",
            (c) -> c.gatewayChannel("aeron:ipc").responseChannel("aeron:ipc"));
    }
}
