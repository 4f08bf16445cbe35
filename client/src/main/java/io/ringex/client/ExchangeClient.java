package io.ringex.client;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.ringex.protocol.codecs.HeartbeatEncoder;
import io.ringex.protocol.codecs.MassCancelScope;
import io.ringex.protocol.codecs.MassStatusScope;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.QuoteCancelScope;
import io.ringex.protocol.codecs.RejectReason;
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

import java.security.SecureRandom;
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
 * Threading: single-threaded by contract, as Aeron's own clients are. With {@link #connect}, sends and
 * {@link #poll()} (which sends the heartbeats) are called from one thread: the client writes an exclusive
 * publication, which takes one writer at a time, and takes no lock. A program that wants a thread of its own to poll
 * and heartbeat ({@link #startPolling}) connects with {@link #connectShared}: its concurrent publication takes the
 * poller's heartbeats and the caller's sends at once (the sends still come from one thread: they share an encode
 * buffer). The getters may be read from any thread.
 * <pre>{@code
 * ExchangeClient client = ExchangeClient.connect(aeron, "aeron:udp?endpoint=localhost:40200", 2001,
 *     "aeron:udp?endpoint=localhost:40300", 3001, listener);
 * while (!client.isConnected()) { idle.idle(); }
 * while (client.logon("alice", "secret", true, 1000) < 0) { idle.idle(); }
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
    private final NanoClock clock;
    private final SessionMessages messages = new SessionMessages();
    private final SessionEvents events;
    private final UnsafeBuffer heartbeatBuffer = new UnsafeBuffer(new byte[64]);
    private final MessageHeaderEncoder heartbeatHeaderEncoder = new MessageHeaderEncoder();
    private final HeartbeatEncoder heartbeatEncoder = new HeartbeatEncoder();
    private long lastHeartbeatNs;
    private long nextLogonRequestId = new SecureRandom().nextLong() & Long.MAX_VALUE;
    private AgentRunner pollerRunner;

    private ExchangeClient(
        final Aeron aeron,
        final String gatewayChannel,
        final int gatewayStreamId,
        final String responseChannel,
        final int responseStreamId,
        final ExchangeListener listener,
        final NanoClock clock,
        final boolean sharedPublication)
    {
        this.responseChannel = responseChannel;
        this.responseStreamId = responseStreamId;
        this.events = new SessionEvents(listener);
        this.clock = clock;
        this.subscription = aeron.addSubscription(responseChannel, responseStreamId);
        this.publication = sharedPublication ? aeron.addPublication(gatewayChannel, gatewayStreamId) :
            aeron.addExclusivePublication(gatewayChannel, gatewayStreamId);
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
            SystemNanoClock.INSTANCE, false);
    }

    /**
     * As {@link #connect}, but over the Aeron client's shared, concurrent publication to the gateway
     * ({@link Aeron#addPublication}): the clients of several users in one process then send on one stream instead of
     * one each, and the gateway tells their messages apart by the session id each carries (each still needs a
     * response channel and stream of its own); and a poller thread ({@link #startPolling}) may heartbeat while the
     * caller's thread sends.
     *
     * @param aeron            connected Aeron client; not closed by this client.
     * @param gatewayChannel   the gateway's client channel.
     * @param gatewayStreamId  the gateway's client stream.
     * @param responseChannel  where the gateway answers this client (named in Logon).
     * @param responseStreamId the stream the gateway answers on; unique per client on that channel.
     * @param listener         receives events during {@link #poll()}.
     * @return the client; check {@link #isConnected()} before {@link #logon}.
     */
    public static ExchangeClient connectShared(
        final Aeron aeron,
        final String gatewayChannel,
        final int gatewayStreamId,
        final String responseChannel,
        final int responseStreamId,
        final ExchangeListener listener)
    {
        return new ExchangeClient(aeron, gatewayChannel, gatewayStreamId, responseChannel, responseStreamId, listener,
            SystemNanoClock.INSTANCE, true);
    }

    /**
     * @return true once the gateway subscribes to this client's publication and the driver has opened its window:
     * a send may still be back-pressured later, but not for want of a first status message.
     */
    public boolean isConnected()
    {
        // The driver's sender marks the publication connected on the gateway's first status message; its conductor
        // raises the publication's limit a duty cycle later, and an offer in between is refused as BACK_PRESSURED.
        return publication.isConnected() && publication.availableWindow() > 0;
    }

    /**
     * @return true between an accepted LogonResponse and Logout.
     */
    public boolean isLoggedOn()
    {
        return events.isLoggedOn();
    }

    /**
     * @return the session id from the LogonResponse, 0 before.
     */
    public long sessionId()
    {
        return events.sessionId();
    }

    /**
     * @return the user's default account from the LogonResponse, 0 before.
     */
    public long accountId()
    {
        return events.accountId();
    }

    /**
     * @return LogonResponses received that did not answer this client's Logon, and were ignored (for the poller's
     * thread: another Logon naming this client's response channel, which the gateway itself refuses).
     */
    public long foreignLogonResponses()
    {
        return events.foreignLogonResponses();
    }

    /**
     * @return session messages received that carried another session's id, or came on another publication than this
     * session's LogonResponse (a Logout, an ExecutionReport, a reject, a report, a Heartbeat), and were ignored:
     * they can neither log this session out nor pass for its reports.
     */
    public long foreignSessionMessages()
    {
        return events.foreignSessionMessages();
    }

    /**
     * Make this a drop-copy session's client ({@link io.ringex.client.dropcopy.DropCopyClient} does): its channel
     * also carries copies of other sessions' ExecutionReports, and TradeBusted, which it then delivers; every other
     * session message must still carry its own session id. Call before {@link #logon}.
     *
     * @return this.
     */
    public ExchangeClient receiveDropCopies()
    {
        events.dropCopies(true);
        return this;
    }

    /**
     * @return why the last Logon was refused, NONE if it was not.
     */
    public RejectReason logonRejectReason()
    {
        return events.logonRejectReason();
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
            events.heartbeatIntervalNs(TimeUnit.MILLISECONDS.toNanos(heartbeatIntervalMs));
        }
        final long logonRequestId = ++nextLogonRequestId == 0 ? ++nextLogonRequestId : nextLogonRequestId;
        events.expectLogonResponse(logonRequestId);
        return offer(messages.logon(username, password, cancelOnDisconnect, heartbeatIntervalMs, responseChannel,
            responseStreamId, logonRequestId));
    }

    /**
     * Send Logout; the gateway closes the session.
     *
     * @return offer result.
     */
    public long logout()
    {
        final long result = offer(messages.logout(events.sessionId()));
        if (result > 0)
        {
            events.loggedOff();
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
     * @param orderType     LIMIT or MARKET (STOP and STOP_LIMIT need the overload with a stop price).
     * @param timeInForce   GTC, IOC, FOK or DAY (GTD needs the overload with an expire time).
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
        return newOrder(accountId, clientOrderId, instrumentId, side, orderType, timeInForce, price, quantity, 0, 0, 0,
            0);
    }

    /**
     * Enter an order with the terms of schema version 2; 0 leaves each unset.
     *
     * @param accountId       one of the user's accounts.
     * @param clientOrderId   up to 20 ASCII characters, unique among the account's open orders.
     * @param instrumentId    instrument.
     * @param side            BUY or SELL.
     * @param orderType       LIMIT, MARKET, STOP (needs a stop price) or STOP_LIMIT (a stop price and a price).
     * @param timeInForce     GTC, IOC, FOK, DAY or GTD (needs an expire time).
     * @param price           fixed point; for LIMIT and STOP_LIMIT.
     * @param quantity        whole units.
     * @param stopPrice       the price a trade must reach to trigger a stop, fixed point; else 0.
     * @param displayQuantity an iceberg's visible part; 0 shows all.
     * @param minQuantity     the least it must trade if it trades on entry; 0 for none.
     * @param expireTimeNs    a GTD order's expiry, nanoseconds since the epoch on the engine's clock; else 0.
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
        final long quantity,
        final long stopPrice,
        final long displayQuantity,
        final long minQuantity,
        final long expireTimeNs)
    {
        return offer(messages.newOrder(events.sessionId(), accountId, clientOrderId, instrumentId, side, orderType,
            timeInForce, price, quantity, stopPrice, displayQuantity, minQuantity, expireTimeNs));
    }

    /**
     * Enter an order whose client order id is a number (sent as its decimal text).
     *
     * @param accountId     one of the user's accounts.
     * @param clientOrderId the id.
     * @param instrumentId  instrument.
     * @param side          BUY or SELL.
     * @param orderType     LIMIT or MARKET (STOP and STOP_LIMIT need the overload with a stop price).
     * @param timeInForce   GTC, IOC, FOK or DAY (GTD needs the overload with an expire time).
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
        return newOrder(accountId, messages.id(clientOrderId), instrumentId, side, orderType, timeInForce,
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
        return offer(messages.cancel(events.sessionId(), accountId, clientOrderId, origClientOrderId, orderId,
            instrumentId));
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
        return cancel(accountId, messages.id(clientOrderId), messages.origId(origClientOrderId), orderId,
            instrumentId);
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
        return replace(accountId, clientOrderId, origClientOrderId, orderId, instrumentId, price, quantity, 0);
    }

    /**
     * Cancel/replace that may also move a pending stop's stop price.
     *
     * @param accountId         the order's account.
     * @param clientOrderId     the new client order id.
     * @param origClientOrderId the order's current client order id.
     * @param orderId           engine order id or 0.
     * @param instrumentId      instrument.
     * @param price             new price, fixed point (a pending stop's is not used).
     * @param quantity          new total quantity.
     * @param stopPrice         a pending stop's new stop price, 0 to keep it.
     * @return offer result.
     */
    public long replace(
        final long accountId,
        final CharSequence clientOrderId,
        final CharSequence origClientOrderId,
        final long orderId,
        final int instrumentId,
        final long price,
        final long quantity,
        final long stopPrice)
    {
        return offer(messages.replace(events.sessionId(), accountId, clientOrderId, origClientOrderId, orderId,
            instrumentId, price, quantity, stopPrice));
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
        return offer(messages.massCancel(events.sessionId(), accountId, requestId, scope, instrumentId));
    }

    /**
     * Ask for one open order's current state: answered by one {@link ExchangeListener#onOrderStatusReport}, the
     * order's state, or with a reject reason (UNKNOWN_ORDER for an order that is done, never existed or is another
     * account's). The answer reflects every report this session received before it.
     *
     * @param accountId       the order's account (one of the user's).
     * @param statusRequestId echoed in the answer, up to 20 ASCII characters; may be empty.
     * @param orderId         engine order id, or 0 to name the order by {@code clientOrderId}.
     * @param clientOrderId   the order's current client order id (may be empty when orderId is set).
     * @return offer result.
     */
    public long orderStatus(
        final long accountId,
        final CharSequence statusRequestId,
        final long orderId,
        final CharSequence clientOrderId)
    {
        return offer(messages.orderStatus(events.sessionId(), accountId, statusRequestId, orderId, clientOrderId));
    }

    /**
     * Ask for every open order of a scope: answered by {@code totalReports} {@link
     * ExchangeListener#onOrderStatusReport} calls numbered 1 to totalReports, or by one with totalReports 0 (none;
     * or a refusal, with its reason: UNKNOWN_INSTRUMENT). Reconcile with it after logon: the answer is every order
     * the engine holds open for the scope, as of after every report sent before it.
     *
     * @param accountId       one of the user's accounts, or 0 for all of them.
     * @param statusRequestId echoed in every report, 1 to 20 ASCII characters.
     * @param scope           SESSION (orders this session entered), ACCOUNTS, or INSTRUMENT.
     * @param instrumentId    for scope INSTRUMENT.
     * @return offer result.
     */
    public long massStatus(
        final long accountId,
        final CharSequence statusRequestId,
        final MassStatusScope scope,
        final int instrumentId)
    {
        return offer(messages.massStatus(events.sessionId(), accountId, statusRequestId, scope, instrumentId));
    }

    /**
     * Set the account's two-sided quote in each instrument of {@code entries} (up to
     * {@link QuoteEntries#MAX_ENTRIES}), each entry as one step: a new quote for an instrument replaces the previous
     * one, keeping its place in the queue when a replace would (docs/matching.md). Answered by one
     * {@link ExchangeListener#onMassQuoteAck}, entry by entry, after the ExecutionReports of the quotes' orders (NEW,
     * REPLACED, fills, CANCELED for a pulled side). A size of 0 pulls that side.
     *
     * @param accountId           one of the user's accounts.
     * @param quoteId             1 to 20 ASCII characters; the client order id of the quotes' orders from now on.
     * @param selfTradePrevention for the quotes' orders when they take liquidity; ACCOUNT_DEFAULT for the account's.
     * @param entries             the entries (copied into the message; reusable at once).
     * @return offer result.
     */
    public long massQuote(
        final long accountId,
        final CharSequence quoteId,
        final SelfTradePrevention selfTradePrevention,
        final QuoteEntries entries)
    {
        return offer(messages.massQuote(events.sessionId(), accountId, quoteId, selfTradePrevention, entries));
    }

    /**
     * Cancel the account's quotes: in one instrument, of one quote set, or all. Answered by one
     * {@link ExchangeListener#onQuoteCancelReport}, after the ExecutionReports of the cancelled sides.
     *
     * @param accountId    one of the user's accounts.
     * @param requestId    1 to 20 ASCII characters, echoed in the report.
     * @param scope        INSTRUMENT, QUOTE_SET or ALL.
     * @param instrumentId for scope INSTRUMENT.
     * @param quoteSetId   for scope QUOTE_SET.
     * @return offer result.
     */
    public long quoteCancel(
        final long accountId,
        final CharSequence requestId,
        final QuoteCancelScope scope,
        final int instrumentId,
        final int quoteSetId)
    {
        return offer(messages.quoteCancel(events.sessionId(), accountId, requestId, scope, instrumentId, quoteSetId));
    }

    /**
     * Clear the counters of the account's market-maker protection in a group and lift its freeze. Answered by a
     * {@link ExchangeListener#onMarketMakerProtectionEvent} RESET per group (or a BusinessReject).
     *
     * @param accountId one of the user's accounts.
     * @param groupId   the group (as the operator set it), or 0 for every group of the account.
     * @return offer result.
     */
    public long resetMarketMakerProtection(final long accountId, final int groupId)
    {
        return offer(messages.resetMarketMakerProtection(events.sessionId(), accountId, groupId));
    }

    /**
     * The session's dead man's switch: unless sent again first, every order and quote this session entered is
     * cancelled {@code timeoutMs} from now on the engine's clock. 0 turns it off. Answered by a
     * {@link ExchangeListener#onCancelAllAfterReport} (ARMED, DISARMED or REJECTED), and another (TRIGGERED) if it
     * runs out.
     *
     * @param timeoutMs 0, or 100 to 3,600,000.
     * @return offer result.
     */
    public long cancelAllAfter(final long timeoutMs)
    {
        return offer(messages.cancelAllAfter(events.sessionId(), timeoutMs));
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
        int work = subscription.poll(events, fragmentLimit);
        if (events.isLoggedOn())
        {
            final long nowNs = clock.nanoTime();
            if (nowNs - lastHeartbeatNs >= events.heartbeatIntervalNs())
            {
                heartbeatEncoder.wrapAndApplyHeader(heartbeatBuffer, 0, heartbeatHeaderEncoder)
                    .sessionId(events.sessionId())
                    .timestampNs(nowNs);
                if (offer(heartbeatBuffer, HEADER_LENGTH + heartbeatEncoder.encodedLength()) > 0)
                {
                    lastHeartbeatNs = nowNs;
                    work++;
                }
            }
        }
        return work;
    }

    /**
     * Run {@link #poll()} (and so the heartbeats) on a thread of its own, while the caller's thread sends.
     *
     * @param idleStrategy between empty polls.
     * @return the runner; {@link #close()} stops it.
     * @throws IllegalStateException if the client was made with {@link #connect}: its exclusive publication takes one
     *                               writer at a time, so a poller's heartbeats would tear the caller's sends.
     */
    public AgentRunner startPolling(final IdleStrategy idleStrategy)
    {
        if (publication instanceof ExclusivePublication)
        {
            throw new IllegalStateException("a poller thread needs the concurrent publication of connectShared: " +
                "connect's exclusive publication takes one writer at a time");
        }
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

    private long offer(final int length)
    {
        return offer(messages.buffer(), length);
    }

    private long offer(final DirectBuffer buffer, final int length)
    {
        return publication.offer(buffer, 0, length);
    }
}
