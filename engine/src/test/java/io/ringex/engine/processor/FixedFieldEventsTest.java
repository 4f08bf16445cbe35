package io.ringex.engine.processor;

import io.ringex.engine.book.Instrument;
import io.ringex.engine.book.Order;
import io.ringex.engine.book.OrderBook;
import io.ringex.engine.risk.PnlMath;
import io.ringex.protocol.codecs.BestBidOfferEncoder;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.BookLevelUpdateEncoder;
import io.ringex.protocol.codecs.CancelReason;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.ExecutionReportEncoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.OrderStatus;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TradeEncoder;
import org.agrona.ExpandableArrayBuffer;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/**
 * The events {@link EventEncoder} writes field by field ({@link FixedFieldWriter}) must be byte for byte what the
 * generated SBE encoders write for the same values: random orders and reasons for ExecutionReport, random resting
 * orders for BookLevelUpdate, random values for Trade, random books for BestBidOffer. Any offset, width or enum
 * encoding that drifts from the schema fails here.
 */
final class FixedFieldEventsTest
{
    private final CapturingEventSink sink = new CapturingEventSink();
    private final EventEncoder events = new EventEncoder(sink, new VenueStatistics());
    private final ExpandableArrayBuffer expected = new ExpandableArrayBuffer(256);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();

    @Test
    void executionReportsAreWhatTheSbeEncoderWrites()
    {
        final SplittableRandom random = new SplittableRandom(9);
        final ExecType[] execTypes = values(ExecType.values());
        final OrderStatus[] statuses = values(OrderStatus.values());
        final RejectReason[] rejects = values(RejectReason.values());
        final CancelReason[] cancels = values(CancelReason.values());
        for (int i = 0; i < 2_000; i++)
        {
            final Order order = new Order();
            final byte type = (byte)(1 + random.nextInt(4));
            final byte tif = (byte)(1 + random.nextInt(5));
            order.init(random.nextLong(), random.nextLong(), random.nextLong(), random.nextInt(), random.nextBoolean(),
                type, tif, false, Order.STP_CANCEL_NEWEST, 1 + random.nextInt(1_000_000), 1 + random.nextInt(1000));
            order.terms(random.nextBoolean() ? 0 : random.nextLong(), random.nextBoolean() ? 0 : random.nextLong(),
                random.nextLong());
            final boolean marketLike = type == Order.TYPE_MARKET || type == Order.TYPE_STOP;
            order.fill(random.nextInt((int)order.quantity() + 1), random.nextLong(1L << 40));
            final byte[] clientId = randomBytes(random);
            final byte[] origId = randomBytes(random);
            final ExecType execType = execTypes[random.nextInt(execTypes.length)];
            final OrderStatus status = statuses[random.nextInt(statuses.length)];
            final RejectReason reject = rejects[random.nextInt(rejects.length)];
            final CancelReason cancel = cancels[random.nextInt(cancels.length)];
            final long orderId = random.nextLong();
            final long lastPrice = random.nextLong();
            final long lastQuantity = random.nextLong();
            final long tradeId = random.nextLong();
            final boolean done = random.nextBoolean();
            final int scale = random.nextInt(9);
            events.epoch(random.nextLong());
            events.beginCommand(random.nextLong(), random.nextLong());

            sink.clear();
            events.executionReport(order, scale, orderId, clientId, origId, execType, status, lastPrice, lastQuantity,
                tradeId, reject, cancel, done);

            new ExecutionReportEncoder().wrapAndApplyHeader(expected, 0, header)
                .epoch(events.epoch())
                .sessionId(order.sessionId())
                .accountId(order.accountId())
                .instrumentId(order.instrumentId())
                .orderId(orderId)
                .putClientOrderId(clientId, 0)
                .putOrigClientOrderId(origId, 0)
                .execType(execType)
                .orderStatus(status)
                .side(order.isBuy() ? Side.BUY : Side.SELL)
                .orderType(OrderType.get(type))
                .timeInForce(EventEncoder.timeInForce(tif))
                .price(marketLike ? 0 : order.price())
                .quantity(order.quantity())
                .leavesQuantity(done ? 0 : order.leavesQuantity())
                .cumulativeQuantity(order.filledQuantity())
                .lastPrice(lastPrice)
                .lastQuantity(lastQuantity)
                .averagePrice(PnlMath.averagePrice(order.cumulativeNotional(), order.filledQuantity(), scale))
                .tradeId(tradeId)
                .rejectReason(reject)
                .cancelReason(cancel)
                .transactTimeNs(events.timestampNs())
                .commandSequence(events.sequence())
                .stopPrice(order.stopPrice())
                .displayQuantity(order.displayQuantity());
            assertArrayEquals(bytes(MessageHeaderEncoder.ENCODED_LENGTH + ExecutionReportEncoder.BLOCK_LENGTH),
                sink.eventBytes(0), "execution report " + i);
        }
    }

