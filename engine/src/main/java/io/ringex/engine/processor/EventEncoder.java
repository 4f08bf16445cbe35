package io.ringex.engine.processor;

import io.ringex.engine.book.Instrument;
import io.ringex.engine.book.Order;
import io.ringex.engine.book.OrderBook;
import io.ringex.engine.book.PriceLevels;
import io.ringex.engine.risk.PnlMath;
import io.ringex.protocol.codecs.AdminResponseEncoder;
import io.ringex.protocol.codecs.AdminStatus;
import io.ringex.protocol.codecs.BestBidOfferEncoder;
import io.ringex.protocol.codecs.BookLevelUpdateEncoder;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.BusinessRejectEncoder;
import io.ringex.protocol.codecs.CancelAllAfterReportEncoder;
import io.ringex.protocol.codecs.CancelAllAfterStatus;
import io.ringex.protocol.codecs.CancelReason;
import io.ringex.protocol.codecs.CancelRejectEncoder;
import io.ringex.protocol.codecs.CancelRejectResponseTo;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.ExecutionReportEncoder;
import io.ringex.protocol.codecs.GatewayBarrierReachedEncoder;
import io.ringex.protocol.codecs.LogonsUnlockedEncoder;
import io.ringex.protocol.codecs.MassCancelReportEncoder;
import io.ringex.protocol.codecs.MassCancelScope;
import io.ringex.protocol.codecs.MarketMakerProtectionEventEncoder;
import io.ringex.protocol.codecs.MassQuoteAckEncoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.OrderAction;
import io.ringex.protocol.codecs.OrderStatus;
import io.ringex.protocol.codecs.OrderStatusReportEncoder;
import io.ringex.protocol.codecs.MmpEventType;
import io.ringex.protocol.codecs.MmpLimit;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.QuoteCancelReportEncoder;
import io.ringex.protocol.codecs.QuoteEntryStatus;
import io.ringex.protocol.codecs.QuoteStatus;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import io.ringex.protocol.codecs.TradeEncoder;
import io.ringex.protocol.codecs.TradingScheduleDefinitionEncoder;
import io.ringex.protocol.codecs.UserDefinitionEncoder;
import io.ringex.protocol.codecs.UserDirectoryEndEncoder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import static io.ringex.engine.processor.FixedFieldWriter.begin;
import static io.ringex.engine.processor.FixedFieldWriter.putByte;
import static io.ringex.engine.processor.FixedFieldWriter.putId20;
import static io.ringex.engine.processor.FixedFieldWriter.putInt;
import static io.ringex.engine.processor.FixedFieldWriter.putLong;
import static io.ringex.engine.processor.FixedFieldWriter.putShort;

/**
 * Writes the processor's events into the {@link EventSink}: the frequent ones (ExecutionReport, BookLevelUpdate,
 * about three per command, and Trade and BestBidOffer) field by field at the schema's offsets with one bounds check
 * each ({@link FixedFieldWriter}), the others with preallocated SBE encoders: cancel rejects, book snapshots,
 * instrument definitions, admin responses and business rejects. Every event carries the command's sequence and
 * timestamp where the schema has room for them, and the current epoch.
 * <p>
 * Threading: single business-logic thread.
 */
public final class EventEncoder
{
    static final byte[] NO_CLIENT_ORDER_ID = new byte[Order.CLIENT_ORDER_ID_LENGTH];
    private static final byte[] INTERNAL_ERROR_TEXT = "internal error".getBytes(
        java.nio.charset.StandardCharsets.US_ASCII);
    private static final int HEADER = MessageHeaderEncoder.ENCODED_LENGTH;
    private static final UnsafeBuffer NO_COMMAND = new UnsafeBuffer(new byte[0]);

    private final EventSink sink;
    private DirectBuffer commandBuffer;
    private int commandOffset;
    private int commandLength;
    private final VenueStatistics statistics;
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final CancelRejectEncoder cancelReject = new CancelRejectEncoder();
    private final BookEvents bookEvents;
    private final AdminResponseEncoder adminResponse = new AdminResponseEncoder();
    private final BusinessRejectEncoder businessReject = new BusinessRejectEncoder();
    private final LogonsUnlockedEncoder logonsUnlocked = new LogonsUnlockedEncoder();
    private final UserDefinitionEncoder userDefinition = new UserDefinitionEncoder();
    private final UserDirectoryEndEncoder userDirectoryEnd = new UserDirectoryEndEncoder();
    private final TradingScheduleDefinitionEncoder tradingSchedule = new TradingScheduleDefinitionEncoder();
    private final GatewayBarrierReachedEncoder barrierReached = new GatewayBarrierReachedEncoder();
    private final OrderStatusReportEncoder orderStatusReport = new OrderStatusReportEncoder();
    private final MassCancelReportEncoder massCancelReport = new MassCancelReportEncoder();
    private final MassQuoteAckEncoder massQuoteAck = new MassQuoteAckEncoder();
    private final QuoteCancelReportEncoder quoteCancelReport = new QuoteCancelReportEncoder();
    private final MarketMakerProtectionEventEncoder mmpEvent = new MarketMakerProtectionEventEncoder();
    private final CancelAllAfterReportEncoder cancelAllAfterReport = new CancelAllAfterReportEncoder();

    private OrderBook[] touchedBooks = new OrderBook[16];
    private int touchedCount;
    private long epoch;
    private long sequence;
    private long timestampNs;

    /**
     * @param sink       where events go.
     * @param statistics counted as execution reports and trades are written.
     */
    public EventEncoder(final EventSink sink, final VenueStatistics statistics)
    {
        this.sink = sink;
        this.statistics = statistics;
        this.bookEvents = new BookEvents(sink);
    }

    /** @return the sink. */
    public EventSink sink()
    {
        return sink;
    }

    /**
     * Set the context every following event carries.
     *
     * @param sequence    input sequence of the command.
     * @param timestampNs its timestamp.
     */
    public void beginCommand(final long sequence, final long timestampNs)
    {
        this.commandBuffer = null;
        this.sequence = sequence;
        this.timestampNs = timestampNs;
    }

