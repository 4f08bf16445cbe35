package io.ringex.bench.exchangecore;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The peer's mirror of the workload layout. The values asserted here are the ones WorkloadFileDescriptorTest pins
 * on the Ringex side; together the two tests keep the mirror honest without a dependency between the modules.
 */
class WorkloadFileReaderTest
{
    @TempDir
    Path dir;

    @Test
    void mirrorHasTheDescriptorsValues()
    {
        assertEquals(0x4C575852, WorkloadFileReader.MAGIC);
        assertEquals(1, WorkloadFileReader.VERSION);
        assertEquals(128, WorkloadFileReader.HEADER_LENGTH);
        assertEquals(72, WorkloadFileReader.RECORD_LENGTH);
        assertEquals(16, WorkloadFileReader.PREFILL_COUNT_OFFSET);
        assertEquals(24, WorkloadFileReader.COMMAND_COUNT_OFFSET);
        assertEquals(40, WorkloadFileReader.INSTRUMENTS_OFFSET);
        assertEquals(44, WorkloadFileReader.ACCOUNTS_OFFSET);
        assertEquals(80, WorkloadFileReader.MIN_PRICE_OFFSET);
        assertEquals(88, WorkloadFileReader.MAX_PRICE_OFFSET);
        assertEquals(0, WorkloadFileReader.TYPE_OFFSET);
        assertEquals(1, WorkloadFileReader.SIDE_OFFSET);
        assertEquals(4, WorkloadFileReader.INSTRUMENT_ID_OFFSET);
        assertEquals(8, WorkloadFileReader.ACCOUNT_ID_OFFSET);
        assertEquals(16, WorkloadFileReader.ORDER_ID_OFFSET);
        assertEquals(40, WorkloadFileReader.PRICE_OFFSET);
        assertEquals(48, WorkloadFileReader.SIZE_OFFSET);
        assertEquals(56, WorkloadFileReader.NEW_PRICE_OFFSET);
    }

    @Test
    void readsRecordsAndRefusesAnotherVersion() throws IOException
    {
        final Path path = dir.resolve("w.bin");
        final ByteBuffer file = file(WorkloadFileReader.VERSION);
        Files.write(path, file.array());
        try (WorkloadFileReader reader = WorkloadFileReader.open(path))
        {
            assertEquals(1, reader.prefillCount());
            assertEquals(1, reader.commandCount());
            assertEquals(3, reader.instruments());
            assertEquals(20, reader.accounts());
            assertEquals(6_000, reader.minPrice());
            assertEquals(14_000, reader.maxPrice());
            assertEquals(WorkloadFileReader.MOVE, reader.type(1));
            assertEquals(2, reader.side(1));
            assertEquals(3, reader.instrumentId(1));
            assertEquals(8, reader.accountId(1));
            assertEquals(77, reader.orderId(1));
            assertEquals(10_001, reader.price(1));
            assertEquals(0, reader.size(1));
            assertEquals(10_003, reader.newPrice(1));
        }

        Files.write(path, file(WorkloadFileReader.VERSION + 1).array());
        assertThrows(IllegalArgumentException.class, () -> WorkloadFileReader.open(path).close());
    }

    private static ByteBuffer file(final int version)
    {
        final int length = WorkloadFileReader.HEADER_LENGTH + 2 * WorkloadFileReader.RECORD_LENGTH;
        final ByteBuffer b = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(WorkloadFileReader.MAGIC_OFFSET, WorkloadFileReader.MAGIC);
        b.putInt(WorkloadFileReader.VERSION_OFFSET, version);
        b.putInt(WorkloadFileReader.HEADER_LENGTH_OFFSET, WorkloadFileReader.HEADER_LENGTH);
        b.putInt(WorkloadFileReader.RECORD_LENGTH_OFFSET, WorkloadFileReader.RECORD_LENGTH);
        b.putLong(WorkloadFileReader.PREFILL_COUNT_OFFSET, 1);
        b.putLong(WorkloadFileReader.COMMAND_COUNT_OFFSET, 1);
        b.putInt(WorkloadFileReader.INSTRUMENTS_OFFSET, 3);
        b.putInt(WorkloadFileReader.ACCOUNTS_OFFSET, 20);
        b.putLong(WorkloadFileReader.MIN_PRICE_OFFSET, 6_000);
        b.putLong(WorkloadFileReader.MAX_PRICE_OFFSET, 14_000);
        final int r = WorkloadFileReader.HEADER_LENGTH + WorkloadFileReader.RECORD_LENGTH;
        b.put(r + WorkloadFileReader.TYPE_OFFSET, WorkloadFileReader.MOVE);
        b.put(r + WorkloadFileReader.SIDE_OFFSET, (byte)2);
        b.putInt(r + WorkloadFileReader.INSTRUMENT_ID_OFFSET, 3);
        b.putLong(r + WorkloadFileReader.ACCOUNT_ID_OFFSET, 8);
        b.putLong(r + WorkloadFileReader.ORDER_ID_OFFSET, 77);
        b.putLong(r + WorkloadFileReader.PRICE_OFFSET, 10_001);
        b.putLong(r + WorkloadFileReader.NEW_PRICE_OFFSET, 10_003);
        return b;
    }
}
