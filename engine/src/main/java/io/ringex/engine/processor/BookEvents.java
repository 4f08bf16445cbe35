package io.ringex.engine.processor;

import io.ringex.engine.book.Instrument;
import io.ringex.engine.book.Order;
import io.ringex.engine.book.OrderBook;
import io.ringex.engine.book.PriceLevels;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.BookOrdersEncoder;
import io.ringex.protocol.codecs.AuctionIndicativeEncoder;
import io.ringex.protocol.codecs.BookSnapshotEncoder;
import io.ringex.protocol.codecs.InstrumentDefinitionEncoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TradingStatus;

/**
 * The events that describe a book or an instrument whole, for late joiners and on changes: BookSnapshot and
 * InstrumentDefinition, written with the generated SBE encoders into the event sink, each with the command timestamp
 * its caller passes. Rare next to the per-command events, so kept apart from the encoder of those, which owns this.
 * <p>
 * Threading: single business-logic thread.
 */
final class BookEvents
{
    private static final int HEADER = MessageHeaderEncoder.ENCODED_LENGTH;

    private final EventSink sink;
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final BookSnapshotEncoder bookSnapshot = new BookSnapshotEncoder();
    private final InstrumentDefinitionEncoder instrumentDefinition = new InstrumentDefinitionEncoder();
    private final BookOrdersEncoder bookOrders = new BookOrdersEncoder();
    private final AuctionIndicativeEncoder auctionIndicative = new AuctionIndicativeEncoder();

    /**
     * @param sink where the events go.
     */
    BookEvents(final EventSink sink)
    {
        this.sink = sink;
    }

    /**
     * Write a full snapshot of a book, best levels first (bids, then asks); levels beyond what fits one event are
     * left out (the event says how many it holds).
     *
     * @param book        the book.
     * @param timestampNs the command's timestamp.
     */
    void bookSnapshot(final OrderBook book, final long timestampNs)
    {
        final int maxLength = sink.maxEventLength();
        final int fixed = HEADER + BookSnapshotEncoder.BLOCK_LENGTH + BookSnapshotEncoder.LevelsEncoder.HEADER_SIZE;
        final int maxLevels = Math.min(0xFFFE,
            (maxLength - fixed) / BookSnapshotEncoder.LevelsEncoder.sbeBlockLength());
        final PriceLevels levels = book.levels();
        int bidLevels = 0;
        for (int i = levels.bestBid(); i != PriceLevels.NONE && bidLevels < maxLevels; i = levels.nextBidBelow(i))
        {
            bidLevels++;
        }
        int askLevels = 0;
        for (int i = levels.bestAsk(); i != PriceLevels.NONE && bidLevels + askLevels < maxLevels;
            i = levels.nextAskAbove(i))
        {
            askLevels++;
        }
        final int offset = sink.claim(maxLength);
        final long lastTrade = book.lastTradePrice();
        bookSnapshot.wrapAndApplyHeader(sink.buffer(), offset, header)
            .instrumentId(book.instrument().instrumentId())
            .mdSequence(book.mdSequence())
            .status(tradingStatus(book.instrument().status()))
            .lastTradePrice(lastTrade == 0 ? BookSnapshotEncoder.lastTradePriceNullValue() : lastTrade)
            .timestampNs(timestampNs);
        final BookSnapshotEncoder.LevelsEncoder entries = bookSnapshot.levelsCount(bidLevels + askLevels);
        int written = 0;
        for (int i = levels.bestBid(); i != PriceLevels.NONE && written < bidLevels; i = levels.nextBidBelow(i))
        {
            entries.next().side(Side.BUY).price(levels.price(i)).quantity(levels.quantity(i, true))
                .orderCount(levels.orderCount(i, true));
            written++;
        }
        written = 0;
        for (int i = levels.bestAsk(); i != PriceLevels.NONE && written < askLevels; i = levels.nextAskAbove(i))
        {
            entries.next().side(Side.SELL).price(levels.price(i)).quantity(levels.quantity(i, false))
                .orderCount(levels.orderCount(i, false));
            written++;
        }
        sink.commit(HEADER + bookSnapshot.encodedLength());
    }