    /**
     * The command being processed, echoed in its AdminResponse (the audit trail: what was asked, by whom, why).
     *
     * @param buffer holding it.
     * @param offset of its header.
     * @param length its length.
     */
    public void command(final DirectBuffer buffer, final int offset, final int length)
    {
        this.commandBuffer = buffer;
        this.commandOffset = offset;
        this.commandLength = length;
    }

    /**
     * @param epoch epoch events carry from now on.
     */
    public void epoch(final long epoch)
    {
        this.epoch = epoch;
    }

    /** @return the current epoch. */
    public long epoch()
    {
        return epoch;
    }

    /** @return the current command's timestamp. */
    public long timestampNs()
    {
        return timestampNs;
    }

    /** @return the current command's sequence. */
    public long sequence()
    {
        return sequence;
    }

    /**
     * Write an execution report about an order.
     *
     * @param order             the order.
     * @param priceScale        its instrument's price scale (for the average price).
     * @param orderId           order id to report (0 for a rejected new order).
     * @param clientOrderId     20 bytes: the id of the request being answered.
     * @param origClientOrderId 20 bytes: the order's previous id, or zeros.
     * @param execType          what happened.
     * @param orderStatus       the order's status after it.
     * @param lastPrice         fill price or 0.
     * @param lastQuantity      fill quantity or 0.
     * @param tradeId           trade id or 0.
     * @param rejectReason      reject reason or NONE.
     * @param cancelReason      cancel reason or NONE.
     * @param done              whether the order is done (leaves reported as 0).
     */
    public void executionReport(
        final Order order,
        final int priceScale,
        final long orderId,
        final byte[] clientOrderId,
        final byte[] origClientOrderId,
        final ExecType execType,
        final OrderStatus orderStatus,
        final long lastPrice,
        final long lastQuantity,
        final long tradeId,
        final RejectReason rejectReason,
        final CancelReason cancelReason,
        final boolean done)
    {
        // every field read before the first store: after an Unsafe store the JIT reloads fields it already read
        final long sessionId = order.sessionId();
        final long accountId = order.accountId();
        final int instrumentId = order.instrumentId();
        final boolean market = order.isMarketLike();
        final int orderType = order.orderType();
        final boolean buy = order.isBuy();
        final int tif = timeInForce(order.timeInForce()).value();
        final long price = market ? 0 : order.price();
        final long stopPrice = order.stopPrice();
        final long displayQuantity = order.displayQuantity();
        final long quantity = order.quantity();
        final long filled = order.filledQuantity();
        final long averagePrice = PnlMath.averagePrice(order.cumulativeNotional(), filled, priceScale);
        final long epoch = this.epoch;
        final long timestampNs = this.timestampNs;
        final long sequence = this.sequence;
        final int length = HEADER + ExecutionReportEncoder.BLOCK_LENGTH;
        final int offset = sink.claim(length);
        final MutableDirectBuffer buffer = sink.buffer(); // after the claim: a buffer may grow in it
        final byte[] array = buffer.byteArray();
        final long at = begin(buffer, offset, length, ExecutionReportEncoder.BLOCK_LENGTH,
            ExecutionReportEncoder.TEMPLATE_ID, ExecutionReportEncoder.SCHEMA_ID,
            ExecutionReportEncoder.SCHEMA_VERSION) + HEADER;
        putLong(array, at + ExecutionReportEncoder.epochEncodingOffset(), epoch);
        putLong(array, at + ExecutionReportEncoder.sessionIdEncodingOffset(), sessionId);
        putLong(array, at + ExecutionReportEncoder.accountIdEncodingOffset(), accountId);
        putInt(array, at + ExecutionReportEncoder.instrumentIdEncodingOffset(), instrumentId);
        putLong(array, at + ExecutionReportEncoder.orderIdEncodingOffset(), orderId);
        putId20(array, at + ExecutionReportEncoder.clientOrderIdEncodingOffset(), clientOrderId);
        putId20(array, at + ExecutionReportEncoder.origClientOrderIdEncodingOffset(), origClientOrderId);
        putByte(array, at + ExecutionReportEncoder.execTypeEncodingOffset(), execType.value());
        putByte(array, at + ExecutionReportEncoder.orderStatusEncodingOffset(), orderStatus.value());
        putByte(array, at + ExecutionReportEncoder.sideEncodingOffset(), buy ? Side.BUY.value() : Side.SELL.value());
        putByte(array, at + ExecutionReportEncoder.orderTypeEncodingOffset(), orderType);
        putByte(array, at + ExecutionReportEncoder.timeInForceEncodingOffset(), tif);
        putLong(array, at + ExecutionReportEncoder.priceEncodingOffset(), price);
        putLong(array, at + ExecutionReportEncoder.quantityEncodingOffset(), quantity);
        putLong(array, at + ExecutionReportEncoder.leavesQuantityEncodingOffset(), done ? 0 : quantity - filled);
        putLong(array, at + ExecutionReportEncoder.cumulativeQuantityEncodingOffset(), filled);
        putLong(array, at + ExecutionReportEncoder.lastPriceEncodingOffset(), lastPrice);
        putLong(array, at + ExecutionReportEncoder.lastQuantityEncodingOffset(), lastQuantity);
        putLong(array, at + ExecutionReportEncoder.averagePriceEncodingOffset(), averagePrice);
        putLong(array, at + ExecutionReportEncoder.tradeIdEncodingOffset(), tradeId);
        putShort(array, at + ExecutionReportEncoder.rejectReasonEncodingOffset(), rejectReason.value());
        putByte(array, at + ExecutionReportEncoder.cancelReasonEncodingOffset(), cancelReason.value());
        putLong(array, at + ExecutionReportEncoder.transactTimeNsEncodingOffset(), timestampNs);
        putLong(array, at + ExecutionReportEncoder.commandSequenceEncodingOffset(), sequence);
        putLong(array, at + ExecutionReportEncoder.stopPriceEncodingOffset(), stopPrice);
        putLong(array, at + ExecutionReportEncoder.displayQuantityEncodingOffset(), displayQuantity);
        sink.commit(HEADER + ExecutionReportEncoder.BLOCK_LENGTH);
        statistics.onExecutionReport(execType, rejectReason);
    }

