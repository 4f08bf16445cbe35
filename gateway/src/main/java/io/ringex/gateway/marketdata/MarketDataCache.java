package io.ringex.gateway.marketdata;

import io.ringex.client.marketdata.MarketDataBook;
import io.ringex.protocol.codecs.AuctionIndicativeDecoder;
import io.ringex.protocol.codecs.BestBidOfferDecoder;
import io.ringex.protocol.codecs.BookLevelUpdateDecoder;
import io.ringex.protocol.codecs.BookSnapshotDecoder;
import io.ringex.protocol.codecs.InstrumentDefinitionDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.TradeDecoder;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Object2ObjectHashMap;

import java.util.ArrayList;
import java.util.List;

/**
 * The gateway's copy of the market, built from the engine nodes' market-data streams: one {@link InstrumentFeed} per
 * instrument (definition, L2 book, recent trades, statistics), looked up by id or symbol. It reads the feed's existing
 * messages (InstrumentDefinition, BookLevelUpdate, BestBidOffer, Trade, BookSnapshot) and ignores any other, so a
 * newer engine's additional messages pass by. The gateway's market-data clients hand it the feed in sequence, with
 * what was lost retransmitted, or a book rebuilt from a snapshot ({@link #onRecovered}); should a gap still reach it,
 * the book waits for the engine's periodic BookSnapshot (see {@link InstrumentFeed}).
 * <p>
 * Callers validate each message (schema, length) before {@link #onMessage}. Trades on the public stream carry no
 * account ids, and nothing here would keep one.
 * <p>
 * Thread safety: single-threaded (the agent polling the market-data stream).
 */
public final class MarketDataCache
{
    private static final int HEADER_LENGTH = MessageHeaderDecoder.ENCODED_LENGTH;
    private static final int MAX_SYMBOL_LENGTH = 16;

    private final Int2ObjectHashMap<InstrumentFeed> byId = new Int2ObjectHashMap<>();
    private final Object2ObjectHashMap<String, InstrumentFeed> bySymbol = new Object2ObjectHashMap<>();
    private final List<InstrumentFeed> instruments = new ArrayList<>();
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final InstrumentDefinitionDecoder definition = new InstrumentDefinitionDecoder();
    private final BookLevelUpdateDecoder level = new BookLevelUpdateDecoder();
    private final BestBidOfferDecoder bbo = new BestBidOfferDecoder();
    private final TradeDecoder trade = new TradeDecoder();
    private final BookSnapshotDecoder snapshot = new BookSnapshotDecoder();
    private final StringBuilder symbolScratch = new StringBuilder(MAX_SYMBOL_LENGTH);
    private boolean changed;
    private long statusChanges;

    /**
     * Apply one validated market-data message.
     *
     * @param buffer holding it.
     * @param offset of its header.
     */
    public void onMessage(final DirectBuffer buffer, final int offset)
    {
        header.wrap(buffer, offset);
        final int at = offset + HEADER_LENGTH;
        final int blockLength = header.blockLength();
        final int version = header.version();
        switch (header.templateId())
        {
            case InstrumentDefinitionDecoder.TEMPLATE_ID -> onDefinition(
                definition.wrap(buffer, at, blockLength, version));
            case BookLevelUpdateDecoder.TEMPLATE_ID ->
            {
                level.wrap(buffer, at, blockLength, version);
                final int side = sideIndex(level.sideRaw());
                if (side >= 0)
                {
                    changed |= feed(level.instrumentId()).onLevel(level.mdSequence(), side, level.price(),
                        level.quantity(), level.orderCount());
                }
            }
            case BestBidOfferDecoder.TEMPLATE_ID ->
            {
                bbo.wrap(buffer, at, blockLength, version);
                feed(bbo.instrumentId()).onOtherSequenced(bbo.mdSequence());
            }
            case TradeDecoder.TEMPLATE_ID ->
            {
                trade.wrap(buffer, at, blockLength, version);
                changed |= feed(trade.instrumentId()).onTrade(trade.mdSequence(), trade.tradeId(), trade.price(),
                    trade.quantity(), (byte)trade.aggressorSideRaw(), trade.timestampNs());
            }
            case BookSnapshotDecoder.TEMPLATE_ID -> onSnapshot(snapshot.wrap(buffer, at, blockLength, version));
            case AuctionIndicativeDecoder.TEMPLATE_ID ->
                // A call phase's indicative takes the instrument's next sequence; the book does not change.
                feed(buffer.getInt(at + AuctionIndicativeDecoder.instrumentIdEncodingOffset(),
                    MessageHeaderDecoder.BYTE_ORDER)).onOtherSequenced(buffer.getLong(
                    at + AuctionIndicativeDecoder.mdSequenceEncodingOffset(), MessageHeaderDecoder.BYTE_ORDER));
            default ->
            {
                // not a message the gateway's market data uses
            }
        }
    }

