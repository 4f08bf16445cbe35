package io.ringex.gateway.client;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.BusinessRejectDecoder;
import io.ringex.protocol.codecs.CancelOrderEncoder;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.HeartbeatDecoder;
import io.ringex.protocol.codecs.HeartbeatEncoder;
import io.ringex.protocol.codecs.LogonEncoder;
import io.ringex.protocol.codecs.LogonResponseDecoder;
import io.ringex.protocol.codecs.LogonStatus;
import io.ringex.protocol.codecs.LogoutDecoder;
import io.ringex.protocol.codecs.LogoutEncoder;
import io.ringex.protocol.codecs.MassCancelEncoder;
import io.ringex.protocol.codecs.MassCancelScope;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewOrderEncoder;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.ReplaceOrderEncoder;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.concurrent.TimeUnit;

/**
 * The Java client of the Ringex gateway's SBE-over-Aeron session protocol.
 * <p>
 * Sends return what {@link Publication#offer} returns: a positive position when sent, or
 * {@link Publication#BACK_PRESSURED}, {@link Publication#NOT_CONNECTED}, {@link Publication#ADMIN_ACTION},
 * {@link Publication#CLOSED}, {@link Publication#MAX_POSITION_EXCEEDED}: nothing is sent then, and the caller decides
 * whether to retry. Events arrive through {@link #poll()}, duty-cycle style, on the caller's thread; or use
 * {@link #startPolling(IdleStrategy)} for a thread of its own.
 * <p>
 * Threading: send methods share one encode buffer: call them from one thread at a time. {@link #poll()} (and the
 * heartbeats it sends, from a buffer of their own) may run on another thread.
 * <pre>{@code
 * ExchangeClient client = ExchangeClient.connect(aeron, "aeron:udp?endpoint=localhost:40200", 2001,
 *     "aeron:udp?endpoint=localhost:40300", 3001, listener);
 * client.logon("alice", "secret", true, 1000);
 * while (!client.isLoggedOn()) { client.poll(); }
 * client.newOrder(client.accountId(), "ord-1", 1, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, 10125, 10);
 * }</pre>
 */
public final class ExchangeClient implements AutoCloseable
{
    /** Default fragments per poll. */
    public static final int FRAGMENT_LIMIT = 16;

    private static final int HEADER_LENGTH = MessageHeaderEncoder.ENCODED_LENGTH;

    private final Publication publication;
    private final Subscription subscription;
    private final String responseChannel;
    private final int responseStreamId;
    private final ExchangeListener listener;
    private final NanoClock clock;
    private final MessageValidator validator = new MessageValidator(4096);

    private final UnsafeBuffer sendBuffer = new UnsafeBuffer(new byte[1024]);
    private final UnsafeBuffer heartbeatBuffer = new UnsafeBuffer(new byte[64]);
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final MessageHeaderEncoder heartbeatHeaderEncoder = new MessageHeaderEncoder();
    private final LogonEncoder logonEncoder = new LogonEncoder();
    private final LogoutEncoder logoutEncoder = new LogoutEncoder();
    private final HeartbeatEncoder heartbeatEncoder = new HeartbeatEncoder();
    private final NewOrderEncoder newOrderEncoder = new NewOrderEncoder();
    private final CancelOrderEncoder cancelOrderEncoder = new CancelOrderEncoder();
    private final ReplaceOrderEncoder replaceOrderEncoder = new ReplaceOrderEncoder();
    private final MassCancelEncoder massCancelEncoder = new MassCancelEncoder();
    private final StringBuilder idBuilder = new StringBuilder(20);
    private final StringBuilder origIdBuilder = new StringBuilder(20);

    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final LogonResponseDecoder logonResponseDecoder = new LogonResponseDecoder();
    private final ExecutionReportDecoder executionReportDecoder = new ExecutionReportDecoder();
    private final CancelRejectDecoder cancelRejectDecoder = new CancelRejectDecoder();
    private final BusinessRejectDecoder businessRejectDecoder = new BusinessRejectDecoder();
    private final LogoutDecoder logoutDecoder = new LogoutDecoder();
    private final HeartbeatDecoder heartbeatDecoder = new HeartbeatDecoder();
    private final FragmentHandler fragmentHandler = this::onFragment;

    private volatile long sessionId;
    private volatile long accountId;
    private volatile boolean loggedOn;
    private volatile RejectReason logonRejectReason = RejectReason.NONE;
    private long heartbeatIntervalNs = TimeUnit.SECONDS.toNanos(1);
    private long lastHeartbeatNs;
    private AgentRunner pollerRunner;