    /**
     * Write a cancel reject.
     *
     * @param sessionId         session that asked.
     * @param accountId         account in the request.
     * @param instrumentId      instrument in the request.
     * @param orderId           order id in the request (or found).
     * @param clientOrderId     20 bytes of the request's id.
     * @param origClientOrderId 20 bytes of the order's id in the request.
     * @param replace           true if answering a replace.
     * @param reason            why.
     */
    public void cancelReject(
        final long sessionId,
        final long accountId,
        final int instrumentId,
        final long orderId,
        final byte[] clientOrderId,
        final byte[] origClientOrderId,
        final boolean replace,
        final RejectReason reason)
    {
        final int offset = sink.claim(HEADER + CancelRejectEncoder.BLOCK_LENGTH);
        cancelReject.wrapAndApplyHeader(sink.buffer(), offset, header)
            .epoch(epoch)
            .sessionId(sessionId)
            .accountId(accountId)
            .instrumentId(instrumentId)
            .orderId(orderId)
            .putClientOrderId(clientOrderId, 0)
            .putOrigClientOrderId(origClientOrderId, 0)
            .responseTo(replace ? CancelRejectResponseTo.REPLACE : CancelRejectResponseTo.CANCEL)
            .rejectReason(reason)
            .transactTimeNs(timestampNs)
            .commandSequence(sequence);
        sink.commit(HEADER + CancelRejectEncoder.BLOCK_LENGTH);
    }

    /**
     * Write the new total of a price level.
     *
     * @param book  the book.
     * @param buy   side of the level.
     * @param index the level's slot.
     */
    public void levelUpdate(final OrderBook book, final boolean buy, final int index)
    {
        levelUpdate(book, buy, index, 0L, OrderAction.NONE, 0L);
    }

    /**
     * Write the new total of a price level and the order-by-order change that moved it: the level's L2 total and the
     * one order's L3 event travel in one event, so the order-by-order feed costs the processor three stores, not an
     * event of its own.
     *
     * @param book          the book.
     * @param buy           side of the level.
     * @param index         the level's slot.
     * @param orderId       the order that changed.
     * @param action        what happened to it.
     * @param orderQuantity its quantity in the book afterwards (0 once it left).
     */
    public void levelUpdate(
        final OrderBook book,
        final boolean buy,
        final int index,
        final long orderId,
        final OrderAction action,
        final long orderQuantity)
    {
        final PriceLevels levels = book.levels();
        levelUpdate(book, buy, index, orderId, action, orderQuantity, levels.quantity(index, buy),
            levels.orderCount(index, buy));
    }

    /**
     * {@link #levelUpdate(OrderBook, boolean, int, long, OrderAction, long)} with the level's totals given: for the
     * first of two events that one change of the book makes (an iceberg's refresh is its old place's end, then its new
     * peak at the back), whose totals the book no longer holds.
     *
     * @param book          the book.
     * @param buy           side of the level.
     * @param index         the level's slot.
     * @param orderId       the order that changed.
     * @param action        what happened to it.
     * @param orderQuantity its quantity in the book afterwards (0 once it left).
     * @param quantity      the level's visible total after this event.
     * @param orderCount    the level's orders after this event.
     */
    public void levelUpdate(
        final OrderBook book,
        final boolean buy,
        final int index,
        final long orderId,
        final OrderAction action,
        final long orderQuantity,
        final long quantity,
        final int orderCount)
    {
        final PriceLevels levels = book.levels();
        touch(book);
        final int instrumentId = book.instrument().instrumentId();
        final long mdSequence = book.nextMdSequence();
        final long price = levels.price(index);
        final long timestampNs = this.timestampNs;
        final int length = HEADER + BookLevelUpdateEncoder.BLOCK_LENGTH;
        final int offset = sink.claim(length);
        final MutableDirectBuffer buffer = sink.buffer(); // after the claim: a buffer may grow in it
        final byte[] array = buffer.byteArray();
        final long at = begin(buffer, offset, length, BookLevelUpdateEncoder.BLOCK_LENGTH,
            BookLevelUpdateEncoder.TEMPLATE_ID, BookLevelUpdateEncoder.SCHEMA_ID,
            BookLevelUpdateEncoder.SCHEMA_VERSION) + HEADER;
        putInt(array, at + BookLevelUpdateEncoder.instrumentIdEncodingOffset(), instrumentId);
        putLong(array, at + BookLevelUpdateEncoder.mdSequenceEncodingOffset(), mdSequence);
        putByte(array, at + BookLevelUpdateEncoder.sideEncodingOffset(), buy ? Side.BUY.value() : Side.SELL.value());
        putLong(array, at + BookLevelUpdateEncoder.priceEncodingOffset(), price);
        putLong(array, at + BookLevelUpdateEncoder.quantityEncodingOffset(), quantity);
        putInt(array, at + BookLevelUpdateEncoder.orderCountEncodingOffset(), orderCount);
        putLong(array, at + BookLevelUpdateEncoder.timestampNsEncodingOffset(), timestampNs);
        putLong(array, at + BookLevelUpdateEncoder.orderIdEncodingOffset(), orderId);
        putByte(array, at + BookLevelUpdateEncoder.orderActionEncodingOffset(), action.value());
        putLong(array, at + BookLevelUpdateEncoder.orderQuantityEncodingOffset(), orderQuantity);
        sink.commit(HEADER + BookLevelUpdateEncoder.BLOCK_LENGTH);
    }

    /** @return books touched in this command so far, in first-touched order (see {@link #touchedBook}). */
    int touchedCount()
    {
        return touchedCount;
    }

