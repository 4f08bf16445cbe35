package io.ringex.engine.processor;

import io.ringex.engine.book.MarkPrices;
import io.ringex.engine.book.OrderBook;
import io.ringex.engine.book.OrderPool;
import io.ringex.engine.book.TriggeredStops;
import io.ringex.engine.risk.Account;
import org.agrona.collections.Int2ObjectHashMap;

import java.util.ArrayList;

/**
 * The whole state of the business logic: instruments and their books, accounts, open orders, id counters, epoch and
 * the venue kill switch. Everything the state hash covers and a snapshot holds lives here.
 * <p>
 * Books and accounts are kept in maps for lookup and in lists in creation order for deterministic walks.
 * <p>
 * Threading: single business-logic thread.
 */
public final class EngineState
{
    /** Instrument ids below this are looked up in an array: the risk flush asks for a mark per position. */
    private static final int DENSE_INSTRUMENT_IDS = 4096;

    final Int2ObjectHashMap<OrderBook> bookById = new Int2ObjectHashMap<>();
    private final OrderBook[] denseBooks = new OrderBook[DENSE_INSTRUMENT_IDS];
    final ArrayList<OrderBook> books = new ArrayList<>();
    final MarkPrices marks = new MarkPrices();
    private final AccountIndex accountById = new AccountIndex();
    final ArrayList<Account> accounts = new ArrayList<>();
    final OrderIndex orders;
    final VenueStatistics statistics = new VenueStatistics();
    final Users users = new Users();
    /** The trading day (set by the processor, which wires it to the events). */
    TradingSchedule schedule;
    /** Market makers' quotes by account and instrument (derived from the quote orders). */
    final Quotes quotes = new Quotes();
    /** Market-maker protection (set by the processor, which wires it to the events and the order lifecycle). */
    MarketMakerProtection protection;
    /** The sessions' cancel-all-after and disconnect-grace timers (set by the processor). */
    SessionTimers timers;
    /** The parts of the state that act on the ring's clock, in registration order (deterministic). */
    Clocked[] clocked = new Clocked[4];
    int clockedCount;
    final OrderPool pool;
    /** Open GTD orders by expiry (derived from the orders). */
    final Expiries expiries = new Expiries();
    /** Stops triggered in the current command, waiting to enter (empty between commands). */
    final TriggeredStops triggered = new TriggeredStops();
    /** The earliest end of a book's timed phase, {@link Long#MAX_VALUE} if none (derived from the books). */
    long nextPhaseEndNs = Long.MAX_VALUE;
    /** Books in a call phase (derived): with none, a command publishes no auction indicative and checks none. */
    int callPhaseBooks;
    long lastOrderId;
    long lastTradeId;
    long epoch;
    boolean venueKilled;
    long lastSequence;

    /**
     * @param expectedOrders open orders to size pools and maps for.
     */
    public EngineState(final int expectedOrders)
    {
        orders = new OrderIndex(expectedOrders);
        pool = new OrderPool(expectedOrders);
    }

    /**
     * @param instrumentId id.
     * @return the book or null.
     */
    public OrderBook book(final int instrumentId)
    {
        return instrumentId >= 0 && instrumentId < DENSE_INSTRUMENT_IDS ? denseBooks[instrumentId] :
            bookById.get(instrumentId);
    }

    /**
     * @param accountId id.
     * @return the account or null.
     */
    public Account account(final long accountId)
    {
        return accountById.get(accountId);
    }

    /**
     * @param book a new book.
     */
    void addBook(final OrderBook book)
    {
        final int instrumentId = book.instrument().instrumentId();
        bookById.put(instrumentId, book);
        if (instrumentId >= 0 && instrumentId < DENSE_INSTRUMENT_IDS)
        {
            denseBooks[instrumentId] = book;
        }
        books.add(book);
        marks.register(book);
    }

    /**
     * Replace an amended instrument's (empty) book, in the same place of the creation order.
     *
     * @param old     the book replaced.
     * @param amended its successor.
     */
    void replaceBook(final OrderBook old, final OrderBook amended)
    {
        amended.takeOver(old);
        final int instrumentId = amended.instrument().instrumentId();
        bookById.put(instrumentId, amended);
        if (instrumentId >= 0 && instrumentId < DENSE_INSTRUMENT_IDS)
        {
            denseBooks[instrumentId] = amended;
        }
        books.set(books.indexOf(old), amended);
    }

    /**
     * @param account a new account.
     */
    void addAccount(final Account account)
    {
        accountById.add(account);
        accounts.add(account);
    }

    /** @return every book's mark price, by the book's {@link OrderBook#markIndex()}. */
    public MarkPrices marks()
    {
        return marks;
    }

    /**
     * Register a part of the state that acts on the ring's clock; done while the processor is built, so the order is
     * the same in every process.
     *
     * @param part the part.
     */
    void addClocked(final Clocked part)
    {
        if (clockedCount == clocked.length)
        {
            clocked = java.util.Arrays.copyOf(clocked, clockedCount * 2);
        }
        clocked[clockedCount++] = part;
    }

    /**
     * Recompute {@link #nextPhaseEndNs} and {@link #callPhaseBooks} from the books (after a phase starts or ends:
     * rare).
     */
    void recomputePhases()
    {
        long earliest = Long.MAX_VALUE;
        int inCallPhase = 0;
        for (int i = 0, n = books.size(); i < n; i++)
        {
            final OrderBook book = books.get(i);
            earliest = Math.min(earliest, book.phaseEndNs());
            inCallPhase += book.instrument().inCallPhase() ? 1 : 0;
        }
        nextPhaseEndNs = earliest;
        callPhaseBooks = inCallPhase;
    }

    /** @return the venue's users. */
    public Users users()
    {
        return users;
    }

    /** @return orders accepted, trades and rejects since the venue began. */
    public VenueStatistics statistics()
    {
        return statistics;
    }

    /**
     * @return the open orders, by order id.
     */
    public OrderIndex orders()
    {
        return orders;
    }

    /** @return number of books. */
    public int bookCount()
    {
        return books.size();
    }

    /**
     * @param index creation order.
     * @return the book.
     */
    public OrderBook bookAt(final int index)
    {
        return books.get(index);
    }

    /** @return number of accounts. */
    public int accountCount()
    {
        return accounts.size();
    }

    /**
     * @param index creation order.
     * @return the account.
     */
    public Account accountAt(final int index)
    {
        return accounts.get(index);
    }

    /** @return last engine order id assigned. */
    public long lastOrderId()
    {
        return lastOrderId;
    }

    /** @return last trade id assigned. */
    public long lastTradeId()
    {
        return lastTradeId;
    }

    /** @return current epoch. */
    public long epoch()
    {
        return epoch;
    }

    /** @return venue kill switch. */
    public boolean venueKilled()
    {
        return venueKilled;
    }

    /** @return sequence of the last command processed. */
    public long lastSequence()
    {
        return lastSequence;
    }
}