    private ExchangeClient(
        final Aeron aeron,
        final String gatewayChannel,
        final int gatewayStreamId,
        final String responseChannel,
        final int responseStreamId,
        final ExchangeListener listener,
        final NanoClock clock)
    {
        this.responseChannel = responseChannel;
        this.responseStreamId = responseStreamId;
        this.listener = listener;
        this.clock = clock;
        this.subscription = aeron.addSubscription(responseChannel, responseStreamId);
        this.publication = aeron.addExclusivePublication(gatewayChannel, gatewayStreamId);
    }

    /**
     * Create the client's publication to the gateway and subscription to its own response channel.
     *
     * @param aeron            connected Aeron client; not closed by this client.
     * @param gatewayChannel   the gateway's client channel, e.g. {@code aeron:udp?endpoint=localhost:40200}.
     * @param gatewayStreamId  the gateway's client stream, e.g. 2001.
     * @param responseChannel  where the gateway answers this client (named in Logon).
     * @param responseStreamId the stream the gateway answers on.
     * @param listener         receives events during {@link #poll()}.
     * @return the client; check {@link #isConnected()} before {@link #logon}.
     */
    public static ExchangeClient connect(
        final Aeron aeron,
        final String gatewayChannel,
        final int gatewayStreamId,
        final String responseChannel,
        final int responseStreamId,
        final ExchangeListener listener)
    {
        return new ExchangeClient(aeron, gatewayChannel, gatewayStreamId, responseChannel, responseStreamId, listener,
            SystemNanoClock.INSTANCE);
    }

    /**
     * @return true once the gateway subscribes to this client's publication.
     */
    public boolean isConnected()
    {
        return publication.isConnected();
    }

    /**
     * @return true between an accepted LogonResponse and Logout.
     */
    public boolean isLoggedOn()
    {
        return loggedOn;
    }

    /**
     * @return the session id from the LogonResponse, 0 before.
     */
    public long sessionId()
    {
        return sessionId;
    }

    /**
     * @return the user's default account from the LogonResponse, 0 before.
     */
    public long accountId()
    {
        return accountId;
    }

    /**
     * @return why the last Logon was refused, NONE if it was not.
     */
    public RejectReason logonRejectReason()
    {
        return logonRejectReason;
    }

    /**
     * Send Logon.
     *
     * @param username            user name.
     * @param password            password; sent to the gateway, which compares it with its stored hash.
     * @param cancelOnDisconnect  cancel this session's orders when it ends other than by the engine.
     * @param heartbeatIntervalMs the interval both sides heartbeat at; 0 for the gateway's default.
     * @return offer result.
     */
    public long logon(
        final String username,
        final CharSequence password,
        final boolean cancelOnDisconnect,
        final int heartbeatIntervalMs)
    {
        if (heartbeatIntervalMs > 0)
        {
            heartbeatIntervalNs = TimeUnit.MILLISECONDS.toNanos(heartbeatIntervalMs);
        }
        logonEncoder.wrapAndApplyHeader(sendBuffer, 0, headerEncoder)
            .heartbeatIntervalMs(heartbeatIntervalMs)
            .cancelOnDisconnect(cancelOnDisconnect ? BooleanType.TRUE : BooleanType.FALSE)
            .responseStreamId(responseStreamId)
            .username(username)
            .credential(password.toString())
            .responseChannel(responseChannel);
        return offer(logonEncoder.encodedLength());
    }

    /**
     * Send Logout; the gateway closes the session.
     *
     * @return offer result.
     */
    public long logout()
    {
        logoutEncoder.wrapAndApplyHeader(sendBuffer, 0, headerEncoder)
            .sessionId(sessionId)
            .reason(RejectReason.NONE)
            .text("");
        final long result = offer(logoutEncoder.encodedLength());
        if (result > 0)
        {
            loggedOn = false;
        }
        return result;
    }

    /**
     * Enter a limit or market order.
     *
     * @param accountId     one of the user's accounts.
     * @param clientOrderId up to 20 ASCII characters.
     * @param instrumentId  instrument.
     * @param side          BUY or SELL.
     * @param orderType     LIMIT or MARKET.
     * @param timeInForce   GTC, IOC, FOK or DAY.
     * @param price         fixed point at the instrument's price scale (ignored for MARKET).
     * @param quantity      whole units.
     * @return offer result.
     */
    public long newOrder(
        final long accountId,
        final CharSequence clientOrderId,
        final int instrumentId,
        final Side side,
        final OrderType orderType,
        final TimeInForce timeInForce,
        final long price,
        final long quantity)
    {
        checkId(clientOrderId);
        newOrderEncoder.wrapAndApplyHeader(sendBuffer, 0, headerEncoder)
            .sessionId(sessionId)
            .accountId(accountId)
            .clientOrderId(clientOrderId)
            .instrumentId(instrumentId)
            .side(side)
            .orderType(orderType)
            .timeInForce(timeInForce)
            .postOnly(BooleanType.FALSE)
            .selfTradePrevention(SelfTradePrevention.ACCOUNT_DEFAULT)
            .price(price)
            .quantity(quantity);
        return offer(newOrderEncoder.encodedLength());
    }

