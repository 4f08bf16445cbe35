package io.ringex.gateway.web;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WebRequestHandlerTest
{
    private static final long DEADLINE_MS = 5_000;
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

    @Test
    void aConnectionThatDoesNotCompleteARequestInTimeIsClosed()
    {
        final EmbeddedChannel channel = connectionWithDeadline();
        channel.writeInbound(bytes("GET /api/v1/openapi.json HTTP/1.1\r\n"));
        channel.advanceTimeBy(DEADLINE_MS - 1, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        channel.writeInbound(bytes("Host: gw\r\n"));
        assertTrue(channel.isOpen(), "still within the deadline");
        channel.advanceTimeBy(1, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertFalse(channel.isOpen(), "a byte now and then does not keep a half-sent request open");
        channel.finishAndReleaseAll();
    }

    @Test
    void theDeadlineStartsAgainAfterEachAnswer()
    {
        final EmbeddedChannel channel = connectionWithDeadline();
        channel.advanceTimeBy(DEADLINE_MS - 1, TimeUnit.MILLISECONDS);
        channel.writeInbound(bytes(OPENAPI_REQUEST));
        assertNotNull(channel.outboundMessages().peek(), "answered");
        channel.releaseOutbound();
        assertTrue(channel.isOpen(), "open once answered");
        channel.runScheduledPendingTasks();
        assertTrue(channel.isOpen(), "open once answered and the first deadline passed");
        channel.advanceTimeBy(DEADLINE_MS - 1, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertTrue(channel.isOpen(), "a complete request in time keeps the connection");
        channel.advanceTimeBy(1, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertFalse(channel.isOpen(), "no next request within the deadline of the answer");
        channel.finishAndReleaseAll();
    }

    /** The pipeline with a request deadline, on a clock that moves only when the test moves it. */
    private static EmbeddedChannel connectionWithDeadline()
    {
        final EmbeddedChannel channel = new EmbeddedChannel();
        channel.freezeTime();
        channel.pipeline().addLast(
            new HttpServerCodec(4096, 8192, 8192),
            new WebRequestHandler.BoundedAggregator(4096),
            new RequestDeadline(DEADLINE_MS),
            new WebRequestHandler(null, null));
        return channel;
    }
}
