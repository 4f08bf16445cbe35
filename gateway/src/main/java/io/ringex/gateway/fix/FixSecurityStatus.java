package io.ringex.gateway.fix;

import io.aeron.logbuffer.ControlledFragmentHandler.Action;
import io.ringex.gateway.fix.codecs.builder.BusinessMessageRejectEncoder;
import io.ringex.gateway.fix.codecs.builder.SecurityStatusEncoder;
import io.ringex.gateway.fix.codecs.decoder.SecurityStatusRequestDecoder;
import io.ringex.gateway.marketdata.InstrumentFeed;
import io.ringex.gateway.marketdata.MarketDataCache;
import io.ringex.protocol.codecs.TradingStatus;
import org.agrona.DirectBuffer;
import uk.co.real_logic.artio.builder.Encoder;
import uk.co.real_logic.artio.util.MutableAsciiBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * Trading status for FIX sessions as SecurityStatus (f): unsolicited to a symbol's market-data subscribers when its
 * status changes, and on SecurityStatusRequest (e); docs/client.md, "FIX market data".
 * <p>
 * Changes are conflated, like market data: nothing is queued per session; one that cannot be sent to now gets the
 * status as it is when it can.
 * <p>
 * Threading: the FIX agent thread only.
 */
final class FixSecurityStatus
{
    /** SecurityStatusRequest subscriptions one session may hold. */
    static final int MAX_REQUESTS_PER_SESSION = 32;

    private static final int REJECT_OTHER = 0;
    private static final int REJECT_UNKNOWN_SECURITY = 2;

    private final MarketDataCache cache;
    private final List<Request> requests = new ArrayList<>();
    private final SecurityStatusRequestDecoder decoder = new SecurityStatusRequestDecoder();
    private final SecurityStatusEncoder status = new SecurityStatusEncoder();
    private final BusinessMessageRejectEncoder reject = new BusinessMessageRejectEncoder();
    private final MutableAsciiBuffer ascii = new MutableAsciiBuffer();
    private final StringBuilder text = new StringBuilder(128);
    private final StringBuilder id = new StringBuilder(64);

    /** One SecurityStatusRequest subscription: a session, its SecurityStatusReqID and the symbol. */
    private static final class Request
    {
        final FixSession session;
        final String reqId;
        final InstrumentFeed feed;
        long statusVersionSent;

        Request(final FixSession session, final String reqId, final InstrumentFeed feed)
        {
            this.session = session;
            this.reqId = reqId;
            this.feed = feed;
            this.statusVersionSent = feed.statusVersion();
        }
    }

    /**
     * @param cache the market, kept up to date by the caller.
     */
    FixSecurityStatus(final MarketDataCache cache)
    {
        this.cache = cache;
    }

    /**
     * A SecurityStatusRequest (e).
     *
     * @param session the session.
     * @param seqNum  the request's MsgSeqNum, for a reject's RefSeqNum.
     * @return ABORT if the answer could not be sent now (Artio redelivers the request), else CONTINUE.
     */
    Action onRequest(
        final FixSession session, final int seqNum, final DirectBuffer buffer, final int offset, final int length)
    {
        text.setLength(0);
        id.setLength(0);
        final SecurityStatusRequestDecoder d = decoder;
        d.reset();
        try
        {
            ascii.wrap(buffer, offset, length);
            d.decode(ascii, 0, length);
            if (d.securityStatusReqIDLength() > 0)
            {
                id.append(d.securityStatusReqID(), 0, d.securityStatusReqIDLength());
            }
            if (!d.validate())
            {
                text.append("malformed request: ").append(FixDictionaryCheck.reasonText(d.rejectReason()));
                if (d.invalidTagId() > 0)
                {
                    text.append(": tag ").append(d.invalidTagId());
                }
                return sendReject(session, seqNum, REJECT_OTHER);
            }
        }
        catch (final RuntimeException ex)
        {
            text.append("malformed request: ").append(ex.getClass().getSimpleName());
            return sendReject(session, seqNum, REJECT_OTHER);
        }

        final char type = d.subscriptionRequestType();
        if (type == '2')
        {
            final boolean removed = requests.removeIf(r -> r.session == session && r.reqId.contentEquals(id));
            if (removed)
            {
                return Action.CONTINUE;
            }
            text.append("no security status subscription with SecurityStatusReqID ").append(id).append(" to end");
            return sendReject(session, seqNum, REJECT_OTHER);
        }
        if (type != '0' && type != '1')
        {
            text.append("SubscriptionRequestType ").append(type).append(" is not supported (0, 1 or 2)");
            return sendReject(session, seqNum, REJECT_OTHER);
        }
        final String symbol = new String(d.symbol(), 0, d.symbolLength());
        final InstrumentFeed feed = cache.bySymbol(symbol);
        if (feed == null)
        {
            text.append("unknown symbol ").append(symbol);
            return sendReject(session, seqNum, REJECT_UNKNOWN_SECURITY);
        }
        if (type == '1')
        {
            int held = 0;
            for (final Request request : requests)
            {
                if (request.session == session)
                {
                    if (request.reqId.contentEquals(id))
                    {
                        text.append("SecurityStatusReqID ").append(id).append(" is already subscribed");
                        return sendReject(session, seqNum, REJECT_OTHER);
                    }
                    held++;
                }
            }
            if (held >= MAX_REQUESTS_PER_SESSION)
            {
                text.append("too many security status subscriptions: at most ").append(MAX_REQUESTS_PER_SESSION)
                    .append(" per session");
                return sendReject(session, seqNum, REJECT_OTHER);
            }
        }
        final long sent = trySend(session, encodeStatus(feed, id, false));
        if (sent < 0 && sent != Long.MIN_VALUE)
        {
            return Action.ABORT;
        }
        if (type == '1')
        {
            requests.add(new Request(session, id.toString(), feed));
        }
        return Action.CONTINUE;
    }

