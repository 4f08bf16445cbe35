package io.ringex.gateway.web;

import io.ringex.common.apikey.ApiKey;
import io.ringex.common.apikey.ApiKeys;
import io.aeron.Publication;
import io.aeron.logbuffer.ControlledFragmentHandler.Action;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.ringex.gateway.EngineIngress;
import io.ringex.gateway.EngineRouter;
import io.ringex.gateway.GatewayContext;
import io.ringex.gateway.InstrumentDirectory;
import io.ringex.gateway.SessionNumbers;
import io.ringex.gateway.StatusRequests;
import io.ringex.gateway.Throttle;
import io.ringex.gateway.auth.User;
import io.ringex.gateway.marketdata.InstrumentFeed;
import io.ringex.gateway.marketdata.MarketDataCache;
import io.ringex.gateway.sbe.CommandChecker;
import io.ringex.protocol.ClientOrderIds;
import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.SessionIds;
import io.ringex.protocol.codecs.AccountRiskUpdateDecoder;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.BusinessRejectDecoder;
import io.ringex.protocol.codecs.CancelOrderEncoder;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MassCancelEncoder;
import io.ringex.protocol.codecs.MassCancelReportDecoder;
import io.ringex.protocol.codecs.MassCancelScope;
import io.ringex.protocol.codecs.MassStatusScope;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewOrderEncoder;
import io.ringex.protocol.codecs.OrderMassStatusRequestEncoder;
import io.ringex.protocol.codecs.OrderStatusReportDecoder;
import io.ringex.protocol.codecs.OrderStatusRequestEncoder;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.ReplaceOrderEncoder;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * The REST and WebSocket front end's part on the gateway's agent thread: it only translates. A signed request,
 * checked on the web event loop ({@link RequestAuthenticator}), arrives here as a {@link WebCommand}; an order becomes
 * the same SBE NewOrder or CancelOrder an SBE client sends, checked by the same {@link CommandChecker} against the
 * key's user from the gateway's user directory, throttled by the user's rate, stamped with the key's web session
 * ({@link SessionNumbers#web}) and offered to the primary through the gateway's one {@link EngineRouter}, whose
 * in-flight tracking, in-doubt answers and duplicate filter it thereby shares with SBE and FIX.
 * <p>
 * The engine's answer to an order request (its first ExecutionReport, CancelReject or BusinessReject naming the
 * request's client order id) is the HTTP answer if it comes within the answer timeout; otherwise the request is
 * answered 202 (pending). Every event for a key's session also goes, as JSON, to the user streams of the key's user
 * ({@link WebUserStreams}).
 * <p>
 * Threading: {@link #offer} from the web event loop; everything else on the gateway's agent thread.
 */
public final class WebGatewayAgent
{
    private static final Logger LOG = LoggerFactory.getLogger(WebGatewayAgent.class);
    private static final int QUEUE_CAPACITY = 4096;
    private static final int COMMAND_LIMIT = 64;
    private static final int HEADER_LENGTH = MessageHeaderDecoder.ENCODED_LENGTH;
    private static final Pattern PLAIN_DECIMAL = Pattern.compile("[0-9]{1,19}(\\.[0-9]{1,18})?");
    private static final Set<String> REPLACE_MEMBERS =
        Set.of("symbol", "price", "quantity", "clientOrderId", "account");
    private static final Set<String> NEW_ORDER_MEMBERS = Set.of("symbol", "side", "type", "timeInForce", "price",
        "quantity", "clientOrderId", "account", "postOnly", "selfTradePrevention", "stopPrice", "displayQuantity",
        "minQuantity", "expireTimeMs");

    private final GatewayContext ctx;
    private final EngineRouter router;
    private final EngineIngress ingress;
    private final CommandChecker checker;
    private final InstrumentDirectory instruments = new InstrumentDirectory();
    private final ManyToOneConcurrentArrayQueue<WebCommand> commands =
        new ManyToOneConcurrentArrayQueue<>(QUEUE_CAPACITY);
    private final Int2ObjectHashMap<Throttle> throttles = new Int2ObjectHashMap<>();
    private final Map<String, Pending> pendingByOrder = new HashMap<>();
    private final ArrayDeque<Pending> pendingInOrder = new ArrayDeque<>();
    private final Map<Channel, ApiKey> streamKeys = new HashMap<>();
    private final WriteBatch streamWrites = new WriteBatch();
    private final WebUserStreams userStreams;
    private final MarketDataCache market;
    private final WebMarketStreams marketStreams;
    private final AccountPictures accounts = new AccountPictures();
    private final MessageValidator validator;
    private final AccountRiskUpdateDecoder riskUpdate = new AccountRiskUpdateDecoder();
    private volatile ApiKeys newKeys;
    private ApiKeys keys;
    private final UnsafeBuffer commandBuffer;
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final NewOrderEncoder newOrder = new NewOrderEncoder();
    private final CancelOrderEncoder cancelOrder = new CancelOrderEncoder();
    private final ReplaceOrderEncoder replaceOrder = new ReplaceOrderEncoder();
    private final MassCancelEncoder massCancel = new MassCancelEncoder();
    private final OrderStatusRequestEncoder orderStatus = new OrderStatusRequestEncoder();
    private final OrderMassStatusRequestEncoder massStatus = new OrderMassStatusRequestEncoder();
    private final StatusRequests statusRequests = new StatusRequests();
    private final OrderStatusReportDecoder statusReport = new OrderStatusReportDecoder();
    private final MassCancelReportDecoder massCancelReport = new MassCancelReportDecoder();
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final ExecutionReportDecoder report = new ExecutionReportDecoder();
    private final CancelRejectDecoder cancelReject = new CancelRejectDecoder();
    private final BusinessRejectDecoder businessReject = new BusinessRejectDecoder();
    private final byte[] idBytes = new byte[ClientOrderIds.MAX_LENGTH];
    private final long answerTimeoutNs;
    private final long heartbeatIntervalNs;
    private long nextHeartbeatNs;
    private long nextRequestId;
    private int commandLength;
    private long nowNs;

    private static final class Pending
    {
        final WebCommand.Kind kind;
        final String orderKey;
        final Channel channel;
        final boolean keepAlive;
        final long deadlineNs;
        StringBuilder openOrders;
        boolean answered;

        Pending(
            final WebCommand.Kind kind,
            final String orderKey,
            final Channel channel,
            final boolean keepAlive,
            final long deadlineNs)
        {
            this.kind = kind;
            this.orderKey = orderKey;
            this.channel = channel;
            this.keepAlive = keepAlive;
            this.deadlineNs = deadlineNs;
        }
    }

    /**
     * @param ctx    concluded configuration with the web front end enabled.
     * @param router the gateway's one link to the engine nodes.
     * @param market the gateway's copy of the market, fed by the gateway agent on this thread.
     * @param nowNs  the clock now.
     */
    public WebGatewayAgent(
        final GatewayContext ctx, final EngineRouter router, final MarketDataCache market, final long nowNs)
    {
        this.ctx = ctx;
        this.router = router;
        this.ingress = router.ingress();
        this.checker = new CommandChecker(ctx.maxMessageLength());
        this.commandBuffer = new UnsafeBuffer(new byte[ctx.maxMessageLength()]);
        this.answerTimeoutNs = ctx.webAnswerTimeoutNs();
        this.heartbeatIntervalNs = ctx.webHeartbeatIntervalNs();
        this.nextHeartbeatNs = nowNs + heartbeatIntervalNs;
        // Request ids the gateway makes up (cancels, status): counted from the wall clock so a restart does not
        // repeat them.
        this.nextRequestId = System.currentTimeMillis();
        this.keys = ctx.webApiKeys();
        this.market = market;
        this.marketStreams = new WebMarketStreams(market, streamWrites);
        this.userStreams = new WebUserStreams(ctx.users(), ingress,
            number -> SessionIds.sessionId(ctx.gatewayId(), SessionNumbers.web(number)), market, accounts, instruments,
            streamWrites);
        this.validator = new MessageValidator(ctx.maxMessageLength());
        ctx.populate(instruments);
    }

    /**
     * Hand over an authenticated request (the web event loop).
     *
     * @param command the request.
     * @return false if the agent is too far behind to take it (answer 503).
     */
    public boolean offer(final WebCommand command)
    {
        return commands.offer(command);
    }

    /**
     * A user stream's connection closed (the web event loop): its cancel-on-disconnect, if it asked, follows.
     *
     * @param channel the stream.
     */
    public void userStreamClosed(final Channel channel)
    {
        userStreams.closed(channel);
    }

    /**
     * Take a new set of keys (the keys file changed; the web event loop): the user streams of keys no longer in it
     * are closed on the next duty cycle.
     *
     * @param keys the keys from now on.
     */
    public void keys(final ApiKeys keys)
    {
        this.newKeys = keys;
    }

    /**
     * An instrument the engine defined (its symbol and price scale win over the configured ones).
     *
     * @param instrumentId id.
     * @param symbol       symbol.
     * @param priceScale   price scale.
     */
    public void onInstrument(final int instrumentId, final String symbol, final int priceScale)
    {
        if (!symbol.isEmpty() && priceScale >= 0 && priceScale <= 8)
        {
            instruments.put(instrumentId, symbol, priceScale);
        }
    }

    /**
     * An AccountRiskUpdate of the followed node's risk stream: kept for {@code GET /api/v1/accounts} if valid.
     *
     * @param buffer holding it.
     * @param offset of its header.
     * @param length whole message.
     */
    public void onRiskUpdate(final DirectBuffer buffer, final int offset, final int length)
    {
        if (validator.validate(buffer, offset, length) == RejectReason.NONE)
        {
            headerDecoder.wrap(buffer, offset);
            accounts.onUpdate(riskUpdate.wrap(buffer, offset + HEADER_LENGTH, headerDecoder.blockLength(),
                headerDecoder.version()));
            userStreams.accountChanged(riskUpdate.accountId());
        }
    }

    /**
     * One duty cycle's work.
     *
     * @param nowNs the clock now.
     * @return work done.
     */
    public int doWork(final long nowNs)
    {
        this.nowNs = nowNs;
        int work = 0;
        final ApiKeys changed = newKeys;
        if (null != changed)
        {
            newKeys = null;
            keys = changed;
            work += closeStreamsOfRevokedKeys();
        }
        WebCommand command;
        while (work < COMMAND_LIMIT && null != (command = commands.poll()))
        {
            work++;
            try
            {
                onCommand(command);
            }
            catch (final RuntimeException ex)
            {
                LOG.error("web request failed", ex);
                WebAnswers.error(command.channel(), false, 500, "internal error");
            }
        }
        Pending head;
        while (null != (head = pendingInOrder.peekFirst()) && (head.answered || head.deadlineNs <= nowNs))
        {
            pendingInOrder.pollFirst();
            if (!head.answered)
            {
                pendingByOrder.remove(head.orderKey);
                WebAnswers.json(head.channel, head.keepAlive, 202, FlatJson.quote(
                    new StringBuilder("{\"status\":\"PENDING\",\"clientOrderId\":"),
                    head.orderKey.substring(head.orderKey.indexOf('/') + 1))
                    .append(",\"detail\":\"no answer from the engine yet: it follows on the user stream\"}"));
            }
            work++;
        }
        work += marketStreams.publish();
        work += userStreams.doWork();
        if (nowNs >= nextHeartbeatNs)
        {
            nextHeartbeatNs = nowNs + heartbeatIntervalNs;
            final String heartbeat = "{\"type\":\"heartbeat\",\"timeMs\":" + System.currentTimeMillis() + "}";
            userStreams.heartbeat(heartbeat);
            marketStreams.heartbeat(heartbeat);
            streamKeys.keySet().removeIf(channel -> !channel.isActive());
            work++;
        }
        // this cycle's stream frames (and the engine events polled before it) to their event loops, one task each
        streamWrites.flush();
        return work;
    }

    private void onCommand(final WebCommand command)
    {
        final Channel channel = command.channel();
        switch (command.kind())
        {
            case INSTRUMENTS:
                final StringBuilder json = new StringBuilder("{\"instruments\":[");
                instruments.forEach((id, symbol, scale) ->
                {
                    if (json.charAt(json.length() - 1) != '[')
                    {
                        json.append(',');
                    }
                    FlatJson.quote(json.append("{\"instrumentId\":").append(id).append(",\"symbol\":"), symbol)
                        .append(",\"priceScale\":").append(scale).append('}');
                });
                WebAnswers.json(channel, command.keepAlive(), 200, json.append("]}"));
                return;
            case BOOK:
            case TRADES:
                answerMarket(command);
                return;
            case ACCOUNTS:
                answerAccounts(command);
                return;
            case MARKET_OP:
                marketStreams.onOp(channel, command.members());
                return;
            case USER_OP:
                userStreams.onRequest(channel, command.key(), command.members());
                return;
            case USER_STREAM:
            case MARKET_STREAM:
                if (!command.key().sameAs(keys.byNumber(command.key().number())))
                {
                    command.channel().writeAndFlush(new CloseWebSocketFrame(WebSocketCloseStatus.POLICY_VIOLATION,
                        "API key revoked")).addListener(ChannelFutureListener.CLOSE);
                    return;
                }
                final User streamUser = ctx.users().user(command.key().username());
                if (null == streamUser || !streamUser.enabled())
                {
                    command.channel().writeAndFlush(new CloseWebSocketFrame(WebSocketCloseStatus.POLICY_VIOLATION,
                        "the key's user is unknown or disabled")).addListener(ChannelFutureListener.CLOSE);
                    return;
                }
                streamKeys.put(channel, command.key());
                if (command.kind() == WebCommand.Kind.MARKET_STREAM)
                {
                    marketStreams.open(channel);
                    return;
                }
                userStreams.open(channel, command.key());
                return;
            default:
                break;
        }
        if (!command.key().sameAs(keys.byNumber(command.key().number())))
        {
            WebAnswers.error(channel, command.keepAlive(), 401, "API key revoked");
            return;
        }
        final User user = ctx.users().user(command.key().username());
        if (null == user || !user.enabled())
        {
            WebAnswers.error(channel, command.keepAlive(), 403, "the key's user is unknown or disabled");
            return;
        }
        final String refused = switch (command.kind())
        {
            case NEW_ORDER -> encodeNewOrder(command, user);
            case CANCEL_ORDER -> encodeCancel(command, user);
            case REPLACE_ORDER -> encodeReplace(command, user);
            case CANCEL_ALL -> encodeCancelAll(command, user);
            case ORDER_STATUS -> encodeOrderStatus(command, user);
            default -> encodeOpenOrders(command, user);
        };
        if (null != refused)
        {
            WebAnswers.error(channel, command.keepAlive(), 400, refused);
            return;
        }
        final RejectReason reason = checker.check(user, commandBuffer, 0);
        if (reason != RejectReason.NONE)
        {
            final String text = checker.text();
            WebAnswers.error(channel, command.keepAlive(), 422, reason.name() + (null == text ? "" : ": " + text));
            return;
        }
        final int number = command.key().number();
        Throttle throttle = throttles.get(number);
        if (null == throttle)
        {
            throttle = new Throttle(user.throttleMessagesPerSecond(ctx.throttleMessagesPerSecond()),
                ctx.throttleBurst(), nowNs);
            throttles.put(number, throttle);
        }
        if (!throttle.tryAcquire(nowNs))
        {
            WebAnswers.error(channel, command.keepAlive(), 429, "THROTTLED: over the user's message rate");
            return;
        }
        final String orderKey = number + "/" + new String(idBytes, 0, idLength(), StandardCharsets.US_ASCII);
        if (pendingByOrder.containsKey(orderKey))
        {
            WebAnswers.error(channel, command.keepAlive(), 409,
                "a request with this clientOrderId is still waiting for the engine's answer");
            return;
        }
        final long result = ingress.offer(commandBuffer, 0, commandLength);
        if (result == EngineIngress.NO_PRIMARY)
        {
            WebAnswers.error(channel, command.keepAlive(), 503, "NO_PRIMARY: no primary engine; retry");
            return;
        }
        if (result < 0)
        {
            final String why = result == Publication.BACK_PRESSURED || result == Publication.ADMIN_ACTION ?
                "ENGINE_BUSY: the engine is back-pressured; retry" : "ENGINE_BUSY: engine ingress closed; retry";
            WebAnswers.error(channel, command.keepAlive(), 503, why);
            return;
        }
        final Pending pending = new Pending(
            command.kind(), orderKey, channel, command.keepAlive(), nowNs + answerTimeoutNs);
        pendingByOrder.put(orderKey, pending);
        pendingInOrder.addLast(pending);
    }

    private int idLength()
    {
        int n = 0;
        while (n < idBytes.length && idBytes[n] != 0)
        {
            n++;
        }
        return n;
    }

    private boolean putId(final String id)
    {
        if (null == id || !ClientOrderIds.isValid(id))
        {
            return false;
        }
        java.util.Arrays.fill(idBytes, (byte)0);
        for (int i = 0; i < id.length(); i++)
        {
            idBytes[i] = (byte)id.charAt(i);
        }
        return true;
    }

    private String encodeNewOrder(final WebCommand command, final User user)
    {
        final Map<String, Object> members = command.members();
        final String unknown = unknownField(members, NEW_ORDER_MEMBERS);
        if (null != unknown)
        {
            return unknown;
        }
        final Object symbol = members.get("symbol");
        if (!(symbol instanceof String))
        {
            return "symbol is required, a string";
        }
        final int instrumentId = instruments.instrumentId((String)symbol);
        if (instrumentId == InstrumentDirectory.UNKNOWN)
        {
            return "unknown symbol";
        }
        final int scale = instruments.priceScale(instrumentId);
        final Side side = named(Side.class, members.get("side"));
        if (null == side)
        {
            return "side must be BUY or SELL";
        }
        final OrderType type = named(OrderType.class, members.get("type"));
        if (null == type)
        {
            return "type must be LIMIT, MARKET, STOP or STOP_LIMIT";
        }
        final TimeInForce tif = named(TimeInForce.class,
            members.containsKey("timeInForce") ? members.get("timeInForce") : "GTC");
        if (null == tif)
        {
            return "timeInForce must be GTC, IOC, FOK, DAY or GTD";
        }
        final SelfTradePrevention stp = named(SelfTradePrevention.class,
            members.containsKey("selfTradePrevention") ? members.get("selfTradePrevention") : "ACCOUNT_DEFAULT");
        if (null == stp)
        {
            return "selfTradePrevention must be ACCOUNT_DEFAULT, CANCEL_NEWEST, CANCEL_OLDEST, CANCEL_BOTH or " +
                "DECREMENT_AND_CANCEL";
        }
        final Object postOnly = members.getOrDefault("postOnly", Boolean.FALSE);
        if (!(postOnly instanceof Boolean))
        {
            return "postOnly must be true or false";
        }
        final boolean limitPrice = type == OrderType.LIMIT || type == OrderType.STOP_LIMIT;
        final long price = limitPrice ? priceOf(members, "price", scale) : absent(members, "price");
        if (price < 0)
        {
            return price(price, "price", symbol, scale, type);
        }
        final boolean stop = type == OrderType.STOP || type == OrderType.STOP_LIMIT;
        final long stopPrice = stop ? priceOf(members, "stopPrice", scale) : absent(members, "stopPrice");
        if (stopPrice < 0)
        {
            return price(stopPrice, "stopPrice", symbol, scale, type);
        }
        final long displayQuantity = optionalWhole(members, "displayQuantity");
        final long minQuantity = optionalWhole(members, "minQuantity");
        if (displayQuantity < 0 || minQuantity < 0)
        {
            return (displayQuantity < 0 ? "displayQuantity" : "minQuantity") + " must be a whole number such as \"5\"";
        }
        final long expireTimeMs = optionalWhole(members, "expireTimeMs");
        if (expireTimeMs < 0 || (tif == TimeInForce.GTD) != members.containsKey("expireTimeMs"))
        {
            return "expireTimeMs (epoch milliseconds) is required with timeInForce GTD, and only with it";
        }
        final Object quantityText = members.get("quantity");
        if (null == quantityText)
        {
            return "quantity is required";
        }
        final long quantity = decimal(quantityText, 0);
        if (quantity < 0)
        {
            return "quantity must be a whole number such as \"5\"";
        }
        final Object id = members.get("clientOrderId");
        if (!(id instanceof String) || !putId((String)id))
        {
            return "clientOrderId must be " + ClientOrderIds.RULE;
        }
        final long account = account(members.get("account"), user);
        if (account < 0)
        {
            return "account must be a whole number";
        }
        newOrder.wrapAndApplyHeader(commandBuffer, 0, headerEncoder)
            .sessionId(sessionId(command.key()))
            .accountId(account)
            .putClientOrderId(idBytes, 0)
            .instrumentId(instrumentId)
            .side(side)
            .orderType(type)
            .timeInForce(tif)
            .postOnly((Boolean)postOnly ? BooleanType.TRUE : BooleanType.FALSE)
            .selfTradePrevention(stp)
            .price(price)
            .quantity(quantity)
            .stopPrice(stopPrice)
            .displayQuantity(displayQuantity)
            .minQuantity(minQuantity)
            .expireTimeNs(TimeUnit.MILLISECONDS.toNanos(expireTimeMs));
        commandLength = HEADER_LENGTH + newOrder.encodedLength();
        return null;
    }

    /** {@code GET /api/v1/accounts}: the balances and positions of the key's user's accounts. */
    private void answerAccounts(final WebCommand command)
    {
        if (!command.query().isEmpty())
        {
            WebAnswers.error(command.channel(), command.keepAlive(), 400, "this request takes no query parameters");
            return;
        }
        final User user = ctx.users().user(command.key().username());
        if (null == user || !user.enabled())
        {
            WebAnswers.error(command.channel(), command.keepAlive(), 403, "the key's user is unknown or disabled");
            return;
        }
        final StringBuilder json = new StringBuilder(256 * (1 + user.accountCount())).append("{\"accounts\":[");
        for (int i = 0; i < user.accountCount(); i++)
        {
            accounts.append(json.append(i > 0 ? "," : ""), user.account(i), instruments);
        }
        WebAnswers.json(command.channel(), command.keepAlive(), 200, json.append("]}"));
    }

    /** {@code GET /api/v1/book} and {@code GET /api/v1/trades}, from the gateway's copy of the market. */
    private void answerMarket(final WebCommand command)
    {
        final Channel channel = command.channel();
        final Map<String, String> query = command.query();
        final boolean book = command.kind() == WebCommand.Kind.BOOK;
        final String sizeName = book ? "depth" : "limit";
        for (final String name : query.keySet())
        {
            if (!"symbol".equals(name) && !sizeName.equals(name))
            {
                WebAnswers.error(channel, command.keepAlive(), 400, "unknown query parameter \"" + name + "\"");
                return;
            }
        }
        final String symbol = query.get("symbol");
        final InstrumentFeed feed = null == symbol ? null : market.bySymbol(symbol);
        if (null == feed || !feed.isDefined())
        {
            WebAnswers.error(channel, command.keepAlive(), 400, "symbol: a listed symbol is required");
            return;
        }
        final int most = book ? WebMarketStreams.MAX_DEPTH : InstrumentFeed.TRADE_RING_CAPACITY;
        final String sizeText = query.get(sizeName);
        final long size = null != sizeText ? decimal(sizeText, 0) :
            book ? WebMarketStreams.DEFAULT_DEPTH : WebMarketStreams.TRADES_PER_MESSAGE;
        if (size < 1 || size > most)
        {
            WebAnswers.error(channel, command.keepAlive(), 400, sizeName + " must be a whole number, 1.." + most);
            return;
        }
        final StringBuilder answer = book ? marketStreams.book(feed, (int)size) : marketStreams.trades(feed, (int)size);
        if (null == answer)
        {
            WebAnswers.error(channel, command.keepAlive(), 503, "the gateway's book of " + symbol +
                " waits for the engine's snapshot; retry");
            return;
        }
        WebAnswers.json(channel, command.keepAlive(), 200, answer);
    }

    private String encodeCancel(final WebCommand command, final User user)
    {
        final Map<String, String> query = command.query();
        for (final String name : query.keySet())
        {
            if (!"symbol".equals(name) && !"account".equals(name))
            {
                return "unknown query parameter \"" + name + "\"";
            }
        }
        final String symbol = query.get("symbol");
        final int instrumentId = null == symbol ? InstrumentDirectory.UNKNOWN : instruments.instrumentId(symbol);
        if (instrumentId == InstrumentDirectory.UNKNOWN)
        {
            return "symbol: a known symbol is required";
        }
        final String accountText = query.get("account");
        final long account = account(null == accountText ? null : new FlatJson.Number(accountText), user);
        if (account < 0)
        {
            return "account must be a whole number";
        }
        if (!putId(command.clientOrderId()))
        {
            return "the order's clientOrderId must be " + ClientOrderIds.RULE;
        }
        final byte[] orig = idBytes.clone();
        putId("wc" + Long.toString(nextRequestId++, 36));
        cancelOrder.wrapAndApplyHeader(commandBuffer, 0, headerEncoder)
            .sessionId(sessionId(command.key()))
            .accountId(account)
            .putClientOrderId(idBytes, 0)
            .putOrigClientOrderId(orig, 0)
            .orderId(0)
            .instrumentId(instrumentId);
        commandLength = HEADER_LENGTH + cancelOrder.encodedLength();
        return null;
    }

    /** The refusal of the first member a body may not carry, or null. */
    private static String unknownField(final Map<String, Object> members, final Set<String> allowed)
    {
        for (final String name : members.keySet())
        {
            if (!allowed.contains(name))
            {
                return "unknown field \"" + name + "\"";
            }
        }
        return null;
    }

    /** {@code PUT /api/v1/orders/{clientOrderId}}: a new price or quantity under a new client order id. */
    private String encodeReplace(final WebCommand command, final User user)
    {
        final Map<String, Object> members = command.members();
        final String unknown = unknownField(members, REPLACE_MEMBERS);
        if (null != unknown)
        {
            return unknown;
        }
        final Object symbol = members.get("symbol");
        final int instrumentId = symbol instanceof String ? instruments.instrumentId((String)symbol) :
            InstrumentDirectory.UNKNOWN;
        if (instrumentId == InstrumentDirectory.UNKNOWN)
        {
            return "symbol: a known symbol is required";
        }
        final int scale = instruments.priceScale(instrumentId);
        final Object priceText = members.get("price");
        final long price = null == priceText ? -1 : decimal(priceText, scale);
        if (price < 0)
        {
            return price == -2 ? "price has more decimals than " + symbol + "'s price scale of " + scale :
                "price is required, a plain decimal such as \"100.25\" (no sign, no exponent)";
        }
        final Object quantityText = members.get("quantity");
        final long quantity = null == quantityText ? -1 : decimal(quantityText, 0);
        if (quantity < 0)
        {
            return "quantity is required, a whole number such as \"5\"";
        }
        final long account = account(members.get("account"), user);
        if (account < 0)
        {
            return "account must be a whole number";
        }
        if (!putId(command.clientOrderId()))
        {
            return "the order's clientOrderId must be " + ClientOrderIds.RULE;
        }
        final byte[] orig = idBytes.clone();
        final Object id = members.get("clientOrderId");
        if (!(id instanceof String) || !putId((String)id))
        {
            return "clientOrderId (the order's new one) must be " + ClientOrderIds.RULE;
        }
        replaceOrder.wrapAndApplyHeader(commandBuffer, 0, headerEncoder)
            .sessionId(sessionId(command.key()))
            .accountId(account)
            .putClientOrderId(idBytes, 0)
            .putOrigClientOrderId(orig, 0)
            .orderId(0)
            .instrumentId(instrumentId)
            .price(price)
            .quantity(quantity)
            .stopPrice(0);
        commandLength = HEADER_LENGTH + replaceOrder.encodedLength();
        return null;
    }

    /** {@code DELETE /api/v1/orders}: every open order of the account, or of the account in one instrument. */
    private String encodeCancelAll(final WebCommand command, final User user)
    {
        final String symbol = command.query().get("symbol");
        final int instrumentId = null == symbol ? 0 : instruments.instrumentId(symbol);
        final String refused = scopeRefused(command, instrumentId);
        if (null != refused)
        {
            return refused;
        }
        final long account = queryAccount(command, user);
        if (account < 0)
        {
            return "account must be a whole number";
        }
        putId("wm" + Long.toString(nextRequestId++, 36));
        massCancel.wrapAndApplyHeader(commandBuffer, 0, headerEncoder)
            .sessionId(sessionId(command.key()))
            .accountId(account)
            .putClientRequestId(idBytes, 0)
            .scope(null == symbol ? MassCancelScope.ACCOUNT : MassCancelScope.INSTRUMENT)
            .instrumentId(instrumentId)
            .cancelOnDisconnect(BooleanType.FALSE);
        commandLength = HEADER_LENGTH + massCancel.encodedLength();
        return null;
    }

    /** {@code GET /api/v1/orders/{clientOrderId}}: one order's state. */
    private String encodeOrderStatus(final WebCommand command, final User user)
    {
        final String refused = onlyQuery(command, "account", null);
        if (null != refused)
        {
            return refused;
        }
        final long account = queryAccount(command, user);
        if (account < 0)
        {
            return "account must be a whole number";
        }
        if (!putId(command.clientOrderId()))
        {
            return "the order's clientOrderId must be " + ClientOrderIds.RULE;
        }
        final byte[] asked = idBytes.clone();
        putId("ws" + Long.toString(nextRequestId++, 36));
        orderStatus.wrapAndApplyHeader(commandBuffer, 0, headerEncoder)
            .sessionId(sessionId(command.key()))
            .accountId(account)
            .putStatusRequestId(idBytes, 0)
            .orderId(0)
            .putClientOrderId(asked, 0);
        commandLength = HEADER_LENGTH + orderStatus.encodedLength();
        return null;
    }

    /** {@code GET /api/v1/orders}: the open orders of the user's accounts (or one), in one instrument or all. */
    private String encodeOpenOrders(final WebCommand command, final User user)
    {
        final String symbol = command.query().get("symbol");
        final int instrumentId = null == symbol ? 0 : instruments.instrumentId(symbol);
        final String refused = scopeRefused(command, instrumentId);
        if (null != refused)
        {
            return refused;
        }
        final String accountText = command.query().get("account");
        final long account = null == accountText ? 0 : decimal(accountText, 0);
        if (account < 0)
        {
            return "account must be a whole number";
        }
        putId("wo" + Long.toString(nextRequestId++, 36));
        massStatus.wrapAndApplyHeader(commandBuffer, 0, headerEncoder)
            .sessionId(sessionId(command.key()))
            .accountId(account)
            .putStatusRequestId(idBytes, 0)
            .scope(null == symbol ? MassStatusScope.ACCOUNTS : MassStatusScope.INSTRUMENT)
            .instrumentId(instrumentId);
        commandLength = statusRequests.writeAccounts(user, account, commandBuffer);
        return null;
    }

    /** Why a cancel-all or open-orders request's query cannot be taken, or null. */
    private static String scopeRefused(final WebCommand command, final int instrumentId)
    {
        final String refused = onlyQuery(command, "symbol", "account");
        return null != refused ? refused : instrumentId == InstrumentDirectory.UNKNOWN ? "unknown symbol" : null;
    }

    private static String onlyQuery(final WebCommand command, final String one, final String other)
    {
        for (final String name : command.query().keySet())
        {
            if (!name.equals(one) && !name.equals(other))
            {
                return "unknown query parameter \"" + name + "\"";
            }
        }
        return null;
    }

    private static long queryAccount(final WebCommand command, final User user)
    {
        final String text = command.query().get("account");
        return account(null == text ? null : new FlatJson.Number(text), user);
    }

    private long sessionId(final ApiKey key)
    {
        return SessionIds.sessionId(ctx.gatewayId(), SessionNumbers.web(key.number()));
    }

    private static long account(final Object value, final User user)
    {
        if (null == value)
        {
            return user.defaultAccount();
        }
        final long account = decimal(value, 0);
        return account < 0 ? -1 : account;
    }

    /**
     * @return the value at the scale as a fixed-point long; -1 if it is not a plain decimal (or out of range), -2 if
     * it has more decimals than the scale.
     */
    static long decimal(final Object value, final int scale)
    {
        final String text = value instanceof String ? (String)value :
            value instanceof FlatJson.Number ? ((FlatJson.Number)value).text() : null;
        if (null == text || !PLAIN_DECIMAL.matcher(text).matches())
        {
            return -1;
        }
        final BigDecimal decimal = new BigDecimal(text).stripTrailingZeros();
        if (decimal.scale() > scale)
        {
            return -2;
        }
        try
        {
            return decimal.movePointRight(scale).longValueExact();
        }
        catch (final ArithmeticException ex)
        {
            return -1;
        }
    }

    /** The constant of the enum with the JSON string's name; null for anything else (and for its null value). */
    private static <E extends Enum<E>> E named(final Class<E> type, final Object value)
    {
        if (value instanceof String && !"NULL_VAL".equals(value))
        {
            for (final E constant : type.getEnumConstants())
            {
                if (constant.name().equals(value))
                {
                    return constant;
                }
            }
        }
        return null;
    }

    /** A required price at the scale, as {@link #decimal}: -3 if missing. */
    private static long priceOf(final Map<String, Object> members, final String name, final int scale)
    {
        final Object text = members.get(name);
        return null == text ? -3 : decimal(text, scale);
    }

    /** 0 if the member is absent, -4 if it is there (the order type takes none). */
    private static long absent(final Map<String, Object> members, final String name)
    {
        return members.containsKey(name) ? -4 : 0;
    }

    private static String price(
        final long refusal, final String name, final Object symbol, final int scale, final OrderType type)
    {
        return switch ((int)refusal)
        {
            case -2 -> name + " has more decimals than " + symbol + "'s price scale of " + scale;
            case -3 -> name + " is required for a " + type + " order";
            case -4 -> "a " + type + " order takes no " + name;
            default -> name + " must be a plain decimal such as \"100.25\" (no sign, no exponent)";
        };
    }

    /** An optional whole number: 0 if absent, -1 if not one. */
    private static long optionalWhole(final Map<String, Object> members, final String name)
    {
        return members.containsKey(name) ? decimal(members.get(name), 0) : 0;
    }

    /**
     * An engine event for a web session: the answer to the request it names, if one waits, and a copy for each
     * user stream of the key's user.
     *
     * @param templateId the event's template.
     * @param buffer     holding it.
     * @param offset     of its header.
     * @param length     whole message.
     * @param sessionId  the web session.
     * @return CONTINUE.
     */
    public Action onEngineEvent(
        final int templateId, final DirectBuffer buffer, final int offset, final int length, final long sessionId)
    {
        final int number = SessionIds.sessionNumber(sessionId) & SessionNumbers.NUMBER_MASK;
        final ApiKey key = keys.byNumber(number);
        if (null == key)
        {
            return Action.CONTINUE;
        }
        headerDecoder.wrap(buffer, offset);
        final int bodyOffset = offset + HEADER_LENGTH;
        final StringBuilder json = new StringBuilder(512);
        final String clientOrderId;
        final boolean refused;
        switch (templateId)
        {
            case ExecutionReportDecoder.TEMPLATE_ID:
            {
                report.wrap(buffer, bodyOffset, headerDecoder.blockLength(), headerDecoder.version());
                clientOrderId = report.clientOrderId();
                refused = report.execType() == ExecType.REJECTED;
                executionReport(json);
                break;
            }
            case CancelRejectDecoder.TEMPLATE_ID:
            {
                cancelReject.wrap(buffer, bodyOffset, headerDecoder.blockLength(), headerDecoder.version());
                clientOrderId = cancelReject.clientOrderId();
                refused = true;
                json.append("{\"type\":\"cancelReject\",\"clientOrderId\":");
                FlatJson.quote(json, clientOrderId).append(",\"origClientOrderId\":");
                FlatJson.quote(json, cancelReject.origClientOrderId())
                    .append(",\"orderId\":").append(cancelReject.orderId())
                    .append(",\"rejectReason\":\"").append(cancelReject.rejectReason()).append("\"}");
                break;
            }
            case BusinessRejectDecoder.TEMPLATE_ID:
            {
                businessReject.wrap(buffer, bodyOffset, headerDecoder.blockLength(), headerDecoder.version());
                clientOrderId = businessReject.refClientOrderId();
                refused = true;
                json.append("{\"type\":\"businessReject\",\"clientOrderId\":");
                FlatJson.quote(json, clientOrderId)
                    .append(",\"rejectReason\":\"").append(businessReject.rejectReason()).append("\",\"text\":");
                FlatJson.quote(json, businessReject.text()).append('}');
                break;
            }
            case MassCancelReportDecoder.TEMPLATE_ID:
            {
                massCancelReport.wrap(buffer, bodyOffset, headerDecoder.blockLength(), headerDecoder.version());
                clientOrderId = massCancelReport.clientRequestId();
                refused = false;
                final String symbol = instruments.symbol(massCancelReport.instrumentId());
                json.append("{\"type\":\"massCancelReport\",\"requestId\":");
                FlatJson.quote(json, clientOrderId).append(",\"accountId\":").append(massCancelReport.accountId())
                    .append(",\"symbol\":");
                if (massCancelReport.scope() == MassCancelScope.INSTRUMENT && null != symbol)
                {
                    FlatJson.quote(json, symbol);
                }
                else
                {
                    json.append("null");
                }
                json.append(",\"cancelled\":").append(massCancelReport.totalAffectedOrders()).append('}');
                break;
            }
            case OrderStatusReportDecoder.TEMPLATE_ID:
                statusReport.wrap(buffer, bodyOffset, headerDecoder.blockLength(), headerDecoder.version());
                onStatusReport(number);
                return Action.CONTINUE;
            default:
                return Action.CONTINUE;
        }
        final Pending pending = pendingByOrder.get(number + "/" + clientOrderId.trim());
        if (null != pending && answers(pending.kind, templateId))
        {
            pendingByOrder.remove(pending.orderKey);
            pending.answered = true;
            WebAnswers.json(pending.channel, pending.keepAlive, refused ? 422 : 200, json);
        }
        userStreams.deliver(key.username(), json.toString());
        return Action.CONTINUE;
    }

    /** Whether an event of the template answers a request of the kind (a mass cancel's own reports do not). */
    private static boolean answers(final WebCommand.Kind kind, final int templateId)
    {
        return switch (kind)
        {
            case CANCEL_ALL -> templateId == MassCancelReportDecoder.TEMPLATE_ID ||
                templateId == BusinessRejectDecoder.TEMPLATE_ID;
            default -> templateId != MassCancelReportDecoder.TEMPLATE_ID;
        };
    }

    /**
     * An OrderStatusReport: the answer to a status request, or one order of an open-orders answer, which is complete
     * with its last report (or its one empty or refused report).
     */
    private void onStatusReport(final int number)
    {
        final Pending pending = pendingByOrder.get(number + "/" + statusReport.statusRequestId().trim());
        if (null == pending)
        {
            return;
        }
        final RejectReason reason = statusReport.rejectReason();
        final int total = statusReport.totalReports();
        if (reason != RejectReason.NONE && reason != RejectReason.NULL_VAL)
        {
            pendingByOrder.remove(pending.orderKey);
            pending.answered = true;
            WebAnswers.error(pending.channel, pending.keepAlive, reason == RejectReason.UNKNOWN_ORDER ? 404 : 422,
                reason.name());
            return;
        }
        if (pending.kind == WebCommand.Kind.ORDER_STATUS)
        {
            pendingByOrder.remove(pending.orderKey);
            pending.answered = true;
            WebAnswers.json(pending.channel, pending.keepAlive, 200, orderState(new StringBuilder(512)
                .append("{\"type\":\"orderStatus\",")));
            return;
        }
        if (null == pending.openOrders)
        {
            pending.openOrders = new StringBuilder(256 * Math.max(1, Math.min(total, 64)))
                .append("{\"type\":\"openOrders\",\"orders\":[");
        }
        if (total > 0)
        {
            if (statusReport.reportNumber() > 1)
            {
                pending.openOrders.append(',');
            }
            orderState(pending.openOrders.append('{'));
        }
        if (statusReport.reportNumber() >= total)
        {
            pendingByOrder.remove(pending.orderKey);
            pending.answered = true;
            WebAnswers.json(pending.channel, pending.keepAlive, 200, pending.openOrders.append("]}"));
        }
    }

    /** The order an OrderStatusReport describes, as JSON members closing the object already opened. */
    private StringBuilder orderState(final StringBuilder json)
    {
        final int scale = Math.max(0, instruments.priceScale(statusReport.instrumentId()));
        final String symbol = instruments.symbol(statusReport.instrumentId());
        json.append("\"orderId\":").append(statusReport.orderId()).append(",\"clientOrderId\":");
        FlatJson.quote(json, statusReport.clientOrderId().trim()).append(",\"accountId\":")
            .append(statusReport.accountId()).append(",\"symbol\":");
        FlatJson.quote(json, null == symbol ? "" : symbol)
            .append(",\"orderStatus\":\"").append(statusReport.orderStatus())
            .append("\",\"side\":\"").append(statusReport.side())
            .append("\",\"orderType\":\"").append(statusReport.orderType())
            .append("\",\"timeInForce\":\"").append(statusReport.timeInForce())
            .append("\",\"price\":\"").append(BigDecimal.valueOf(statusReport.price(), scale).toPlainString())
            .append("\",\"quantity\":\"").append(statusReport.quantity())
            .append("\",\"leavesQuantity\":\"").append(statusReport.leavesQuantity())
            .append("\",\"cumulativeQuantity\":\"").append(statusReport.cumulativeQuantity())
            .append("\",\"averagePrice\":\"")
            .append(BigDecimal.valueOf(statusReport.averagePrice(), scale).toPlainString())
            .append("\",\"transactTimeNs\":").append(statusReport.transactTimeNs());
        return json.append('}');
    }

    private void executionReport(final StringBuilder json)
    {
        final int scale = Math.max(0, instruments.priceScale(report.instrumentId()));
        final String symbol = instruments.symbol(report.instrumentId());
        json.append("{\"type\":\"executionReport\",\"execType\":\"").append(report.execType())
            .append("\",\"orderStatus\":\"").append(report.orderStatus()).append("\",\"orderId\":")
            .append(report.orderId()).append(",\"clientOrderId\":");
        FlatJson.quote(json, report.clientOrderId()).append(",\"origClientOrderId\":");
        FlatJson.quote(json, report.origClientOrderId()).append(",\"accountId\":").append(report.accountId())
            .append(",\"instrumentId\":").append(report.instrumentId()).append(",\"symbol\":");
        FlatJson.quote(json, null == symbol ? "" : symbol)
            .append(",\"side\":\"").append(report.side())
            .append("\",\"orderType\":\"").append(report.orderType())
            .append("\",\"timeInForce\":\"").append(report.timeInForce())
            .append("\",\"price\":\"").append(BigDecimal.valueOf(report.price(), scale).toPlainString())
            .append("\",\"quantity\":\"").append(report.quantity())
            .append("\",\"leavesQuantity\":\"").append(report.leavesQuantity())
            .append("\",\"cumulativeQuantity\":\"").append(report.cumulativeQuantity())
            .append("\",\"lastPrice\":\"").append(BigDecimal.valueOf(report.lastPrice(), scale).toPlainString())
            .append("\",\"lastQuantity\":\"").append(report.lastQuantity())
            .append("\",\"averagePrice\":\"").append(BigDecimal.valueOf(report.averagePrice(), scale).toPlainString())
            .append("\",\"tradeId\":").append(report.tradeId())
            .append(",\"rejectReason\":\"").append(report.rejectReason())
            .append("\",\"cancelReason\":\"").append(report.cancelReason())
            .append("\",\"transactTimeNs\":").append(report.transactTimeNs()).append('}');
    }

    private int closeStreamsOfRevokedKeys()
    {
        int closed = 0;
        for (final Iterator<Map.Entry<Channel, ApiKey>> it = streamKeys.entrySet().iterator(); it.hasNext(); )
        {
            final Map.Entry<Channel, ApiKey> stream = it.next();
            final Channel channel = stream.getKey();
            if (!channel.isActive() || !stream.getValue().sameAs(keys.byNumber(stream.getValue().number())))
            {
                it.remove();
                userStreams.remove(channel, stream.getValue().username());
                marketStreams.close(channel);
                channel.writeAndFlush(new CloseWebSocketFrame(WebSocketCloseStatus.POLICY_VIOLATION,
                    "API key revoked")).addListener(ChannelFutureListener.CLOSE);
                closed++;
            }
        }
        return closed;
    }

    /**
     * Close the user streams of a user the engine disabled or changed.
     *
     * @param username the user.
     * @param disabled whether it was disabled.
     * @param change   what changed.
     */
    public void endSessionsOf(final String username, final boolean disabled, final String change)
    {
        userStreams.removeUser(username);
        for (final Iterator<Map.Entry<Channel, ApiKey>> it = streamKeys.entrySet().iterator(); it.hasNext(); )
        {
            final Map.Entry<Channel, ApiKey> stream = it.next();
            if (stream.getValue().username().equals(username))
            {
                it.remove();
                marketStreams.close(stream.getKey());
                stream.getKey().writeAndFlush(new CloseWebSocketFrame(WebSocketCloseStatus.POLICY_VIOLATION,
                    disabled ? "user disabled" : change)).addListener(ChannelFutureListener.CLOSE);
            }
        }
    }

    /**
     * Close every user stream and drop what waits (the gateway is stopping).
     */
    public void onClose()
    {
        userStreams.closeAll();
        marketStreams.closeAll("the gateway is stopping");
        streamKeys.clear();
        pendingByOrder.clear();
        pendingInOrder.clear();
    }
}
