package io.ringex.engine.marketdata;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Image;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.ringex.engine.marketdata.RecoveryDestinations.Destination;
import io.ringex.client.marketdata.MarketDataBook;
import io.ringex.protocol.MessageCatalog;
import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.codecs.BestBidOfferDecoder;
import io.ringex.protocol.codecs.BookLevelUpdateDecoder;
import io.ringex.protocol.codecs.BookOrdersDecoder;
import io.ringex.protocol.codecs.BookOrdersEncoder;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.InstrumentDefinitionDecoder;
import io.ringex.protocol.codecs.MarketDataRequestStatus;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.RetransmitRequestDecoder;
import io.ringex.protocol.codecs.RetransmitResponseEncoder;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.SnapshotRequestDecoder;
import io.ringex.protocol.codecs.SnapshotResponseEncoder;
import io.ringex.protocol.codecs.TradeDecoder;
import io.ringex.protocol.codecs.TradingStatus;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.broadcast.CopyBroadcastReceiver;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * The market-data recovery service: snapshots (a book, order by order, at an instrument sequence) and retransmissions
 * (feed messages by channel sequence), on request (docs/protocol.md, "Recovery").
 * <p>
 * It runs on a thread of its own with its own copy of every book, fed by the {@link MarketDataFeed} over a broadcast
 * buffer the feed never waits on, and answers each request on its requester's own channel ({@link
 * RecoveryDestinations}); so no request, nor a storm of them, slows the engine, the live feed or another requester.
 * Falling a whole buffer behind, it drops its books and answers NOT_READY until the next refresh.
 * <p>
 * Thread safety: {@link #doWork()} on the agent's thread only.
 */
public final class MarketDataRecovery implements Agent
{
    /** Most orders in one BookOrders part of an answer. */
    static final int ORDERS_PER_PART = 512;
    /** Most feed messages one retransmission request may ask for. */
    public static final int MAX_RETRANSMIT = 4096;

    /** What a BUSY answer to a full queue says to wait before asking again. */
    static final long QUEUE_FULL_RETRY_NS = 100_000_000L;

    private static final int HEADER = MessageHeaderDecoder.ENCODED_LENGTH;
    private static final int BROADCAST_BATCH = 4096;
    private static final int RECORD_HEADER = 12;
    private static final long STUCK_ANSWER_MS = 5_000;

    private final CopyBroadcastReceiver feed;
    private final Subscription requests;
    private final RecoveryDestinations destinations;
    private final EpochClock clock;
    private final AtomicCounter refused;
    private final AtomicCounter lapped;
    private final AtomicCounter refusalsDropped;
    private final RetransmissionWindow window;
    private final Int2ObjectHashMap<Instrument> instruments = new Int2ObjectHashMap<>();
    private final MessageValidator validator = new MessageValidator(256);
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final BookLevelUpdateDecoder levelUpdate = new BookLevelUpdateDecoder();
    private final BookOrdersDecoder bookOrdersDecoder = new BookOrdersDecoder();
    private final BookOrdersEncoder bookOrders = new BookOrdersEncoder();
    private final SnapshotRequestDecoder snapshotRequest = new SnapshotRequestDecoder();
    private final RetransmitRequestDecoder retransmitRequest = new RetransmitRequestDecoder();
    private final SnapshotResponseEncoder snapshotResponse = new SnapshotResponseEncoder();
    private final RetransmitResponseEncoder retransmitResponse = new RetransmitResponseEncoder();
    private final UnsafeBuffer refusal = new UnsafeBuffer(new byte[RecoveryDestinations.REFUSAL_SLOT]);
    private final MessageHandler onFeed = this::onFeed;
    private final FragmentHandler onRequest = this::onRequest;
    private final MarketDataBook.OrderVisitor writeOrder = this::writeOrder;
    private final io.aeron.ReservedValueSupplier reservedValueSupplier = (termBuffer, termOffset, frameLength) ->
        reservedValue();
    private long reservedValue;

    private final int maxPending;
    private final int[] pendingTemplate;
    private final long[] pendingRequestId;
    private final long[] pendingArgument;
    private final int[] pendingCount;
    private final Destination[] pendingDestination;
    private int pendingSize;
    private Destination requestDestination;

    /** The answer being sent: records of [int32 length][int64 reserved value][message]. */
    private final ExpandableArrayBuffer answer = new ExpandableArrayBuffer(64 * 1024);
    private int answerLength;
    private int answerSent;
    private long answerStartedMs;
    private Destination answerDestination;
    private BookOrdersEncoder.OrdersEncoder partEntries;
    private int partRemaining;
    private int ordersRemaining;
    private int partStart;
    private long partRequestId;
    private Instrument partInstrument;

    /**
     * @param feed            the {@link MarketDataFeed}'s broadcast, read from its start.
     * @param aeron           opens the requesters' response channels.
     * @param requests        where subscribers' requests arrive (the service's own channel).
     * @param clock           for rate limits, idle channels and answers stuck on a back-pressured channel.
     * @param window          retransmission window.
     * @param maxPending      requests that may wait before BUSY.
     * @param limits          the response channels' bounds: how many, how often a requester may ask, term length.
     * @param counters        the service's counters.
     */
    public MarketDataRecovery(
        final CopyBroadcastReceiver feed,
        final Aeron aeron,
        final Subscription requests,
        final EpochClock clock,
        final RetransmissionWindow window,
        final int maxPending,
        final Limits limits,
        final Counters counters)
    {
        this.refusalsDropped = counters.refusalsDropped;
        this.feed = feed;
        this.requests = requests;
        this.destinations = new RecoveryDestinations(aeron, limits.maxDestinations, limits.requesterRatePerSecond,
            limits.termLength, counters.responseChannels, counters.requestsDropped);
        this.clock = clock;
        this.window = window;
        this.maxPending = maxPending;
        this.refused = counters.refused;
        this.lapped = counters.lapped;
        pendingTemplate = new int[maxPending];
        pendingRequestId = new long[maxPending];
        pendingArgument = new long[maxPending];
        pendingCount = new int[maxPending];
        pendingDestination = new Destination[maxPending];
    }

    /**
     * The bounds on the requesters' response channels.
     *
     * @param maxDestinations        response channels open at once.
     * @param requesterRatePerSecond requests a second one requester may make, and as many at once.
     * @param termLength             each response channel's term length.
     */
    public record Limits(int maxDestinations, int requesterRatePerSecond, int termLength)
    {
    }

    /**
     * The service's counters.
     *
     * @param refused          requests refused with a reason (and answers given up).
     * @param lapped           times the agent fell a broadcast buffer behind.
     * @param refusalsDropped  refusals not sent because their response channel's queue was full.
     * @param requestsDropped  requests that could not be answered: no response channel of the requester's own.
     * @param responseChannels response channels open now.
     */
    public record Counters(
        AtomicCounter refused,
        AtomicCounter lapped,
        AtomicCounter refusalsDropped,
        AtomicCounter requestsDropped,
        AtomicCounter responseChannels)
    {
    }

    /**
     * @param windowBytes    bytes of feed messages held for retransmission.
     * @param windowMessages feed messages held for retransmission.
     * @return a window to pass to the constructor.
     */
    public static RetransmissionWindow window(final int windowBytes, final int windowMessages)
    {
        return new RetransmissionWindow(windowBytes, windowMessages);
    }

    public String roleName()
    {
        return "md-recovery";
    }

    public int doWork()
    {
        int work = 0;
        try
        {
            for (int i = 0; i < BROADCAST_BATCH; i++)
            {
                final int received = feed.receive(onFeed);
                if (0 == received)
                {
                    break;
                }
                work += received;
            }
        }
        catch (final IllegalStateException ex)
        {
            // Lapped: what the agent holds no longer follows the feed. Start over from the next refresh.
            lapped.incrementRelease();
            window.reset();
            for (final Instrument instrument : instruments.values())
            {
                instrument.ready = false;
                instrument.loading = false;
                instrument.skipToNextRefresh = true;
            }
            work++;
        }
        work += requests.poll(onRequest, 16);
        work += destinations.poll(clock.time());
        work += sendAnswer();
        if (answerSent == answerLength && pendingSize > 0)
        {
            work += startNextAnswer();
        }
        return work;
    }

    public void onClose()
    {
        destinations.close();
    }

    private long reservedValue()
    {
        return reservedValue;
    }

    private void onFeed(final int msgTypeId, final org.agrona.MutableDirectBuffer buffer, final int index,
        final int length)
    {
        final long channelSequence = buffer.getLong(index);
        final int offset = index + MarketDataFeed.MESSAGE_OFFSET;
        final int messageLength = length - MarketDataFeed.MESSAGE_OFFSET;
        headerDecoder.wrap(buffer, offset);
        final int templateId = headerDecoder.templateId();
        if (msgTypeId == MarketDataFeed.BOOK_ORDERS)
        {
            onBookOrders(buffer, offset);
            return;
        }
        window.add(channelSequence, buffer, offset, messageLength);
        final int body = offset + HEADER;
        switch (templateId)
        {
            case BookLevelUpdateDecoder.TEMPLATE_ID:
                onLevelUpdate(buffer, offset);
                break;
            case BestBidOfferDecoder.TEMPLATE_ID:
                sequenced(buffer.getInt(body + BestBidOfferDecoder.instrumentIdEncodingOffset()),
                    buffer.getLong(body + BestBidOfferDecoder.mdSequenceEncodingOffset()));
                break;
            case TradeDecoder.TEMPLATE_ID:
                sequenced(buffer.getInt(body + TradeDecoder.instrumentIdEncodingOffset()),
                    buffer.getLong(body + TradeDecoder.mdSequenceEncodingOffset()));
                break;
            case InstrumentDefinitionDecoder.TEMPLATE_ID:
                instrument(buffer.getInt(body + InstrumentDefinitionDecoder.instrumentIdEncodingOffset())).status =
                    (short)(buffer.getByte(body + InstrumentDefinitionDecoder.statusEncodingOffset()) & 0xFF);
                break;
            default:
                break;
        }
    }

    private void sequenced(final int instrumentId, final long mdSequence)
    {
        final Instrument instrument = instrument(instrumentId);
        if (instrument.ready && mdSequence != instrument.book.mdSequence() + 1)
        {
            instrument.ready = false;
        }
        instrument.book.mdSequence(mdSequence);
    }

    private void onLevelUpdate(final DirectBuffer buffer, final int offset)
    {
        levelUpdate.wrapAndApplyHeader(buffer, offset, headerDecoder);
        final int instrumentId = levelUpdate.instrumentId();
        sequenced(instrumentId, levelUpdate.mdSequence());
        final Instrument instrument = instrument(instrumentId);
        if (!instrument.ready)
        {
            return;
        }
        if (!instrument.book.apply(levelUpdate))
        {
            // Out of step with the engine: serve nothing of this book until the next refresh mends it.
            instrument.ready = false;
        }
    }

    private void onBookOrders(final DirectBuffer buffer, final int offset)
    {
        bookOrdersDecoder.wrapAndApplyHeader(buffer, offset, headerDecoder);
        final Instrument instrument = instrument(bookOrdersDecoder.instrumentId());
        final long mdSequence = bookOrdersDecoder.mdSequence();
        final TradingStatus status = bookOrdersDecoder.status();
        final boolean last = bookOrdersDecoder.lastPart() == BooleanType.TRUE;
        if (instrument.skipToNextRefresh)
        {
            // After a lap the agent may be in the middle of a refresh whose first parts it missed.
            instrument.skipToNextRefresh = !last;
            return;
        }
        if (!instrument.loading)
        {
            instrument.loading = true;
            instrument.ready = false;
            instrument.book.clear();
        }
        instrument.book.add(bookOrdersDecoder);
        if (last)
        {
            instrument.loading = false;
            instrument.ready = true;
            instrument.status = status.value();
            instrument.book.mdSequence(mdSequence);
        }
    }

    private Instrument instrument(final int instrumentId)
    {
        Instrument instrument = instruments.get(instrumentId);
        if (null == instrument)
        {
            instrument = new Instrument(instrumentId);
            instruments.put(instrumentId, instrument);
        }
        return instrument;
    }

    private void onRequest(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        final long nowMs = clock.time();
        final RejectReason reason = validator.validate(buffer, offset, length);
        final int templateId = length >= HEADER ? headerDecoder.wrap(buffer, offset).templateId() : -1;
        if (reason != RejectReason.NONE ||
            MessageCatalog.kind(templateId) != MessageCatalog.Kind.MARKET_DATA_REQUEST)
        {
            // Not a request it can read: nothing names where an answer would go.
            destinations.unanswerable();
            return;
        }
        final Image image = header.context() instanceof Image ? (Image)header.context() :
            requests.imageBySessionId(header.sessionId());
        if (templateId == SnapshotRequestDecoder.TEMPLATE_ID)
        {
            snapshotRequest.wrapAndApplyHeader(buffer, offset, headerDecoder);
            final long requestId = snapshotRequest.requestId();
            final int instrumentId = snapshotRequest.instrumentId();
            final int streamId = snapshotRequest.responseStreamId();
            final int channelLength = snapshotRequest.responseChannelLength();
            requestDestination = destinations.resolve(image, streamId, buffer,
                snapshotRequest.limit() + SnapshotRequestDecoder.responseChannelHeaderLength(), channelLength, nowMs);
            if (null == requestDestination)
            {
                return;
            }
            final long retryAfterNs = destinations.takeToken(requestDestination.owner, nowMs);
            final Instrument instrument = instruments.get(instrumentId);
            if (retryAfterNs > 0)
            {
                refuseSnapshot(requestId, instrumentId, MarketDataRequestStatus.BUSY, retryAfterNs);
            }
            else if (null == instrument)
            {
                refuseSnapshot(requestId, instrumentId, MarketDataRequestStatus.UNKNOWN_INSTRUMENT, 0);
            }
            else if (instrument.status == TradingStatus.DELISTED.value())
            {
                refuseSnapshot(requestId, instrumentId, MarketDataRequestStatus.DELISTED, 0);
            }
            else
            {
                enqueue(templateId, requestId, instrumentId, 0);
            }
        }
        else
        {
            retransmitRequest.wrapAndApplyHeader(buffer, offset, headerDecoder);
            final long requestId = retransmitRequest.requestId();
            final long from = retransmitRequest.fromChannelSequence();
            final int count = retransmitRequest.count();
            final int streamId = retransmitRequest.responseStreamId();
            final int channelLength = retransmitRequest.responseChannelLength();
            requestDestination = destinations.resolve(image, streamId, buffer,
                retransmitRequest.limit() + RetransmitRequestDecoder.responseChannelHeaderLength(), channelLength,
                nowMs);
            if (null == requestDestination)
            {
                return;
            }
            final long retryAfterNs = destinations.takeToken(requestDestination.owner, nowMs);
            if (retryAfterNs > 0)
            {
                refuseRetransmit(requestId, from, count, MarketDataRequestStatus.BUSY, retryAfterNs);
            }
            else if (count <= 0 || from <= 0)
            {
                refuseRetransmit(requestId, from, count, MarketDataRequestStatus.MALFORMED, 0);
            }
            else if (count > MAX_RETRANSMIT)
            {
                refuseRetransmit(requestId, from, count, MarketDataRequestStatus.TOO_LARGE, 0);
            }
            else if (!window.holds(from, count))
            {
                refuseRetransmit(requestId, from, count, MarketDataRequestStatus.OUT_OF_WINDOW, 0);
            }
            else
            {
                enqueue(templateId, requestId, from, count);
            }
        }
    }

    private void enqueue(final int templateId, final long requestId, final long argument, final int count)
    {
        if (pendingSize == maxPending)
        {
            if (templateId == SnapshotRequestDecoder.TEMPLATE_ID)
            {
                refuseSnapshot(requestId, (int)argument, MarketDataRequestStatus.BUSY, QUEUE_FULL_RETRY_NS);
            }
            else
            {
                refuseRetransmit(requestId, argument, count, MarketDataRequestStatus.BUSY, QUEUE_FULL_RETRY_NS);
            }
            return;
        }
        final int slot = pendingSize;
        pendingTemplate[slot] = templateId;
        pendingRequestId[slot] = requestId;
        pendingArgument[slot] = argument;
        pendingCount[slot] = count;
        pendingDestination[slot] = requestDestination;
        requestDestination.pending++;
        pendingSize++;
    }

    /**
     * Answer the oldest request whose response channel is connected; give up those whose channel never connects.
     */
    private int startNextAnswer()
    {
        final long nowMs = clock.time();
        int work = 0;
        for (int slot = 0; slot < pendingSize; )
        {
            final Destination destination = pendingDestination[slot];
            if (null != destination.connected())
            {
                work += answer(slot, destination, nowMs);
                return work;
            }
            if (destination.unreachable(nowMs))
            {
                refused.incrementRelease(); // nobody to tell: the requester asks again
                removePending(slot);
                work++;
            }
            else
            {
                slot++;
            }
        }
        return work;
    }

    private int answer(final int slot, final Destination destination, final long nowMs)
    {
        final long requestId = pendingRequestId[slot];
        answerLength = 0;
        answerSent = 0;
        answerStartedMs = nowMs;
        answerDestination = destination;
        requestDestination = destination;
        if (pendingTemplate[slot] == SnapshotRequestDecoder.TEMPLATE_ID)
        {
            final Instrument instrument = instruments.get((int)pendingArgument[slot]);
            if (!instrument.ready)
            {
                if (instrument.loading)
                {
                    return 0; // its refresh is half read: answer once it is whole
                }
                refuseSnapshot(requestId, instrument.instrumentId, MarketDataRequestStatus.NOT_READY, 0);
            }
            else
            {
                encodeSnapshot(requestId, instrument);
            }
        }
        else
        {
            final long from = pendingArgument[slot];
            final int count = pendingCount[slot];
            if (!window.holds(from, count))
            {
                refuseRetransmit(requestId, from, count, MarketDataRequestStatus.OUT_OF_WINDOW, 0);
            }
            else
            {
                final int at = beginRecord(0L);
                retransmitResponse.wrapAndApplyHeader(answer, at, headerEncoder).requestId(requestId)
                    .status(MarketDataRequestStatus.ACCEPTED).fromChannelSequence(from).count(count).retryAfterNs(0);
                endRecord(at, HEADER + RetransmitResponseEncoder.BLOCK_LENGTH);
                for (int i = 0; i < count; i++)
                {
                    final long sequence = from + i; // held, so no overflow
                    final int record = beginRecord(sequence);
                    answer.checkLimit(record + 4096);
                    endRecord(record, window.copy(sequence, answer, record));
                }
            }
        }
        removePending(slot);
        return 1;
    }

    private void removePending(final int slot)
    {
        pendingDestination[slot].pending--;
        final int after = pendingSize - slot - 1;
        System.arraycopy(pendingTemplate, slot + 1, pendingTemplate, slot, after);
        System.arraycopy(pendingRequestId, slot + 1, pendingRequestId, slot, after);
        System.arraycopy(pendingArgument, slot + 1, pendingArgument, slot, after);
        System.arraycopy(pendingCount, slot + 1, pendingCount, slot, after);
        System.arraycopy(pendingDestination, slot + 1, pendingDestination, slot, after);
        pendingSize--;
        pendingDestination[pendingSize] = null;
    }

    private void encodeSnapshot(final long requestId, final Instrument instrument)
    {
        final MarketDataBook book = instrument.book;
        final int at = beginRecord(0L);
        snapshotResponse.wrapAndApplyHeader(answer, at, headerEncoder).requestId(requestId)
            .instrumentId(instrument.instrumentId).status(MarketDataRequestStatus.ACCEPTED)
            .mdSequence(book.mdSequence()).channelSequence(window.lastSequence()).orderCount(book.orderCount())
            .retryAfterNs(0);
        endRecord(at, HEADER + SnapshotResponseEncoder.BLOCK_LENGTH);
        partRequestId = requestId;
        partInstrument = instrument;
        ordersRemaining = book.orderCount();
        partRemaining = 0;
        if (0 == ordersRemaining)
        {
            startPart();
        }
        for (int side = 0; side < 2; side++)
        {
            final boolean buy = side == 0;
            for (int level = 0, n = book.levelCount(buy); level < n; level++)
            {
                book.forEachOrder(buy, level, writeOrder);
            }
        }
        partInstrument = null;
    }

    private void startPart()
    {
        final int count = Math.min(ORDERS_PER_PART, ordersRemaining);
        ordersRemaining -= count;
        partRemaining = count;
        partStart = beginRecord(0L);
        answer.checkLimit(partStart + HEADER + BookOrdersEncoder.BLOCK_LENGTH + 4 +
            count * BookOrdersEncoder.OrdersEncoder.sbeBlockLength());
        bookOrders.wrapAndApplyHeader(answer, partStart, headerEncoder).requestId(partRequestId)
            .instrumentId(partInstrument.instrumentId).mdSequence(partInstrument.book.mdSequence())
            .status(TradingStatus.get(partInstrument.status))
            .lastPart(0 == ordersRemaining ? BooleanType.TRUE : BooleanType.FALSE);
        partEntries = bookOrders.ordersCount(count);
        if (0 == count)
        {
            endRecord(partStart, HEADER + bookOrders.encodedLength());
        }
    }

    private void writeOrder(final long orderId, final boolean buy, final long price, final long quantity)
    {
        if (0 == partRemaining)
        {
            startPart();
        }
        partEntries.next().orderId(orderId).side(buy ? Side.BUY : Side.SELL).price(price).quantity(quantity);
        if (0 == --partRemaining)
        {
            endRecord(partStart, HEADER + bookOrders.encodedLength());
        }
    }

    private int beginRecord(final long reservedValue)
    {
        final int at = answerLength;
        answer.checkLimit(at + RECORD_HEADER + 256);
        answer.putLong(at + 4, reservedValue);
        return at + RECORD_HEADER;
    }

    private void endRecord(final int messageOffset, final int length)
    {
        answer.putInt(messageOffset - RECORD_HEADER, length);
        answerLength = messageOffset + length;
    }

    private int sendAnswer()
    {
        int sent = 0;
        while (answerSent < answerLength)
        {
            final ExclusivePublication answers = answerDestination.publication;
            final int length = answer.getInt(answerSent);
            reservedValue = answer.getLong(answerSent + 4);
            final long result = null == answers ? Publication.NOT_CONNECTED :
                answers.offer(answer, answerSent + RECORD_HEADER, length, reservedValueSupplier);
            if (result > 0)
            {
                answerSent += RECORD_HEADER + length;
                answerDestination.lastUsedMs = clock.time();
                sent++;
            }
            else
            {
                if (result == Publication.NOT_CONNECTED || result == Publication.CLOSED ||
                    clock.time() - answerStartedMs > STUCK_ANSWER_MS)
                {
                    // Nobody to tell, or nobody reading: the requester asks again.
                    refused.incrementRelease();
                    answerSent = answerLength;
                }
                break;
            }
        }
        return sent;
    }

    private void refuseSnapshot(
        final long requestId, final int instrumentId, final MarketDataRequestStatus status, final long retryAfterNs)
    {
        refused.incrementRelease();
        snapshotResponse.wrapAndApplyHeader(refusal, 0, headerEncoder).requestId(requestId)
            .instrumentId(instrumentId).status(status).mdSequence(0).channelSequence(0).orderCount(0)
            .retryAfterNs(retryAfterNs);
        destinations.queueRefusal(requestDestination, refusal, 0, HEADER + SnapshotResponseEncoder.BLOCK_LENGTH,
            refusalsDropped);
    }

    private void refuseRetransmit(
        final long requestId,
        final long from,
        final int count,
        final MarketDataRequestStatus status,
        final long retryAfterNs)
    {
        refused.incrementRelease();
        retransmitResponse.wrapAndApplyHeader(refusal, 0, headerEncoder).requestId(requestId)
            .status(status).fromChannelSequence(from).count(count).retryAfterNs(retryAfterNs);
        destinations.queueRefusal(requestDestination, refusal, 0, HEADER + RetransmitResponseEncoder.BLOCK_LENGTH,
            refusalsDropped);
    }

    /** @return requesters' response channels open now (for tests). */
    int responseChannels()
    {
        return destinations.size();
    }

    private static final class Instrument
    {
        final int instrumentId;
        final MarketDataBook book;
        short status = TradingStatus.OPEN.value();
        boolean ready;
        boolean loading;
        boolean skipToNextRefresh;

        Instrument(final int instrumentId)
        {
            this.instrumentId = instrumentId;
            this.book = new MarketDataBook(instrumentId);
        }
    }
}
