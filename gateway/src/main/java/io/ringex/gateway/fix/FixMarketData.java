package io.ringex.gateway.fix;

import io.aeron.logbuffer.ControlledFragmentHandler.Action;
import io.ringex.gateway.fix.codecs.builder.MarketDataRequestRejectEncoder;
import io.ringex.gateway.fix.codecs.builder.SecurityListEncoder;
import io.ringex.gateway.fix.codecs.decoder.MarketDataRequestDecoder;
import io.ringex.gateway.fix.codecs.decoder.SecurityListRequestDecoder;
import io.ringex.gateway.marketdata.InstrumentFeed;
import io.ringex.gateway.marketdata.MarketDataCache;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.codecs.TradingStatus;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import uk.co.real_logic.artio.builder.Decoder;
import uk.co.real_logic.artio.builder.Encoder;
import uk.co.real_logic.artio.util.MutableAsciiBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * FIX 4.4 market data for the gateway's FIX sessions, from the gateway's own copy of the market ({@link
 * MarketDataCache}): SecurityList (x/y), MarketDataRequest (V) subscriptions served by {@link FixMarketDataPublisher},
 * rejects (Y), and trading status ({@link FixSecurityStatus}); docs/client.md, "FIX market data".
 * <p>
 * Market data is public to any logged-on FIX user. A session's subscriptions end when it disconnects, so Artio's store
 * and forward (for reports) never fills with market data.
 * <p>
 * Threading: the FIX agent thread only.
 */
final class FixMarketData
{
    /** Subscriptions (symbol x MDReqID) one session may hold. */
    static final int DEFAULT_MAX_SUBSCRIPTIONS_PER_SESSION = 32;

    private final MarketDataCache cache;
    private final FixMarketDataPublisher publisher;
    private final FixSecurityStatus securityStatus;
    private final int maxSubscriptionsPerSession;
    private final AtomicCounter activeSubscriptions;
    private final AtomicCounter rejects;
    private final MarketDataRequestDecoder request = new MarketDataRequestDecoder();
    private final SecurityListRequestDecoder securityListRequest = new SecurityListRequestDecoder();
    private final MarketDataRequestRejectEncoder reject = new MarketDataRequestRejectEncoder();
    private final SecurityListEncoder securityList = new SecurityListEncoder();
    private final MutableAsciiBuffer ascii = new MutableAsciiBuffer();
    private final StringBuilder text = new StringBuilder(128);
    private final StringBuilder id = new StringBuilder(64);
    private final List<InstrumentFeed> matched = new ArrayList<>();
    private long securityResponses;

    /**
     * @param cache                      the market, kept up to date by the caller.
     * @param maxSubscriptionsPerSession subscriptions one session may hold.
     * @param activeSubscriptions        set to the number of live subscriptions.
     * @param rejects                    counts Y sent.
     * @param publisher                  sends W and X.
     */
    FixMarketData(
        final MarketDataCache cache,
        final int maxSubscriptionsPerSession,
        final AtomicCounter activeSubscriptions,
        final AtomicCounter rejects,
        final FixMarketDataPublisher publisher)
    {
        this.cache = cache;
        this.maxSubscriptionsPerSession = maxSubscriptionsPerSession;
        this.activeSubscriptions = activeSubscriptions;
        this.rejects = rejects;
        this.publisher = publisher;
        this.securityStatus = new FixSecurityStatus(cache);
        publisher.onEncodingFailed(this::onEncodingFailed);
    }

    /**
     * A subscription whose W or X could not be encoded is dropped; its session gets a Y saying so, with
     * MDReqRejReason 5: the usual cause is a MarketDepth of 0 on a book too deep for one message.
     */
    private void onEncodingFailed(final MarketDataSubscription subscription)
    {
        text.setLength(0);
        text.append("subscription to ").append(subscription.feed.symbol())
            .append(" ended: the book does not fit one message at this MarketDepth; ask for fewer levels");
        sendReject(subscription.session, subscription.mdReqId, '5');
        activeSubscriptions.setRelease(publisher.subscriptions().size());
    }

    /**
     * Send what is due to every subscription.
     *
     * @return messages sent.
     */
    int doWork()
    {
        final int sent = publisher.flush() + securityStatus.flush(publisher.subscriptions());
        activeSubscriptions.setRelease(publisher.subscriptions().size());
        return sent;
    }

    /**
     * A session went offline: its subscriptions end.
     *
     * @param session the session.
     */
    void onDisconnect(final FixSession session)
    {
        publisher.subscriptions().removeIf(s -> s.session == session);
        securityStatus.onDisconnect(session);
        activeSubscriptions.setRelease(publisher.subscriptions().size());
    }

    /**
     * A SecurityStatusRequest (e): see {@link FixSecurityStatus}.
     *
     * @return ABORT if the answer could not be sent now (Artio redelivers the request), else CONTINUE.
     */
    Action onSecurityStatusRequest(
        final FixSession session, final int seqNum, final DirectBuffer buffer, final int offset, final int length)
    {
        return securityStatus.onRequest(session, seqNum, buffer, offset, length);
    }

