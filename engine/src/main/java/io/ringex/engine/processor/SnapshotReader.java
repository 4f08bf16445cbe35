package io.ringex.engine.processor;

import io.ringex.engine.book.Instrument;
import io.ringex.engine.book.Order;
import io.ringex.engine.book.OrderBook;
import io.ringex.engine.book.Uncrossing;
import io.ringex.engine.risk.Account;
import io.ringex.protocol.codecs.UserRole;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Comparator;

import static io.ringex.engine.processor.SnapshotDescriptor.*;

/**
 * Rebuilds an {@link EngineState} from a snapshot in the {@link SnapshotDescriptor} format. Refuses (throws
 * {@link IllegalStateException}) a snapshot with the wrong magic, another version, or a length that does not match,
 * so an old or damaged snapshot is never half-loaded. Allocates freely: restore happens at start-up.
 * <p>
 * Threading: the business-logic thread before it processes commands.
 */
public final class SnapshotReader
{
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private DirectBuffer buffer;
    private int position;

    /**
     * Read a snapshot into an empty state.
     *
     * @param state  an empty state.
     * @param in     holding the snapshot.
     * @param offset where it starts.
     * @param length its length.
     */
    public void read(final EngineState state, final DirectBuffer in, final int offset, final int length)
    {
        if (state.bookCount() != 0 || state.accountCount() != 0 || state.orders.size() != 0)
        {
            throw new IllegalStateException("restore needs an empty engine");
        }
        if (length < HEADER_LENGTH || in.getInt(offset + MAGIC_OFFSET, ORDER) != MAGIC)
        {
            throw new IllegalStateException("not a Ringex snapshot");
        }
        final int version = in.getInt(offset + VERSION_OFFSET, ORDER);
        if (version < VERSION)
        {
            // Its state hash was computed over the older layout and could not be checked: not converted.
            throw new IllegalStateException("snapshot version " + version + " was written by an older build (this " +
                "one writes version " + VERSION + "): it is not loaded; recover from the journal");
        }
        if (version != VERSION)
        {
            throw new IllegalStateException("snapshot version " + version + " is not " + VERSION);
        }
        if (in.getInt(offset + BODY_LENGTH_OFFSET, ORDER) != length - HEADER_LENGTH)
        {
            throw new IllegalStateException("snapshot length mismatch");
        }
        buffer = in;
        state.lastSequence = in.getLong(offset + SEQUENCE_OFFSET, ORDER);
        state.epoch = in.getLong(offset + EPOCH_OFFSET, ORDER);
        state.lastOrderId = in.getLong(offset + LAST_ORDER_ID_OFFSET, ORDER);
        state.lastTradeId = in.getLong(offset + LAST_TRADE_ID_OFFSET, ORDER);
        state.venueKilled = in.getInt(offset + VENUE_KILLED_OFFSET, ORDER) == 1;
        final int books = in.getInt(offset + BOOK_COUNT_OFFSET, ORDER);
        final int accounts = in.getInt(offset + ACCOUNT_COUNT_OFFSET, ORDER);
        final int orders = in.getInt(offset + ORDER_COUNT_OFFSET, ORDER);
        position = offset + HEADER_LENGTH;
        for (int i = 0; i < books; i++)
        {
            state.addBook(readBook());
        }
        for (int i = 0; i < accounts; i++)
        {
            state.addAccount(readAccount(state));
        }
        final ArrayList<Order> resting = new ArrayList<>(orders);
        for (int i = 0; i < orders; i++)
        {
            final Order order = readOrder(state);
            state.orders.add(order);
            final Account account = state.account(order.accountId());
            account.linkOrder(order);
            order.exposure = account.position(order.instrumentId());
            if (order.isQuote())
            {
                state.quotes.attach(order);
            }
            resting.add(order);
        }
        readStatistics(state.statistics);
        readUsers(state.users);
        readSchedule(state.schedule);
        if (position < offset + length)
        {
            readMarketMakers(state);
        }
        if (null != state.protection)
        {
            state.protection.restored();
        }
        if (position != offset + length)
        {
            throw new IllegalStateException("snapshot body length mismatch");
        }
        resting.sort(Comparator.comparingInt(Order::instrumentId).thenComparingLong(Order::priority));
        for (final Order order : resting)
        {
            final OrderBook book = state.book(order.instrumentId());
            switch (order.location())
            {
                case Order.AT_BOOK:
                    book.restoreResting(order, order.priority());
                    break;
                case Order.AT_STOPS:
                    book.restoreStop(order, order.priority());
                    break;
                case Order.AT_AUCTION_MARKET:
                    book.restoreMarket(order, order.priority());
                    break;
                default:
                    throw new IllegalStateException("snapshot order " + order.orderId() + " waits nowhere");
            }
            if (order.timeInForce() == Order.TIF_GTD)
            {
                state.expiries.add(order);
            }
        }
        final Uncrossing uncrossing = new Uncrossing();
        for (int i = 0; i < books; i++)
        {
            final OrderBook book = state.bookAt(i);
            book.markBboPublished();
            if (book.instrument().inCallPhase())
            {
                final boolean crosses = uncrossing.compute(book);
                book.publishedIndicative().take(book.instrument().status(), crosses ? uncrossing.price() : 0,
                    crosses ? uncrossing.matched() : 0, crosses ? uncrossing.imbalance() : 0,
                    book.phaseEndNs() == Long.MAX_VALUE ? 0 : book.phaseEndNs());
            }
        }
        state.recomputePhases();
        buffer = null;
    }

