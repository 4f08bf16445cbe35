package io.ringex.bench.workload;

import java.io.IOException;
import java.nio.file.Path;
import java.util.SplittableRandom;

import static io.ringex.bench.workload.WorkloadFileDescriptor.SIDE_BUY;
import static io.ringex.bench.workload.WorkloadFileDescriptor.SIDE_SELL;

/**
 * Generates a workload shaped like exchange-core's throughput tests (its {@code TestOrdersGenerator}): GTC and IOC
 * places, cancels, moves and reduces over books held near a target depth (docs/benchmarks-engine.md, "The workload").
 * <p>
 * Every command first goes through a reference book ({@link ModelBook}), so it targets only live orders with their
 * current client id: on a correct engine every command succeeds. Deterministic: one {@link SplittableRandom} seeded
 * from the spec, so the same spec gives the same file, byte for byte, on any JVM.
 * <p>
 * Threading: single-threaded, one use per instance.
 */
public final class WorkloadGenerator
{
    /** Target mix of timed commands, in basis points. */
    public static final int GTC_BP = 1300;
    public static final int IOC_BP = 200;
    public static final int CANCEL_BP = 700;
    public static final int MOVE_BP = 7100;
    public static final int REDUCE_BP = 700;

    /** Passive GTCs rest up to this many ticks behind the mid (quadratic, denser near the touch). */
    static final int PASSIVE_DEPTH_TICKS = 900;

    /** Share of moves, in percent, that cross when the book is above its target. */
    static final int AGGRESSIVE_MOVE_PERCENT_ABOVE_TARGET = 25;

    /** Share of moves, in percent, that cross when the book is at or below its target. */
    static final int AGGRESSIVE_MOVE_PERCENT_BELOW_TARGET = 1;

    /** Share of GTCs, in percent, priced through the opposite best. */
    static final int MARKETABLE_GTC_PERCENT = 5;

    private static final int SAMPLE_EVERY = 1024;
    private static final int REDUCE_PICK_ATTEMPTS = 8;

    private final WorkloadSpec spec;
    private final SplittableRandom random;
    private final ModelBook[] books;
    private final WorkloadStats stats = new WorkloadStats();
    private final int buyers;
    private final int sellers;
    private long nextId = 1;
    private boolean timed;
    private WorkloadWriter writer;

    /**
     * @param spec what to generate.
     */
    public WorkloadGenerator(final WorkloadSpec spec)
    {
        this.spec = spec;
        this.random = new SplittableRandom(spec.seed());
        this.books = new ModelBook[spec.instruments()];
        for (int i = 0; i < books.length; i++)
        {
            books[i] = new ModelBook();
        }
        buyers = (spec.accounts() + 1) / 2;
        sellers = spec.accounts() / 2;
    }

    /**
     * Generate a workload file.
     *
     * @param spec what to generate.
     * @param out  the file to write.
     * @return what was generated.
     * @throws IOException if writing fails.
     */
    public static WorkloadStats generate(final WorkloadSpec spec, final Path out) throws IOException
    {
        try (WorkloadWriter writer = new WorkloadWriter(out, spec))
        {
            return new WorkloadGenerator(spec).generate(writer);
        }
    }

    /**
     * Generate into a writer: the prefill, then the timed commands. The caller closes the writer.
     *
     * @param writer where records go.
     * @return what was generated.
     * @throws IOException if writing fails.
     */
    public WorkloadStats generate(final WorkloadWriter writer) throws IOException
    {
        this.writer = writer;
        prefill();
        writer.endPrefill();
        timed = true;
        long tradesAfterPrefill = 0;
        for (final ModelBook book : books)
        {
            tradesAfterPrefill += book.trades();
        }

        for (long i = 0; i < spec.commands(); i++)
        {
            final int bookIndex = random.nextInt(books.length);
            command(bookIndex + 1, books[bookIndex]);
            if ((i & (SAMPLE_EVERY - 1)) == 0)
            {
                sample();
            }
        }

        long trades = 0;
        for (final ModelBook book : books)
        {
            trades += book.trades();
        }
        stats.trades = trades - tradesAfterPrefill;
        return stats;
    }

    private void prefill() throws IOException
    {
        boolean placed = true;
        while (placed)
        {
            placed = false;
            for (int i = 0; i < books.length; i++)
            {
                final ModelBook book = books[i];
                if (book.liveCount() < spec.restingOrdersPerInstrument())
                {
                    final byte side = random.nextBoolean() ? SIDE_BUY : SIDE_SELL;
                    placeGtc(i + 1, book, side, passivePrice(book, side == SIDE_BUY));
                    stats.prefill++;
                    placed = true;
                }
            }
        }
    }

    private void sample()
    {
        long resting = 0;
        long levels = 0;
        for (final ModelBook book : books)
        {
            resting += book.liveCount();
            levels += book.levelCount();
        }
        stats.samples++;
        stats.restingOrdersSum += (double)resting / books.length;
        stats.priceLevelsSum += (double)levels / books.length;
    }