    /**
     * @param index 0 .. {@link #touchedCount()} - 1.
     * @return a book touched in this command.
     */
    OrderBook touchedBook(final int index)
    {
        return touchedBooks[index];
    }

    /**
     * Publish a BestBidOffer for every book whose levels changed during the command and whose top of book differs
     * from the last one published, in the order the books were first touched.
     */
    public void publishBestBidOffers()
    {
        for (int i = 0; i < touchedCount; i++)
        {
            final OrderBook book = touchedBooks[i];
            touchedBooks[i] = null;
            book.touched(false);
            if (book.takeBboChange())
            {
                bestBidOffer(book);
            }
        }
        touchedCount = 0;
    }

    /**
     * Queue a book for the end-of-command checks (best bid and offer, auction indicative) without writing a level.
     *
     * @param book the book.
     */
    void touch(final OrderBook book)
    {
        if (!book.touched())
        {
            book.touched(true);
            if (touchedCount == touchedBooks.length)
            {
                touchedBooks = java.util.Arrays.copyOf(touchedBooks, touchedCount * 2);
            }
            touchedBooks[touchedCount++] = book;
        }
    }

    /**
     * Write a trade.
     *
     * @param book          the book.
     * @param tradeId       trade id.
     * @param price         price.
     * @param quantity      quantity.
     * @param aggressorBuy  true if the buyer was the aggressor.
     * @param buyOrderId    buy order id.
     * @param sellOrderId   sell order id.
     * @param buyAccountId  buying account.
     * @param sellAccountId selling account.
     * @param auction       true for a trade of an uncrossing.
     */
    public void trade(
        final OrderBook book,
        final long tradeId,
        final long price,
        final long quantity,
        final boolean aggressorBuy,
        final long buyOrderId,
        final long sellOrderId,
        final long buyAccountId,
        final long sellAccountId,
        final boolean auction)
    {
        final int instrumentId = book.instrument().instrumentId();
        final long mdSequence = book.nextMdSequence();
        final long timestampNs = this.timestampNs;
        final int length = HEADER + TradeEncoder.BLOCK_LENGTH;
        final int offset = sink.claim(length);
        final MutableDirectBuffer buffer = sink.buffer();
        final byte[] array = buffer.byteArray();
        final long at = begin(buffer, offset, length, TradeEncoder.BLOCK_LENGTH, TradeEncoder.TEMPLATE_ID,
            TradeEncoder.SCHEMA_ID, TradeEncoder.SCHEMA_VERSION) + HEADER;
        putInt(array, at + TradeEncoder.instrumentIdEncodingOffset(), instrumentId);
        putLong(array, at + TradeEncoder.mdSequenceEncodingOffset(), mdSequence);
        putLong(array, at + TradeEncoder.tradeIdEncodingOffset(), tradeId);
        putLong(array, at + TradeEncoder.priceEncodingOffset(), price);
        putLong(array, at + TradeEncoder.quantityEncodingOffset(), quantity);
        putByte(array, at + TradeEncoder.aggressorSideEncodingOffset(),
            aggressorBuy ? Side.BUY.value() : Side.SELL.value());
        putLong(array, at + TradeEncoder.buyOrderIdEncodingOffset(), buyOrderId);
        putLong(array, at + TradeEncoder.sellOrderIdEncodingOffset(), sellOrderId);
        putLong(array, at + TradeEncoder.buyAccountIdEncodingOffset(), buyAccountId);
        putLong(array, at + TradeEncoder.sellAccountIdEncodingOffset(), sellAccountId);
        putLong(array, at + TradeEncoder.timestampNsEncodingOffset(), timestampNs);
        putByte(array, at + TradeEncoder.auctionEncodingOffset(), auction ? 1 : 0);
        sink.commit(HEADER + TradeEncoder.BLOCK_LENGTH);
        statistics.onTrade();
    }

    /**
     * Write the best bid and offer of a book.
     *
     * @param book the book.
     */
    public void bestBidOffer(final OrderBook book)
    {
        final long bidPrice = book.bestBidPrice();
        final long bidQuantity = book.bestBidQuantity();
        final long askPrice = book.bestAskPrice();
        final long askQuantity = book.bestAskQuantity();
        final int instrumentId = book.instrument().instrumentId();
        final long mdSequence = book.nextMdSequence();
        final long timestampNs = this.timestampNs;
        final int length = HEADER + BestBidOfferEncoder.BLOCK_LENGTH;
        final int offset = sink.claim(length);
        final MutableDirectBuffer buffer = sink.buffer();
        final byte[] array = buffer.byteArray();
        final long at = begin(buffer, offset, length, BestBidOfferEncoder.BLOCK_LENGTH,
            BestBidOfferEncoder.TEMPLATE_ID, BestBidOfferEncoder.SCHEMA_ID,
            BestBidOfferEncoder.SCHEMA_VERSION) + HEADER;
        putInt(array, at + BestBidOfferEncoder.instrumentIdEncodingOffset(), instrumentId);
        putLong(array, at + BestBidOfferEncoder.mdSequenceEncodingOffset(), mdSequence);
        putLong(array, at + BestBidOfferEncoder.bidPriceEncodingOffset(),
            bidPrice == 0 ? BestBidOfferEncoder.bidPriceNullValue() : bidPrice);
        putLong(array, at + BestBidOfferEncoder.bidQuantityEncodingOffset(), bidQuantity);
        putLong(array, at + BestBidOfferEncoder.askPriceEncodingOffset(),
            askPrice == 0 ? BestBidOfferEncoder.askPriceNullValue() : askPrice);
        putLong(array, at + BestBidOfferEncoder.askQuantityEncodingOffset(), askQuantity);
        putLong(array, at + BestBidOfferEncoder.timestampNsEncodingOffset(), timestampNs);
        sink.commit(HEADER + BestBidOfferEncoder.BLOCK_LENGTH);
    }