    private void readStatistics(final VenueStatistics statistics)
    {
        statistics.restore(getLong(), getLong(), getLong());
        final int reasons = getInt();
        for (int i = 0; i < reasons; i++)
        {
            final int value = getInt();
            final long count = getLong();
            if (value < 0 || value >= VenueStatistics.REASON_SLOTS)
            {
                throw new IllegalStateException("snapshot statistics name reject reason " + value);
            }
            statistics.rejectsByValue(value, count);
        }
    }

    private void readUsers(final Users users)
    {
        final int count = getInt();
        for (int i = 0; i < count; i++)
        {
            final Users.User user = users.create(getString());
            user.enabled = getInt() == 1;
            user.fixCancelOnDisconnect = getInt() == 1;
            user.throttleMessagesPerSecond = getInt();
            final int role = getInt();
            if (role < 0 || role > UserRole.CLEARING.value())
            {
                throw new IllegalStateException("snapshot user " + user.username() + " has role " + role);
            }
            user.role = UserRole.get((short)role);
            final long[] accounts = new long[getInt()];
            for (int a = 0; a < accounts.length; a++)
            {
                accounts[a] = getLong();
            }
            user.accounts = accounts;
            user.fixSenderCompId = getString();
            user.credentialHash = getString();
        }
    }

    private void readMarketMakers(final EngineState state)
    {
        if (getInt() != MARKET_MAKERS_MAGIC)
        {
            throw new IllegalStateException("snapshot has bytes after the schedule that are not the market makers'");
        }
        final int graces = getInt();
        for (int i = 0; i < graces; i++)
        {
            final String username = getString();
            final Users.User user = state.users.user(username);
            final int graceMs = getInt();
            if (null == user || graceMs < 0 || graceMs > SessionTimers.MAX_GRACE_MS)
            {
                throw new IllegalStateException("snapshot grace " + graceMs + " of user " + username);
            }
            user.cancelOnDisconnectGraceMs = graceMs;
        }
        final int timers = getInt();
        for (int i = 0; i < timers; i++)
        {
            final long sessionId = getLong();
            final int kind = getInt();
            final long deadlineNs = getLong();
            final long timeoutMs = getLong();
            if (kind != SessionTimers.CANCEL_ALL_AFTER && kind != SessionTimers.DISCONNECT)
            {
                throw new IllegalStateException("snapshot session timer of kind " + kind);
            }
            state.timers.arm(sessionId, kind, deadlineNs, timeoutMs);
        }
        final int groups = getInt();
        for (int i = 0; i < groups; i++)
        {
            final long accountId = getLong();
            final int groupId = getInt();
            if (null == state.account(accountId))
            {
                throw new IllegalStateException("snapshot protection of unknown account " + accountId);
            }
            final MarketMakerProtection.Group group = state.protection.restore(accountId, groupId);
            group.intervalNs = getLong();
            group.quantityLimit = getLong();
            group.notionalLimit = getLong();
            group.fillLimit = getInt();
            group.freezeNs = getLong();
            group.cancelOrders = getInt() == 1;
            final int instruments = getInt();
            if (instruments < 1 || instruments > MarketMakerProtection.MAX_INSTRUMENTS)
            {
                throw new IllegalStateException("snapshot protection group of " + instruments + " instruments");
            }
            group.instruments = new int[instruments];
            for (int n = 0; n < instruments; n++)
            {
                group.instruments[n] = getInt();
            }
            group.frozen = getInt() == 1;
            group.frozenUntilNs = getLong();
            group.sessionId = getLong();
            final int fills = getInt();
            if (fills < 0 || fills > MarketMakerProtection.MAX_FILL_LIMIT)
            {
                throw new IllegalStateException("snapshot protection window of " + fills + " fills");
            }
            for (int n = 0; n < fills; n++)
            {
                group.window.add(getLong(), getLong(), getLong());
            }
        }
    }

