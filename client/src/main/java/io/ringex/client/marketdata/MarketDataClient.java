package io.ringex.client.marketdata;

import io.ringex.client.PolledConnect;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;

import io.aeron.Aeron;
import io.aeron.ChannelUri;
import io.aeron.CommonContext;
import io.aeron.FragmentAssembler;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.exceptions.ConfigurationException;
import io.aeron.exceptions.TimeoutException;
import io.aeron.logbuffer.Header;
import io.ringex.protocol.codecs.AuctionIndicativeDecoder;
import io.ringex.protocol.codecs.BestBidOfferDecoder;
import io.ringex.protocol.codecs.BookLevelUpdateDecoder;
import io.ringex.protocol.codecs.BookOrdersDecoder;
import io.ringex.protocol.codecs.BookSnapshotDecoder;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.InstrumentDefinitionDecoder;
import io.ringex.protocol.codecs.MarketDataRequestStatus;
import io.ringex.protocol.codecs.MarketStatisticsDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.RetransmitRequestEncoder;
import io.ringex.protocol.codecs.RetransmitResponseDecoder;
import io.ringex.protocol.codecs.SnapshotRequestEncoder;
import io.ringex.protocol.codecs.SnapshotResponseDecoder;
import io.ringex.protocol.codecs.TradeDecoder;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The Java client of the Ringex market-data feed (docs/protocol.md, "Market data"; docs/client.md, "Java market-data
 * client"): subscribe to instruments, get callbacks for trades, BBO, statistics and book changes, and hold each
 * instrument's book order by order (L3) with its level totals (L2), which the client rebuilds by itself, by
 * retransmission or snapshot, when it misses something.
 * <p>
 * {@link #connect(Context)} returns once the feed and its recovery service are there, or throws why not; {@link
 * #asyncConnect(Context)} does the same step by step; {@link #open(Context)} does not wait.
 * <p>
 * Threading: single-threaded by contract, like {@code ExchangeClient}: {@link #subscribe}, {@link #poll()} and the
 * getters from one thread. Nothing is allocated per message in steady state.
 */
public final class MarketDataClient implements AutoCloseable
{
    /** Most feed messages one retransmission may ask for (the service's limit). */
    public static final int MAX_RETRANSMIT = 4096;
    /** Wait for an answer before asking again. */
    public static final long REQUEST_TIMEOUT_NS = 2_000_000_000L;
    /** Wait after a BUSY or NOT_READY before asking again, unless the answer says longer. */
    public static final long RETRY_DELAY_NS = 50_000_000L;
    /**
     * Snapshot requests awaiting their answer at once: a client following many instruments asks for their books a few
     * at a time rather than all together (the service answers a requester's excess BUSY, or not at all).
     */
    public static final int MAX_OUTSTANDING_SNAPSHOTS = 16;
    /** The longest response channel a request may name (the service's limit). */
    public static final int MAX_RESPONSE_CHANNEL_LENGTH = 128;

    private static final int HEADER = MessageHeaderDecoder.ENCODED_LENGTH;
    private static final int FRAGMENT_LIMIT = 64;

    private final Subscription feed;
    private final Subscription recovery;
    private final boolean recoveryOnIpc;
    private final int responseStreamId;
    /** The response channel as requests name it, once the subscription's port is known; null until then. */
    private byte[] responseChannel;
    private final Publication requests;
    private final MarketDataListener listener;
    private final NanoClock clock;
    private final boolean followAll;
    private final FragmentAssembler feedAssembler = new FragmentAssembler(this::onFeedFragment);
    private final FragmentAssembler recoveryAssembler = new FragmentAssembler(this::onRecoveryFragment);
    private final Int2ObjectHashMap<Subscribed> instruments = new Int2ObjectHashMap<>();
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final BookLevelUpdateDecoder levelUpdate = new BookLevelUpdateDecoder();
    private final BestBidOfferDecoder bbo = new BestBidOfferDecoder();
    private final TradeDecoder trade = new TradeDecoder();
    private final MarketStatisticsDecoder statistics = new MarketStatisticsDecoder();
    private final InstrumentDefinitionDecoder definition = new InstrumentDefinitionDecoder();
    private final BookOrdersDecoder bookOrders = new BookOrdersDecoder();
    private final SnapshotResponseDecoder snapshotResponse = new SnapshotResponseDecoder();
    private final RetransmitResponseDecoder retransmitResponse = new RetransmitResponseDecoder();
    private final SnapshotRequestEncoder snapshotRequest = new SnapshotRequestEncoder();
    private final RetransmitRequestEncoder retransmitRequest = new RetransmitRequestEncoder();
    private final UnsafeBuffer requestBuffer = new UnsafeBuffer(new byte[256]);
    private long nextRequestId = new SecureRandom().nextLong() & 0x3FFF_FFFF_FFFF_FFFFL;

    private long expectedChannelSequence;
    private int feedSessionId;
    private boolean feedSeen;
    /** Live messages held while a retransmission is outstanding: [int32 length][int64 channel sequence][message]. */
    private ExpandableArrayBuffer held = new ExpandableArrayBuffer(64 * 1024);
    private ExpandableArrayBuffer draining = new ExpandableArrayBuffer(64 * 1024);
    private int heldLength;
    private long retransmitRequestId;
    private long retransmitFrom;
    private int retransmitCount;
    private boolean retransmitAccepted;
    private boolean retransmitSent;
    private long retransmitDeadlineNs;
    private long retransmitNotBeforeNs;
    private final int maxHeldBytes;

    private long lastEventTimestampNs;
    private long channelGaps;
    private long retransmissions;
    private long snapshots;
    private long recoveries;

    private MarketDataClient(final Context ctx)
    {
        this.recoveryOnIpc = checkResponseChannel(ctx.responseChannel());
        this.responseStreamId = ctx.responseStreamId();
        this.listener = ctx.listener();
        this.clock = ctx.nanoClock();
        this.followAll = ctx.followAllInstruments();
        this.maxHeldBytes = 16 * 1024 * 1024;
        final Aeron aeron = ctx.aeron();
        Subscription feed = null;
        Subscription recovery = null;
        Publication requests = null;
        try
        {
            feed = aeron.addSubscription(ctx.feedChannel(), ctx.feedStreamId());
            recovery = aeron.addSubscription(ctx.responseChannel(), ctx.responseStreamId());
            requests = aeron.addPublication(ctx.requestChannel(), ctx.requestStreamId());
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietCloseAll(feed, recovery, requests);
            throw ex;
        }
        this.feed = feed;
        this.recovery = recovery;
        this.requests = requests;
    }

    /**
     * Open the client's channels and return at once, not waiting for the engine: for a reader that may start before
     * the engine does and must follow it whenever it comes (the gateway does); until the recovery service is there,
     * its requests wait. A program that needs the engine there uses {@link #connect(Context)}.
     *
     * @param ctx the client's configuration; concluded here, so it serves this one client.
     * @return the client.
     * @throws ConfigurationException if the context is incomplete or malformed (the message names the setting).
     */
    public static MarketDataClient open(final Context ctx)
    {
        ctx.conclude();
        return new MarketDataClient(ctx);
    }

    /**
     * Open the client's channels and wait until the engine's feed and its recovery service are there: the client
     * returned can {@link #subscribe} and be {@link #poll()}ed at once.
     *
     * @param ctx the client's configuration; concluded here, so it serves this one client.
     * @return the connected client.
     * @throws ConfigurationException if the context is incomplete or malformed (the message names the setting).
     * @throws io.aeron.exceptions.TimeoutException if the feed or the recovery service did not connect within
     *                                              {@link Context#connectTimeoutNs()} (the message says which).
     */
    public static MarketDataClient connect(final Context ctx)
    {
        final AsyncConnect asyncConnect = asyncConnect(ctx);
        return PolledConnect.complete(asyncConnect, ctx.idleStrategy());
    }

    /**
     * Begin connecting, for a caller that polls: {@link AsyncConnect#poll()} until it returns the client.
     *
     * @param ctx the client's configuration; concluded here, so it serves this one client.
     * @return the connection in progress.
     * @throws ConfigurationException if the context is incomplete or malformed (the message names the setting).
     */
    public static AsyncConnect asyncConnect(final Context ctx)
    {
        return new AsyncConnect(open(ctx), ctx);
    }

    /**
     * @return whether the engine's feed and its recovery service are connected to this client, and its response
     * channel is bound (so its requests can name it).
     */
    public boolean isConnected()
    {
        return feed.isConnected() && requests.isConnected() && (null != responseChannel || resolveResponseChannel());
    }

    /**
     * Start following an instrument: its book is built from a snapshot, then kept live.
     *
     * @param instrumentId the instrument.
     */
    public void subscribe(final int instrumentId)
    {
        if (!instruments.containsKey(instrumentId))
        {
            final Subscribed instrument = new Subscribed(instrumentId);
            instruments.put(instrumentId, instrument);
            startRecovery(instrument);
        }
    }

    /**
     * Stop following an instrument.
     *
     * @param instrumentId the instrument.
     */
    public void unsubscribe(final int instrumentId)
    {
        instruments.remove(instrumentId);
    }

    /**
     * @param instrumentId a subscribed instrument.
     * @return its book, or null if not subscribed.
     */
    public MarketDataBook book(final int instrumentId)
    {
        final Subscribed instrument = instruments.get(instrumentId);
        return null == instrument ? null : instrument.book;
    }

    /**
     * @param instrumentId a subscribed instrument.
     * @return whether its book follows the feed now (not waiting for a snapshot).
     */
    public boolean isLive(final int instrumentId)
    {
        final Subscribed instrument = instruments.get(instrumentId);
        return null != instrument && instrument.state == Subscribed.LIVE && !retransmitting();
    }

    /** @return gaps seen in the channel sequence. */
    public long channelGaps()
    {
        return channelGaps;
    }

    /** @return retransmissions applied. */
    public long retransmissions()
    {
        return retransmissions;
    }

    /** @return snapshots asked for. */
    public long snapshots()
    {
        return snapshots;
    }

    /** @return books rebuilt from a snapshot and buffered incrementals. */
    public long recoveries()
    {
        return recoveries;
    }

    /**
     * @return the engine's timestamp (ns since the epoch, the ingress time of the command that caused it) of the last
     * book change, trade or BBO passed to the listener: in a callback, the one being delivered.
     */
    public long lastEventTimestampNs()
    {
        return lastEventTimestampNs;
    }

    /** @return the next channel sequence expected. */
    public long expectedChannelSequence()
    {
        return expectedChannelSequence;
    }

    /**
     * Read the feed and the recovery stream, send what requests are due, and call the listener.
     *
     * @return work done.
     */
    public int poll()
    {
        int work = feed.poll(feedAssembler, FRAGMENT_LIMIT);
        work += recovery.poll(recoveryAssembler, FRAGMENT_LIMIT);
        work += sendRequests();
        return work;
    }

    public void close()
    {
        CloseHelper.closeAll(feed, recovery, requests);
    }

    private boolean retransmitting()
    {
        return retransmitRequestId != 0;
    }

    private void onFeedFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        final int sessionId = header.sessionId();
        if (sessionId != feedSessionId)
        {
            if (feedSeen)
            {
                // Another publication of the feed (the engine restarted, or a standby took over): its channel
                // sequence starts again at 1, so every book starts over from a snapshot.
                if (retransmitting())
                {
                    retransmitRequestId = 0;
                    heldLength = 0;
                }
                expectedChannelSequence = 0;
                resyncAll();
            }
            feedSeen = true;
            feedSessionId = sessionId;
        }
        listener.onArrival(buffer, offset, length);
        onLive(buffer, offset, length, header.reservedValue());
    }

    private void onLive(final DirectBuffer buffer, final int offset, final int length, final long channelSequence)
    {
        if (retransmitting())
        {
            hold(buffer, offset, length, channelSequence);
            return;
        }
        if (0 == expectedChannelSequence || channelSequence == expectedChannelSequence)
        {
            expectedChannelSequence = channelSequence + 1;
            apply(buffer, offset, length);
            return;
        }
        if (channelSequence < expectedChannelSequence)
        {
            return; // seen already
        }
        channelGaps++;
        final long missing = channelSequence - expectedChannelSequence;
        if (missing <= MAX_RETRANSMIT)
        {
            retransmitRequestId = newRequestId();
            retransmitFrom = expectedChannelSequence;
            retransmitCount = (int)missing;
            retransmitAccepted = false;
            retransmitSent = false;
            retransmitNotBeforeNs = 0;
            hold(buffer, offset, length, channelSequence);
            return;
        }
        // Too much lost to ask again: every book starts over from a snapshot.
        expectedChannelSequence = channelSequence + 1;
        resyncAll();
        apply(buffer, offset, length);
    }

    private void hold(final DirectBuffer buffer, final int offset, final int length, final long channelSequence)
    {
        if (heldLength + 12 + length > maxHeldBytes)
        {
            // The retransmission takes too long for what arrives meanwhile: give it up.
            abandonRetransmission();
            onLive(buffer, offset, length, channelSequence);
            return;
        }
        held.putInt(heldLength, length);
        held.putLong(heldLength + 4, channelSequence);
        held.putBytes(heldLength + 12, buffer, offset, length);
        heldLength += 12 + length;
    }

    private void endRetransmission()
    {
        retransmitRequestId = 0;
        final ExpandableArrayBuffer drain = held;
        final int drainLength = heldLength;
        held = draining;
        draining = drain;
        heldLength = 0;
        for (int at = 0; at < drainLength; )
        {
            final int length = drain.getInt(at);
            onLive(drain, at + 12, length, drain.getLong(at + 4));
            at += 12 + length;
        }
    }

    private void abandonRetransmission()
    {
        // Every book starts over from a snapshot, so the channel may start over from the next message.
        expectedChannelSequence = 0;
        resyncAll();
        endRetransmission();
    }

    private void resyncAll()
    {
        for (final Subscribed instrument : instruments.values())
        {
            if (instrument.state == Subscribed.LIVE)
            {
                startRecovery(instrument);
            }
        }
    }

    private void onRecoveryFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        if (length < HEADER)
        {
            return;
        }
        headerDecoder.wrap(buffer, offset);
        switch (headerDecoder.templateId())
        {
            case SnapshotResponseDecoder.TEMPLATE_ID:
                onSnapshotResponse(buffer, offset);
                break;
            case BookOrdersDecoder.TEMPLATE_ID:
                onBookOrders(buffer, offset);
                break;
            case RetransmitResponseDecoder.TEMPLATE_ID:
                onRetransmitResponse(buffer, offset);
                break;
            default:
                // A feed message again: ours if we await a retransmission it belongs to.
                final long channelSequence = header.reservedValue();
                if (retransmitAccepted && channelSequence == expectedChannelSequence &&
                    channelSequence < retransmitFrom + retransmitCount)
                {
                    expectedChannelSequence++;
                    apply(buffer, offset, length);
                    if (expectedChannelSequence == retransmitFrom + retransmitCount)
                    {
                        retransmissions++;
                        endRetransmission();
                    }
                }
                break;
        }
    }

    private void onRetransmitResponse(final DirectBuffer buffer, final int offset)
    {
        retransmitResponse.wrapAndApplyHeader(buffer, offset, headerDecoder);
        if (!retransmitting() || retransmitResponse.requestId() != retransmitRequestId)
        {
            return;
        }
        final MarketDataRequestStatus status = retransmitResponse.status();
        if (status == MarketDataRequestStatus.ACCEPTED)
        {
            retransmitAccepted = true;
        }
        else if (status == MarketDataRequestStatus.BUSY)
        {
            // Asked too often, or the service is full: ask again, for the same range, when it says.
            retransmitRequestId = newRequestId();
            retransmitSent = false;
            retransmitNotBeforeNs = clock.nanoTime() + retryDelayNs(retransmitResponse.retryAfterNs());
        }
        else
        {
            abandonRetransmission();
        }
    }

    private void onSnapshotResponse(final DirectBuffer buffer, final int offset)
    {
        snapshotResponse.wrapAndApplyHeader(buffer, offset, headerDecoder);
        final Subscribed instrument = instruments.get(snapshotResponse.instrumentId());
        if (null == instrument || instrument.state != Subscribed.RECOVERING ||
            snapshotResponse.requestId() != instrument.requestId)
        {
            return;
        }
        final MarketDataRequestStatus status = snapshotResponse.status();
        if (status == MarketDataRequestStatus.ACCEPTED)
        {
            instrument.snapshotSequence = snapshotResponse.mdSequence();
            instrument.book.clear();
            instrument.loading = true;
        }
        else if (followAll && status == MarketDataRequestStatus.DELISTED)
        {
            // Nothing to follow: what comes of it (its definition) passes unsequenced from now on.
            instrument.state = Subscribed.REFUSED;
            instrument.book.clear();
            listener.onSubscriptionRefused(instrument.instrumentId, status);
            drainBuffered(instrument);
        }
        else if (followAll && status == MarketDataRequestStatus.UNKNOWN_INSTRUMENT)
        {
            // It is on the feed, so the service will know it soon (it learns from the same messages).
            instrument.requestSent = false;
            instrument.nextRequestNs = clock.nanoTime() + REQUEST_TIMEOUT_NS;
        }
        else if (status == MarketDataRequestStatus.UNKNOWN_INSTRUMENT || status == MarketDataRequestStatus.DELISTED)
        {
            instruments.remove(instrument.instrumentId);
            listener.onSubscriptionRefused(instrument.instrumentId, status);
        }
        else
        {
            instrument.requestSent = false;
            instrument.nextRequestNs = clock.nanoTime() + retryDelayNs(snapshotResponse.retryAfterNs());
        }
    }

    /** The wait before asking again: what a BUSY answer said (version 3), at least {@link #RETRY_DELAY_NS}. */
    private static long retryDelayNs(final long retryAfterNs)
    {
        return retryAfterNs == SnapshotResponseDecoder.retryAfterNsNullValue() ? RETRY_DELAY_NS :
            Math.max(RETRY_DELAY_NS, Math.min(retryAfterNs, REQUEST_TIMEOUT_NS));
    }

    private void onBookOrders(final DirectBuffer buffer, final int offset)
    {
        bookOrders.wrapAndApplyHeader(buffer, offset, headerDecoder);
        final Subscribed instrument = instruments.get(bookOrders.instrumentId());
        if (null == instrument || !instrument.loading || bookOrders.requestId() != instrument.requestId)
        {
            return;
        }
        final boolean last = bookOrders.lastPart() == BooleanType.TRUE;
        instrument.book.add(bookOrders);
        if (last)
        {
            instrument.loading = false;
            instrument.state = Subscribed.LIVE;
            instrument.book.mdSequence(instrument.snapshotSequence);
            recoveries++;
            listener.onBookChanged(instrument.book);
            listener.onRecovered(instrument.instrumentId, instrument.snapshotSequence);
            drainBuffered(instrument);
        }
    }

    private void drainBuffered(final Subscribed instrument)
    {
        final ExpandableArrayBuffer buffered = instrument.buffered;
        final int bufferedLength = instrument.bufferedLength;
        instrument.buffered = instrument.spare;
        instrument.spare = buffered;
        instrument.bufferedLength = 0;
        for (int at = 0; at < bufferedLength; )
        {
            final int length = buffered.getInt(at);
            apply(buffered, at + 4, length);
            at += 4 + length;
        }
    }

    private void startRecovery(final Subscribed instrument)
    {
        snapshots++;
        instrument.state = Subscribed.RECOVERING;
        instrument.loading = false;
        instrument.requestSent = false;
        instrument.requestId = newRequestId();
        instrument.nextRequestNs = 0;
        instrument.bufferedLength = 0;
    }

    /** A feed message, in channel order: route it to its instrument. */
    private void apply(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < HEADER)
        {
            return;
        }
        headerDecoder.wrap(buffer, offset);
        final int templateId = headerDecoder.templateId();
        final int instrumentId;
        switch (templateId)
        {
            case BookLevelUpdateDecoder.TEMPLATE_ID:
            case BestBidOfferDecoder.TEMPLATE_ID:
            case TradeDecoder.TEMPLATE_ID:
            case MarketStatisticsDecoder.TEMPLATE_ID:
            case InstrumentDefinitionDecoder.TEMPLATE_ID:
            case BookSnapshotDecoder.TEMPLATE_ID:
            case AuctionIndicativeDecoder.TEMPLATE_ID:
                // every one of them starts its body with the instrument id
                instrumentId = buffer.getInt(offset + HEADER, MessageHeaderDecoder.BYTE_ORDER);
                break;
            default:
                return;
        }
        Subscribed instrument = instruments.get(instrumentId);
        if (null == instrument)
        {
            if (!followAll)
            {
                return;
            }
            instrument = new Subscribed(instrumentId);
            instruments.put(instrumentId, instrument);
            startRecovery(instrument);
        }
        if (instrument.state == Subscribed.RECOVERING)
        {
            if (instrument.bufferedLength + 4 + length > maxHeldBytes)
            {
                // The snapshot takes too long for what arrives meanwhile (or the service does not answer): ask
                // again, for a snapshot that starts after what is kept from now on.
                startRecovery(instrument);
            }
            instrument.buffer(buffer, offset, length);
            return;
        }
        if (instrument.state == Subscribed.REFUSED)
        {
            listener.onFeedMessage(instrumentId, templateId, buffer, offset, length);
            return;
        }
        final MarketDataBook book = instrument.book;
        boolean accepted = false;
        switch (templateId)
        {
            case BookLevelUpdateDecoder.TEMPLATE_ID:
                levelUpdate.wrapAndApplyHeader(buffer, offset, headerDecoder);
                if (sequenced(instrument, levelUpdate.mdSequence(), buffer, offset, length))
                {
                    // Handed on even if the order-by-order book disagrees: the level totals are the engine's, and
                    // the rebuild that follows reports its sequence (onRecovered).
                    accepted = true;
                    applyLevelUpdate(instrument);
                }
                break;
            case AuctionIndicativeDecoder.TEMPLATE_ID:
                // A call phase's indicative: it takes the instrument's next sequence and leaves the book as it is.
                accepted = sequenced(instrument, buffer.getLong(offset + HEADER +
                    AuctionIndicativeDecoder.mdSequenceEncodingOffset(), MessageHeaderDecoder.BYTE_ORDER), buffer,
                    offset, length);
                break;
            case BestBidOfferDecoder.TEMPLATE_ID:
                bbo.wrapAndApplyHeader(buffer, offset, headerDecoder);
                if (sequenced(instrument, bbo.mdSequence(), buffer, offset, length))
                {
                    accepted = true;
                    lastEventTimestampNs = bbo.timestampNs();
                    listener.onBestBidOffer(instrumentId, bbo.bidPrice(), bbo.bidQuantity(), bbo.askPrice(),
                        bbo.askQuantity());
                }
                break;
            case TradeDecoder.TEMPLATE_ID:
                trade.wrapAndApplyHeader(buffer, offset, headerDecoder);
                if (sequenced(instrument, trade.mdSequence(), buffer, offset, length))
                {
                    accepted = true;
                    lastEventTimestampNs = trade.timestampNs();
                    listener.onTrade(instrumentId, trade.tradeId(), trade.price(), trade.quantity(),
                        trade.aggressorSide(), trade.timestampNs());
                }
                break;
            case MarketStatisticsDecoder.TEMPLATE_ID:
                statistics.wrapAndApplyHeader(buffer, offset, headerDecoder);
                if (asOf(instrument, statistics.mdSequence(), buffer, offset, length))
                {
                    accepted = true;
                    listener.onStatistics(statistics);
                }
                break;
            case BookSnapshotDecoder.TEMPLATE_ID:
                // The periodic L2 snapshot: the book is kept order by order, so it only tells the sequence, which
                // shows a loss at the end of a burst that nothing after it would have shown.
                accepted = asOf(instrument, buffer.getLong(offset + HEADER +
                    BookSnapshotDecoder.mdSequenceEncodingOffset(), MessageHeaderDecoder.BYTE_ORDER), buffer, offset,
                    length);
                break;
            default:
                definition.wrapAndApplyHeader(buffer, offset, headerDecoder);
                if (asOf(instrument, definition.mdSequence(), buffer, offset, length))
                {
                    accepted = true;
                    listener.onInstrument(definition);
                }
                break;
        }
        if (book != instrument.book)
        {
            throw new IllegalStateException("book replaced");
        }
        if (accepted)
        {
            listener.onFeedMessage(instrumentId, templateId, buffer, offset, length);
        }
    }

    /** @return true to apply an incremental that moves the instrument's sequence on by one. */
    private boolean sequenced(
        final Subscribed instrument, final long mdSequence, final DirectBuffer buffer, final int offset,
        final int length)
    {
        final long last = instrument.book.mdSequence();
        if (mdSequence <= last)
        {
            return false; // in the snapshot already, or seen
        }
        if (mdSequence != last + 1)
        {
            startRecovery(instrument);
            instrument.buffer(buffer, offset, length);
            return false;
        }
        instrument.book.mdSequence(mdSequence);
        return true;
    }

    /** @return true to pass on a message that states the sequence it is as of (statistics, definitions). */
    private boolean asOf(
        final Subscribed instrument, final long mdSequence, final DirectBuffer buffer, final int offset,
        final int length)
    {
        if (mdSequence > instrument.book.mdSequence())
        {
            startRecovery(instrument);
            instrument.buffer(buffer, offset, length);
            return false;
        }
        return true;
    }

    private void applyLevelUpdate(final Subscribed instrument)
    {
        lastEventTimestampNs = levelUpdate.timestampNs();
        if (!instrument.book.apply(levelUpdate))
        {
            // The book disagrees with the engine's level total: rebuild it rather than show a wrong book.
            startRecovery(instrument);
            return;
        }
        listener.onBookChanged(instrument.book);
    }

    private int sendRequests()
    {
        int work = 0;
        final long now = clock.nanoTime();
        if (null == responseChannel && !resolveResponseChannel())
        {
            return 0; // the service could not answer yet: the response subscription has no port
        }
        if (retransmitting() && (!retransmitSent || (!retransmitAccepted && now > retransmitDeadlineNs)))
        {
            if (retransmitSent)
            {
                abandonRetransmission(); // no answer in time: snapshots instead
            }
            else if (now >= retransmitNotBeforeNs)
            {
                final int length = HEADER + retransmitRequest.wrapAndApplyHeader(requestBuffer, 0, headerEncoder)
                    .requestId(retransmitRequestId).fromChannelSequence(retransmitFrom).count(retransmitCount)
                    .responseStreamId(responseStreamId).putResponseChannel(responseChannel, 0, responseChannel.length)
                    .encodedLength();
                if (requests.offer(requestBuffer, 0, length) > 0)
                {
                    retransmitSent = true;
                    retransmitDeadlineNs = now + REQUEST_TIMEOUT_NS;
                    work++;
                }
            }
        }
        int outstanding = 0;
        for (final Subscribed instrument : instruments.values())
        {
            if (instrument.state == Subscribed.RECOVERING && !instrument.loading && instrument.requestSent &&
                now <= instrument.nextRequestNs)
            {
                outstanding++;
            }
        }
        for (final Subscribed instrument : instruments.values())
        {
            if (instrument.state != Subscribed.RECOVERING || instrument.loading)
            {
                continue;
            }
            if (instrument.requestSent && now > instrument.nextRequestNs)
            {
                instrument.requestSent = false; // no answer: ask again
                instrument.requestId = newRequestId();
            }
            if (!instrument.requestSent && now >= instrument.nextRequestNs &&
                outstanding < MAX_OUTSTANDING_SNAPSHOTS)
            {
                outstanding++;
                final int length = HEADER + snapshotRequest.wrapAndApplyHeader(requestBuffer, 0, headerEncoder)
                    .requestId(instrument.requestId).instrumentId(instrument.instrumentId)
                    .responseStreamId(responseStreamId).putResponseChannel(responseChannel, 0, responseChannel.length)
                    .encodedLength();
                if (requests.offer(requestBuffer, 0, length) > 0)
                {
                    instrument.requestSent = true;
                    instrument.nextRequestNs = now + REQUEST_TIMEOUT_NS;
                    work++;
                }
            }
        }
        return work;
    }

    private long newRequestId()
    {
        return ++nextRequestId;
    }

    /**
     * The channel requests name: {@code aeron:ipc}, or the UDP endpoint the response subscription is bound to (its
     * port known once the driver has bound it, when given as 0).
     */
    private boolean resolveResponseChannel()
    {
        if (recoveryOnIpc)
        {
            responseChannel = CommonContext.IPC_CHANNEL.getBytes(StandardCharsets.US_ASCII);
            return true;
        }
        final String endpoint = recovery.resolvedEndpoint();
        if (null == endpoint)
        {
            return false;
        }
        final byte[] channel = ("aeron:udp?endpoint=" + endpoint).getBytes(StandardCharsets.US_ASCII);
        if (channel.length > MAX_RESPONSE_CHANNEL_LENGTH)
        {
            throw new IllegalStateException("response channel longer than " + MAX_RESPONSE_CHANNEL_LENGTH +
                " bytes: " + endpoint);
        }
        responseChannel = channel;
        return true;
    }

    /**
     * A response channel the recovery service will answer on: {@code aeron:ipc}, or a plain UDP endpoint (no control
     * modes, tags, session ids or spies).
     *
     * @return true for IPC.
     * @throws ConfigurationException naming the setting if it is neither.
     */
    private static boolean checkResponseChannel(final String channel)
    {
        final String key = "MarketDataClient.Context.responseChannel";
        final ChannelUri uri = parseChannel(key, channel);
        final boolean spy = null != uri.prefix() && !uri.prefix().isEmpty();
        if (uri.isIpc() && !spy)
        {
            return true;
        }
        if (!uri.isUdp() || spy ||
            null == uri.get(CommonContext.ENDPOINT_PARAM_NAME) ||
            null != uri.get(CommonContext.MDC_CONTROL_PARAM_NAME) ||
            null != uri.get(CommonContext.MDC_CONTROL_MODE_PARAM_NAME) ||
            null != uri.get(CommonContext.TAGS_PARAM_NAME) || null != uri.get(CommonContext.SESSION_ID_PARAM_NAME))
        {
            throw new ConfigurationException(key + ": this client's own channel, aeron:ipc or " +
                "aeron:udp?endpoint=host:port (no control, tags or session id), not " + channel);
        }
        return false;
    }

    private static ChannelUri parseChannel(final String key, final String channel)
    {
        if (null == channel || channel.isEmpty())
        {
            throw new ConfigurationException(key + ": missing");
        }
        try
        {
            return ChannelUri.parse(channel);
        }
        catch (final RuntimeException ex)
        {
            throw new ConfigurationException(key + ": not an Aeron channel: " + channel + " (" + ex.getMessage() +
                ")");
        }
    }

    /**
     * A connection in progress: {@link #poll()} until it returns the client, or throws why not. Polled from one
     * thread; {@link #close()} abandons it.
     */
    public static final class AsyncConnect implements PolledConnect<MarketDataClient>
    {
        /** Where the connection is. */
        public enum State
        {
            /** Waiting for the engine's feed: an image of its publication on the feed channel. */
            AWAIT_FEED,
            /** Waiting for the recovery service to take this client's requests, and the response channel's port. */
            AWAIT_RECOVERY_SERVICE,
            /** Connected: the client was returned. */
            DONE,
            /** Failed or abandoned: the client's channels are closed. */
            CLOSED
        }

        private final MarketDataClient client;
        private final Context ctx;
        private final long deadlineNs;
        private State state = State.AWAIT_FEED;

        AsyncConnect(final MarketDataClient client, final Context ctx)
        {
            this.client = client;
            this.ctx = ctx;
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
         * @return the connected client, null before.
         * @throws io.aeron.exceptions.TimeoutException if the connect timeout passed first.
         * @throws IllegalStateException if done or closed already.
         */
        public MarketDataClient poll()
        {
            if (State.DONE == state || State.CLOSED == state)
            {
                throw new IllegalStateException("this connection is " + state);
            }
            try
            {
                if (State.AWAIT_FEED == state && client.feed.isConnected())
                {
                    state = State.AWAIT_RECOVERY_SERVICE;
                }
                if (State.AWAIT_RECOVERY_SERVICE == state && client.isConnected())
                {
                    state = State.DONE;
                    return client;
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
            if (State.AWAIT_FEED == state)
            {
                return "no market-data feed on " + ctx.feedChannel() + " stream " + ctx.feedStreamId() + " within " +
                    timeoutMs + " ms";
            }
            if (!client.requests.isConnected())
            {
                return "no market-data recovery service at " + ctx.requestChannel() + " stream " +
                    ctx.requestStreamId() + " within " + timeoutMs + " ms (the engine's market-data request " +
                    "channel, not its command ingress)";
            }
            return "this client's response channel " + ctx.responseChannel() + " not bound within " + timeoutMs +
                " ms";
        }
    }

    /**
     * What {@link #connect(Context)}, {@link #asyncConnect(Context)} and {@link #open(Context)} need: the feed, the
     * recovery service's request channel, this client's own response channel, the listener and the connect timeout.
     * Fluent setters; {@link #conclude()} checks it whole and fails naming the first setting that is missing or
     * malformed. One context serves one client.
     */
    public static final class Context
    {
        /** The engine's market-data stream when none is set. */
        public static final int FEED_STREAM_ID_DEFAULT = 1003;
        /** The recovery service's request stream when none is set. */
        public static final int REQUEST_STREAM_ID_DEFAULT = 1031;
        /** The stream the recovery service answers this client on when none is set; one per client on a channel. */
        public static final int RESPONSE_STREAM_ID_DEFAULT = 1030;
        /** How long connecting may take when no timeout is set. */
        public static final long CONNECT_TIMEOUT_NS_DEFAULT = TimeUnit.SECONDS.toNanos(10);

        private boolean concluded;
        private Aeron aeron;
        private String feedChannel;
        private int feedStreamId = FEED_STREAM_ID_DEFAULT;
        private String responseChannel;
        private int responseStreamId = RESPONSE_STREAM_ID_DEFAULT;
        private String requestChannel;
        private int requestStreamId = REQUEST_STREAM_ID_DEFAULT;
        private MarketDataListener listener;
        private boolean followAllInstruments;
        private long connectTimeoutNs = CONNECT_TIMEOUT_NS_DEFAULT;
        private IdleStrategy idleStrategy;
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
                throw new IllegalStateException("MarketDataClient.Context concluded already: one context per client");
            }
            parseChannel("MarketDataClient.Context.feedChannel", feedChannel);
            checkResponseChannel(responseChannel);
            parseChannel("MarketDataClient.Context.requestChannel", requestChannel);
            if (null == listener)
            {
                throw new ConfigurationException("MarketDataClient.Context.listener: missing (it receives the " +
                    "feed's callbacks)");
            }
            if (connectTimeoutNs <= 0)
            {
                throw new ConfigurationException("MarketDataClient.Context.connectTimeoutNs: must be positive, not " +
                    connectTimeoutNs);
            }
            if (null == nanoClock)
            {
                throw new ConfigurationException("MarketDataClient.Context.nanoClock: missing");
            }
            if (null == aeron)
            {
                throw new ConfigurationException("MarketDataClient.Context.aeron: missing (a connected Aeron client)");
            }
            if (null == idleStrategy)
            {
                idleStrategy = new BackoffIdleStrategy();
            }
            concluded = true;
            return this;
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
         * @param feedChannel the engine's outbound channel as a subscriber names it, e.g.
         *                    {@code aeron:udp?endpoint=localhost:0|control=engine-host:40101|control-mode=dynamic}
         *                    (for a slow reader on IPC, add {@code tether=false}: docs/protocol.md, "Slow consumers").
         * @return this.
         */
        public Context feedChannel(final String feedChannel)
        {
            this.feedChannel = feedChannel;
            return this;
        }

        /**
         * @return the engine's outbound channel.
         */
        public String feedChannel()
        {
            return feedChannel;
        }

        /**
         * @param feedStreamId the market-data stream; {@link #FEED_STREAM_ID_DEFAULT} when not set.
         * @return this.
         */
        public Context feedStreamId(final int feedStreamId)
        {
            this.feedStreamId = feedStreamId;
            return this;
        }

        /**
         * @return the market-data stream.
         */
        public int feedStreamId()
        {
            return feedStreamId;
        }

        /**
         * @param responseChannel this client's own channel, where the recovery service answers it alone:
         *                        {@code aeron:udp?endpoint=this-host:port} (port 0: one the system picks), on the
         *                        address its requests leave from, or {@code aeron:ipc} on the engine's host.
         * @return this.
         */
        public Context responseChannel(final String responseChannel)
        {
            this.responseChannel = responseChannel;
            return this;
        }

        /**
         * @return this client's own channel.
         */
        public String responseChannel()
        {
            return responseChannel;
        }

        /**
         * @param responseStreamId the stream of the response channel; {@link #RESPONSE_STREAM_ID_DEFAULT} when not
         *                         set.
         * @return this.
         */
        public Context responseStreamId(final int responseStreamId)
        {
            this.responseStreamId = responseStreamId;
            return this;
        }

        /**
         * @return the stream of the response channel.
         */
        public int responseStreamId()
        {
            return responseStreamId;
        }

        /**
         * @param requestChannel the engine's market-data request channel
         *                       ({@code ringex.engine.marketdata.request.channel}, never its command ingress).
         * @return this.
         */
        public Context requestChannel(final String requestChannel)
        {
            this.requestChannel = requestChannel;
            return this;
        }

        /**
         * @return the engine's market-data request channel.
         */
        public String requestChannel()
        {
            return requestChannel;
        }

        /**
         * @param requestStreamId the request stream; {@link #REQUEST_STREAM_ID_DEFAULT} when not set.
         * @return this.
         */
        public Context requestStreamId(final int requestStreamId)
        {
            this.requestStreamId = requestStreamId;
            return this;
        }

        /**
         * @return the request stream.
         */
        public int requestStreamId()
        {
            return requestStreamId;
        }

        /**
         * @param listener receives callbacks during {@link MarketDataClient#poll()}.
         * @return this.
         */
        public Context listener(final MarketDataListener listener)
        {
            this.listener = listener;
            return this;
        }

        /**
         * @return the listener.
         */
        public MarketDataListener listener()
        {
            return listener;
        }

        /**
         * @param followAllInstruments follow every instrument that appears on the feed without
         *                             {@link MarketDataClient#subscribe}: each is built from a snapshot when first
         *                             seen, then kept live and recovered like a subscribed one, and its messages are
         *                             handed on in sequence ({@link MarketDataListener#onFeedMessage}). An instrument
         *                             whose snapshot is refused as {@code DELISTED} is followed no further: its
         *                             messages are handed on as they come, unsequenced (there is no book to keep);
         *                             one refused as {@code UNKNOWN_INSTRUMENT} (the service has not seen it yet) is
         *                             asked for again after {@link MarketDataClient#REQUEST_TIMEOUT_NS}.
         *                             {@link MarketDataClient#unsubscribe} does not stop following: the next message
         *                             starts it again. False when not set.
         * @return this.
         */
        public Context followAllInstruments(final boolean followAllInstruments)
        {
            this.followAllInstruments = followAllInstruments;
            return this;
        }

        /**
         * @return whether the client follows every instrument on the feed.
         */
        public boolean followAllInstruments()
        {
            return followAllInstruments;
        }

        /**
         * @param connectTimeoutNs how long {@link #connect(Context)} waits for the feed and the recovery service;
         *                         {@link #CONNECT_TIMEOUT_NS_DEFAULT} when not set.
         * @return this.
         */
        public Context connectTimeoutNs(final long connectTimeoutNs)
        {
            this.connectTimeoutNs = connectTimeoutNs;
            return this;
        }

        /**
         * @return how long connecting may take.
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
         * @param nanoClock the clock of the request timeouts and the connect timeout; the system's when not set.
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

    /** A subscribed instrument's book and recovery state. */
    private static final class Subscribed
    {
        static final int RECOVERING = 1;
        static final int LIVE = 2;
        /** Followed with {@link Context#followAllInstruments} but delisted: its messages pass unsequenced. */
        static final int REFUSED = 3;

        final int instrumentId;
        final MarketDataBook book;
        int state;
        boolean loading;
        boolean requestSent;
        long requestId;
        long nextRequestNs;
        long snapshotSequence;
        /** Incrementals that arrived while recovering: [int32 length][message]. */
        ExpandableArrayBuffer buffered = new ExpandableArrayBuffer(4096);
        ExpandableArrayBuffer spare = new ExpandableArrayBuffer(4096);
        int bufferedLength;

        Subscribed(final int instrumentId)
        {
            this.instrumentId = instrumentId;
            this.book = new MarketDataBook(instrumentId);
        }

        void buffer(final DirectBuffer buffer, final int offset, final int length)
        {
            buffered.putInt(bufferedLength, length);
            buffered.putBytes(bufferedLength + 4, buffer, offset, length);
            bufferedLength += 4 + length;
        }
    }
}
