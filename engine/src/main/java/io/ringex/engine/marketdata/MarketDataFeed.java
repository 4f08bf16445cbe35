package io.ringex.engine.marketdata;

import io.aeron.Publication;
import io.aeron.ReservedValueSupplier;
import io.ringex.engine.ring.SlotDescriptor;
import io.ringex.engine.ring.SlotHandler;
import io.ringex.protocol.codecs.AuctionIndicativeDecoder;
import io.ringex.protocol.codecs.BestBidOfferDecoder;
import io.ringex.protocol.codecs.BookLevelUpdateDecoder;
import io.ringex.protocol.codecs.BookOrdersDecoder;
import io.ringex.protocol.codecs.BookSnapshotDecoder;
import io.ringex.protocol.codecs.InstrumentDefinitionDecoder;
import io.ringex.protocol.codecs.MarketStatisticsEncoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.TradeDecoder;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.broadcast.BroadcastTransmitter;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * The public market-data feed, derived on the publishers' thread from the processor's events: channel sequences, trades
 * with their accounts zeroed, conflated MarketStatistics, and the hand-off to the {@link MarketDataRecovery} agent over
 * a broadcast buffer (docs/protocol.md, "Market data"). Nothing here waits for a subscriber: a refused offer is counted
 * and the message is gone from the live feed, though not from the recovery service's window. The engine is never slowed
 * by a market-data subscriber.
 * <p>
 * Thread safety: the output ring's publishers' stage thread only.
 */
public final class MarketDataFeed implements SlotHandler
{
    /** Broadcast message type: a feed message, after its channel sequence. */
    public static final int FEED_MESSAGE = 1;
    /** Broadcast message type: a BookOrders part of the engine's refresh, after the last channel sequence. */
    public static final int BOOK_ORDERS = 2;
    /** Offset of the message in a broadcast record: the channel sequence comes first. */
    public static final int MESSAGE_OFFSET = 8;

    private static final int HEADER = MessageHeaderDecoder.ENCODED_LENGTH;
    private static final int ADMIN_ACTION_RETRIES = 3;

    private final Publication publication;
    private final BroadcastTransmitter toRecovery;
    private final AtomicCounter dropped;
    private final AtomicCounter channelSequenceCounter;
    private final UnsafeBuffer scratch;
    private final UnsafeBuffer statisticsBuffer = new UnsafeBuffer(new byte[MESSAGE_OFFSET + HEADER +
        MarketStatisticsEncoder.BLOCK_LENGTH]);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final MarketStatisticsEncoder statistics = new MarketStatisticsEncoder();
    private final Int2ObjectHashMap<InstrumentFeed> instruments = new Int2ObjectHashMap<>();
    private final ReservedValueSupplier channelSequenceSupplier = (termBuffer, termOffset, frameLength) ->
        channelSequence();
    private InstrumentFeed firstTraded;
    private long channelSequence;

    /**
     * @param publication            the live feed.
     * @param toRecovery             the recovery agent's broadcast buffer.
     * @param maxMessageLength       the longest event on the output ring.
     * @param dropped                counts feed messages the publication refused.
     * @param channelSequenceCounter shows the last channel sequence sent.
     */
    public MarketDataFeed(
        final Publication publication,
        final BroadcastTransmitter toRecovery,
        final int maxMessageLength,
        final AtomicCounter dropped,
        final AtomicCounter channelSequenceCounter)
    {
        this.publication = publication;
        this.toRecovery = toRecovery;
        this.dropped = dropped;
        this.channelSequenceCounter = channelSequenceCounter;
        this.scratch = new UnsafeBuffer(new byte[MESSAGE_OFFSET + maxMessageLength]);
    }

    /** @return the last channel sequence given. */
    public long channelSequence()
    {
        return channelSequence;
    }

