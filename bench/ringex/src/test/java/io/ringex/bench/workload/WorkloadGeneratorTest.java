package io.ringex.bench.workload;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WorkloadGeneratorTest
{
    private static final double TOLERANCE = 0.02;

    @TempDir
    Path dir;

    @Test
    void sameSeedSameBytesOtherSeedOtherBytes() throws IOException
    {
        final Path a = dir.resolve("a.bin");
        final Path b = dir.resolve("b.bin");
        final Path c = dir.resolve("c.bin");
        WorkloadGenerator.generate(new WorkloadSpec(30_000, 4, 100, 7, 200), a);
        WorkloadGenerator.generate(new WorkloadSpec(30_000, 4, 100, 7, 200), b);
        WorkloadGenerator.generate(new WorkloadSpec(30_000, 4, 100, 8, 200), c);

        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b));
        assertFalse(java.util.Arrays.equals(Files.readAllBytes(a), Files.readAllBytes(c)));
    }

    @Test
    void mixAndBookShapeAreOnTarget() throws IOException
    {
        final Path path = dir.resolve("w.bin");
        final WorkloadStats stats = WorkloadGenerator.generate(
            new WorkloadSpec(300_000, 1, WorkloadSpec.DEFAULT_ACCOUNTS, 1, WorkloadSpec.DEFAULT_RESTING_ORDERS), path);

        assertEquals(300_000, stats.commands());
        assertEquals(0.13, stats.share(WorkloadCommandType.PLACE_GTC), TOLERANCE);
        assertEquals(0.02, stats.share(WorkloadCommandType.PLACE_IOC), TOLERANCE);
        assertEquals(0.07, stats.share(WorkloadCommandType.CANCEL), TOLERANCE);
        assertEquals(0.71, stats.share(WorkloadCommandType.MOVE), TOLERANCE);
        assertEquals(0.07, stats.share(WorkloadCommandType.REDUCE), TOLERANCE);
        assertEquals(1_000, stats.meanRestingOrdersPerBook(), 100);
        assertEquals(750, stats.meanPriceLevelsPerBook(), 100);
        assertEquals(0, stats.priceClamps());

        // the file agrees with the stats
        final long[] counts = new long[WorkloadCommandType.TYPE_COUNT];
        try (WorkloadFile file = WorkloadFile.open(path))
        {
            assertEquals(1_000, file.prefillCount());
            file.forEach(file.prefillCount(), file.recordCount(), new WorkloadCommand(),
                (i, c) -> counts[c.type()]++);
        }
        for (int type = 1; type < WorkloadCommandType.TYPE_COUNT; type++)
        {
            assertEquals(stats.count(type), counts[type], WorkloadCommandType.name(type));
        }
    }

    @Test
    void cancelsMovesAndReducesTargetLiveOrdersOnly() throws IOException
    {
        final Path path = dir.resolve("w.bin");
        final WorkloadSpec spec = new WorkloadSpec(60_000, 3, 50, 3, 150);
        WorkloadGenerator.generate(spec, path);

        final NaiveBook[] books = {new NaiveBook(), new NaiveBook(), new NaiveBook()};
        final Set<Long> requestIds = new HashSet<>();
        try (WorkloadFile file = WorkloadFile.open(path))
        {
            file.forEach(0, file.recordCount(), new WorkloadCommand(), (index, c) ->
            {
                final NaiveBook book = books[c.instrumentId() - 1];
                final boolean buy = c.side() == WorkloadFileDescriptor.SIDE_BUY;
                assertTrue(c.side() == WorkloadFileDescriptor.SIDE_BUY || c.side() == WorkloadFileDescriptor.SIDE_SELL);
                assertEquals(buy, (c.accountId() & 1) == 1, "buyers are odd accounts, sellers even");
                assertTrue(c.accountId() >= 1 && c.accountId() <= spec.accounts());
                assertTrue(requestIds.add(c.clientId()), "client ids are unique: " + c);
                if (index < file.prefillCount())
                {
                    assertEquals(WorkloadCommandType.PLACE_GTC, c.type());
                }

                final byte type = c.type();
                if (type == WorkloadCommandType.PLACE_GTC || type == WorkloadCommandType.PLACE_IOC)
                {
                    assertEquals(c.orderId(), c.clientId());
                    assertEquals(0, c.origClientId());
                    assertInGrid(c.price());
                    assertTrue(c.size() >= 1 && c.size() <= 126);
                    book.place(new NaiveBook.Order(c.orderId(), c.accountId(), buy, c.price(), c.size()),
                        type == WorkloadCommandType.PLACE_GTC);
                    return;
                }

                final NaiveBook.Order order = book.find(c.orderId());
                assertNotNull(order, "targets a live order: " + c);
                assertEquals(order.accountId, c.accountId());
                assertEquals(order.buy, buy);
                assertEquals(order.clientId, c.origClientId(), "carries the order's current client id");
                assertEquals(order.price, c.price());
                switch (type)
                {
                    case WorkloadCommandType.CANCEL:
                        assertEquals(order.open(), c.size());
                        book.cancel(order);
                        break;
                    case WorkloadCommandType.MOVE:
                        assertTrue(c.newPrice() != order.price, "a move changes the price");
                        assertInGrid(c.newPrice());
                        assertEquals(order.total, c.newSize());
                        order.clientId = c.clientId();
                        book.move(order, c.newPrice());
                        break;
                    case WorkloadCommandType.REDUCE:
                        assertTrue(c.size() >= 1 && c.size() < order.open(), "a reduce leaves the order live");
                        assertEquals(order.price, c.newPrice());
                        assertEquals(order.total - c.size(), c.newSize());
                        order.total -= c.size();
                        order.clientId = c.clientId();
                        break;
                    default:
                        throw new AssertionError("unknown type " + c);
                }
            });
        }
    }

    private static void assertInGrid(final long price)
    {
        assertTrue(price >= WorkloadSpec.MIN_PRICE && price <= WorkloadSpec.MAX_PRICE, "price " + price);
        assertTrue(Math.abs(price - WorkloadSpec.REFERENCE_PRICE) <= WorkloadSpec.PRICE_BAND_TICKS);
    }
}