    /**
     * Write a full snapshot of a book ({@link BookEvents#bookSnapshot}).
     *
     * @param book the book.
     */
    public void bookSnapshot(final OrderBook book)
    {
        bookEvents.bookSnapshot(book, timestampNs);
    }

    /**
     * Write the order-by-order state of a book ({@link BookEvents#bookOrders}).
     *
     * @param book the book.
     */
    public void bookOrders(final OrderBook book)
    {
        bookEvents.bookOrders(book);
    }

    /**
     * Write an instrument's definition and status ({@link BookEvents#instrumentDefinition}).
     *
     * @param instrument the instrument.
     */
    public void instrumentDefinition(final Instrument instrument)
    {
        bookEvents.instrumentDefinition(instrument, timestampNs);
    }

    /**
     * Write an auction's indicative price and volume ({@link BookEvents#auctionIndicative}).
     *
     * @param book      the book.
     * @param price     indicative price, 0 for none.
     * @param matched   matched quantity.
     * @param imbalance signed imbalance.
     * @param endNs     the phase's end, 0 for none.
     */
    public void auctionIndicative(
        final OrderBook book, final long price, final long matched, final long imbalance, final long endNs)
    {
        bookEvents.auctionIndicative(book, price, matched, imbalance, endNs, timestampNs);
    }

    /**
     * Answer an admin command.
     *
     * @param requestId  the command's request id.
     * @param templateId the command's template id.
     * @param reason     NONE for accepted, else why it was refused.
     */
    public void adminResponse(final long requestId, final int templateId, final RejectReason reason)
    {
        final int commandLength = null == commandBuffer ? 0 : this.commandLength;
        final int length = HEADER + AdminResponseEncoder.BLOCK_LENGTH + AdminResponseEncoder.commandHeaderLength() +
            commandLength;
        final int offset = sink.claim(length);
        adminResponse.wrapAndApplyHeader(sink.buffer(), offset, header)
            .requestId(requestId)
            .templateId(templateId)
            .status(reason == RejectReason.NONE ? AdminStatus.ACCEPTED : AdminStatus.REJECTED)
            .rejectReason(reason)
            .commandSequence(sequence)
            .timestampNs(timestampNs);
        if (0 == commandLength)
        {
            adminResponse.putCommand(NO_COMMAND, 0, 0);
        }
        else
        {
            adminResponse.putCommand(commandBuffer, commandOffset, commandLength);
        }
        sink.commit(length);
    }

    /**
     * Refuse a message before it reached the book.
     *
     * @param sessionId     session to tell.
     * @param refTemplateId template id of the refused message.
     * @param clientOrderId 20 bytes of the client's id, or zeros.
     * @param reason        why.
     * @param internalError true to say it was an internal error.
     */
    public void businessReject(
        final long sessionId,
        final int refTemplateId,
        final byte[] clientOrderId,
        final RejectReason reason,
        final boolean internalError)
    {
        final int textLength = internalError ? INTERNAL_ERROR_TEXT.length : 0;
        final int maxLength = HEADER + BusinessRejectEncoder.BLOCK_LENGTH + BusinessRejectEncoder.textHeaderLength() +
            textLength;
        final int offset = sink.claim(maxLength);
        businessReject.wrapAndApplyHeader(sink.buffer(), offset, header)
            .epoch(epoch)
            .sessionId(sessionId)
            .refTemplateId(refTemplateId)
            .putRefClientOrderId(clientOrderId, 0)
            .rejectReason(reason)
            .putText(INTERNAL_ERROR_TEXT, 0, textLength);
        sink.commit(HEADER + businessReject.encodedLength());
    }

    /**
     * Tell every gateway to lift logon lockouts (after an accepted UnlockLogons).
     *
     * @param username the name, or empty.
     * @param address  the address, or empty.
     */
    public void logonsUnlocked(final String username, final String address)
    {
        final int offset = sink.claim(HEADER + LogonsUnlockedEncoder.BLOCK_LENGTH +
            LogonsUnlockedEncoder.usernameHeaderLength() + username.length() +
            LogonsUnlockedEncoder.addressHeaderLength() + address.length());
        logonsUnlocked.wrapAndApplyHeader(sink.buffer(), offset, header)
            .timestampNs(timestampNs)
            .commandSequence(sequence)
            .username(username)
            .address(address);
        sink.commit(HEADER + logonsUnlocked.encodedLength());
    }

    /**
     * A user as the engine holds it, for the gateways.
     *
     * @param user      the user.
     * @param gatewayId the gateway that asked (a directory answer), or 0 for every gateway (a change).
     * @param requestId the directory request answered, or 0.
     */
    public void userDefinition(final Users.User user, final int gatewayId, final long requestId)
    {
        final long[] accounts = user.accounts();
        final int offset = sink.claim(HEADER + UserDefinitionEncoder.BLOCK_LENGTH +
            UserDefinitionEncoder.AccountsEncoder.sbeHeaderSize() +
            accounts.length * UserDefinitionEncoder.AccountsEncoder.sbeBlockLength() +
            UserDefinitionEncoder.usernameHeaderLength() + user.username().length() +
            UserDefinitionEncoder.fixSenderCompIdHeaderLength() + user.fixSenderCompId().length() +
            UserDefinitionEncoder.credentialHashHeaderLength() + user.credentialHash().length());
        userDefinition.wrapAndApplyHeader(sink.buffer(), offset, header)
            .gatewayId(gatewayId)
            .requestId(requestId)
            .enabled(user.enabled() ? BooleanType.TRUE : BooleanType.FALSE)
            .fixCancelOnDisconnect(user.fixCancelOnDisconnect() ? BooleanType.TRUE : BooleanType.FALSE)
            .throttleMessagesPerSecond(user.throttleMessagesPerSecond())
            .commandSequence(sequence)
            .role(user.role())
            .cancelOnDisconnectGraceMs(user.cancelOnDisconnectGraceMs());
        final UserDefinitionEncoder.AccountsEncoder group = userDefinition.accountsCount(accounts.length);
        for (final long accountId : accounts)
        {
            group.next().accountId(accountId);
        }
        userDefinition.username(user.username())
            .fixSenderCompId(user.fixSenderCompId())
            .credentialHash(user.credentialHash());
        sink.commit(HEADER + userDefinition.encodedLength());
    }

