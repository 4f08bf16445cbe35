package io.ringex.client.marketdata;

import io.ringex.protocol.codecs.InstrumentDefinitionDecoder;
import io.ringex.protocol.codecs.MarketDataRequestStatus;
import io.ringex.protocol.codecs.MarketStatisticsDecoder;
import io.ringex.protocol.codecs.Side;

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
     * The recovery service refused a snapshot for good (an unknown or delisted instrument): the subscription ends.
     *
     * @param instrumentId instrument.
     * @param status       why.
     */
    default void onSubscriptionRefused(final int instrumentId, final MarketDataRequestStatus status)
    {
    }
}
