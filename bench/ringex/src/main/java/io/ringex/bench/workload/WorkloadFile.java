package io.ringex.bench.workload;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static io.ringex.bench.workload.WorkloadFileDescriptor.ACCOUNTS_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.COMMAND_COUNT_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.HEADER_LENGTH;
import static io.ringex.bench.workload.WorkloadFileDescriptor.HEADER_LENGTH_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.INSTRUMENTS_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.LOT_SIZE_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.MAGIC;
import static io.ringex.bench.workload.WorkloadFileDescriptor.MAGIC_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.MAX_PRICE_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.MIN_PRICE_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.PREFILL_COUNT_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.PRICE_BAND_TICKS_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.PRICE_SCALE_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.RECORD_LENGTH;
import static io.ringex.bench.workload.WorkloadFileDescriptor.RECORD_LENGTH_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.REFERENCE_PRICE_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.RESTING_ORDERS_TARGET_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.SEED_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.TICK_SIZE_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.VERSION;
import static io.ringex.bench.workload.WorkloadFileDescriptor.VERSION_OFFSET;

/**
 * A workload file mapped read-only (layout in {@link WorkloadFileDescriptor}). Opening validates the header and the
 * file length; iterating allocates nothing: {@link #command(long, WorkloadCommand)} wraps a caller's flyweight and
 * {@link #forEach(long, long, WorkloadCommand, WorkloadHandler)} walks a range.
 * <pre>
 * try (WorkloadFile file = WorkloadFile.open(path))
 * {
 *     final WorkloadPreamble preamble = WorkloadPreamble.of(file);   // instruments, accounts, funds, limits
 *     final WorkloadCommand command = new WorkloadCommand();
 *     file.forEach(0, file.prefillCount(), command, (i, c) -&gt; submit(c));          // untimed
 *     file.forEach(file.prefillCount(), file.recordCount(), command, (i, c) -&gt; submit(c)); // timed
 * }
 * </pre>
 * Threading: the mapping is read-only, so several threads may read one file, each with its own flyweight.
 */
public final class WorkloadFile implements AutoCloseable
{
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private final Path path;
    private final MappedByteBuffer mapped;
    private final UnsafeBuffer buffer;
    private final long recordCount;

    private WorkloadFile(final Path path, final MappedByteBuffer mapped)
    {
        this.path = path;
        this.mapped = mapped;
        this.buffer = new UnsafeBuffer(mapped);
        if (buffer.capacity() < HEADER_LENGTH)
        {
            throw new IllegalArgumentException(path + ": shorter than a workload header");
        }
        check(buffer.getInt(MAGIC_OFFSET, ORDER) == MAGIC, "bad magic, not a workload file");
        check(buffer.getInt(VERSION_OFFSET, ORDER) == VERSION,
            "version " + buffer.getInt(VERSION_OFFSET, ORDER) + ", this reader speaks " + VERSION);
        check(buffer.getInt(HEADER_LENGTH_OFFSET, ORDER) == HEADER_LENGTH, "header length");
        check(buffer.getInt(RECORD_LENGTH_OFFSET, ORDER) == RECORD_LENGTH, "record length");
        recordCount = prefillCount() + commandCount();
        check(WorkloadFileDescriptor.recordOffset(recordCount) == buffer.capacity(),
            "length " + buffer.capacity() + " does not match " + recordCount + " records");
    }