    public void onSlot(final AtomicBuffer buffer, final int slotOffset, final long sequence, final boolean endOfBatch)
    {
        final int templateId = buffer.getInt(slotOffset + SlotDescriptor.TEMPLATE_ID_OFFSET);
        final int length = buffer.getInt(slotOffset + SlotDescriptor.LENGTH_OFFSET);
        final int offset = slotOffset + SlotDescriptor.PAYLOAD_OFFSET;
        final int body = offset + HEADER;
        switch (templateId)
        {
            case BookLevelUpdateDecoder.TEMPLATE_ID:
                instrument(buffer.getInt(body + BookLevelUpdateDecoder.instrumentIdEncodingOffset())).mdSequence =
                    buffer.getLong(body + BookLevelUpdateDecoder.mdSequenceEncodingOffset());
                send(buffer, offset, length);
                break;

            case BestBidOfferDecoder.TEMPLATE_ID:
                instrument(buffer.getInt(body + BestBidOfferDecoder.instrumentIdEncodingOffset())).mdSequence =
                    buffer.getLong(body + BestBidOfferDecoder.mdSequenceEncodingOffset());
                send(buffer, offset, length);
                break;

            case TradeDecoder.TEMPLATE_ID:
                onTrade(buffer, offset, length);
                break;

            case AuctionIndicativeDecoder.TEMPLATE_ID:
                // A call phase's indicative price and volume: the instrument's next sequence, like the book's changes.
                instrument(buffer.getInt(body + AuctionIndicativeDecoder.instrumentIdEncodingOffset())).mdSequence =
                    buffer.getLong(body + AuctionIndicativeDecoder.mdSequenceEncodingOffset());
                send(buffer, offset, length);
                break;

            case BookSnapshotDecoder.TEMPLATE_ID:
                instrument(buffer.getInt(body + BookSnapshotDecoder.instrumentIdEncodingOffset())).mdSequence =
                    buffer.getLong(body + BookSnapshotDecoder.mdSequenceEncodingOffset());
                send(buffer, offset, length);
                break;

            case InstrumentDefinitionDecoder.TEMPLATE_ID:
            {
                final InstrumentFeed instrument =
                    instrument(buffer.getInt(body + InstrumentDefinitionDecoder.instrumentIdEncodingOffset()));
                scratch.putBytes(MESSAGE_OFFSET, buffer, offset, length);
                scratch.putLong(MESSAGE_OFFSET + HEADER + InstrumentDefinitionDecoder.mdSequenceEncodingOffset(),
                    instrument.mdSequence);
                send(scratch, MESSAGE_OFFSET, length);
                break;
            }

            case BookOrdersDecoder.TEMPLATE_ID:
                // The processor's order-by-order refresh: the recovery agent's books, never the live feed.
                scratch.putLong(0, channelSequence);
                scratch.putBytes(MESSAGE_OFFSET, buffer, offset, length);
                toRecovery.transmit(BOOK_ORDERS, scratch, 0, MESSAGE_OFFSET + length);
                break;

            default:
                break;
        }
        if (endOfBatch)
        {
            sendStatistics();
        }
    }

    private void onTrade(final DirectBuffer buffer, final int offset, final int length)
    {
        final int body = offset + HEADER;
        final InstrumentFeed instrument = instrument(buffer.getInt(body + TradeDecoder.instrumentIdEncodingOffset()));
        instrument.mdSequence = buffer.getLong(body + TradeDecoder.mdSequenceEncodingOffset());
        final long price = buffer.getLong(body + TradeDecoder.priceEncodingOffset());
        final long quantity = buffer.getLong(body + TradeDecoder.quantityEncodingOffset());
        instrument.onTrade(price, quantity, buffer.getLong(body + TradeDecoder.timestampNsEncodingOffset()));
        if (!instrument.traded)
        {
            instrument.traded = true;
            instrument.nextTraded = firstTraded;
            firstTraded = instrument;
        }
        scratch.putBytes(MESSAGE_OFFSET, buffer, offset, length);
        scratch.putLong(MESSAGE_OFFSET + HEADER + TradeDecoder.buyAccountIdEncodingOffset(), 0L);
        scratch.putLong(MESSAGE_OFFSET + HEADER + TradeDecoder.sellAccountIdEncodingOffset(), 0L);
        send(scratch, MESSAGE_OFFSET, length);
    }

