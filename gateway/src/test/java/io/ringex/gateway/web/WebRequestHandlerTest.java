package io.ringex.gateway.web;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WebRequestHandlerTest
{
    private static final String OPENAPI_REQUEST = "GET /api/v1/openapi.json HTTP/1.1\r\nHost: gw\r\n\r\n";

    /** The front end's pipeline; the routes exercised here answer before authentication or the agent. */
    private static EmbeddedChannel connection()
    {
        return new EmbeddedChannel(
            new HttpServerCodec(4096, 8192, 8192),
            new WebRequestHandler.BoundedAggregator(4096),
            new WebRequestHandler(null, null));
    }

    private static ByteBuf bytes(final String text)
    {
        return Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII);
    }

    @Test
    void aConnectionWhoseAnswersPileUpIsNotReadUntilItDrains()
    {
        final EmbeddedChannel channel = connection();
        channel.unsafe().outboundBuffer().setUserDefinedWritability(1, false);
        channel.runPendingTasks();
        assertFalse(channel.config().isAutoRead());
        channel.unsafe().outboundBuffer().setUserDefinedWritability(1, true);
        channel.runPendingTasks();
        assertTrue(channel.config().isAutoRead());
        channel.finishAndReleaseAll();
    }

    @Test
    void aRequestReadWhileTheConnectionIsNotWritableClosesItWithoutAnAnswer()
    {
        final EmbeddedChannel channel = connection();
        channel.writeInbound(bytes(OPENAPI_REQUEST));
        assertNotNull(channel.outboundMessages().peek(), "a writable connection is answered");
        channel.releaseOutbound();

        channel.unsafe().outboundBuffer().setUserDefinedWritability(1, false);
        channel.runPendingTasks();
        channel.config().setAutoRead(true);
        channel.writeInbound(bytes(OPENAPI_REQUEST + OPENAPI_REQUEST));
        assertFalse(channel.isOpen());
        assertNull(channel.readOutbound());
        channel.finishAndReleaseAll();
    }
}