    /**
     * @param session a session.
     * @return its live subscriptions.
     */
    int subscriptionCount(final FixSession session)
    {
        int count = 0;
        for (final MarketDataSubscription subscription : publisher.subscriptions())
        {
            if (subscription.session == session)
            {
                count++;
            }
        }
        return count;
    }

    /**
     * A MarketDataRequest (V).
     *
     * @return ABORT if the answer could not be sent now (Artio redelivers the request), else CONTINUE.
     */
    Action onMarketDataRequest(final FixSession session, final DirectBuffer buffer, final int offset, final int length)
    {
        final MarketDataRequestDecoder d = request;
        text.setLength(0);
        id.setLength(0);
        if (!decode(d, buffer, offset, length))
        {
            return sendReject(session, id.length() == 0 ? "UNKNOWN" : id, '\0');
        }
        final char type = d.subscriptionRequestType();
        if (type == '2')
        {
            return unsubscribe(session);
        }
        if (type != '0' && type != '1')
        {
            text.append("SubscriptionRequestType ").append(type).append(" is not supported (0, 1 or 2)");
            return sendReject(session, id, '4');
        }
        for (final MarketDataSubscription subscription : publisher.subscriptions())
        {
            if (subscription.session == session && subscription.mdReqId.contentEquals(id))
            {
                text.append("MDReqID ").append(id).append(" is already subscribed");
                return sendReject(session, id, '1');
            }
        }
        final int marketDepth = d.marketDepth();
        if (marketDepth < 0)
        {
            text.append("MarketDepth must be 0 (full book), 1 (top of book) or N levels");
            return sendReject(session, id, '5');
        }
        if (d.hasMDUpdateType() && d.mDUpdateType() != 1 && type == '1')
        {
            text.append("MDUpdateType must be 1 (incremental refresh)");
            return sendReject(session, id, '6');
        }
        if (d.hasAggregatedBook() && !d.aggregatedBook())
        {
            text.append("only aggregated (price-level) books are offered: AggregatedBook must be Y");
            return sendReject(session, id, '7');
        }
        if (d.hasScope() && !(d.scopeLength() == 1 && d.scope()[0] == '1'))
        {
            text.append("Scope must be 1 (local market)");
            return sendReject(session, id, 'A');
        }
        if (d.hasOpenCloseSettlFlag())
        {
            text.append("OpenCloseSettlFlag is not supported");
            return sendReject(session, id, 'B');
        }
        if (d.hasMDImplicitDelete() && d.mDImplicitDelete())
        {
            text.append("MDImplicitDelete=Y is not supported: deletes are always sent");
            return sendReject(session, id, 'C');
        }

        boolean bids = false;
        boolean offers = false;
        boolean trades = false;
        int statistics = 0;
        for (final MarketDataRequestDecoder.MDEntryTypesGroupDecoder entry : d.mDEntryTypesGroupIterator())
        {
            switch (entry.mDEntryType())
            {
                case '0' -> bids = true;
                case '1' -> offers = true;
                case '2' -> trades = true;
                case '4' -> statistics |= MarketDataSubscription.OPEN;
                case '7' -> statistics |= MarketDataSubscription.HIGH;
                case '8' -> statistics |= MarketDataSubscription.LOW;
                case '9' -> statistics |= MarketDataSubscription.VWAP;
                case 'B' -> statistics |= MarketDataSubscription.VOLUME;
                default ->
                {
                    text.append("MDEntryType ").append(entry.mDEntryType())
                        .append(" is not supported (0 1 2 4 7 8 9 B)");
                    return sendReject(session, id, '8');
                }
            }
        }

        matched.clear();
        for (final MarketDataRequestDecoder.RelatedSymGroupDecoder related : d.relatedSymGroupIterator())
        {
            final String symbol = related.symbolAsString();
            final InstrumentFeed feed = cache.bySymbol(symbol);
            if (feed == null || feed.status() == TradingStatus.DELISTED)
            {
                text.append(feed == null ? "unknown symbol " : "delisted symbol ").append(symbol);
                return sendReject(session, id, '0');
            }
            if (!matched.contains(feed))
            {
                matched.add(feed);
            }
        }
        final int held = subscriptionCount(session);
        if (type == '1' && held + matched.size() > maxSubscriptionsPerSession)
        {
            text.append("too many subscriptions: ").append(held).append(" held, ").append(matched.size())
                .append(" asked, at most ").append(maxSubscriptionsPerSession).append(" per session");
            return sendReject(session, id, '2');
        }

        final int depth = marketDepth == 0 ? Integer.MAX_VALUE : marketDepth;
        final String mdReqId = id.toString();
        for (final InstrumentFeed feed : matched)
        {
            publisher.subscriptions().add(new MarketDataSubscription(
                session, mdReqId, feed, depth, bids, offers, trades, statistics, type == '0'));
        }
        activeSubscriptions.setRelease(publisher.subscriptions().size());
        return Action.CONTINUE;
    }