    /**
     * Enter an order whose client order id is a number (sent as its decimal text).
     *
     * @param accountId     one of the user's accounts.
     * @param clientOrderId the id.
     * @param instrumentId  instrument.
     * @param side          BUY or SELL.
     * @param orderType     LIMIT or MARKET.
     * @param timeInForce   GTC, IOC, FOK or DAY.
     * @param price         fixed point.
     * @param quantity      whole units.
     * @return offer result.
     */
    public long newOrder(
        final long accountId,
        final long clientOrderId,
        final int instrumentId,
        final Side side,
        final OrderType orderType,
        final TimeInForce timeInForce,
        final long price,
        final long quantity)
    {
        return newOrder(accountId, decimal(idBuilder, clientOrderId), instrumentId, side, orderType, timeInForce,
            price, quantity);
    }

    /**
     * Cancel an order by engine order id, or by its client order id when {@code orderId} is 0.
     *
     * @param accountId         the order's account.
     * @param clientOrderId     id of this request.
     * @param origClientOrderId the order's client order id (may be empty when orderId is set).
     * @param orderId           engine order id or 0.
     * @param instrumentId      instrument.
     * @return offer result.
     */
    public long cancel(
        final long accountId,
        final CharSequence clientOrderId,
        final CharSequence origClientOrderId,
        final long orderId,
        final int instrumentId)
    {
        checkId(clientOrderId);
        checkId(origClientOrderId);
        cancelOrderEncoder.wrapAndApplyHeader(sendBuffer, 0, headerEncoder)
            .sessionId(sessionId)
            .accountId(accountId)
            .clientOrderId(clientOrderId)
            .origClientOrderId(origClientOrderId)
            .orderId(orderId)
            .instrumentId(instrumentId);
        return offer(cancelOrderEncoder.encodedLength());
    }

    /**
     * Cancel with numeric client order ids.
     *
     * @param accountId         the order's account.
     * @param clientOrderId     id of this request.
     * @param origClientOrderId the order's client order id.
     * @param orderId           engine order id or 0.
     * @param instrumentId      instrument.
     * @return offer result.
     */
    public long cancel(
        final long accountId,
        final long clientOrderId,
        final long origClientOrderId,
        final long orderId,
        final int instrumentId)
    {
        return cancel(accountId, decimal(idBuilder, clientOrderId), decimal(origIdBuilder, origClientOrderId),
            orderId, instrumentId);
    }

    /**
     * Cancel/replace: new price and total quantity; the order takes {@code clientOrderId}.
     *
     * @param accountId         the order's account.
     * @param clientOrderId     the new client order id.
     * @param origClientOrderId the order's current client order id.
     * @param orderId           engine order id or 0.
     * @param instrumentId      instrument.
     * @param price             new price, fixed point.
     * @param quantity          new total quantity.
     * @return offer result.
     */
    public long replace(
        final long accountId,
        final CharSequence clientOrderId,
        final CharSequence origClientOrderId,
        final long orderId,
        final int instrumentId,
        final long price,
        final long quantity)
    {
        checkId(clientOrderId);
        checkId(origClientOrderId);
        replaceOrderEncoder.wrapAndApplyHeader(sendBuffer, 0, headerEncoder)
            .sessionId(sessionId)
            .accountId(accountId)
            .clientOrderId(clientOrderId)
            .origClientOrderId(origClientOrderId)
            .orderId(orderId)
            .instrumentId(instrumentId)
            .price(price)
            .quantity(quantity);
        return offer(replaceOrderEncoder.encodedLength());
    }

    /**
     * Mass cancel.
     *
     * @param accountId    the account (ignored by the engine for scope SESSION beyond authority checks).
     * @param requestId    id of this request, up to 20 ASCII characters.
     * @param scope        ACCOUNT, INSTRUMENT or SESSION.
     * @param instrumentId for scope INSTRUMENT.
     * @return offer result.
     */
    public long massCancel(
        final long accountId,
        final CharSequence requestId,
        final MassCancelScope scope,
        final int instrumentId)
    {
        checkId(requestId);
        massCancelEncoder.wrapAndApplyHeader(sendBuffer, 0, headerEncoder)
            .sessionId(sessionId)
            .accountId(accountId)
            .clientRequestId(requestId)
            .scope(scope)
            .instrumentId(instrumentId)
            .cancelOnDisconnect(BooleanType.FALSE);
        return offer(massCancelEncoder.encodedLength());
    }

    /**
     * Offer raw bytes as they are: for tests and tools that need to send what the typed methods will not.
     *
     * @param buffer holding a message.
     * @param offset where it starts.
     * @param length its length.
     * @return offer result.
     */
    public long offerRaw(final DirectBuffer buffer, final int offset, final int length)
    {
        return publication.offer(buffer, offset, length);
    }

