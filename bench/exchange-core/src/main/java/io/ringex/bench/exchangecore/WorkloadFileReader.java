package io.ringex.bench.exchangecore;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The peer's own reader of a Ringex workload file. This module may not depend on Ringex (exchange-core brings
 * Agrona 1.x), so the constants below MIRROR {@code io.ringex.bench.workload.WorkloadFileDescriptor} (version 1):
 * same values, same meanings, documented there with the layout diagram. {@link #open(Path)} refuses a file whose
 * magic, version, header length or record length differ, so a layout change on the Ringex side fails loudly here
 * instead of being misread; {@code WorkloadFileDescriptorTest} in bench/ringex pins the values on that side.
 * <p>
 * Threading: single-threaded; reads through absolute gets on one mapping, allocating nothing per record.
 */
final class WorkloadFileReader implements AutoCloseable
{
    static final int MAGIC = 0x4C575852;
    static final int VERSION = 1;
    static final int HEADER_LENGTH = 128;
    static final int RECORD_LENGTH = 72;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 4;
    static final int HEADER_LENGTH_OFFSET = 8;
    static final int RECORD_LENGTH_OFFSET = 12;
    static final int PREFILL_COUNT_OFFSET = 16;
    static final int COMMAND_COUNT_OFFSET = 24;
    static final int INSTRUMENTS_OFFSET = 40;
    static final int ACCOUNTS_OFFSET = 44;
    static final int MIN_PRICE_OFFSET = 80;
    static final int MAX_PRICE_OFFSET = 88;

    static final int TYPE_OFFSET = 0;
    static final int SIDE_OFFSET = 1;
    static final int INSTRUMENT_ID_OFFSET = 4;
    static final int ACCOUNT_ID_OFFSET = 8;
    static final int ORDER_ID_OFFSET = 16;
    static final int PRICE_OFFSET = 40;
    static final int SIZE_OFFSET = 48;
    static final int NEW_PRICE_OFFSET = 56;

    static final byte PLACE_GTC = 1;
    static final byte PLACE_IOC = 2;
    static final byte CANCEL = 3;
    static final byte MOVE = 4;
    static final byte REDUCE = 5;

    static final byte SIDE_BUY = 1;

    private final MappedByteBuffer buffer;
    private final long prefillCount;
    private final long commandCount;

    private WorkloadFileReader(final Path path, final MappedByteBuffer buffer)
    {
        this.buffer = buffer;
        buffer.order(ByteOrder.LITTLE_ENDIAN);
        if (buffer.capacity() < HEADER_LENGTH ||
            buffer.getInt(MAGIC_OFFSET) != MAGIC ||
            buffer.getInt(VERSION_OFFSET) != VERSION ||
            buffer.getInt(HEADER_LENGTH_OFFSET) != HEADER_LENGTH ||
            buffer.getInt(RECORD_LENGTH_OFFSET) != RECORD_LENGTH)
        {
            throw new IllegalArgumentException(path + ": not a version " + VERSION + " Ringex workload file (magic, " +
                "version or lengths differ: update the peer's mirror of WorkloadFileDescriptor)");
        }
        prefillCount = buffer.getLong(PREFILL_COUNT_OFFSET);
        commandCount = buffer.getLong(COMMAND_COUNT_OFFSET);
        if (HEADER_LENGTH + (prefillCount + commandCount) * RECORD_LENGTH != buffer.capacity())
        {
            throw new IllegalArgumentException(path + ": length does not match its record counts");
        }
    }

    static WorkloadFileReader open(final Path path) throws IOException
    {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ))
        {
            if (channel.size() > Integer.MAX_VALUE)
            {
                throw new IllegalArgumentException(path + ": larger than 2 GiB");
            }
            return new WorkloadFileReader(path, channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size()));
        }
    }

    long prefillCount()
    {
        return prefillCount;
    }

    long commandCount()
    {
        return commandCount;
    }

    int instruments()
    {
        return buffer.getInt(INSTRUMENTS_OFFSET);
    }

    int accounts()
    {
        return buffer.getInt(ACCOUNTS_OFFSET);
    }

    long minPrice()
    {
        return buffer.getLong(MIN_PRICE_OFFSET);
    }

    long maxPrice()
    {
        return buffer.getLong(MAX_PRICE_OFFSET);
    }

    private static int offset(final long index)
    {
        return (int)(HEADER_LENGTH + index * RECORD_LENGTH);
    }

    byte type(final long index)
    {
        return buffer.get(offset(index) + TYPE_OFFSET);
    }

    byte side(final long index)
    {
        return buffer.get(offset(index) + SIDE_OFFSET);
    }

    int instrumentId(final long index)
    {
        return buffer.getInt(offset(index) + INSTRUMENT_ID_OFFSET);
    }

    long accountId(final long index)
    {
        return buffer.getLong(offset(index) + ACCOUNT_ID_OFFSET);
    }

    long orderId(final long index)
    {
        return buffer.getLong(offset(index) + ORDER_ID_OFFSET);
    }

    long price(final long index)
    {
        return buffer.getLong(offset(index) + PRICE_OFFSET);
    }

    long size(final long index)
    {
        return buffer.getLong(offset(index) + SIZE_OFFSET);
    }

    long newPrice(final long index)
    {
        return buffer.getLong(offset(index) + NEW_PRICE_OFFSET);
    }

    /** Nothing to release explicitly: the mapping goes with the buffer. */
    public void close()
    {
    }
}