    /**
     * The end of a directory answer.
     *
     * @param gatewayId the gateway that asked.
     * @param requestId its request.
     * @param userCount the users sent.
     */
    public void userDirectoryEnd(final int gatewayId, final long requestId, final int userCount)
    {
        final int offset = sink.claim(HEADER + UserDirectoryEndEncoder.BLOCK_LENGTH);
        userDirectoryEnd.wrapAndApplyHeader(sink.buffer(), offset, header)
            .gatewayId(gatewayId)
            .requestId(requestId)
            .userCount(userCount)
            .commandSequence(sequence);
        sink.commit(HEADER + UserDirectoryEndEncoder.BLOCK_LENGTH);
    }

    /**
     * The venue's trading day as the engine holds it.
     *
     * @param tradingDays    the trading days, a bit per day of the week (0: no schedule).
     * @param preOpenMinute  the pre-open's minute of the day, -1 for none.
     * @param openMinute     the open's.
     * @param closeMinute    the close's.
     * @param endOfDayMinute the end of day's.
     * @param zone           the schedule's time zone.
     * @param holidays       the closed days, epoch days in order.
     */
    void tradingSchedule(
        final int tradingDays,
        final int preOpenMinute,
        final int openMinute,
        final int closeMinute,
        final int endOfDayMinute,
        final String zone,
        final int[] holidays)
    {
        final int offset = sink.claim(HEADER + TradingScheduleDefinitionEncoder.BLOCK_LENGTH +
            TradingScheduleDefinitionEncoder.HolidaysEncoder.sbeHeaderSize() +
            holidays.length * TradingScheduleDefinitionEncoder.HolidaysEncoder.sbeBlockLength() +
            TradingScheduleDefinitionEncoder.timeZoneHeaderLength() + zone.length());
        tradingSchedule.wrapAndApplyHeader(sink.buffer(), offset, header)
            .tradingDays((short)tradingDays)
            .preOpenMinute((short)preOpenMinute)
            .openMinute((short)openMinute)
            .closeMinute((short)closeMinute)
            .endOfDayMinute((short)endOfDayMinute)
            .commandSequence(sequence);
        final TradingScheduleDefinitionEncoder.HolidaysEncoder group = tradingSchedule.holidaysCount(holidays.length);
        for (final int day : holidays)
        {
            group.next().epochDay(day);
        }
        tradingSchedule.timeZone(zone);
        sink.commit(HEADER + tradingSchedule.encodedLength());
    }

    /**
     * Answer a gateway's barrier: every event of the commands before it has been written.
     *
     * @param sessionId the gateway's (session number 0).
     * @param token     the barrier's, echoed.
     */
    public void gatewayBarrierReached(final long sessionId, final long token)
    {
        final int offset = sink.claim(HEADER + GatewayBarrierReachedEncoder.BLOCK_LENGTH);
        barrierReached.wrapAndApplyHeader(sink.buffer(), offset, header)
            .epoch(epoch)
            .sessionId(sessionId)
            .token(token)
            .commandSequence(sequence);
        sink.commit(HEADER + GatewayBarrierReachedEncoder.BLOCK_LENGTH);
    }

    /**
     * Answer an order status or mass status request with one open order's current state. Changes nothing.
     *
     * @param sessionId       the session that asked.
     * @param statusRequestId 20 bytes of the request's id.
     * @param massStatus      true when answering an OrderMassStatusRequest.
     * @param reportNumber    1 to totalReports.
     * @param totalReports    orders in the whole answer.
     * @param order           the open order.
     * @param priceScale      its instrument's price scale (for the average price).
     */
    public void orderStatusReport(
        final long sessionId,
        final byte[] statusRequestId,
        final boolean massStatus,
        final int reportNumber,
        final int totalReports,
        final Order order,
        final int priceScale)
    {
        final long filled = order.filledQuantity();
        final boolean market = order.orderType() == Order.TYPE_MARKET;
        final int offset = sink.claim(HEADER + OrderStatusReportEncoder.BLOCK_LENGTH);
        orderStatusReport.wrapAndApplyHeader(sink.buffer(), offset, header)
            .epoch(epoch)
            .sessionId(sessionId)
            .putStatusRequestId(statusRequestId, 0)
            .massStatus(massStatus ? BooleanType.TRUE : BooleanType.FALSE)
            .reportNumber(reportNumber)
            .totalReports(totalReports)
            .rejectReason(RejectReason.NONE)
            .accountId(order.accountId())
            .instrumentId(order.instrumentId())
            .orderId(order.orderId())
            .putClientOrderId(order.clientOrderId(), 0)
            .orderStatus(filled > 0 ? OrderStatus.PARTIALLY_FILLED : OrderStatus.NEW)
            .side(order.isBuy() ? Side.BUY : Side.SELL)
            .orderType(market ? OrderType.MARKET : OrderType.LIMIT)
            .timeInForce(timeInForce(order.timeInForce()))
            .price(market ? 0 : order.price())
            .quantity(order.quantity())
            .leavesQuantity(order.quantity() - filled)
            .cumulativeQuantity(filled)
            .averagePrice(PnlMath.averagePrice(order.cumulativeNotional(), filled, priceScale))
            .transactTimeNs(timestampNs)
            .commandSequence(sequence);
        sink.commit(HEADER + OrderStatusReportEncoder.BLOCK_LENGTH);
    }