    private void sendStatistics()
    {
        InstrumentFeed instrument = firstTraded;
        firstTraded = null;
        while (null != instrument)
        {
            final InstrumentFeed next = instrument.nextTraded;
            instrument.nextTraded = null;
            instrument.traded = false;
            final int length = HEADER + MarketStatisticsEncoder.BLOCK_LENGTH;
            instrument.encode(statistics.wrapAndApplyHeader(statisticsBuffer, MESSAGE_OFFSET, header));
            send(statisticsBuffer, MESSAGE_OFFSET, length);
            instrument = next;
        }
    }

    private InstrumentFeed instrument(final int instrumentId)
    {
        InstrumentFeed instrument = instruments.get(instrumentId);
        if (null == instrument)
        {
            instrument = new InstrumentFeed(instrumentId);
            instruments.put(instrumentId, instrument);
        }
        return instrument;
    }

    /**
     * Give the message the next channel sequence, hand it to the recovery agent, then offer it once on the feed.
     * The buffer has {@link #MESSAGE_OFFSET} bytes free before the message when it is this feed's own scratch;
     * otherwise the message is copied into the scratch for the broadcast.
     */
    private void send(final DirectBuffer buffer, final int offset, final int length)
    {
        final long sequence = ++channelSequence;
        if (buffer == scratch || buffer == statisticsBuffer)
        {
            final UnsafeBuffer record = (UnsafeBuffer)buffer;
            record.putLong(offset - MESSAGE_OFFSET, sequence);
            toRecovery.transmit(FEED_MESSAGE, record, offset - MESSAGE_OFFSET, MESSAGE_OFFSET + length);
        }
        else
        {
            scratch.putLong(0, sequence);
            scratch.putBytes(MESSAGE_OFFSET, buffer, offset, length);
            toRecovery.transmit(FEED_MESSAGE, scratch, 0, MESSAGE_OFFSET + length);
        }
        channelSequenceCounter.setRelease(sequence);
        for (int attempt = 0; ; attempt++)
        {
            final long result = publication.offer(buffer, offset, length, channelSequenceSupplier);
            if (result > 0)
            {
                return;
            }
            if (result == Publication.CLOSED || result == Publication.MAX_POSITION_EXCEEDED)
            {
                throw new IllegalStateException("market-data publication " + publication.channel() + " stream " +
                    publication.streamId() + " unusable: " + Publication.errorString(result));
            }
            // ADMIN_ACTION (term rotation) goes through at once when retried; anything else is a subscriber's
            // problem, not the engine's: count it and move on.
            if (result != Publication.ADMIN_ACTION || attempt >= ADMIN_ACTION_RETRIES)
            {
                if (result != Publication.NOT_CONNECTED)
                {
                    dropped.incrementRelease();
                }
                return;
            }
        }
    }

    /** One instrument's last sequence and session statistics. */
    static final class InstrumentFeed
    {
        final int instrumentId;
        long mdSequence;
        long openPrice;
        long highPrice;
        long lowPrice;
        long lastPrice;
        long volume;
        double turnover;
        long tradeCount;
        long timestampNs;
        boolean traded;
        InstrumentFeed nextTraded;

        InstrumentFeed(final int instrumentId)
        {
            this.instrumentId = instrumentId;
        }

        void onTrade(final long price, final long quantity, final long timestampNs)
        {
            if (0 == tradeCount)
            {
                openPrice = price;
                highPrice = price;
                lowPrice = price;
            }
            highPrice = Math.max(highPrice, price);
            lowPrice = Math.min(lowPrice, price);
            lastPrice = price;
            volume += quantity;
            turnover += (double)price * quantity;
            tradeCount++;
            this.timestampNs = timestampNs;
        }

        void encode(final MarketStatisticsEncoder encoder)
        {
            final boolean any = tradeCount > 0;
            final long none = MarketStatisticsEncoder.openPriceNullValue();
            encoder.instrumentId(instrumentId)
                .mdSequence(mdSequence)
                .openPrice(any ? openPrice : none)
                .highPrice(any ? highPrice : none)
                .lowPrice(any ? lowPrice : none)
                .lastPrice(any ? lastPrice : none)
                .volume(volume)
                .vwapPrice(volume > 0 ? Math.round(turnover / volume) : none)
                .tradeCount(tradeCount)
                .timestampNs(timestampNs);
        }
    }
}
