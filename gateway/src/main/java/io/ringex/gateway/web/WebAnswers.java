package io.ringex.gateway.web;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AttributeKey;

import java.nio.charset.StandardCharsets;

/**
 * Writes a JSON answer on a web connection, from any thread (Netty hands the write to the connection's event loop).
 * Every refusal is {@code {"status":..,"error":"<reason>"}} with its HTTP status. A connection has at most one
 * request in hand ({@link #IN_HAND}): HTTP answers go in request order, so a pipelined request that arrives while
 * another waits for the engine closes the connection rather than be answered out of turn.
 */
final class WebAnswers
{
    /** Set while a request of the connection waits for its answer. */
    static final AttributeKey<Boolean> IN_HAND = AttributeKey.valueOf("ringex-web-request-in-hand");

    private WebAnswers()
    {
    }

    static void json(final Channel channel, final boolean keepAlive, final int status, final CharSequence json)
    {
        final byte[] bytes = json.toString().getBytes(StandardCharsets.UTF_8);
        final FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
            HttpResponseStatus.valueOf(status), Unpooled.wrappedBuffer(bytes));
        response.headers()
            .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
            .setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.length)
            .set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_STORE);
        channel.attr(IN_HAND).set(null);
        if (keepAlive)
        {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            channel.writeAndFlush(response);
        }
        else
        {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            channel.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }

    static void error(final Channel channel, final boolean keepAlive, final int status, final String reason)
    {
        json(channel, keepAlive, status, FlatJson.quote(
            new StringBuilder(64).append("{\"status\":").append(status).append(",\"error\":"), reason).append('}'));
    }
}