    /**
     * Answer an order status or mass status request without an order: a refusal (the reason says why; the order
     * status is REJECTED) or, with reason NONE, the explicit empty answer of a mass status that matched nothing.
     *
     * @param sessionId       the session that asked.
     * @param statusRequestId 20 bytes of the request's id.
     * @param massStatus      true when answering an OrderMassStatusRequest.
     * @param accountId       the account named in the request.
     * @param instrumentId    the instrument named in the request, or 0.
     * @param orderId         the order id named in the request, or 0.
     * @param clientOrderId   20 bytes of the client order id named in the request, or zeros.
     * @param reason          why, or NONE for an empty answer.
     */
    public void orderStatusNone(
        final long sessionId,
        final byte[] statusRequestId,
        final boolean massStatus,
        final long accountId,
        final int instrumentId,
        final long orderId,
        final byte[] clientOrderId,
        final RejectReason reason)
    {
        final int offset = sink.claim(HEADER + OrderStatusReportEncoder.BLOCK_LENGTH);
        orderStatusReport.wrapAndApplyHeader(sink.buffer(), offset, header)
            .epoch(epoch)
            .sessionId(sessionId)
            .putStatusRequestId(statusRequestId, 0)
            .massStatus(massStatus ? BooleanType.TRUE : BooleanType.FALSE)
            .reportNumber(0)
            .totalReports(0)
            .rejectReason(reason)
            .accountId(accountId)
            .instrumentId(instrumentId)
            .orderId(orderId)
            .putClientOrderId(clientOrderId, 0)
            .orderStatus(reason == RejectReason.NONE ? OrderStatus.NULL_VAL : OrderStatus.REJECTED)
            .side(Side.NULL_VAL)
            .orderType(OrderType.NULL_VAL)
            .timeInForce(TimeInForce.NULL_VAL)
            .price(0)
            .quantity(0)
            .leavesQuantity(0)
            .cumulativeQuantity(0)
            .averagePrice(0)
            .transactTimeNs(timestampNs)
            .commandSequence(sequence);
        sink.commit(HEADER + OrderStatusReportEncoder.BLOCK_LENGTH);
    }

    /**
     * Tell a client how many orders its mass cancel cancelled (after their execution reports).
     *
     * @param sessionId       the session that asked.
     * @param accountId       the account in the request.
     * @param clientRequestId 20 bytes of the request's id.
     * @param scope           the request's scope.
     * @param instrumentId    the request's instrument.
     * @param affected        orders cancelled.
     */
    public void massCancelReport(
        final long sessionId,
        final long accountId,
        final byte[] clientRequestId,
        final MassCancelScope scope,
        final int instrumentId,
        final int affected)
    {
        final int offset = sink.claim(HEADER + MassCancelReportEncoder.BLOCK_LENGTH);
        massCancelReport.wrapAndApplyHeader(sink.buffer(), offset, header)
            .epoch(epoch)
            .sessionId(sessionId)
            .accountId(accountId)
            .putClientRequestId(clientRequestId, 0)
            .scope(scope)
            .instrumentId(instrumentId)
            .totalAffectedOrders(affected)
            .transactTimeNs(timestampNs)
            .commandSequence(sequence);
        sink.commit(HEADER + MassCancelReportEncoder.BLOCK_LENGTH);
    }

    /**
     * Answer a mass quote, entry by entry (after the events of its trades).
     *
     * @param sessionId     the session that sent it.
     * @param accountId     its account.
     * @param quoteId       20 bytes of its quote id.
     * @param status        the whole message's verdict.
     * @param reason        why the whole message was refused, else NONE.
     * @param entryCount    entries answered (0 when the message was refused).
     * @param entryIds      per entry: its quote entry id.
     * @param setIds        per entry: its quote set id.
     * @param instrumentIds per entry: its instrument.
     * @param reasons       per entry: NONE (accepted) or why refused.
     * @param bidOrderIds   per entry: the bid's order id now, or 0.
     * @param offerOrderIds per entry: the offer's order id now, or 0.
     */
    void massQuoteAck(
        final long sessionId,
        final long accountId,
        final byte[] quoteId,
        final QuoteStatus status,
        final RejectReason reason,
        final int entryCount,
        final long[] entryIds,
        final int[] setIds,
        final int[] instrumentIds,
        final RejectReason[] reasons,
        final long[] bidOrderIds,
        final long[] offerOrderIds)
    {
        final int length = HEADER + MassQuoteAckEncoder.BLOCK_LENGTH +
            MassQuoteAckEncoder.EntriesEncoder.sbeHeaderSize() +
            entryCount * MassQuoteAckEncoder.EntriesEncoder.sbeBlockLength();
        final int offset = sink.claim(length);
        massQuoteAck.wrapAndApplyHeader(sink.buffer(), offset, header)
            .epoch(epoch)
            .sessionId(sessionId)
            .accountId(accountId)
            .putQuoteId(quoteId, 0)
            .quoteStatus(status)
            .rejectReason(reason)
            .transactTimeNs(timestampNs)
            .commandSequence(sequence);
        final MassQuoteAckEncoder.EntriesEncoder entries = massQuoteAck.entriesCount(entryCount);
        for (int i = 0; i < entryCount; i++)
        {
            entries.next()
                .quoteEntryId(entryIds[i])
                .quoteSetId(setIds[i])
                .instrumentId(instrumentIds[i])
                .entryStatus(reasons[i] == RejectReason.NONE ? QuoteEntryStatus.ACCEPTED : QuoteEntryStatus.REJECTED)
                .rejectReason(reasons[i])
                .bidOrderId(bidOrderIds[i])
                .offerOrderId(offerOrderIds[i]);
        }
        sink.commit(HEADER + massQuoteAck.encodedLength());
    }

