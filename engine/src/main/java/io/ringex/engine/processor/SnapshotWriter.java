package io.ringex.engine.processor;

import io.ringex.engine.book.Instrument;
import io.ringex.engine.book.Order;
import io.ringex.engine.book.OrderBook;
import io.ringex.engine.risk.Account;
import io.ringex.engine.risk.Position;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

import static io.ringex.engine.processor.SnapshotDescriptor.*;

/**
 * Writes the whole {@link EngineState} in the {@link SnapshotDescriptor} format. The output is canonical (a pure
 * function of the state), which is why the state hash is computed over it as well.
 * <p>
 * Threading: single business-logic thread, between commands (after the batch's risk updates are flushed).
 */
public final class SnapshotWriter
{
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private MutableDirectBuffer buffer;
    private int position;

    /**
     * Write the snapshot; an expandable buffer grows as needed, a fixed one must be large enough.
     *
     * @param state  the state.
     * @param out    where to write.
     * @param offset where to start.
     * @return bytes written.
     */
    public int write(final EngineState state, final MutableDirectBuffer out, final int offset)
    {
        buffer = out;
        position = offset + HEADER_LENGTH;
        for (int i = 0, n = state.bookCount(); i < n; i++)
        {
            writeBook(state.bookAt(i));
        }
        for (int i = 0, n = state.accountCount(); i < n; i++)
        {
            writeAccount(state.accountAt(i));
        }
        int orders = 0;
        for (Order order = state.orders.first(); order != null; order = order.venueNext)
        {
            writeOrder(order);
            orders++;
        }
        writeStatistics(state.statistics);
        writeUsers(state.users);
        writeSchedule(state.schedule);
        writeMarketMakers(state);
        final int length = position - offset;
        out.putInt(offset + MAGIC_OFFSET, MAGIC, ORDER);
        out.putInt(offset + VERSION_OFFSET, VERSION, ORDER);
        out.putLong(offset + SEQUENCE_OFFSET, state.lastSequence, ORDER);
        out.putLong(offset + EPOCH_OFFSET, state.epoch, ORDER);
        out.putLong(offset + LAST_ORDER_ID_OFFSET, state.lastOrderId, ORDER);
        out.putLong(offset + LAST_TRADE_ID_OFFSET, state.lastTradeId, ORDER);
        out.putInt(offset + VENUE_KILLED_OFFSET, state.venueKilled ? 1 : 0, ORDER);
        out.putInt(offset + BOOK_COUNT_OFFSET, state.bookCount(), ORDER);
        out.putInt(offset + ACCOUNT_COUNT_OFFSET, state.accountCount(), ORDER);
        out.putInt(offset + ORDER_COUNT_OFFSET, orders, ORDER);
        out.putInt(offset + BODY_LENGTH_OFFSET, length - HEADER_LENGTH, ORDER);
        out.putInt(offset + BODY_LENGTH_OFFSET + 4, 0, ORDER);
        buffer = null;
        return length;
    }

    private void writeBook(final OrderBook book)
    {
        final Instrument instrument = book.instrument();
        putInt(instrument.instrumentId());
        buffer.putBytes(position, instrument.symbol());
        position += Instrument.SYMBOL_LENGTH;
        putInt(instrument.priceScale());
        putLong(instrument.tickSize());
        putLong(instrument.lotSize());
        putLong(instrument.referencePrice());
        putInt(instrument.bandType());
        putLong(instrument.band());
        putInt(instrument.status());
        putLong(book.mdSequence());
        putLong(book.lastTradePrice());
        putLong(book.nextPriority());
        putLong(book.phaseEndNs());
        putInt(book.dynamicBandBasisPoints());
        putLong(book.volatilityAuctionNs());
    }

    private void writeAccount(final Account account)
    {
        putLong(account.accountId());
        putInt(account.defaultSelfTradePrevention());
        putLong(account.balance());
        putLong(account.reserved());
        putLong(account.creditLimit());
        putLong(account.maxOrderQuantity());
        putLong(account.maxOrderNotional());
        putLong(account.defaultPositionLimit());
        putInt(account.maxOpenOrders());
        putInt(account.allowShort() ? 1 : 0);
        putInt(account.killed() ? 1 : 0);
        putInt(account.status());
        putInt(account.openOrders());
        putInt(account.positionCount());
        for (int i = 0, n = account.positionCount(); i < n; i++)
        {
            final Position p = account.positionAt(i);
            putInt(p.instrumentId());
            putInt(p.priceScale());
            putLong(p.position());
            putLong(p.cost());
            putLong(p.realisedPnl());
            putLong(p.openBuyQuantity());
            putLong(p.openSellQuantity());
            putLong(p.positionLimit());
        }
    }

    private void writeOrder(final Order order)
    {
        putLong(order.orderId());
        putLong(order.accountId());
        putLong(order.sessionId());
        putInt(order.instrumentId());
        buffer.putBytes(position, order.clientOrderId());
        position += Order.CLIENT_ORDER_ID_LENGTH;
        buffer.putByte(position++, (byte)(order.isBuy() ? 1 : 0));
        buffer.putByte(position++, order.orderType());
        buffer.putByte(position++, order.timeInForce());
        buffer.putByte(position++, (byte)(order.postOnly() ? 1 : 0));
        buffer.putByte(position++, order.selfTradePrevention());
        buffer.putByte(position++, order.location());
        buffer.putShort(position, (short)order.quoteSetId(), ORDER);
        position += 2;
        putLong(order.price());
        putLong(order.quantity());
        putLong(order.filledQuantity());
        putLong(order.cumulativeNotional());
        putLong(order.priority());
        putLong(order.trackedLeaves());
        putLong(order.trackedReserve());
        putLong(order.stopPrice());
        putLong(order.displayQuantity());
        putLong(order.peakLeaves());
        putLong(order.expireTimeNs());
    }