    /**
     * Write the order-by-order (L3) state of a book as BookOrders events, as many as its orders need (each fills one
     * event), ending with one marked last: bids best first then asks best first, each level's orders in queue order.
     * The market-data publisher starts its own copy of the book from these (the processor's thread writes them all at
     * once, so no event of the book comes between the parts), then keeps it with the BookLevelUpdates' order fields.
     *
     * @param book the book.
     */
    void bookOrders(final OrderBook book)
    {
        final int maxLength = sink.maxEventLength();
        final int fixed = HEADER + BookOrdersEncoder.BLOCK_LENGTH + BookOrdersEncoder.OrdersEncoder.HEADER_SIZE;
        final int perPart = Math.min(0xFFFE, (maxLength - fixed) / BookOrdersEncoder.OrdersEncoder.sbeBlockLength());
        final PriceLevels levels = book.levels();
        int remaining = 0;
        for (int i = levels.bestBid(); i != PriceLevels.NONE; i = levels.nextBidBelow(i))
        {
            remaining += levels.orderCount(i, true);
        }
        for (int i = levels.bestAsk(); i != PriceLevels.NONE; i = levels.nextAskAbove(i))
        {
            remaining += levels.orderCount(i, false);
        }
        int level = levels.bestBid();
        boolean bids = true;
        if (level == PriceLevels.NONE)
        {
            level = levels.bestAsk();
            bids = false;
        }
        Order order = level == PriceLevels.NONE ? null : levels.head(level, bids);
        do
        {
            final int count = Math.min(perPart, remaining);
            remaining -= count;
            final int offset = sink.claim(maxLength);
            bookOrders.wrapAndApplyHeader(sink.buffer(), offset, header)
                .requestId(0L)
                .instrumentId(book.instrument().instrumentId())
                .mdSequence(book.mdSequence())
                .status(tradingStatus(book.instrument().status()))
                .lastPart(remaining == 0 ? BooleanType.TRUE : BooleanType.FALSE);
            final BookOrdersEncoder.OrdersEncoder entries = bookOrders.ordersCount(count);
            for (int written = 0; written < count; written++)
            {
                while (null == order)
                {
                    level = bids ? levels.nextBidBelow(level) : levels.nextAskAbove(level);
                    if (level == PriceLevels.NONE && bids)
                    {
                        bids = false;
                        level = levels.bestAsk();
                    }
                    order = levels.head(level, bids);
                }
                entries.next().orderId(order.orderId()).side(order.isBuy() ? Side.BUY : Side.SELL)
                    .price(order.price()).quantity(order.visibleQuantity());
                order = PriceLevels.next(order);
            }
            sink.commit(HEADER + bookOrders.encodedLength());
        }
        while (remaining > 0);
    }

    /**
     * Write an instrument's definition and status.
     *
     * @param instrument  the instrument.
     * @param timestampNs the command's timestamp.
     */
    void instrumentDefinition(final Instrument instrument, final long timestampNs)
    {
        final int offset = sink.claim(HEADER + InstrumentDefinitionEncoder.BLOCK_LENGTH);
        instrumentDefinition.wrapAndApplyHeader(sink.buffer(), offset, header)
            .instrumentId(instrument.instrumentId())
            .putSymbol(instrument.symbol(), 0)
            .priceScale((short)instrument.priceScale())
            .tickSize(instrument.tickSize())
            .lotSize(instrument.lotSize())
            .referencePrice(instrument.referencePrice())
            .priceBandType(instrument.bandType() == Instrument.BAND_TICKS ?
                PriceBandType.TICKS : PriceBandType.BASIS_POINTS)
            .priceBand(instrument.band())
            .status(tradingStatus(instrument.status()))
            .timestampNs(timestampNs)
            // the market-data publisher writes the instrument's last sequence here; never a slot's stale bytes
            .mdSequence(0);
        sink.commit(HEADER + InstrumentDefinitionEncoder.BLOCK_LENGTH);
    }

    /**
     * Write what the uncrossing of a book in a call phase would do now; it takes the book's next market-data sequence.
     *
     * @param book        the book.
     * @param price       indicative price, 0 for none.
     * @param matched     matched quantity.
     * @param imbalance   signed imbalance.
     * @param endNs       the phase's end, 0 for none.
     * @param timestampNs the command's timestamp.
     */
    void auctionIndicative(
        final OrderBook book, final long price, final long matched, final long imbalance, final long endNs,
        final long timestampNs)
    {
        final int offset = sink.claim(HEADER + AuctionIndicativeEncoder.BLOCK_LENGTH);
        auctionIndicative.wrapAndApplyHeader(sink.buffer(), offset, header)
            .instrumentId(book.instrument().instrumentId())
            .mdSequence(book.nextMdSequence())
            .status(tradingStatus(book.instrument().status()))
            .price(price == 0 ? AuctionIndicativeEncoder.priceNullValue() : price)
            .matchedQuantity(matched)
            .imbalanceQuantity(imbalance)
            .auctionEndNs(endNs)
            .timestampNs(timestampNs);
        sink.commit(HEADER + AuctionIndicativeEncoder.BLOCK_LENGTH);
    }

    static TradingStatus tradingStatus(final byte raw)
    {
        switch (raw)
        {
            case Instrument.STATUS_HALTED:
                return TradingStatus.HALTED;
            case Instrument.STATUS_CLOSED:
                return TradingStatus.CLOSED;
            case Instrument.STATUS_PRE_OPEN:
                return TradingStatus.PRE_OPEN;
            case Instrument.STATUS_OPENING_AUCTION:
                return TradingStatus.OPENING_AUCTION;
            case Instrument.STATUS_CLOSING_AUCTION:
                return TradingStatus.CLOSING_AUCTION;
            case Instrument.STATUS_VOLATILITY_AUCTION:
                return TradingStatus.VOLATILITY_AUCTION;
            case Instrument.STATUS_DELISTED:
                return TradingStatus.DELISTED;
            default:
                return TradingStatus.OPEN;
        }
    }
}