    private void readSchedule(final TradingSchedule schedule)
    {
        final int days = getInt();
        if (days == 0)
        {
            if (null != schedule)
            {
                schedule.restore(0, TradingSchedule.NO_PRE_OPEN, 0, 0, 0, "", new int[0], 0, new int[0]);
            }
            return;
        }
        final int preOpen = getInt();
        final int open = getInt();
        final int close = getInt();
        final int endOfDay = getInt();
        final String zone = getString();
        final int[] holidays = new int[getInt()];
        for (int i = 0; i < holidays.length; i++)
        {
            holidays[i] = getInt();
        }
        final long lastActed = getLong();
        final int[] held = new int[getInt()];
        for (int i = 0; i < held.length; i++)
        {
            held[i] = getInt();
        }
        if (null != schedule)
        {
            schedule.restore(days, preOpen, open, close, endOfDay, zone, holidays, lastActed, held);
        }
    }

    private String getString()
    {
        final int length = getInt();
        if (length < 0 || length > Users.MAX_CREDENTIAL)
        {
            throw new IllegalStateException("snapshot text of length " + length);
        }
        final String text = buffer.getStringWithoutLengthAscii(position, length);
        position += length;
        return text;
    }

    private OrderBook readBook()
    {
        final int instrumentId = getInt();
        final byte[] symbol = new byte[Instrument.SYMBOL_LENGTH];
        buffer.getBytes(position, symbol);
        position += Instrument.SYMBOL_LENGTH;
        final int scale = getInt();
        final long tick = getLong();
        final long lot = getLong();
        final long reference = getLong();
        final byte bandType = (byte)getInt();
        final long band = getLong();
        final byte status = (byte)getInt();
        final Instrument instrument = new Instrument(instrumentId, symbol, scale, tick, lot, reference, bandType, band);
        instrument.status(status);
        final OrderBook book = new OrderBook(instrument);
        final long mdSequence = getLong();
        final long lastTrade = getLong();
        final long nextPriority = getLong();
        book.restoreState(mdSequence, lastTrade, nextPriority);
        book.phaseEndNs(getLong());
        final int dynamicBand = getInt();
        book.dynamicBand(dynamicBand, getLong());
        return book;
    }

    private Account readAccount(final EngineState state)
    {
        final long accountId = getLong();
        final Account account = new Account(accountId, (byte)getInt());
        final long balance = getLong();
        final long reserved = getLong();
        final long credit = getLong();
        final long maxQuantity = getLong();
        final long maxNotional = getLong();
        final long positionLimit = getLong();
        final int maxOpen = getInt();
        final boolean allowShort = getInt() == 1;
        final boolean killed = getInt() == 1;
        final byte status = (byte)getInt();
        final int openOrders = getInt();
        final int positions = getInt();
        account.limits(maxQuantity, maxNotional, credit, positionLimit, maxOpen, allowShort);
        account.restore(balance, reserved, killed, openOrders);
        account.status(status);
        for (int i = 0; i < positions; i++)
        {
            final int instrumentId = getInt();
            final int scale = getInt();
            final long net = getLong();
            final long cost = getLong();
            final long realised = getLong();
            final long openBuy = getLong();
            final long openSell = getLong();
            final long limit = getLong();
            final OrderBook book = state.book(instrumentId);
            if (book == null)
            {
                throw new IllegalStateException("snapshot position in unknown instrument " + instrumentId);
            }
            account.restorePosition(instrumentId, scale, book.markIndex(), net, cost, realised, openBuy, openSell,
                limit);
        }
        account.clearChangedPositions();
        account.changed(false);
        return account;
    }

    private Order readOrder(final EngineState state)
    {
        final Order order = state.pool.acquire();
        final long orderId = getLong();
        final long accountId = getLong();
        final long sessionId = getLong();
        final int instrumentId = getInt();
        buffer.getBytes(position, order.clientOrderId());
        position += Order.CLIENT_ORDER_ID_LENGTH;
        final boolean buy = buffer.getByte(position++) == 1;
        final byte type = buffer.getByte(position++);
        final byte tif = buffer.getByte(position++);
        final boolean postOnly = buffer.getByte(position++) == 1;
        final byte stp = buffer.getByte(position++);
        final byte location = buffer.getByte(position++);
        final int quoteSetId = buffer.getShort(position, ORDER) & 0xFFFF;
        position += 2;
        final long price = getLong();
        final long quantity = getLong();
        order.init(orderId, accountId, sessionId, instrumentId, buy, type, tif, postOnly, stp, price, quantity);
        final long filled = getLong();
        final long notional = getLong();
        final long priority = getLong();
        order.restoreProgress(filled, notional, priority);
        order.trackedLeaves(getLong());
        order.trackedReserve(getLong());
        final long stopPrice = getLong();
        final long display = getLong();
        final long peak = getLong();
        final long expireTimeNs = getLong();
        order.terms(stopPrice, display, expireTimeNs);
        order.restorePeak(peak);
        order.location(location);
        order.quoteSetId(quoteSetId);
        return order;
    }

    private int getInt()
    {
        final int value = buffer.getInt(position, ORDER);
        position += 4;
        return value;
    }

    private long getLong()
    {
        final long value = buffer.getLong(position, ORDER);
        position += 8;
        return value;
    }
}