    private void command(final int instrumentId, final ModelBook book) throws IOException
    {
        int draw = random.nextInt(10_000);
        final int stopBp = 100 * spec.stopPercent();
        final int icebergBp = 100 * spec.icebergPercent();
        if (stopBp + icebergBp > 0)
        {
            if (draw < stopBp)
            {
                // stops feed a trend (each trade triggers more on its side): three in four lean against the
                // distance from the reference, buys below it and sells above, so the price stays on the grid
                final boolean below = book.lastTradePrice(WorkloadSpec.REFERENCE_PRICE) < WorkloadSpec.REFERENCE_PRICE;
                placeStopLimit(instrumentId, book, below == (random.nextInt(4) != 0) ? SIDE_BUY : SIDE_SELL);
                return;
            }
            if (draw < stopBp + icebergBp)
            {
                final byte side = random.nextBoolean() ? SIDE_BUY : SIDE_SELL;
                placeIceberg(instrumentId, book, side, passivePrice(book, side == SIDE_BUY));
                return;
            }
            draw = (int)((draw - stopBp - icebergBp) * 10_000L / (10_000 - stopBp - icebergBp));
        }
        if (draw >= GTC_BP + IOC_BP && book.liveCount() > 0)
        {
            final int excess = book.liveCount() - spec.restingOrdersPerInstrument();
            if (draw < GTC_BP + IOC_BP + CANCEL_BP ||
                (stopBp + icebergBp > 0 && excess > 0 && random.nextInt(2_000) < excess))
            {
                // stops and icebergs add resting orders the exchange-core mix has no answer to: the further the book
                // is above its target, the more commands are cancels (neutral: crossing more walks the price)
                cancel(instrumentId, book, book.randomLive(random));
            }
            else if (draw < GTC_BP + IOC_BP + CANCEL_BP + MOVE_BP || !reduce(instrumentId, book))
            {
                move(instrumentId, book, book.randomLive(random));
            }
            return;
        }

        final byte side = random.nextBoolean() ? SIDE_BUY : SIDE_SELL;
        if (draw >= GTC_BP && draw < GTC_BP + IOC_BP)
        {
            placeIoc(instrumentId, book, side);
        }
        else
        {
            final boolean buy = side == SIDE_BUY;
            final long opposite = buy ? book.bestAsk() : book.bestBid();
            final long price = opposite != ModelBook.NO_PRICE && random.nextInt(100) < MARKETABLE_GTC_PERCENT ?
                clamp(buy ? opposite + random.nextInt(3) : opposite - random.nextInt(3)) :
                passivePrice(book, buy);
            placeGtc(instrumentId, book, side, price);
        }
    }

    private void placeGtc(final int instrumentId, final ModelBook book, final byte side, final long price)
        throws IOException
    {
        final long orderId = nextId++;
        final ModelOrder order = new ModelOrder(orderId, account(side), side, price, size());
        writer.write(WorkloadCommandType.PLACE_GTC, side, instrumentId, order.accountId, orderId, orderId, 0,
            price, order.total, 0, 0);
        stats.countsByType[WorkloadCommandType.PLACE_GTC] += timed ? 1 : 0;
        book.place(order, true);
    }

    private void placeStopLimit(final int instrumentId, final ModelBook book, final byte side) throws IOException
    {
        final boolean buy = side == SIDE_BUY;
        final long last = book.lastTradePrice(WorkloadSpec.REFERENCE_PRICE);
        final long stopPrice = buy ? last + 1 + random.nextInt(10) : last - 1 - random.nextInt(10);
        // a limit 20-50 ticks back behind the stop, so a triggered stop rests in the depth: stops that chased, or
        // rested at the touch, would feed on each other and walk the price to the edge of the grid
        final long offset = -20 - random.nextInt(31);
        final long limit = buy ? stopPrice + offset : stopPrice - offset;
        if (limit < WorkloadSpec.MIN_PRICE || limit > WorkloadSpec.MAX_PRICE)
        {
            stats.priceClamps++;
            placeGtc(instrumentId, book, side, passivePrice(book, buy));
            return;
        }
        final long orderId = nextId++;
        final ModelOrder order = new ModelOrder(orderId, account(side), side, limit, size());
        writer.write(WorkloadCommandType.PLACE_STOP_LIMIT, side, instrumentId, order.accountId, orderId, orderId, 0,
            limit, order.total, stopPrice, 0);
        stats.countsByType[WorkloadCommandType.PLACE_STOP_LIMIT]++;
        book.placeStop(order, stopPrice);
    }

    private void placeIceberg(final int instrumentId, final ModelBook book, final byte side, final long price)
        throws IOException
    {
        final long orderId = nextId++;
        final ModelOrder order = new ModelOrder(orderId, account(side), side, price, size());
        order.display = Math.max(1, order.total / (2 + random.nextInt(4)));
        writer.write(WorkloadCommandType.PLACE_ICEBERG, side, instrumentId, order.accountId, orderId, orderId, 0,
            price, order.total, 0, order.display);
        stats.countsByType[WorkloadCommandType.PLACE_ICEBERG]++;
        book.place(order, true);
    }

