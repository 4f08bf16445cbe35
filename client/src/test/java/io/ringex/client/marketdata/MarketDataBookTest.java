package io.ringex.client.marketdata;

import io.ringex.protocol.codecs.BookLevelUpdateDecoder;
import io.ringex.protocol.codecs.BookLevelUpdateEncoder;
import io.ringex.protocol.codecs.BookOrdersDecoder;
import io.ringex.protocol.codecs.BookOrdersEncoder;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.OrderAction;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TradingStatus;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link MarketDataBook#apply} and {@link MarketDataBook#add(BookOrdersDecoder)}: the one place a BookLevelUpdate or
 * a snapshot part changes a book, for the client and for the engine's recovery service alike.
 */
class MarketDataBookTest
{
    private static final int INSTRUMENT = 7;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
    private final BookLevelUpdateEncoder encoder = new BookLevelUpdateEncoder();
    private final BookLevelUpdateDecoder decoder = new BookLevelUpdateDecoder();
    private final MarketDataBook book = new MarketDataBook(INSTRUMENT);
    private long mdSequence;

    private BookLevelUpdateDecoder update(
        final OrderAction action,
        final long orderId,
        final Side side,
        final long price,
        final long orderQuantity,
        final long levelQuantity,
        final int levelOrders)
    {
        encoder.wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder()).instrumentId(INSTRUMENT)
            .mdSequence(++mdSequence).side(side).price(price).quantity(levelQuantity).orderCount(levelOrders)
            .timestampNs(1_000L).orderId(orderId).orderAction(action).orderQuantity(orderQuantity);
        return decoder.wrapAndApplyHeader(buffer, 0, new MessageHeaderDecoder());
    }

    @Test
    void eachOrderActionChangesTheBookAsTheEngineSaysItDid()
    {
        assertTrue(book.apply(update(OrderAction.ADD, 1, Side.BUY, 100, 5, 5, 1)));
        assertTrue(book.apply(update(OrderAction.ADD, 2, Side.BUY, 100, 3, 8, 2)));
        assertTrue(book.apply(update(OrderAction.ADD, 3, Side.SELL, 101, 4, 4, 1)));
        assertEquals(3, book.orderCount());
        assertEquals(8, book.levelQuantity(true, 0));

        assertTrue(book.apply(update(OrderAction.MODIFY, 1, Side.BUY, 100, 2, 5, 2)), "a reduction");
        assertEquals(2, book.orderQuantity(1));
        assertTrue(book.apply(update(OrderAction.EXECUTE, 2, Side.BUY, 100, 1, 3, 2)), "a partial fill");
        assertEquals(1, book.orderQuantity(2));
        assertTrue(book.apply(update(OrderAction.EXECUTE, 3, Side.SELL, 101, 0, 0, 0)), "a fill takes it out");
        assertEquals(0, book.levelCount(false));
        assertTrue(book.apply(update(OrderAction.DELETE, 1, Side.BUY, 100, 0, 1, 1)));
        assertTrue(book.apply(update(OrderAction.DELETE, 2, Side.BUY, 100, 0, 0, 0)), "the level goes with its last");
        assertEquals(0, book.levelCount(true));
        assertEquals(0, book.orderCount());
    }

    @Test
    void anUpdateTheBookCannotFollowSaysSo()
    {
        assertTrue(book.apply(update(OrderAction.ADD, 1, Side.BUY, 100, 5, 5, 1)));

        assertFalse(book.apply(update(OrderAction.ADD, 1, Side.BUY, 100, 5, 10, 2)), "a duplicate order");
        assertFalse(book.apply(update(OrderAction.MODIFY, 9, Side.BUY, 100, 2, 5, 1)), "an unknown order");
        assertFalse(book.apply(update(OrderAction.DELETE, 9, Side.BUY, 100, 0, 5, 1)), "an unknown order");
        assertFalse(book.apply(update(OrderAction.NONE, 0, Side.BUY, 100, 0, 7, 2)), "a level total alone");
        assertEquals(5, book.levelQuantity(true, 0), "none of them changed the book");
    }

    @Test
    void aLevelTotalThatDisagreesIsCaughtThoughTheOrderApplied()
    {
        assertTrue(book.apply(update(OrderAction.ADD, 1, Side.BUY, 100, 5, 5, 1)));

        assertFalse(book.apply(update(OrderAction.ADD, 2, Side.BUY, 100, 3, 9, 2)), "the engine's level holds more");
        assertEquals(8, book.levelQuantity(true, 0), "the order applied all the same");
        assertFalse(book.apply(update(OrderAction.ADD, 3, Side.BUY, 100, 1, 9, 2)), "the engine's level has fewer");
        assertFalse(book.apply(update(OrderAction.DELETE, 1, Side.BUY, 100, 0, 0, 0)),
            "the engine's level is gone, the book's is not");
        assertTrue(book.apply(update(OrderAction.ADD, 4, Side.SELL, 105, 1, 1, 1)),
            "the level checked is the update's own side and price");
    }

    @Test
    void aSnapshotPartsOrdersJoinTheirLevelsInTheirOrder()
    {
        final BookOrdersEncoder.OrdersEncoder orders = new BookOrdersEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder()).requestId(0).instrumentId(INSTRUMENT)
            .mdSequence(42).status(TradingStatus.OPEN).lastPart(BooleanType.TRUE).ordersCount(3);
        orders.next().orderId(11).side(Side.BUY).price(100).quantity(5);
        orders.next().orderId(12).side(Side.BUY).price(100).quantity(3);
        orders.next().orderId(13).side(Side.SELL).price(102).quantity(4);
        book.add(new BookOrdersDecoder().wrapAndApplyHeader(buffer, 0, new MessageHeaderDecoder()));

        assertEquals(3, book.orderCount());
        assertEquals(1, book.levelCount(true));
        assertEquals(8, book.levelQuantity(true, 0));
        assertEquals(2, book.levelOrderCount(true, 0));
        assertEquals(4, book.levelQuantity(false, 0));
        final List<Long> queue = new ArrayList<>();
        book.forEachOrder(true, 0, (orderId, buy, price, quantity) -> queue.add(orderId));
        assertEquals(List.of(11L, 12L), queue, "time priority as the part lists it");
        assertTrue(book.apply(update(OrderAction.EXECUTE, 11, Side.BUY, 100, 0, 3, 1)), "live updates follow on");
    }
}
