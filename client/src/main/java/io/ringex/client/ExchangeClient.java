package io.ringex.client;

import io.aeron.Aeron;
import io.aeron.ChannelUri;
import io.aeron.CommonContext;
import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.exceptions.ConfigurationException;
import io.aeron.exceptions.TimeoutException;
import io.ringex.protocol.codecs.HeartbeatEncoder;
import io.ringex.protocol.codecs.MassCancelScope;
import io.ringex.protocol.codecs.MassStatusScope;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.QuoteCancelScope;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.SelfTradePrevention;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;

/**
 * The Java client of the Ringex gateway's SBE-over-Aeron session protocol (docs/client.md, "Java client"): {@link
 * #connect(Context)} returns a logged-on client or throws why not; {@link #asyncConnect(Context)} does the same step by
 * step, for a caller that polls.
 * <p>
 * Sends return what {@link Publication#offer} returns: a positive position when sent, or a negative code such as {@link
 * Publication#BACK_PRESSURED}, when nothing was sent and the caller decides whether to retry. Events arrive through
 * {@link #poll()}, or on a thread of its own with {@link #startPolling}.
 * <p>
 * Threading: single-threaded by contract, as Aeron's own clients are: sends and {@link #poll()} (which sends the
 * heartbeats) from one thread; the getters from any.
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
    private final NewOrder order = new NewOrder(this);
    private final ErrorHandler errorHandler;
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
        final boolean sharedPublication,
        final ErrorHandler errorHandler)
    {
        this.errorHandler = errorHandler;
        this.responseChannel = responseChannel;
        this.responseStreamId = responseStreamId;
        this.events = new SessionEvents(listener);
        this.clock = clock;
        this.subscription = aeron.addSubscription(responseChannel, responseStreamId);
        this.publication = sharedPublication ? aeron.addPublication(gatewayChannel, gatewayStreamId) :
            aeron.addExclusivePublication(gatewayChannel, gatewayStreamId);
    }

    /**
     * Create the client's publication to the gateway and subscription to its own response channel, and no more: for
     * tools and tests that send the Logon themselves ({@link #logon}). A program uses {@link #connect(Context)}.
     *
     * @param aeron            connected Aeron client; not closed by this client.
     * @param gatewayChannel   the gateway's client channel, e.g. {@code aeron:udp?endpoint=localhost:40200}.
     * @param gatewayStreamId  the gateway's client stream, e.g. 2001.
     * @param responseChannel  where the gateway answers this client (named in Logon).
     * @param responseStreamId the stream the gateway answers on.
     * @param listener         receives events during {@link #poll()}.
     * @return the client; check {@link #isConnected()} before {@link #logon}.
     */
    public static ExchangeClient openChannels(
        final Aeron aeron,
        final String gatewayChannel,
        final int gatewayStreamId,
        final String responseChannel,
        final int responseStreamId,
        final ExchangeListener listener)
    {
        return new ExchangeClient(aeron, gatewayChannel, gatewayStreamId, responseChannel, responseStreamId, listener,
            SystemNanoClock.INSTANCE, false, Throwable::printStackTrace);
    }

    /**
     * As {@link #openChannels}, but over the Aeron client's shared, concurrent publication to the gateway
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
    public static ExchangeClient openSharedChannels(
        final Aeron aeron,
        final String gatewayChannel,
        final int gatewayStreamId,
        final String responseChannel,
        final int responseStreamId,
        final ExchangeListener listener)
    {
        return new ExchangeClient(aeron, gatewayChannel, gatewayStreamId, responseChannel, responseStreamId, listener,
            SystemNanoClock.INSTANCE, true, Throwable::printStackTrace);
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
     * @return the gateway's text with the last refused Logon, empty if none.
     */
    public String logonRejectText()
    {
        return events.logonRejectText();
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
     * The client's own reusable order terms, reset: set them and {@link NewOrder#send()}.
     *
     * @return the terms (the same object each call).
     */
    public NewOrder order()
    {
        return order.reset();
    }

    /**
     * Enter an order.
     *
     * @param order the terms; the account, when not set, is the user's default account from the logon.
     * @return offer result.
     * @throws IllegalStateException if the order has no client order id, instrument, side or type.
     */
    public long newOrder(final NewOrder order)
    {
        return offer(messages.newOrder(events.sessionId(), events.accountId(), order));
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
     * @throws IllegalStateException if the client sends on an exclusive publication (the default): it takes one
     *                               writer at a time, so a poller's heartbeats would tear the caller's sends.
     */
    public AgentRunner startPolling(final IdleStrategy idleStrategy)
    {
        if (publication instanceof ExclusivePublication)
        {
            throw new IllegalStateException("a poller thread needs the shared, concurrent publication " +
                "(Context.sharedPublication): an exclusive publication takes one writer at a time");
        }
        if (pollerRunner != null)
        {
            throw new IllegalStateException("already polling");
        }
        pollerRunner = new AgentRunner(idleStrategy, errorHandler, null, new Agent()
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

    /**
     * Connect to the gateway and log on: returns once the session is open.
     *
     * @param ctx the client's configuration; concluded here, so it serves this one client.
     * @return the logged-on client.
     * @throws ConfigurationException   if the context is incomplete or malformed (the message names the setting).
     * @throws LogonRefusedException    if the gateway refused the logon (with its reason and text).
     * @throws io.aeron.exceptions.TimeoutException if the gateway did not connect, or answer the logon, within
     *                                  {@link Context#connectTimeoutNs()}.
     */
    public static ExchangeClient connect(final Context ctx)
    {
        final AsyncConnect asyncConnect = asyncConnect(ctx);
        return PolledConnect.complete(asyncConnect, ctx.idleStrategy());
    }

    /**
     * Begin connecting and logging on, for a caller that polls: {@link AsyncConnect#poll()} until it returns the
     * client.
     *
     * @param ctx the client's configuration; concluded here, so it serves this one client.
     * @return the connection in progress.
     * @throws ConfigurationException if the context is incomplete or malformed (the message names the setting).
     */
    public static AsyncConnect asyncConnect(final Context ctx)
    {
        ctx.conclude();
        return new AsyncConnect(ctx);
    }

    /**
     * A connection and logon in progress: {@link #poll()} until it returns the logged-on client, or throws why not.
     * Polled from one thread; {@link #close()} abandons it.
     */
    public static final class AsyncConnect implements PolledConnect<ExchangeClient>
    {
        /** Where the connection is. */
        public enum State
        {
            /** Waiting for the gateway to take this client's publication. */
            AWAIT_PUBLICATION_CONNECTED,
            /** Offering the Logon. */
            SEND_LOGON,
            /** Waiting for the gateway's LogonResponse. */
            AWAIT_LOGON_RESPONSE,
            /** Logged on: the client was returned. */
            DONE,
            /** Failed or abandoned: the client's channels are closed. */
            CLOSED
        }

        private final Context ctx;
        private final ExchangeClient client;
        private final long deadlineNs;
        private State state = State.AWAIT_PUBLICATION_CONNECTED;

        AsyncConnect(final Context ctx)
        {
            this.ctx = ctx;
            this.client = new ExchangeClient(ctx.aeron(), ctx.gatewayChannel(), ctx.gatewayStreamId(),
                ctx.responseChannel(), ctx.responseStreamId(), ctx.listener(), ctx.nanoClock(),
                ctx.sharedPublication(), ctx.errorHandler());
            if (ctx.receiveDropCopies())
            {
                client.receiveDropCopies();
            }
            this.deadlineNs = ctx.nanoClock().nanoTime() + ctx.connectTimeoutNs();
        }

        /**
         * @return where the connection is.
         */
        public State state()
        {
            return state;
        }

        /**
         * Take the next step.
         *
         * @return the logged-on client once the gateway accepted the logon, null before.
         * @throws LogonRefusedException if the gateway refused the logon.
         * @throws io.aeron.exceptions.TimeoutException if the connect timeout passed first.
         * @throws IllegalStateException if done or closed already.
         */
        public ExchangeClient poll()
        {
            if (State.DONE == state || State.CLOSED == state)
            {
                throw new IllegalStateException("this connection is " + state);
            }
            try
            {
                if (State.AWAIT_PUBLICATION_CONNECTED == state && client.isConnected())
                {
                    state = State.SEND_LOGON;
                }
                if (State.SEND_LOGON == state && client.logon(ctx.username(), ctx.password(),
                    ctx.cancelOnDisconnect(), (int)TimeUnit.NANOSECONDS.toMillis(ctx.heartbeatIntervalNs())) > 0)
                {
                    state = State.AWAIT_LOGON_RESPONSE;
                }
                if (State.AWAIT_LOGON_RESPONSE == state)
                {
                    client.poll();
                    if (client.events.logonAnswered())
                    {
                        if (client.isLoggedOn())
                        {
                            state = State.DONE;
                            return client;
                        }
                        throw new LogonRefusedException(ctx.username(), client.logonRejectReason(),
                            client.logonRejectText());
                    }
                }
                if (ctx.nanoClock().nanoTime() - deadlineNs > 0)
                {
                    throw new TimeoutException(timeoutMessage());
                }
                return null;
            }
            catch (final RuntimeException ex)
            {
                close();
                throw ex;
            }
        }

        /**
         * Abandon the connection, closing the client's channels; nothing once the client was returned.
         */
        public void close()
        {
            if (State.DONE != state && State.CLOSED != state)
            {
                state = State.CLOSED;
                client.close();
            }
        }

        private String timeoutMessage()
        {
            final long timeoutMs = TimeUnit.NANOSECONDS.toMillis(ctx.connectTimeoutNs());
            if (State.AWAIT_LOGON_RESPONSE == state)
            {
                return "no LogonResponse to " + ctx.username() + " within " + timeoutMs + " ms (the gateway answers " +
                    "nothing while too many Logons wait, or to a response channel it will not answer on: " +
                    ctx.responseChannel() + " stream " + ctx.responseStreamId() + ")";
            }
            if (State.SEND_LOGON == state)
            {
                return "the Logon of " + ctx.username() + " not taken by the publication to " + ctx.gatewayChannel() +
                    " within " + timeoutMs + " ms (back-pressured)";
            }
            return "no gateway connected at " + ctx.gatewayChannel() + " stream " + ctx.gatewayStreamId() +
                " within " + timeoutMs + " ms";
        }
    }

    /**
     * What {@link #connect(Context)} and {@link #asyncConnect(Context)} need: the channels, the user's credentials,
     * the timeouts, the idle strategy and the error handler. Fluent setters; {@link #conclude()} checks it whole and
     * fails naming the first setting that is missing or malformed. One context serves one client.
     */
    public static final class Context
    {
        /** The gateway's client stream when none is set. */
        public static final int GATEWAY_STREAM_ID_DEFAULT = 2001;
        /** The stream the gateway answers on when none is set; unique per client on one response channel. */
        public static final int RESPONSE_STREAM_ID_DEFAULT = 3001;
        /** How long connecting and logging on may take when no timeout is set. */
        public static final long CONNECT_TIMEOUT_NS_DEFAULT = TimeUnit.SECONDS.toNanos(10);

        private boolean concluded;
        private Aeron aeron;
        private String gatewayChannel;
        private int gatewayStreamId = GATEWAY_STREAM_ID_DEFAULT;
        private String responseChannel;
        private int responseStreamId = RESPONSE_STREAM_ID_DEFAULT;
        private String username;
        private CharSequence password;
        private boolean cancelOnDisconnect;
        private long heartbeatIntervalNs;
        private long connectTimeoutNs = CONNECT_TIMEOUT_NS_DEFAULT;
        private IdleStrategy idleStrategy;
        private ErrorHandler errorHandler;
        private ExchangeListener listener;
        private boolean sharedPublication;
        private boolean receiveDropCopies;
        private NanoClock nanoClock = SystemNanoClock.INSTANCE;

        /**
         * Check the settings and fill in the defaults; {@link #connect(Context)} calls it.
         *
         * @return this.
         * @throws ConfigurationException naming the first setting missing or malformed.
         * @throws IllegalStateException  if concluded already: a context serves one client.
         */
        public Context conclude()
        {
            if (concluded)
            {
                throw new IllegalStateException("ExchangeClient.Context concluded already: one context per client");
            }
            checkChannel("gatewayChannel", gatewayChannel);
            checkChannel("responseChannel", responseChannel);
            if (null == username || username.isEmpty())
            {
                throw new ConfigurationException("ExchangeClient.Context.username: missing");
            }
            if (null == password || password.length() == 0)
            {
                throw new ConfigurationException("ExchangeClient.Context.password: missing for " + username);
            }
            if (null == listener)
            {
                throw new ConfigurationException("ExchangeClient.Context.listener: missing (it receives the " +
                    "session's reports)");
            }
            if (connectTimeoutNs <= 0)
            {
                throw new ConfigurationException("ExchangeClient.Context.connectTimeoutNs: must be positive, not " +
                    connectTimeoutNs);
            }
            if (heartbeatIntervalNs != 0 && (heartbeatIntervalNs < TimeUnit.MILLISECONDS.toNanos(1) ||
                TimeUnit.NANOSECONDS.toMillis(heartbeatIntervalNs) > Integer.MAX_VALUE))
            {
                throw new ConfigurationException("ExchangeClient.Context.heartbeatIntervalNs: 0 (the gateway's) or " +
                    "1 ms to " + Integer.MAX_VALUE + " ms, not " + heartbeatIntervalNs + " ns");
            }
            if (null == aeron)
            {
                throw new ConfigurationException("ExchangeClient.Context.aeron: missing (a connected Aeron client)");
            }
            if (null == idleStrategy)
            {
                idleStrategy = new BackoffIdleStrategy();
            }
            if (null == errorHandler)
            {
                errorHandler = Throwable::printStackTrace;
            }
            concluded = true;
            return this;
        }

        private static void checkChannel(final String name, final String channel)
        {
            final String key = "ExchangeClient.Context." + name;
            if (null == channel || channel.isEmpty())
            {
                throw new ConfigurationException(key + ": missing");
            }
            final ChannelUri uri;
            try
            {
                uri = ChannelUri.parse(channel);
            }
            catch (final RuntimeException ex)
            {
                throw new ConfigurationException(key + ": not an Aeron channel: " + channel + " (" + ex.getMessage() +
                    ")");
            }
            if (uri.isIpc())
            {
                return;
            }
            if (!uri.isUdp())
            {
                throw new ConfigurationException(key + ": aeron:udp or aeron:ipc, not " + channel);
            }
            final String endpoint = uri.get(CommonContext.ENDPOINT_PARAM_NAME);
            final int colon = null == endpoint ? -1 : endpoint.lastIndexOf(':');
            if (colon <= 0)
            {
                throw new ConfigurationException(key + ": names no endpoint host:port: " + channel);
            }
            final int port;
            try
            {
                port = Integer.parseInt(endpoint.substring(colon + 1));
            }
            catch (final NumberFormatException ex)
            {
                throw new ConfigurationException(key + ": the endpoint's port is not a number: " + channel);
            }
            if (port < 1 || port > 65_535)
            {
                throw new ConfigurationException(key + ": the endpoint's port is out of range: " + channel);
            }
            final String host = endpoint.substring(0, colon);
            if ("responseChannel".equals(name) && ("0.0.0.0".equals(host) || "0".equals(host) || "[::]".equals(host)))
            {
                throw new ConfigurationException(key + ": the wildcard address names no host the gateway can " +
                    "answer: give this host's address: " + channel);
            }
        }

        /**
         * @param aeron a connected Aeron client; not closed by the client.
         * @return this.
         */
        public Context aeron(final Aeron aeron)
        {
            this.aeron = aeron;
            return this;
        }

        /**
         * @return the Aeron client.
         */
        public Aeron aeron()
        {
            return aeron;
        }

        /**
         * @param gatewayChannel the gateway's client channel, e.g. {@code aeron:udp?endpoint=localhost:40200}.
         * @return this.
         */
        public Context gatewayChannel(final String gatewayChannel)
        {
            this.gatewayChannel = gatewayChannel;
            return this;
        }

        /**
         * @return the gateway's client channel.
         */
        public String gatewayChannel()
        {
            return gatewayChannel;
        }

        /**
         * @param gatewayStreamId the gateway's client stream; {@link #GATEWAY_STREAM_ID_DEFAULT} when not set.
         * @return this.
         */
        public Context gatewayStreamId(final int gatewayStreamId)
        {
            this.gatewayStreamId = gatewayStreamId;
            return this;
        }

        /**
         * @return the gateway's client stream.
         */
        public int gatewayStreamId()
        {
            return gatewayStreamId;
        }

        /**
         * @param responseChannel where the gateway answers this client: {@code aeron:udp?endpoint=host:port} with
         *                        this host's address (not the wildcard), or {@code aeron:ipc} on the gateway's host.
         * @return this.
         */
        public Context responseChannel(final String responseChannel)
        {
            this.responseChannel = responseChannel;
            return this;
        }

        /**
         * @return where the gateway answers this client.
         */
        public String responseChannel()
        {
            return responseChannel;
        }

        /**
         * @param responseStreamId the stream the gateway answers on; {@link #RESPONSE_STREAM_ID_DEFAULT} when not set.
         * @return this.
         */
        public Context responseStreamId(final int responseStreamId)
        {
            this.responseStreamId = responseStreamId;
            return this;
        }

        /**
         * @return the stream the gateway answers on.
         */
        public int responseStreamId()
        {
            return responseStreamId;
        }

        /**
         * @param username the user to log on as.
         * @return this.
         */
        public Context username(final String username)
        {
            this.username = username;
            return this;
        }

        /**
         * @return the user to log on as.
         */
        public String username()
        {
            return username;
        }

        /**
         * @param password the user's password; kept (not copied) until the Logon is sent.
         * @return this.
         */
        public Context password(final CharSequence password)
        {
            this.password = password;
            return this;
        }

        /**
         * @return the user's password.
         */
        public CharSequence password()
        {
            return password;
        }

        /**
         * @param cancelOnDisconnect cancel the session's orders when it ends other than by the engine; false when
         *                           not set.
         * @return this.
         */
        public Context cancelOnDisconnect(final boolean cancelOnDisconnect)
        {
            this.cancelOnDisconnect = cancelOnDisconnect;
            return this;
        }

        /**
         * @return whether the session's orders are cancelled when it ends.
         */
        public boolean cancelOnDisconnect()
        {
            return cancelOnDisconnect;
        }

        /**
         * @param heartbeatIntervalNs the interval both sides heartbeat at, whole milliseconds on the wire; 0 (when not
         *                            set) for the gateway's.
         * @return this.
         */
        public Context heartbeatIntervalNs(final long heartbeatIntervalNs)
        {
            this.heartbeatIntervalNs = heartbeatIntervalNs;
            return this;
        }

        /**
         * @return the heartbeat interval asked for, 0 for the gateway's.
         */
        public long heartbeatIntervalNs()
        {
            return heartbeatIntervalNs;
        }

        /**
         * @param connectTimeoutNs how long connecting and logging on may take; {@link #CONNECT_TIMEOUT_NS_DEFAULT}
         *                         when not set. Longer than the gateway's logon failure delay, so a refusal is heard.
         * @return this.
         */
        public Context connectTimeoutNs(final long connectTimeoutNs)
        {
            this.connectTimeoutNs = connectTimeoutNs;
            return this;
        }

        /**
         * @return how long connecting and logging on may take.
         */
        public long connectTimeoutNs()
        {
            return connectTimeoutNs;
        }

        /**
         * @param idleStrategy what {@link #connect(Context)} does between steps; a {@link BackoffIdleStrategy} when
         *                     not set.
         * @return this.
         */
        public Context idleStrategy(final IdleStrategy idleStrategy)
        {
            this.idleStrategy = idleStrategy;
            return this;
        }

        /**
         * @return the idle strategy.
         */
        public IdleStrategy idleStrategy()
        {
            return idleStrategy;
        }

        /**
         * @param errorHandler what a poller thread ({@link #startPolling}) does with an error; printing to the
         *                     standard error when not set.
         * @return this.
         */
        public Context errorHandler(final ErrorHandler errorHandler)
        {
            this.errorHandler = errorHandler;
            return this;
        }

        /**
         * @return the error handler.
         */
        public ErrorHandler errorHandler()
        {
            return errorHandler;
        }

        /**
         * @param listener receives the session's events during {@link ExchangeClient#poll()}.
         * @return this.
         */
        public Context listener(final ExchangeListener listener)
        {
            this.listener = listener;
            return this;
        }

        /**
         * @return the listener.
         */
        public ExchangeListener listener()
        {
            return listener;
        }

        /**
         * @param sharedPublication send on the Aeron client's shared, concurrent publication to the gateway (as
         *                          {@link #openSharedChannels}), so a poller thread may heartbeat while the caller
         *                          sends; false (an exclusive publication) when not set.
         * @return this.
         */
        public Context sharedPublication(final boolean sharedPublication)
        {
            this.sharedPublication = sharedPublication;
            return this;
        }

        /**
         * @return whether the client sends on the shared publication.
         */
        public boolean sharedPublication()
        {
            return sharedPublication;
        }

        /**
         * @param receiveDropCopies make this a drop-copy session's client, as
         *                          {@link ExchangeClient#receiveDropCopies()} does before the Logon
         *                          ({@link io.ringex.client.dropcopy.DropCopyClient} sets it); false when not set.
         * @return this.
         */
        public Context receiveDropCopies(final boolean receiveDropCopies)
        {
            this.receiveDropCopies = receiveDropCopies;
            return this;
        }

        /**
         * @return whether the client is a drop-copy session's.
         */
        public boolean receiveDropCopies()
        {
            return receiveDropCopies;
        }

        /**
         * @param nanoClock the clock of the heartbeats and the connect timeout; the system's when not set.
         * @return this.
         */
        public Context nanoClock(final NanoClock nanoClock)
        {
            this.nanoClock = nanoClock;
            return this;
        }

        /**
         * @return the clock.
         */
        public NanoClock nanoClock()
        {
            return nanoClock;
        }
    }
}