    /**
     * Answer a quote cancel.
     *
     * @param sessionId     the session that sent it.
     * @param accountId     its account.
     * @param quoteId       20 bytes of its id.
     * @param scope         its scope's raw value.
     * @param instrumentId  its instrument.
     * @param setId         its quote set.
     * @param reason        NONE, or why nothing was done.
     * @param sidesCanceled quote orders withdrawn.
     */
    void quoteCancelReport(
        final long sessionId,
        final long accountId,
        final byte[] quoteId,
        final short scope,
        final int instrumentId,
        final int setId,
        final RejectReason reason,
        final int sidesCanceled)
    {
        final int offset = sink.claim(HEADER + QuoteCancelReportEncoder.BLOCK_LENGTH);
        quoteCancelReport.wrapAndApplyHeader(sink.buffer(), offset, header)
            .epoch(epoch)
            .sessionId(sessionId)
            .accountId(accountId)
            .putQuoteId(quoteId, 0)
            .scope(io.ringex.protocol.codecs.QuoteCancelScope.get(
                scope >= 1 && scope <= 3 ? scope : io.ringex.protocol.codecs.QuoteCancelScope.NULL_VAL.value()))
            .instrumentId(instrumentId)
            .quoteSetId(setId)
            .rejectReason(reason)
            .sidesCanceled(sidesCanceled)
            .transactTimeNs(timestampNs)
            .commandSequence(sequence);
        sink.commit(HEADER + QuoteCancelReportEncoder.BLOCK_LENGTH);
    }

    /**
     * An account's market-maker protection in one group, whole, after something happened to it.
     *
     * @param sessionId      the session told, or 0.
     * @param accountId      the account.
     * @param groupId        the group.
     * @param type           what happened.
     * @param limit          the limit a breach reached, else NONE.
     * @param intervalNs     the group's interval.
     * @param quantityLimit  its quantity limit (0: none).
     * @param notionalLimit  its notional limit (0: none).
     * @param fillLimit      its fill limit.
     * @param freezeNs       its freeze (0: until reset).
     * @param cancelOrders   whether a breach cancels its orders too.
     * @param quantity       quantity traded in the interval.
     * @param notional       notional traded in the interval.
     * @param fills          fills in the interval.
     * @param frozen         whether new quotes are refused.
     * @param frozenUntilNs  when the freeze ends (0: until reset).
     * @param quotesCanceled quote orders a breach cancelled.
     * @param ordersCanceled other orders a breach cancelled.
     * @param instruments    the group's instruments.
     */
    void marketMakerProtection(
        final long sessionId,
        final long accountId,
        final int groupId,
        final MmpEventType type,
        final MmpLimit limit,
        final long intervalNs,
        final long quantityLimit,
        final long notionalLimit,
        final int fillLimit,
        final long freezeNs,
        final boolean cancelOrders,
        final long quantity,
        final long notional,
        final int fills,
        final boolean frozen,
        final long frozenUntilNs,
        final int quotesCanceled,
        final int ordersCanceled,
        final int[] instruments)
    {
        final int length = HEADER + MarketMakerProtectionEventEncoder.BLOCK_LENGTH +
            MarketMakerProtectionEventEncoder.InstrumentsEncoder.sbeHeaderSize() +
            instruments.length * MarketMakerProtectionEventEncoder.InstrumentsEncoder.sbeBlockLength();
        final int offset = sink.claim(length);
        mmpEvent.wrapAndApplyHeader(sink.buffer(), offset, header)
            .epoch(epoch)
            .sessionId(sessionId)
            .accountId(accountId)
            .mmpGroupId(groupId)
            .eventType(type)
            .limitReached(limit)
            .intervalNs(intervalNs)
            .quantityLimit(quantityLimit)
            .notionalLimit(notionalLimit)
            .fillLimit(fillLimit)
            .freezeNs(freezeNs)
            .cancelOrders(cancelOrders ? BooleanType.TRUE : BooleanType.FALSE)
            .quantityTraded(quantity)
            .notionalTraded(notional)
            .fills(fills)
            .frozen(frozen ? BooleanType.TRUE : BooleanType.FALSE)
            .frozenUntilNs(frozenUntilNs)
            .quotesCanceled(quotesCanceled)
            .ordersCanceled(ordersCanceled)
            .transactTimeNs(timestampNs)
            .commandSequence(sequence);
        final MarketMakerProtectionEventEncoder.InstrumentsEncoder group =
            mmpEvent.instrumentsCount(instruments.length);
        for (final int instrumentId : instruments)
        {
            group.next().instrumentId(instrumentId);
        }
        sink.commit(HEADER + mmpEvent.encodedLength());
    }

    /**
     * A session's cancel-all-after timer: armed, disarmed, refused, or triggered (after its cancels).
     *
     * @param sessionId      the session.
     * @param status         what happened.
     * @param reason         REJECTED: why; else NONE.
     * @param timeoutMs      the timeout.
     * @param deadlineNs     when it fires (ARMED) or was due (TRIGGERED); 0 if none.
     * @param ordersCanceled TRIGGERED: orders cancelled.
     */
    void cancelAllAfterReport(
        final long sessionId,
        final CancelAllAfterStatus status,
        final RejectReason reason,
        final long timeoutMs,
        final long deadlineNs,
        final int ordersCanceled)
    {
        final int offset = sink.claim(HEADER + CancelAllAfterReportEncoder.BLOCK_LENGTH);
        cancelAllAfterReport.wrapAndApplyHeader(sink.buffer(), offset, header)
            .epoch(epoch)
            .sessionId(sessionId)
            .status(status)
            .rejectReason(reason)
            .timeoutMs(timeoutMs)
            .deadlineNs(deadlineNs)
            .ordersCanceled(ordersCanceled)
            .transactTimeNs(timestampNs)
            .commandSequence(sequence);
        sink.commit(HEADER + CancelAllAfterReportEncoder.BLOCK_LENGTH);
    }

    static TimeInForce timeInForce(final byte raw)
    {
        switch (raw)
        {
            case Order.TIF_IOC:
                return TimeInForce.IOC;
            case Order.TIF_FOK:
                return TimeInForce.FOK;
            case Order.TIF_DAY:
                return TimeInForce.DAY;
            case Order.TIF_GTD:
                return TimeInForce.GTD;
            default:
                return TimeInForce.GTC;
        }
    }

}
