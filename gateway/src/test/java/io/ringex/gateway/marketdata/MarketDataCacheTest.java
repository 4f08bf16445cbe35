package io.ringex.gateway.marketdata;

import io.ringex.client.marketdata.MarketDataBook;
import io.ringex.protocol.codecs.BookLevelUpdateEncoder;
import io.ringex.protocol.codecs.BookSnapshotEncoder;
import io.ringex.protocol.codecs.InstrumentDefinitionEncoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TradeEncoder;
import io.ringex.protocol.codecs.TradingStatus;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gateway's copy of the market from SBE market-data messages: definitions, the book in sequence, duplicates
 * ignored, a gap waiting for the next snapshot, trades and their statistics; and {@link LevelBook} against a sorted
 * map.
 */
class MarketDataCacheTest
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[4096]);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final MarketDataCache cache = new MarketDataCache();

    private void definition(final int id, final String symbol)
    {
        new InstrumentDefinitionEncoder().wrapAndApplyHeader(buffer, 0, header).instrumentId(id).symbol(symbol)
            .priceScale((short)2).tickSize(1).lotSize(1).referencePrice(10000).status(TradingStatus.OPEN);
        cache.onMessage(buffer, 0);
    }

    private void level(final long sequence, final Side side, final long price, final long quantity)
    {
        new BookLevelUpdateEncoder().wrapAndApplyHeader(buffer, 0, header).instrumentId(1).mdSequence(sequence)
            .side(side).price(price).quantity(quantity).orderCount(quantity == 0 ? 0 : 1);
        cache.onMessage(buffer, 0);
    }

    private void trade(final long sequence, final long price, final long quantity)
    {
        new TradeEncoder().wrapAndApplyHeader(buffer, 0, header).instrumentId(1).mdSequence(sequence)
            .tradeId(sequence).price(price).quantity(quantity).aggressorSide(Side.BUY).timestampNs(1_000_000_000L);
        cache.onMessage(buffer, 0);
    }

    private void snapshot(final long sequence, final long... bidPriceQuantity)
    {
        final BookSnapshotEncoder.LevelsEncoder levels = new BookSnapshotEncoder()
            .wrapAndApplyHeader(buffer, 0, header).instrumentId(1).mdSequence(sequence).status(TradingStatus.OPEN)
            .lastTradePrice(BookSnapshotEncoder.lastTradePriceNullValue()).levelsCount(bidPriceQuantity.length / 2);
        for (int i = 0; i < bidPriceQuantity.length; i += 2)
        {
            levels.next().side(Side.BUY).price(bidPriceQuantity[i]).quantity(bidPriceQuantity[i + 1]).orderCount(1);
        }
        cache.onMessage(buffer, 0);
    }

    @Test
    void followsTheSequenceIgnoresDuplicatesAndWaitsForASnapshotAfterAGap()
    {
        definition(1, "BTC-USD");
        final InstrumentFeed feed = cache.bySymbol("BTC-USD");
        assertSame(feed, cache.byId(1));
        assertEquals(2, feed.priceScale());

        level(1, Side.BUY, 9900, 5);
        level(2, Side.SELL, 10100, 3);
        level(2, Side.SELL, 10100, 99); // the other node's copy
        assertTrue(feed.isSynced());
        assertEquals(3, feed.book().quantityAt(LevelBook.ASK, 10100));

        level(4, Side.BUY, 9800, 1); // 3 was lost
        assertFalse(feed.isSynced());
        assertEquals(0, feed.book().quantityAt(LevelBook.BID, 9800), "no updates on a book with a hole");

        snapshot(5, 9900, 5, 9800, 1, 9700, 2);
        assertTrue(feed.isSynced());
        assertEquals("bids 5@9900 1@9800 2@9700 | asks", feed.book().toString());
        level(6, Side.BUY, 9800, 0);
        assertEquals("bids 5@9900 2@9700 | asks", feed.book().toString());
        snapshot(5, 1, 1); // older than the book: ignored
        assertEquals("bids 5@9900 2@9700 | asks", feed.book().toString());
    }

    @Test
    void aBookRebuiltByTheClientReplacesTheCachesAndAJumpCountsAsAGap()
    {
        definition(1, "BTC-USD");
        final InstrumentFeed feed = cache.byId(1);
        final MarketDataBook rebuilt = new MarketDataBook(1);
        rebuilt.add(11, true, 9900, 5);
        rebuilt.add(12, true, 9900, 2);
        rebuilt.add(13, false, 10100, 4);
        cache.onRecovered(1, 7, rebuilt);
        assertTrue(feed.isSynced());
        assertEquals("bids 7@9900 | asks 4@10100", feed.book().toString());
        assertEquals(0, feed.gaps(), "the first book of an instrument jumps over nothing seen");

        level(8, Side.BUY, 9800, 1);
        cache.onRecovered(1, 8, rebuilt); // the other node's client got there later: the cache holds 8 already
        assertEquals("bids 7@9900 1@9800 | asks 4@10100", feed.book().toString());
        assertEquals(0, feed.gaps());

        cache.onRecovered(1, 20, rebuilt); // 9..20 never seen here
        assertEquals("bids 7@9900 | asks 4@10100", feed.book().toString());
        assertEquals(1, feed.gaps());
        level(21, Side.SELL, 10100, 0);
        assertEquals("bids 7@9900 | asks", feed.book().toString());
    }

    @Test
    void aStatusChangeMovesTheStatusVersionAndARepeatDoesNot()
    {
        definition(1, "BTC-USD");
        final InstrumentFeed feed = cache.byId(1);
        final long open = feed.statusVersion();
        definition(1, "BTC-USD"); // the periodic refresh
        assertEquals(open, feed.statusVersion());
        new InstrumentDefinitionEncoder().wrapAndApplyHeader(buffer, 0, header).instrumentId(1).symbol("BTC-USD")
            .priceScale((short)2).tickSize(1).lotSize(1).referencePrice(10000).status(TradingStatus.HALTED);
        cache.onMessage(buffer, 0);
        assertEquals(TradingStatus.HALTED, feed.status());
        assertEquals(open + 1, feed.statusVersion());
    }

    @Test
    void tradesFeedTheRingAndTheStatisticsOnce()
    {
        definition(1, "BTC-USD");
        final InstrumentFeed feed = cache.byId(1);
        trade(1, 10000, 2);
        trade(2, 10200, 1);
        trade(2, 10200, 1); // duplicate
        trade(3, 9900, 3);
        assertEquals(3, feed.tradeCount());
        assertEquals(10000, feed.openPrice());
        assertEquals(10200, feed.highPrice());
        assertEquals(9900, feed.lowPrice());
        assertEquals(9900, feed.lastPrice());
        assertEquals(6, feed.volume());
        assertEquals(Math.round((10000 * 2 + 10200 + 9900 * 3) / 6.0), feed.vwapPrice());
        assertEquals(10200, feed.tradePrice(1));
    }

    @Test
    void levelBookMatchesASortedMap()
    {
        final Random random = new Random(22);
        final LevelBook book = new LevelBook();
        final TreeMap<Long, Long> bids = new TreeMap<>();
        final TreeMap<Long, Long> asks = new TreeMap<>();
        for (int i = 0; i < 10_000; i++)
        {
            final int side = random.nextInt(2);
            final long price = 100 + random.nextInt(60);
            final long quantity = random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(100);
            book.set(side, price, quantity, 1);
            final TreeMap<Long, Long> model = side == LevelBook.BID ? bids : asks;
            if (quantity == 0)
            {
                model.remove(price);
            }
            else
            {
                model.put(price, quantity);
            }
        }
        assertEquals(bids.size(), book.levels(LevelBook.BID));
        int i = 0;
        for (final var level : bids.descendingMap().entrySet())
        {
            assertEquals(level.getKey(), book.price(LevelBook.BID, i));
            assertEquals(level.getValue(), book.quantity(LevelBook.BID, i++));
        }
        i = 0;
        for (final var level : asks.entrySet())
        {
            assertEquals(level.getKey(), book.price(LevelBook.ASK, i));
            assertEquals(level.getValue(), book.quantity(LevelBook.ASK, i++));
        }
        final LevelBook top = new LevelBook();
        top.copyTop(book, 3);
        assertEquals(3, top.levels(LevelBook.BID));
        assertEquals(book.price(LevelBook.ASK, 2), top.price(LevelBook.ASK, 2));
    }
}