    private void onDefinition(final InstrumentDefinitionDecoder d)
    {
        symbolScratch.setLength(0);
        d.getSymbol(symbolScratch);
        int length = symbolScratch.length();
        while (length > 0 && symbolScratch.charAt(length - 1) <= ' ')
        {
            length--;
        }
        final int priceScale = d.priceScale();
        if (length == 0 || priceScale > 8)
        {
            return;
        }
        symbolScratch.setLength(length);
        final InstrumentFeed feed = feed(d.instrumentId());
        final long statusBefore = feed.statusVersion();
        final String existing = feed.symbol();
        if (existing == null || !existing.contentEquals(symbolScratch))
        {
            if (existing != null)
            {
                bySymbol.remove(existing);
            }
            final String symbol = symbolScratch.toString();
            feed.define(symbol, priceScale, d.tickSize(), d.lotSize(), d.status());
            bySymbol.put(symbol, feed);
        }
        else
        {
            feed.define(existing, priceScale, d.tickSize(), d.lotSize(), d.status());
        }
        if (feed.statusVersion() != statusBefore)
        {
            statusChanges++;
        }
    }

    private void onSnapshot(final BookSnapshotDecoder d)
    {
        final InstrumentFeed feed = feed(d.instrumentId());
        final long lastTrade = d.lastTradePrice();
        final boolean apply = feed.beginSnapshot(d.mdSequence(),
            lastTrade == BookSnapshotDecoder.lastTradePriceNullValue() ? InstrumentFeed.NO_PRICE : lastTrade);
        final BookSnapshotDecoder.LevelsDecoder levels = d.levels();
        if (!apply)
        {
            return;
        }
        while (levels.hasNext())
        {
            levels.next();
            final int side = sideIndex(levels.sideRaw());
            if (side >= 0)
            {
                feed.snapshotLevel(side, levels.price(), levels.quantity(), levels.orderCount());
            }
        }
        feed.endSnapshot();
        changed = true;
    }

    /**
     * A book rebuilt by a market-data client from the recovery service's snapshot: it replaces the instrument's book
     * unless the cache already holds that sequence (the other node's feed), and a jump over unseen messages counts as
     * a gap ({@link InstrumentFeed#gaps()}).
     *
     * @param instrumentId the instrument.
     * @param mdSequence   the sequence the book is at.
     * @param book         the rebuilt book, read during the call.
     */
    public void onRecovered(final int instrumentId, final long mdSequence, final MarketDataBook book)
    {
        final InstrumentFeed feed = feed(instrumentId);
        if (!feed.beginReseed(mdSequence))
        {
            return;
        }
        for (int side = LevelBook.BID; side <= LevelBook.ASK; side++)
        {
            final boolean buy = side == LevelBook.BID;
            for (int i = 0, n = book.levelCount(buy); i < n; i++)
            {
                feed.snapshotLevel(side, book.levelPrice(buy, i), book.levelQuantity(buy, i),
                    book.levelOrderCount(buy, i));
            }
        }
        feed.endReseed();
        changed = true;
    }

    private InstrumentFeed feed(final int instrumentId)
    {
        InstrumentFeed feed = byId.get(instrumentId);
        if (feed == null)
        {
            feed = new InstrumentFeed(instrumentId);
            byId.put(instrumentId, feed);
            instruments.add(feed);
        }
        return feed;
    }

    private static int sideIndex(final short sideRaw)
    {
        return sideRaw == 1 ? LevelBook.BID : sideRaw == 2 ? LevelBook.ASK : -1;
    }

    /**
     * @param instrumentId an instrument.
     * @return its feed, or null if nothing was seen of it.
     */
    public InstrumentFeed byId(final int instrumentId)
    {
        return byId.get(instrumentId);
    }

    /**
     * @param symbol a symbol.
     * @return the defined instrument with it, or null.
     */
    public InstrumentFeed bySymbol(final CharSequence symbol)
    {
        return bySymbol.get(symbol.toString());
    }

    /**
     * @return every instrument seen, in order of first sight.
     */
    public List<InstrumentFeed> instruments()
    {
        return instruments;
    }

    /**
     * @return how many times an instrument's trading status changed (its {@link InstrumentFeed#statusVersion()}):
     *         a reader that holds the last value it saw knows whether to look at the instruments again.
     */
    public long statusChanges()
    {
        return statusChanges;
    }

    /**
     * @return whether a book or the trades changed since the last call (which clears it).
     */
    public boolean takeChanged()
    {
        final boolean result = changed;
        changed = false;
        return result;
    }
}