    /**
     * Deliver received events to the listener and send a heartbeat when one is due.
     *
     * @return work done (fragments read plus heartbeats sent).
     */
    public int poll()
    {
        return poll(FRAGMENT_LIMIT);
    }

    /**
     * @param fragmentLimit most fragments to read.
     * @return work done.
     */
    public int poll(final int fragmentLimit)
    {
        int work = subscription.poll(fragmentHandler, fragmentLimit);
        if (loggedOn)
        {
            final long nowNs = clock.nanoTime();
            if (nowNs - lastHeartbeatNs >= heartbeatIntervalNs)
            {
                heartbeatEncoder.wrapAndApplyHeader(heartbeatBuffer, 0, heartbeatHeaderEncoder)
                    .sessionId(sessionId)
                    .timestampNs(nowNs);
                if (publication.offer(heartbeatBuffer, 0, HEADER_LENGTH + heartbeatEncoder.encodedLength()) > 0)
                {
                    lastHeartbeatNs = nowNs;
                    work++;
                }
            }
        }
        return work;
    }

    /**
     * Run {@link #poll()} on a thread of its own.
     *
     * @param idleStrategy between empty polls.
     * @return the runner; {@link #close()} stops it.
     */
    public AgentRunner startPolling(final IdleStrategy idleStrategy)
    {
        if (pollerRunner != null)
        {
            throw new IllegalStateException("already polling");
        }
        pollerRunner = new AgentRunner(idleStrategy, Throwable::printStackTrace, null, new Agent()
        {
            public int doWork()
            {
                return poll();
            }

            public String roleName()
            {
                return "ringex-exchange-client";
            }
        });
        AgentRunner.startOnThread(pollerRunner);
        return pollerRunner;
    }

    /**
     * Stop any poller thread and close the publication and subscription (not the Aeron client).
     */
    public void close()
    {
        CloseHelper.closeAll(pollerRunner, publication, subscription);
    }

    private void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        if (validator.validate(buffer, offset, length) != RejectReason.NONE)
        {
            return;
        }
        headerDecoder.wrap(buffer, offset);
        final int bodyOffset = offset + HEADER_LENGTH;
        final int blockLength = headerDecoder.blockLength();
        final int version = headerDecoder.version();
        switch (headerDecoder.templateId())
        {
            case ExecutionReportDecoder.TEMPLATE_ID:
                listener.onExecutionReport(executionReportDecoder.wrap(buffer, bodyOffset, blockLength, version));
                break;
            case CancelRejectDecoder.TEMPLATE_ID:
                listener.onCancelReject(cancelRejectDecoder.wrap(buffer, bodyOffset, blockLength, version));
                break;
            case BusinessRejectDecoder.TEMPLATE_ID:
                listener.onBusinessReject(businessRejectDecoder.wrap(buffer, bodyOffset, blockLength, version));
                break;
            case HeartbeatDecoder.TEMPLATE_ID:
                listener.onHeartbeat(heartbeatDecoder.wrap(buffer, bodyOffset, blockLength, version).timestampNs());
                break;
            case LogonResponseDecoder.TEMPLATE_ID:
                logonResponseDecoder.wrap(buffer, bodyOffset, blockLength, version);
                if (logonResponseDecoder.status() == LogonStatus.ACCEPTED)
                {
                    sessionId = logonResponseDecoder.sessionId();
                    accountId = logonResponseDecoder.accountId();
                    final long intervalMs = logonResponseDecoder.heartbeatIntervalMs();
                    if (intervalMs > 0)
                    {
                        heartbeatIntervalNs = TimeUnit.MILLISECONDS.toNanos(intervalMs);
                    }
                    logonRejectReason = RejectReason.NONE;
                    loggedOn = true;
                }
                else
                {
                    logonRejectReason = logonResponseDecoder.rejectReason();
                    loggedOn = false;
                }
                logonResponseDecoder.sbeRewind();
                listener.onLogonResponse(logonResponseDecoder);
                break;
            case LogoutDecoder.TEMPLATE_ID:
                loggedOn = false;
                listener.onLogout(logoutDecoder.wrap(buffer, bodyOffset, blockLength, version));
                break;
            default:
                break;
        }
    }

    private long offer(final int bodyLength)
    {
        return publication.offer(sendBuffer, 0, HEADER_LENGTH + bodyLength);
    }

    private static void checkId(final CharSequence id)
    {
        if (id != null && id.length() > NewOrderEncoder.clientOrderIdLength())
        {
            throw new IllegalArgumentException("client order ids are at most 20 characters: " + id);
        }
    }

    private static CharSequence decimal(final StringBuilder builder, final long value)
    {
        builder.setLength(0);
        return builder.append(value);
    }
}
