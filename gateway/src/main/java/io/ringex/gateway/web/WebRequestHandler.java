package io.ringex.gateway.web;

import io.ringex.common.apikey.ApiKey;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketServerHandshaker;
import io.netty.handler.codec.http.websocketx.WebSocketServerHandshakerFactory;
import io.netty.handler.timeout.IdleStateEvent;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One web connection's requests, on the web event loop: route, authenticate ({@link RequestAuthenticator}) before
 * anything is kept for the caller, check the permission, parse, and hand the request to the agent thread
 * ({@link WebGatewayAgent}); or upgrade a signed {@code GET /ws/v1/user} to the key's user stream, or a signed
 * {@code GET /ws/v1/market} to a market-data stream ({@link WebMarketStreams}). Every refusal is
 * answered here with its status and reason.
 */
final class WebRequestHandler extends SimpleChannelInboundHandler<FullHttpRequest>
{
    /** The REST prefix. */
    static final String API = "/api/v1";
    /** The user stream. */
    static final String USER_STREAM = "/ws/v1/user";
    /** The market-data streams. */
    static final String MARKET_STREAM = "/ws/v1/market";
    /** The largest frame a stream's client may send (a subscription is far smaller). */
    static final int MAX_CLIENT_FRAME = 1024;
    /** Requests a market stream's client may send a second (a burst of as many); more closes the stream. */
    static final int MAX_STREAM_REQUESTS_PER_SECOND = 50;

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(WebRequestHandler.class);
    private static final byte[] OPENAPI = resource("openapi.json");
    private static final byte[] ASYNCAPI = resource("asyncapi.json");

    private final RequestAuthenticator authenticator;
    private final WebGatewayAgent agent;

    WebRequestHandler(final RequestAuthenticator authenticator, final WebGatewayAgent agent)
    {
        this.authenticator = authenticator;
        this.agent = agent;
    }

    /** An aggregator that refuses a body over the limit with the front end's JSON 413, then closes. */
    static final class BoundedAggregator extends HttpObjectAggregator
    {
        BoundedAggregator(final int maxBody)
        {
            super(maxBody);
        }

        protected void handleOversizedMessage(final ChannelHandlerContext ctx, final HttpMessage oversized)
        {
            WebAnswers.error(ctx.channel(), false, 413, "body larger than " + maxContentLength() + " bytes");
        }
    }