    private void writeStatistics(final VenueStatistics statistics)
    {
        putLong(statistics.ordersAccepted());
        putLong(statistics.trades());
        putLong(statistics.rejects());
        int reasons = 0;
        for (int value = 0; value < VenueStatistics.REASON_SLOTS; value++)
        {
            reasons += statistics.rejectsByValue(value) != 0 ? 1 : 0;
        }
        putInt(reasons);
        for (int value = 0; value < VenueStatistics.REASON_SLOTS; value++)
        {
            final long count = statistics.rejectsByValue(value);
            if (count != 0)
            {
                putInt(value);
                putLong(count);
            }
        }
    }

    private void writeUsers(final Users users)
    {
        putInt(users.all().size());
        for (final Users.User user : users.all())
        {
            putString(user.username());
            putInt(user.enabled() ? 1 : 0);
            putInt(user.fixCancelOnDisconnect() ? 1 : 0);
            putInt(user.throttleMessagesPerSecond());
            putInt(user.role().value());
            putInt(user.accounts().length);
            for (final long account : user.accounts())
            {
                putLong(account);
            }
            putString(user.fixSenderCompId());
            putString(user.credentialHash());
        }
    }

    private void writeSchedule(final TradingSchedule schedule)
    {
        if (null == schedule || schedule.tradingDays() == 0)
        {
            putInt(0);
            return;
        }
        putInt(schedule.tradingDays());
        putInt(schedule.preOpenMinute());
        putInt(schedule.openMinute());
        putInt(schedule.closeMinute());
        putInt(schedule.endOfDayMinute());
        putString(schedule.timeZone());
        final int[] holidays = schedule.holidays();
        putInt(holidays.length);
        for (final int day : holidays)
        {
            putInt(day);
        }
        putLong(schedule.lastActedNs());
        final int[] held = schedule.heldInstruments();
        putInt(held.length);
        for (final int id : held)
        {
            putInt(id);
        }
    }

    /**
     * The market makers' section (schema version 3 state), written only when there is any: a state without it is
     * byte for byte what the format wrote before, so its hash is unchanged.
     */
    private void writeMarketMakers(final EngineState state)
    {
        int graces = 0;
        for (final Users.User user : state.users.all())
        {
            graces += user.cancelOnDisconnectGraceMs() != 0 ? 1 : 0;
        }
        final java.util.ArrayList<SessionTimers.Timer> timers = null == state.timers ?
            new java.util.ArrayList<>() : state.timers.armed();
        final java.util.ArrayList<MarketMakerProtection.Protected> protectedAccounts = null == state.protection ?
            new java.util.ArrayList<>() : state.protection.accounts();
        int groups = 0;
        for (final MarketMakerProtection.Protected account : protectedAccounts)
        {
            groups += account.groups.size();
        }
        if (graces == 0 && timers.isEmpty() && groups == 0)
        {
            return;
        }
        putInt(MARKET_MAKERS_MAGIC);
        putInt(graces);
        for (final Users.User user : state.users.all())
        {
            if (user.cancelOnDisconnectGraceMs() != 0)
            {
                putString(user.username());
                putInt(user.cancelOnDisconnectGraceMs());
            }
        }
        putInt(timers.size());
        for (final SessionTimers.Timer timer : timers)
        {
            putLong(timer.sessionId);
            putInt(timer.kind);
            putLong(timer.deadlineNs);
            putLong(timer.timeoutMs);
        }
        putInt(groups);
        for (final MarketMakerProtection.Protected account : protectedAccounts)
        {
            for (final MarketMakerProtection.Group group : account.groups)
            {
                putLong(group.accountId);
                putInt(group.groupId);
                putLong(group.intervalNs);
                putLong(group.quantityLimit);
                putLong(group.notionalLimit);
                putInt(group.fillLimit);
                putLong(group.freezeNs);
                putInt(group.cancelOrders ? 1 : 0);
                putInt(group.instruments.length);
                for (final int instrumentId : group.instruments)
                {
                    putInt(instrumentId);
                }
                putInt(group.frozen ? 1 : 0);
                putLong(group.frozenUntilNs);
                putLong(group.sessionId);
                final FillWindow window = group.window;
                putInt(window.fills());
                for (int i = 0, n = window.fills(); i < n; i++)
                {
                    putLong(window.timeAt(i));
                    putLong(window.quantityAt(i));
                    putLong(window.notionalAt(i));
                }
            }
        }
    }

    private void putString(final String text)
    {
        final byte[] bytes = text.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        putInt(bytes.length);
        buffer.putBytes(position, bytes);
        position += bytes.length;
    }

    private void putInt(final int value)
    {
        buffer.putInt(position, value, ORDER);
        position += 4;
    }

    private void putLong(final long value)
    {
        buffer.putLong(position, value, ORDER);
        position += 8;
    }
}