    @Test
    void levelUpdatesAreWhatTheSbeEncoderWrites()
    {
        final SplittableRandom random = new SplittableRandom(4);
        final OrderBook book = new OrderBook(new Instrument(42, new byte[Instrument.SYMBOL_LENGTH], 2, 5, 1, 10_000,
            (byte)PriceBandType.TICKS.value(), 100));
        for (int i = 0; i < 2_000; i++)
        {
            final Order order = new Order();
            final boolean buy = random.nextBoolean();
            final long price = 10_000 + 5 * (buy ? -random.nextInt(100) : 1 + random.nextInt(100));
            order.init(i + 1, 1, 1, 42, buy, Order.TYPE_LIMIT, Order.TIF_GTC, false, Order.STP_CANCEL_NEWEST, price,
                1 + random.nextInt(1_000));
            book.rest(order);
            final int index = book.levels().index(price);
            events.beginCommand(random.nextLong(), random.nextLong());

            sink.clear();
            events.levelUpdate(book, buy, index);

            new BookLevelUpdateEncoder().wrapAndApplyHeader(expected, 0, header)
                .instrumentId(42)
                .mdSequence(book.mdSequence())
                .side(buy ? Side.BUY : Side.SELL)
                .price(price)
                .quantity(book.levels().quantity(index, buy))
                .orderCount(book.levels().orderCount(index, buy))
                .timestampNs(events.timestampNs());
            assertArrayEquals(bytes(MessageHeaderEncoder.ENCODED_LENGTH + BookLevelUpdateEncoder.BLOCK_LENGTH),
                sink.eventBytes(0), "level update " + i);
        }
    }

    @Test
    void tradesAreWhatTheSbeEncoderWrites()
    {
        final SplittableRandom random = new SplittableRandom(6);
        final OrderBook book = new OrderBook(new Instrument(43, new byte[Instrument.SYMBOL_LENGTH], 2, 5, 1, 10_000,
            (byte)PriceBandType.TICKS.value(), 100));
        for (int i = 0; i < 2_000; i++)
        {
            final long tradeId = random.nextLong();
            final long price = random.nextLong();
            final long quantity = random.nextLong();
            final boolean aggressorBuy = random.nextBoolean();
            final long buyOrderId = random.nextLong();
            final long sellOrderId = random.nextLong();
            final long buyAccountId = random.nextLong();
            final long sellAccountId = random.nextLong();
            events.beginCommand(random.nextLong(), random.nextLong());

            sink.clear();
            final boolean auction = random.nextBoolean();
            events.trade(book, tradeId, price, quantity, aggressorBuy, buyOrderId, sellOrderId, buyAccountId,
                sellAccountId, auction);

            new TradeEncoder().wrapAndApplyHeader(expected, 0, header)
                .instrumentId(43)
                .mdSequence(book.mdSequence())
                .tradeId(tradeId)
                .price(price)
                .quantity(quantity)
                .aggressorSide(aggressorBuy ? Side.BUY : Side.SELL)
                .buyOrderId(buyOrderId)
                .sellOrderId(sellOrderId)
                .buyAccountId(buyAccountId)
                .sellAccountId(sellAccountId)
                .timestampNs(events.timestampNs())
                .auction(auction ? BooleanType.TRUE : BooleanType.FALSE);
            assertArrayEquals(bytes(MessageHeaderEncoder.ENCODED_LENGTH + TradeEncoder.BLOCK_LENGTH),
                sink.eventBytes(0), "trade " + i);
        }
    }

    @Test
    void bestBidOffersAreWhatTheSbeEncoderWrites()
    {
        final SplittableRandom random = new SplittableRandom(8);
        final OrderBook book = new OrderBook(new Instrument(44, new byte[Instrument.SYMBOL_LENGTH], 2, 5, 1, 10_000,
            (byte)PriceBandType.TICKS.value(), 100));
        final java.util.List<Order> resting = new java.util.ArrayList<>();
        for (int i = 0; i < 2_000; i++)
        {
            if (!resting.isEmpty() && random.nextInt(3) == 0)
            {
                book.remove(resting.remove(random.nextInt(resting.size())));
            }
            else
            {
                final Order order = new Order();
                final boolean buy = random.nextBoolean();
                final long price = 10_000 + 5 * (buy ? -random.nextInt(100) : 1 + random.nextInt(100));
                order.init(i + 1, 1, 1, 44, buy, Order.TYPE_LIMIT, Order.TIF_GTC, false, Order.STP_CANCEL_NEWEST,
                    price, 1 + random.nextInt(1_000));
                book.rest(order);
                resting.add(order);
            }
            events.beginCommand(random.nextLong(), random.nextLong());

            sink.clear();
            events.bestBidOffer(book);

            new BestBidOfferEncoder().wrapAndApplyHeader(expected, 0, header)
                .instrumentId(44)
                .mdSequence(book.mdSequence())
                .bidPrice(book.bestBidPrice() == 0 ? BestBidOfferEncoder.bidPriceNullValue() : book.bestBidPrice())
                .bidQuantity(book.bestBidQuantity())
                .askPrice(book.bestAskPrice() == 0 ? BestBidOfferEncoder.askPriceNullValue() : book.bestAskPrice())
                .askQuantity(book.bestAskQuantity())
                .timestampNs(events.timestampNs());
            assertArrayEquals(bytes(MessageHeaderEncoder.ENCODED_LENGTH + BestBidOfferEncoder.BLOCK_LENGTH),
                sink.eventBytes(0), "best bid/offer " + i);
        }
    }

    private byte[] bytes(final int length)
    {
        final byte[] out = new byte[length];
        expected.getBytes(0, out);
        return out;
    }

    private static byte[] randomBytes(final SplittableRandom random)
    {
        final byte[] bytes = new byte[Order.CLIENT_ORDER_ID_LENGTH];
        for (int i = 0; i < bytes.length; i++)
        {
            bytes[i] = (byte)random.nextInt(256);
        }
        return bytes;
    }

    /** The enum's constants without NULL_VAL, which an encoder never writes. */
    private static <E extends Enum<E>> E[] values(final E[] all)
    {
        return Arrays.stream(all).filter(e -> !e.name().equals("NULL_VAL")).toArray(
            n -> Arrays.copyOf(all, n));
    }
}
