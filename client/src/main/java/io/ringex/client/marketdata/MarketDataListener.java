package io.ringex.client.marketdata;

import io.ringex.protocol.codecs.InstrumentDefinitionDecoder;
import io.ringex.protocol.codecs.MarketDataRequestStatus;
import io.ringex.protocol.codecs.MarketStatisticsDecoder;
import io.ringex.protocol.codecs.Side;
import org.agrona.DirectBuffer;

/**
 * What a {@link MarketDataClient} tells its owner, during {@link MarketDataClient#poll()}, on the polling thread, for
 * the instruments subscribed to. Decoders passed in are flyweights valid during the call only. Every method does
 * nothing by default.
 */
public interface MarketDataListener
{
    /**
     * A book changed: an order-by-order event was applied (the level it touched is up to date), or the book was
     * rebuilt after a gap.
     *
     * @param book the book (read it during the call; it is the client's own).
     */
    default void onBookChanged(final MarketDataBook book)
    {
    }

    /**
     * A trade.
     *
     * @param instrumentId  instrument.
     * @param tradeId       the engine's trade id.
     * @param price         price.
     * @param quantity      quantity.
     * @param aggressorSide the side of the incoming order.
     * @param timestampNs   when the engine matched it.
     */
    default void onTrade(
        final int instrumentId,
        final long tradeId,
        final long price,
        final long quantity,
        final Side aggressorSide,
        final long timestampNs)
    {
    }

    /**
     * The top of the book changed.
     *
     * @param instrumentId instrument.
     * @param bidPrice     best bid, or null value of the schema when none.
     * @param bidQuantity  its quantity.
     * @param askPrice     best offer, or the null value when none.
     * @param askQuantity  its quantity.
     */
    default void onBestBidOffer(
        final int instrumentId,
        final long bidPrice,
        final long bidQuantity,
        final long askPrice,
        final long askQuantity)
    {
    }

    /**
     * Statistics after trades.
     *
     * @param statistics the message.
     */
    default void onStatistics(final MarketStatisticsDecoder statistics)
    {
    }

    /**
     * An instrument's definition or trading status (sent on every change, and periodically).
     *
     * @param definition the message.
     */
    default void onInstrument(final InstrumentDefinitionDecoder definition)
    {
    }

    /**
     * The book was rebuilt from a snapshot and the incrementals buffered meanwhile.
     *
     * @param instrumentId instrument.
     * @param mdSequence   the instrument's sequence the book is at.
     */
    default void onRecovered(final int instrumentId, final long mdSequence)
    {
    }

    /**
     * A feed message of a followed instrument, once, in the instrument's sequence, after the client applied it: for an
     * owner that keeps its own view of the market (the gateway's FIX market data) and wants what the client recovered
     * (retransmitted messages in their place, nothing twice, nothing out of order). Messages lost in a gap that a
     * snapshot mended never come here: {@link #onRecovered} says the book jumped to the snapshot's sequence.
     *
     * @param instrumentId instrument.
     * @param templateId   the message's template.
     * @param buffer       holding it (valid during the call only).
     * @param offset       of its message header.
     * @param length       of the message.
     */
    default void onFeedMessage(
        final int instrumentId, final int templateId, final DirectBuffer buffer, final int offset, final int length)
    {
    }

    /**
     * A message as it arrives off the live feed, before any gap detection and whatever its instrument: it may be a
     * duplicate, or arrive before messages lost ahead of it. For data that needs no sequence (e.g. learning
     * instrument symbols for order entry even while the recovery service does not answer).
     *
     * @param buffer holding it (valid during the call only).
     * @param offset of its message header.
     * @param length of the message.
     */
    default void onArrival(final DirectBuffer buffer, final int offset, final int length)
    {
    }

    /**
     * The recovery service refused a snapshot for good (an unknown or delisted instrument): the subscription ends.
     *
     * @param instrumentId instrument.
     * @param status       why.
     */
    default void onSubscriptionRefused(final int instrumentId, final MarketDataRequestStatus status)
    {
    }
}