    /**
     * Map a workload file.
     *
     * @param path the file.
     * @return the open file; close it to unmap.
     * @throws IOException if it cannot be read.
     * @throws IllegalArgumentException if it is not a valid workload file of this version.
     */
    public static WorkloadFile open(final Path path) throws IOException
    {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ))
        {
            final long size = channel.size();
            if (size > Integer.MAX_VALUE)
            {
                throw new IllegalArgumentException(path + ": larger than 2 GiB");
            }
            return new WorkloadFile(path, channel.map(FileChannel.MapMode.READ_ONLY, 0, size));
        }
    }

    private void check(final boolean condition, final String what)
    {
        if (!condition)
        {
            throw new IllegalArgumentException(path + ": " + what);
        }
    }

    /** @return untimed records at the start that build the books. */
    public long prefillCount()
    {
        return buffer.getLong(PREFILL_COUNT_OFFSET, ORDER);
    }

    /** @return timed records after the prefill. */
    public long commandCount()
    {
        return buffer.getLong(COMMAND_COUNT_OFFSET, ORDER);
    }

    /** @return prefill plus timed records. */
    public long recordCount()
    {
        return recordCount;
    }

    /** @return the generator's seed. */
    public long seed()
    {
        return buffer.getLong(SEED_OFFSET, ORDER);
    }

    /** @return number of instruments; ids are 1..instruments. */
    public int instruments()
    {
        return buffer.getInt(INSTRUMENTS_OFFSET, ORDER);
    }

    /** @return number of accounts; ids are 1..accounts. */
    public int accounts()
    {
        return buffer.getInt(ACCOUNTS_OFFSET, ORDER);
    }

    /** @return decimal places of prices. */
    public int priceScale()
    {
        return buffer.getInt(PRICE_SCALE_OFFSET, ORDER);
    }

    /** @return the resting orders per instrument the generator aimed at. */
    public int restingOrdersTarget()
    {
        return buffer.getInt(RESTING_ORDERS_TARGET_OFFSET, ORDER);
    }

    /** @return tick size at the price scale. */
    public long tickSize()
    {
        return buffer.getLong(TICK_SIZE_OFFSET, ORDER);
    }

    /** @return lot size in units. */
    public long lotSize()
    {
        return buffer.getLong(LOT_SIZE_OFFSET, ORDER);
    }

    /** @return every instrument's reference price at the price scale. */
    public long referencePrice()
    {
        return buffer.getLong(REFERENCE_PRICE_OFFSET, ORDER);
    }

    /** @return the lowest price any record carries. */
    public long minPrice()
    {
        return buffer.getLong(MIN_PRICE_OFFSET, ORDER);
    }

    /** @return the highest price any record carries. */
    public long maxPrice()
    {
        return buffer.getLong(MAX_PRICE_OFFSET, ORDER);
    }

    /** @return the price band in ticks either side of the reference price. */
    public long priceBandTicks()
    {
        return buffer.getLong(PRICE_BAND_TICKS_OFFSET, ORDER);
    }

    /** @return the whole mapped file (header included), read-only by contract. */
    public UnsafeBuffer buffer()
    {
        return buffer;
    }

    /**
     * Wrap a flyweight at a record.
     *
     * @param index   0..recordCount-1.
     * @param command the caller's flyweight.
     * @return {@code command}.
     */
    public WorkloadCommand command(final long index, final WorkloadCommand command)
    {
        if (index < 0 || index >= recordCount)
        {
            throw new IndexOutOfBoundsException("record " + index + " of " + recordCount);
        }
        return command.wrap(buffer, (int)WorkloadFileDescriptor.recordOffset(index));
    }

    /**
     * Hand records {@code [from, to)} to a handler, in order, through one flyweight.
     *
     * @param from    first index.
     * @param to      one past the last index.
     * @param command the flyweight to reuse.
     * @param handler receives each record.
     */
    public void forEach(final long from, final long to, final WorkloadCommand command, final WorkloadHandler handler)
    {
        if (from < 0 || to > recordCount || from > to)
        {
            throw new IndexOutOfBoundsException("[" + from + ", " + to + ") of " + recordCount);
        }
        int offset = (int)WorkloadFileDescriptor.recordOffset(from);
        for (long i = from; i < to; i++)
        {
            handler.onCommand(i, command.wrap(buffer, offset));
            offset += RECORD_LENGTH;
        }
    }

    /** Unmap the file. */
    public void close()
    {
        IoUtil.unmap(mapped);
    }
}