    /**
     * Tell every session that asked, or holds a market-data subscription to the symbol, of status changes.
     *
     * @param subscriptions the market-data subscriptions.
     * @return messages sent.
     */
    int flush(final List<MarketDataSubscription> subscriptions)
    {
        int sent = 0;
        for (int i = 0, n = subscriptions.size(); i < n; i++)
        {
            final MarketDataSubscription subscription = subscriptions.get(i);
            final InstrumentFeed feed = subscription.feed;
            if (subscription.statusVersionSent == feed.statusVersion() || subscription.snapshotOnly)
            {
                continue;
            }
            final long result = trySend(subscription.session, encodeStatus(feed, null, true));
            if (result < 0 && result != Long.MIN_VALUE)
            {
                continue; // conflated: the status as it is then, when the session can be sent to
            }
            sent++;
            for (int j = i; j < n; j++)
            {
                // one f per session and symbol, whatever the number of its subscriptions to it
                final MarketDataSubscription other = subscriptions.get(j);
                if (other.session == subscription.session && other.feed == feed)
                {
                    other.statusVersionSent = feed.statusVersion();
                }
            }
        }
        for (final Request request : requests)
        {
            if (request.statusVersionSent != request.feed.statusVersion())
            {
                final long result = trySend(request.session, encodeStatus(request.feed, request.reqId, true));
                if (result >= 0 || result == Long.MIN_VALUE)
                {
                    request.statusVersionSent = request.feed.statusVersion();
                    sent++;
                }
            }
        }
        return sent;
    }

    /**
     * A session went offline: its requests end.
     *
     * @param session the session.
     */
    void onDisconnect(final FixSession session)
    {
        requests.removeIf(r -> r.session == session);
    }

    private Encoder encodeStatus(final InstrumentFeed feed, final CharSequence reqId, final boolean unsolicited)
    {
        final SecurityStatusEncoder e = status;
        e.reset();
        if (reqId != null)
        {
            e.securityStatusReqID(reqId);
        }
        e.instrument().symbol(feed.symbol());
        e.instrument().securityID(Integer.toString(feed.instrumentId()));
        e.instrument().securityIDSource("8");
        final TradingStatus tradingStatus = feed.status();
        final String phase = tradingSessionSubId(tradingStatus);
        if (phase != null)
        {
            e.tradingSessionSubID(phase);
        }
        e.unsolicitedIndicator(unsolicited);
        e.securityTradingStatus(securityTradingStatus(tradingStatus));
        e.text(tradingStatus.name());
        return e;
    }

    /**
     * @param status the engine's trading status.
     * @return FIX 4.4 SecurityTradingStatus (326).
     */
    static int securityTradingStatus(final TradingStatus status)
    {
        return switch (status)
        {
            case OPEN -> 17;                 // ready to trade
            case HALTED -> 2;                // trading halt
            case CLOSED -> 18;               // not available for trading
            case PRE_OPEN, OPENING_AUCTION, CLOSING_AUCTION, VOLATILITY_AUCTION -> 21; // pre-open: a call phase
            case DELISTED -> 19;             // not traded on this market
            default -> 20;                   // unknown or invalid
        };
    }

    /**
     * @param status the engine's trading status.
     * @return TradingSessionSubID (625) naming the phase, FIX 5.0's values, or null while halted or unknown.
     */
    static String tradingSessionSubId(final TradingStatus status)
    {
        return switch (status)
        {
            case PRE_OPEN -> "1";
            case OPENING_AUCTION -> "2";
            case OPEN -> "3";
            case CLOSING_AUCTION -> "4";
            case CLOSED, DELISTED -> "5";
            case VOLATILITY_AUCTION -> "6";
            default -> null;
        };
    }

    private Action sendReject(final FixSession session, final int seqNum, final int reason)
    {
        final BusinessMessageRejectEncoder e = reject;
        e.reset();
        e.refSeqNum(Math.max(0, seqNum));
        e.refMsgType("e");
        if (id.length() > 0)
        {
            e.businessRejectRefID(id);
        }
        e.businessRejectReason(reason);
        e.text(text);
        final long sent = trySend(session, e);
        return sent < 0 && sent != Long.MIN_VALUE ? Action.ABORT : Action.CONTINUE;
    }

    private static long trySend(final FixSession session, final Encoder encoder)
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