    private void placeIoc(final int instrumentId, final ModelBook book, final byte side) throws IOException
    {
        final long orderId = nextId++;
        final long price = side == SIDE_BUY ? WorkloadSpec.MAX_PRICE : WorkloadSpec.MIN_PRICE;
        final ModelOrder order = new ModelOrder(orderId, account(side), side, price, size());
        writer.write(WorkloadCommandType.PLACE_IOC, side, instrumentId, order.accountId, orderId, orderId, 0,
            price, order.total, 0, 0);
        stats.countsByType[WorkloadCommandType.PLACE_IOC]++;
        book.place(order, false);
    }

    private void cancel(final int instrumentId, final ModelBook book, final ModelOrder order) throws IOException
    {
        writer.write(WorkloadCommandType.CANCEL, order.side, instrumentId, order.accountId, order.orderId, nextId++,
            order.clientId, order.price, order.open(), 0, 0);
        stats.countsByType[WorkloadCommandType.CANCEL]++;
        book.cancel(order);
    }

    private void move(final int instrumentId, final ModelBook book, final ModelOrder order) throws IOException
    {
        final boolean buy = order.isBuy();
        final long opposite = buy ? book.bestAsk() : book.bestBid();
        final int aggressivePercent = book.liveCount() > spec.restingOrdersPerInstrument() ?
            AGGRESSIVE_MOVE_PERCENT_ABOVE_TARGET : AGGRESSIVE_MOVE_PERCENT_BELOW_TARGET;
        long newPrice;
        if (opposite != ModelBook.NO_PRICE && random.nextInt(100) < aggressivePercent)
        {
            newPrice = opposite;
        }
        else
        {
            final int delta = 1 + random.nextInt(3);
            newPrice = random.nextBoolean() ? order.price + delta : order.price - delta;
            if (opposite != ModelBook.NO_PRICE && (buy ? newPrice >= opposite : newPrice <= opposite))
            {
                newPrice = buy ? order.price - delta : order.price + delta;
            }
            newPrice = clamp(newPrice);
            if (newPrice == order.price)
            {
                newPrice = clamp(buy ? order.price - 1 : order.price + 1);
                if (newPrice == order.price)
                {
                    newPrice = buy ? order.price + 1 : order.price - 1;
                }
            }
        }

        final long clientId = nextId++;
        writer.write(WorkloadCommandType.MOVE, order.side, instrumentId, order.accountId, order.orderId, clientId,
            order.clientId, order.price, 0, newPrice, order.total);
        stats.countsByType[WorkloadCommandType.MOVE]++;
        order.clientId = clientId;
        book.move(order, newPrice);
    }

    private boolean reduce(final int instrumentId, final ModelBook book) throws IOException
    {
        for (int attempt = 0; attempt < REDUCE_PICK_ATTEMPTS; attempt++)
        {
            final ModelOrder order = book.randomLive(random);
            final long open = order.open();
            if (open >= 2)
            {
                final long delta = 1 + random.nextLong(open - 1);
                final long clientId = nextId++;
                writer.write(WorkloadCommandType.REDUCE, order.side, instrumentId, order.accountId, order.orderId,
                    clientId, order.clientId, order.price, delta, order.price, order.total - delta);
                stats.countsByType[WorkloadCommandType.REDUCE]++;
                order.clientId = clientId;
                book.reduce(order, delta);
                return true;
            }
        }
        return false;
    }

    private long passivePrice(final ModelBook book, final boolean buy)
    {
        final long bestBid = book.bestBid();
        final long bestAsk = book.bestAsk();
        final long mid;
        if (bestBid != ModelBook.NO_PRICE && bestAsk != ModelBook.NO_PRICE)
        {
            mid = (bestBid + bestAsk) / 2;
        }
        else if (bestBid != ModelBook.NO_PRICE)
        {
            mid = bestBid + 1;
        }
        else if (bestAsk != ModelBook.NO_PRICE)
        {
            mid = bestAsk - 1;
        }
        else
        {
            mid = WorkloadSpec.REFERENCE_PRICE;
        }

        final double u = random.nextDouble();
        final long depth = (long)(PASSIVE_DEPTH_TICKS * u * u);
        long price;
        if (buy)
        {
            price = mid - depth;
            if (bestAsk != ModelBook.NO_PRICE && price >= bestAsk)
            {
                price = bestAsk - 1;
            }
        }
        else
        {
            price = mid + 1 + depth;
            if (bestBid != ModelBook.NO_PRICE && price <= bestBid)
            {
                price = bestBid + 1;
            }
        }
        return clamp(price);
    }

    private long clamp(final long price)
    {
        if (price < WorkloadSpec.MIN_PRICE)
        {
            stats.priceClamps++;
            return WorkloadSpec.MIN_PRICE;
        }
        if (price > WorkloadSpec.MAX_PRICE)
        {
            stats.priceClamps++;
            return WorkloadSpec.MAX_PRICE;
        }
        return price;
    }

    private long account(final byte side)
    {
        return side == SIDE_BUY ? 1 + 2L * random.nextInt(buyers) : 2 + 2L * random.nextInt(sellers);
    }

    private long size()
    {
        return 1 + random.nextInt(6) * random.nextInt(6) * random.nextInt(6);
    }
}
