package io.ringex.gateway.testing;

import io.aeron.Aeron;
import io.aeron.Subscription;
import io.ringex.protocol.codecs.BookSnapshotDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import org.agrona.CloseHelper;

import java.math.BigDecimal;
import java.util.TreeMap;

/**
 * The engine's own word on a book: the last BookSnapshot it published for an instrument on its market-data stream
 * (the engine publishes one for every instrument periodically), read straight off the stream with the SBE codecs,
 * not through the gateway.
 */
public final class EngineBookWatch implements AutoCloseable
{
    private final Aeron aeron;
    private final Subscription subscription;
    private final int instrumentId;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final BookSnapshotDecoder snapshot = new BookSnapshotDecoder();
    private TreeMap<BigDecimal, Long> bids = new TreeMap<>();
    private TreeMap<BigDecimal, Long> asks = new TreeMap<>();
    private long snapshots;

    /**
     * @param aeronDirectoryName the media driver.
     * @param channel            the engine's market-data channel.
     * @param streamId           its stream.
     * @param instrumentId       the instrument to follow.
     */
    public EngineBookWatch(final String aeronDirectoryName, final String channel, final int streamId,
        final int instrumentId)
    {
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDirectoryName));
        subscription = aeron.addSubscription(channel, streamId);
        this.instrumentId = instrumentId;
    }

    /**
     * Read what has arrived.
     *
     * @param priceScale the instrument's price scale.
     * @return snapshots of the instrument seen so far.
     */
    public long poll(final int priceScale)
    {
        subscription.poll((buffer, offset, length, h) ->
        {
            header.wrap(buffer, offset);
            if (header.templateId() != BookSnapshotDecoder.TEMPLATE_ID)
            {
                return;
            }
            snapshot.wrapAndApplyHeader(buffer, offset, header);
            if (snapshot.instrumentId() != instrumentId)
            {
                return;
            }
            final TreeMap<BigDecimal, Long> newBids = new TreeMap<>();
            final TreeMap<BigDecimal, Long> newAsks = new TreeMap<>();
            for (final BookSnapshotDecoder.LevelsDecoder level : snapshot.levels())
            {
                final BigDecimal price = BigDecimal.valueOf(level.price(), priceScale).stripTrailingZeros();
                (level.sideRaw() == 1 ? newBids : newAsks).put(price, level.quantity());
            }
            bids = newBids;
            asks = newAsks;
            snapshots++;
        }, 100);
        return snapshots;
    }

    /**
     * @return bids of the last snapshot, price to quantity.
     */
    public TreeMap<BigDecimal, Long> bids()
    {
        return bids;
    }

    /**
     * @return asks of the last snapshot.
     */
    public TreeMap<BigDecimal, Long> asks()
    {
        return asks;
    }

    /**
     * {@inheritDoc}
     */
    public String toString()
    {
        return "bids " + bids.descendingMap() + " asks " + asks;
    }

    /**
     * {@inheritDoc}
     */
    public void close()
    {
        CloseHelper.closeAll(subscription, aeron);
    }
}