    public void userEventTriggered(final ChannelHandlerContext ctx, final Object event) throws Exception
    {
        if (event instanceof IdleStateEvent)
        {
            ctx.close();
            return;
        }
        super.userEventTriggered(ctx, event);
    }

    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        if (!(cause instanceof IOException))
        {
            LOG.warn("web connection {} closed: {}", ctx.channel().remoteAddress(), cause.toString(), cause);
        }
        ctx.close();
    }

    /** A connection whose answers pile up unread is not read either, so its requests stop making answers. */
    public void channelWritabilityChanged(final ChannelHandlerContext ctx) throws Exception
    {
        ctx.channel().config().setAutoRead(ctx.channel().isWritable());
        super.channelWritabilityChanged(ctx);
    }

    protected void channelRead0(final ChannelHandlerContext ctx, final FullHttpRequest request)
    {
        final Channel channel = ctx.channel();
        if (!channel.isWritable())
        {
            // Requests already read while the client does not read its answers: no more answers are queued.
            channel.close();
            return;
        }
        if (null != channel.attr(WebAnswers.IN_HAND).get())
        {
            // Pipelined behind a request still waiting for the engine: answers must go in order.
            channel.close();
            return;
        }
        final boolean keepAlive = HttpUtil.isKeepAlive(request);
        if (!request.decoderResult().isSuccess())
        {
            WebAnswers.error(channel, false, 400, "malformed HTTP request");
            return;
        }
        final String uri = request.uri();
        final QueryStringDecoder decoder = new QueryStringDecoder(uri);
        final String path = decoder.path();
        final HttpMethod method = request.method();
        if ((API + "/openapi.json").equals(path) || (API + "/asyncapi.json").equals(path))
        {
            if (!HttpMethod.GET.equals(method))
            {
                WebAnswers.error(channel, keepAlive, 405, "method not allowed");
                return;
            }
            final byte[] document = (API + "/openapi.json").equals(path) ? OPENAPI : ASYNCAPI;
            WebAnswers.json(channel, keepAlive, 200, new String(document, StandardCharsets.UTF_8));
            return;
        }
        if (USER_STREAM.equals(path) || MARKET_STREAM.equals(path))
        {
            stream(ctx, request, decoder, path);
            return;
        }
        final WebCommand.Kind kind;
        String orderId = null;
        if ((API + "/instruments").equals(path))
        {
            kind = HttpMethod.GET.equals(method) ? WebCommand.Kind.INSTRUMENTS : null;
        }
        else if ((API + "/accounts").equals(path))
        {
            kind = HttpMethod.GET.equals(method) ? WebCommand.Kind.ACCOUNTS : null;
        }
        else if ((API + "/book").equals(path))
        {
            kind = HttpMethod.GET.equals(method) ? WebCommand.Kind.BOOK : null;
        }
        else if ((API + "/trades").equals(path))
        {
            kind = HttpMethod.GET.equals(method) ? WebCommand.Kind.TRADES : null;
        }
        else if ((API + "/orders").equals(path))
        {
            kind = HttpMethod.POST.equals(method) ? WebCommand.Kind.NEW_ORDER :
                HttpMethod.DELETE.equals(method) ? WebCommand.Kind.CANCEL_ALL :
                HttpMethod.GET.equals(method) ? WebCommand.Kind.OPEN_ORDERS : null;
        }
        else if (path.startsWith(API + "/orders/") && path.length() > (API + "/orders/").length())
        {
            kind = HttpMethod.DELETE.equals(method) ? WebCommand.Kind.CANCEL_ORDER :
                HttpMethod.PUT.equals(method) ? WebCommand.Kind.REPLACE_ORDER :
                HttpMethod.GET.equals(method) ? WebCommand.Kind.ORDER_STATUS : null;
            orderId = path.substring((API + "/orders/").length());
        }
        else
        {
            WebAnswers.error(channel, keepAlive, 404, "no such route");
            return;
        }
        if (null == kind)
        {
            WebAnswers.error(channel, keepAlive, 405, "method not allowed");
            return;
        }

        final byte[] body = ByteBufUtil.getBytes(request.content());
        final RequestAuthenticator.Verdict verdict = authenticator.verify(address(channel),
            request.headers().get(RequestAuthenticator.KEY_HEADER),
            request.headers().get(RequestAuthenticator.TIMESTAMP_HEADER),
            request.headers().get(RequestAuthenticator.SIGNATURE_HEADER),
            method.name(), uri, body, System.currentTimeMillis());
        if (!verdict.accepted())
        {
            WebAnswers.error(channel, keepAlive, verdict.status(), verdict.reason());
            return;
        }
        final ApiKey key = verdict.key();
        if (!kind.readOnly() && !key.mayTrade())
        {
            WebAnswers.error(channel, keepAlive, 403, "this key may read, not trade");
            return;
        }

        Map<String, Object> members = null;
        Map<String, String> query = null;
        if (kind == WebCommand.Kind.NEW_ORDER || kind == WebCommand.Kind.REPLACE_ORDER)
        {
            if (!decoder.parameters().isEmpty())
            {
                WebAnswers.error(channel, keepAlive, 400, "this request takes its fields in the body, not the query");
                return;
            }
            final String contentType = request.headers().get(HttpHeaderNames.CONTENT_TYPE);
            if (null == contentType || !contentType.toLowerCase().startsWith("application/json"))
            {
                WebAnswers.error(channel, keepAlive, 415, "Content-Type must be application/json");
                return;
            }
            try
            {
                members = FlatJson.parseObject(utf8(body));
            }
            catch (final FlatJson.MalformedException | CharacterCodingException ex)
            {
                WebAnswers.error(channel, keepAlive, 400, "malformed JSON: " + ex.getMessage());
                return;
            }
        }
        else
        {
            if (body.length > 0)
            {
                WebAnswers.error(channel, keepAlive, 400, "this request takes no body");
                return;
            }
            query = new HashMap<>();
            for (final Map.Entry<String, List<String>> parameter : decoder.parameters().entrySet())
            {
                if (parameter.getValue().size() != 1)
                {
                    WebAnswers.error(channel, keepAlive, 400, "query parameter repeated: " + parameter.getKey());
                    return;
                }
                query.put(parameter.getKey(), parameter.getValue().get(0));
            }
            if (kind == WebCommand.Kind.INSTRUMENTS && !query.isEmpty())
            {
                WebAnswers.error(channel, keepAlive, 400, "this request takes no query parameters");
                return;
            }
        }
        channel.attr(WebAnswers.IN_HAND).set(Boolean.TRUE);
        if (!agent.offer(new WebCommand(kind, key, channel, keepAlive, members, orderId, query)))
        {
            WebAnswers.error(channel, keepAlive, 503, "the gateway is busy; retry");
        }
    }

    private void stream(final ChannelHandlerContext ctx, final FullHttpRequest request,
        final QueryStringDecoder decoder, final String path)
    {
        final Channel channel = ctx.channel();
        if (!HttpMethod.GET.equals(request.method()))
        {
            WebAnswers.error(channel, false, 405, "method not allowed");
            return;
        }
        final Map<String, List<String>> parameters = decoder.parameters();
        final RequestAuthenticator.Verdict verdict = authenticator.verify(address(channel),
            headerOrParameter(request, parameters, RequestAuthenticator.KEY_HEADER, "key"),
            headerOrParameter(request, parameters, RequestAuthenticator.TIMESTAMP_HEADER, "timestamp"),
            headerOrParameter(request, parameters, RequestAuthenticator.SIGNATURE_HEADER, "signature"),
            "GET", path, new byte[0], System.currentTimeMillis());
        if (!verdict.accepted())
        {
            WebAnswers.error(channel, false, verdict.status(), verdict.reason());
            return;
        }
        final WebSocketServerHandshaker handshaker = new WebSocketServerHandshakerFactory(
            "ws://" + request.headers().get(HttpHeaderNames.HOST) + path, null, false, MAX_CLIENT_FRAME)
            .newHandshaker(request);
        if (null == handshaker)
        {
            WebSocketServerHandshakerFactory.sendUnsupportedVersionResponse(channel);
            return;
        }
        final ApiKey key = verdict.key();
        handshaker.handshake(channel, request).addListener(f ->
        {
            if (!f.isSuccess())
            {
                channel.close();
                return;
            }
            ctx.pipeline().remove("idle");
            if (null != ctx.pipeline().get("deadline"))
            {
                ctx.pipeline().remove("deadline");
            }
            final boolean market = MARKET_STREAM.equals(path);
            ctx.pipeline().addLast("frames", new StreamFrames(handshaker, key, market, agent));
            if (!market)
            {
                channel.closeFuture().addListener(closed -> agent.userStreamClosed(channel));
            }
            channel.config().setAutoRead(channel.isWritable());
            if (!agent.offer(new WebCommand(market ? WebCommand.Kind.MARKET_STREAM : WebCommand.Kind.USER_STREAM, key,
                channel, true, null, null, null)))
            {
                handshaker.close(channel, new CloseWebSocketFrame(1013, "the gateway is busy; retry"));
            }
        });
    }

    private static String headerOrParameter(final FullHttpRequest request, final Map<String, List<String>> parameters,
        final String header, final String parameter)
    {
        final String value = request.headers().get(header);
        if (null != value)
        {
            return value;
        }
        final List<String> values = parameters.get(parameter);
        return null == values || values.size() != 1 ? null : values.get(0);
    }

    /**
     * The frames a stream's client sends: pings answered, a close honoured; a text frame is a request (JSON) for the
     * agent (a market stream's subscriptions, a user stream's cancel-on-disconnect), refused with a reason if it does
     * not parse, and a client sending more than {@link #MAX_STREAM_REQUESTS_PER_SECOND} is disconnected; anything
     * else is ignored.
     */
    private static final class StreamFrames extends SimpleChannelInboundHandler<WebSocketFrame>
    {
        private final WebSocketServerHandshaker handshaker;
        private final ApiKey key;
        private final WebCommand.Kind requestKind;
        private final WebGatewayAgent agent;
        private long windowStartNs = System.nanoTime();
        private int requestsInWindow;

        StreamFrames(
            final WebSocketServerHandshaker handshaker,
            final ApiKey key,
            final boolean market,
            final WebGatewayAgent agent)
        {
            this.handshaker = handshaker;
            this.key = key;
            this.requestKind = market ? WebCommand.Kind.MARKET_OP : WebCommand.Kind.USER_OP;
            this.agent = agent;
        }

        protected void channelRead0(final ChannelHandlerContext ctx, final WebSocketFrame frame)
        {
            if (!ctx.channel().isWritable())
            {
                ctx.close();
                return;
            }
            if (frame instanceof PingWebSocketFrame)
            {
                ctx.writeAndFlush(new PongWebSocketFrame(frame.content().retain()));
            }
            else if (frame instanceof CloseWebSocketFrame)
            {
                handshaker.close(ctx.channel(), (CloseWebSocketFrame)frame.retain())
                    .addListener(ChannelFutureListener.CLOSE);
            }
            else if (frame instanceof TextWebSocketFrame)
            {
                onRequest(ctx, ((TextWebSocketFrame)frame).text());
            }
        }

        private void onRequest(final ChannelHandlerContext ctx, final String text)
        {
            final long nowNs = System.nanoTime();
            if (nowNs - windowStartNs >= TimeUnit.SECONDS.toNanos(1))
            {
                windowStartNs = nowNs;
                requestsInWindow = 0;
            }
            if (++requestsInWindow > MAX_STREAM_REQUESTS_PER_SECOND)
            {
                handshaker.close(ctx.channel(), new CloseWebSocketFrame(WebSocketCloseStatus.POLICY_VIOLATION,
                    "more than " + MAX_STREAM_REQUESTS_PER_SECOND + " requests a second"))
                    .addListener(ChannelFutureListener.CLOSE);
                return;
            }
            final Map<String, Object> members;
            try
            {
                members = FlatJson.parseObject(text);
            }
            catch (final FlatJson.MalformedException ex)
            {
                ctx.writeAndFlush(new TextWebSocketFrame(FlatJson.quote(
                    new StringBuilder("{\"type\":\"error\",\"reason\":"), "malformed JSON: " + ex.getMessage())
                    .append('}').toString()));
                return;
            }
            if (!agent.offer(new WebCommand(requestKind, key, ctx.channel(), true, members, null, null)))
            {
                ctx.writeAndFlush(new TextWebSocketFrame(
                    "{\"type\":\"error\",\"reason\":\"the gateway is busy; retry\"}"));
            }
        }

        public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
        {
            ctx.close();
        }
    }

    private static String address(final Channel channel)
    {
        return ((InetSocketAddress)channel.remoteAddress()).getAddress().getHostAddress();
    }

    private static String utf8(final byte[] body) throws CharacterCodingException
    {
        return StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT)
            .decode(java.nio.ByteBuffer.wrap(body)).toString();
    }

    private static byte[] resource(final String name)
    {
        try (InputStream in = WebRequestHandler.class.getResourceAsStream(name))
        {
            if (null == in)
            {
                throw new IllegalStateException(name + " missing from the gateway's resources");
            }
            return in.readAllBytes();
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("cannot read " + name, ex);
        }
    }
}