    private Action unsubscribe(final FixSession session)
    {
        final boolean removed = publisher.subscriptions().removeIf(
            s -> s.session == session && s.mdReqId.contentEquals(id));
        activeSubscriptions.setRelease(publisher.subscriptions().size());
        if (removed)
        {
            return Action.CONTINUE;
        }
        text.append("no subscription with MDReqID ").append(id).append(" to end");
        return sendReject(session, id, '\0');
    }

    /**
     * Decode and validate a request; on failure {@link #text} says why. The MDReqID or SecurityReqID is copied to
     * {@link #id} when it can be read.
     */
    private boolean decode(final Decoder decoder, final DirectBuffer buffer, final int offset, final int length)
    {
        decoder.reset();
        try
        {
            ascii.wrap(buffer, offset, length);
            decoder.decode(ascii, 0, length);
            copyId(decoder);
            if (decoder.validate())
            {
                return true;
            }
            text.append("malformed request: ").append(FixDictionaryCheck.reasonText(decoder.rejectReason()));
            if (decoder.invalidTagId() > 0)
            {
                text.append(": tag ").append(decoder.invalidTagId());
            }
        }
        catch (final RuntimeException ex)
        {
            text.append("malformed request: ").append(ex.getClass().getSimpleName());
        }
        return false;
    }

    private void copyId(final Decoder decoder)
    {
        if (decoder == request && request.mDReqIDLength() > 0)
        {
            id.append(request.mDReqID(), 0, request.mDReqIDLength());
        }
        else if (decoder == securityListRequest && securityListRequest.securityReqIDLength() > 0)
        {
            id.append(securityListRequest.securityReqID(), 0, securityListRequest.securityReqIDLength());
        }
    }

    private Action sendReject(final FixSession session, final CharSequence mdReqId, final char reason)
    {
        final MarketDataRequestRejectEncoder e = reject;
        e.reset();
        e.mDReqID(mdReqId);
        if (reason != '\0')
        {
            e.mDReqRejReason(reason);
        }
        e.text(text);
        final long sent = trySend(session, e);
        if (sent < 0 && sent != Long.MIN_VALUE)
        {
            return Action.ABORT;
        }
        rejects.increment();
        return Action.CONTINUE;
    }

    /**
     * A SecurityListRequest (x): every defined instrument (SecurityListRequestType 4) or the one named (0).
     *
     * @return ABORT if the answer could not be sent now, else CONTINUE.
     */
    Action onSecurityListRequest(
        final FixSession session, final DirectBuffer buffer, final int offset, final int length)
    {
        text.setLength(0);
        id.setLength(0);
        matched.clear();
        int result = 0;
        if (!decode(securityListRequest, buffer, offset, length))
        {
            result = 1;
        }
        else
        {
            final int type = securityListRequest.securityListRequestType();
            if (type == 4)
            {
                for (final InstrumentFeed feed : cache.instruments())
                {
                    if (feed.isDefined())
                    {
                        matched.add(feed);
                    }
                }
            }
            else if (type == 0 && securityListRequest.symbolLength() > 0)
            {
                final InstrumentFeed feed = cache.bySymbol(new String(securityListRequest.symbol(), 0,
                    securityListRequest.symbolLength()));
                if (feed != null)
                {
                    matched.add(feed);
                }
            }
            else
            {
                result = 1;
                text.append("SecurityListRequestType must be 4 (all securities) or 0 with a Symbol");
            }
            if (result == 0 && matched.isEmpty())
            {
                result = 2;
                text.append("no instrument matches");
            }
        }

        final SecurityListEncoder e = securityList;
        e.reset();
        e.securityReqID(id.length() == 0 ? "UNKNOWN" : id);
        e.securityResponseID(Long.toString(++securityResponses));
        e.securityRequestResult(result);
        if (result == 0)
        {
            e.totNoRelatedSym(matched.size());
            e.lastFragment(true);
            SecurityListEncoder.RelatedSymGroupEncoder group = e.relatedSymGroup(matched.size());
            for (int i = 0; i < matched.size(); i++)
            {
                final InstrumentFeed feed = matched.get(i);
                group.instrument().symbol(feed.symbol());
                group.instrument().securityID(Integer.toString(feed.instrumentId()));
                group.instrument().securityIDSource("8");
                group.roundLot(feed.lotSize(), 0);
                group.minTradeVol(feed.lotSize(), 0);
                text.setLength(0);
                text.append("tickSize=");
                FixedPoint.appendTo(text, feed.tickSize(), feed.priceScale());
                text.append(" priceScale=").append(feed.priceScale()).append(" status=").append(feed.status());
                group.text(text);
                if (i + 1 < matched.size())
                {
                    group = group.next();
                }
            }
        }
        else
        {
            // y has no Text outside its group: SecurityRequestResult says why.
            e.totNoRelatedSym(0);
        }
        final long sent = trySend(session, e);
        return sent < 0 && sent != Long.MIN_VALUE ? Action.ABORT : Action.CONTINUE;
    }

    private long trySend(final FixSession session, final Encoder encoder)
    {
        try
        {
            return session.session.trySend(encoder);
        }
        catch (final RuntimeException ex)
        {
            return Long.MIN_VALUE;
        }
    }
}
