package io.ringex.bench.workload;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class WorkloadFileTest
{
    @TempDir
    Path dir;

    @Test
    void readerReturnsWhatTheWriterWrote() throws IOException
    {
        final Path path = dir.resolve("w.bin");
        final WorkloadSpec spec = new WorkloadSpec(20_000, 3, 10, 42, 50);
        final int records = 20_000;
        try (WorkloadWriter writer = new WorkloadWriter(path, spec))
        {
            for (int i = 0; i < records; i++)
            {
                if (i == 7)
                {
                    writer.endPrefill();
                }
                writer.write((byte)(1 + i % 5), (byte)(1 + i % 2), i % 3 + 1, i * 3L, i + 1L, -i, Long.MAX_VALUE - i,
                    Long.MIN_VALUE + i, i * 7L, i * 11L, i * 13L);
            }
        }

        try (WorkloadFile file = WorkloadFile.open(path))
        {
            assertEquals(7, file.prefillCount());
            assertEquals(records - 7, file.commandCount());
            assertEquals(records, file.recordCount());
            assertEquals(42, file.seed());
            assertEquals(3, file.instruments());
            assertEquals(10, file.accounts());
            assertEquals(50, file.restingOrdersTarget());
            assertEquals(WorkloadSpec.PRICE_SCALE, file.priceScale());
            assertEquals(WorkloadSpec.TICK_SIZE, file.tickSize());
            assertEquals(WorkloadSpec.LOT_SIZE, file.lotSize());
            assertEquals(WorkloadSpec.REFERENCE_PRICE, file.referencePrice());
            assertEquals(WorkloadSpec.MIN_PRICE, file.minPrice());
            assertEquals(WorkloadSpec.MAX_PRICE, file.maxPrice());
            assertEquals(WorkloadSpec.PRICE_BAND_TICKS, file.priceBandTicks());

            final List<Long> seen = new ArrayList<>();
            file.forEach(0, file.recordCount(), new WorkloadCommand(), (index, c) ->
            {
                final int i = (int)index;
                assertEquals(1 + i % 5, c.type());
                assertEquals(1 + i % 2, c.side());
                assertEquals(i % 3 + 1, c.instrumentId());
                assertEquals(i * 3L, c.accountId());
                assertEquals(i + 1L, c.orderId());
                assertEquals(-i, c.clientId());
                assertEquals(Long.MAX_VALUE - i, c.origClientId());
                assertEquals(Long.MIN_VALUE + i, c.price());
                assertEquals(i * 7L, c.size());
                assertEquals(i * 11L, c.newPrice());
                assertEquals(i * 13L, c.newSize());
                seen.add(index);
            });
            assertEquals(records, seen.size());
            assertEquals(records, file.command(records - 1, new WorkloadCommand()).orderId());
            assertThrows(IndexOutOfBoundsException.class, () -> file.command(records, new WorkloadCommand()));
        }
    }

    @Test
    void refusesAnotherVersionOrATruncatedFile() throws IOException
    {
        final Path path = dir.resolve("w.bin");
        WorkloadGenerator.generate(new WorkloadSpec(100, 1, 2, 1, 10), path);

        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE))
        {
            final ByteBuffer version = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 2);
            channel.write(version, WorkloadFileDescriptor.VERSION_OFFSET);
        }
        assertThrows(IllegalArgumentException.class, () -> WorkloadFile.open(path).close());

        WorkloadGenerator.generate(new WorkloadSpec(100, 1, 2, 1, 10), path);
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE))
        {
            channel.truncate(Files.size(path) - 1);
        }
        assertThrows(IllegalArgumentException.class, () -> WorkloadFile.open(path).close());
    }
}
