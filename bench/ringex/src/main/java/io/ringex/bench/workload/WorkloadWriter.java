package io.ringex.bench.workload;

import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static io.ringex.bench.workload.WorkloadFileDescriptor.ACCOUNTS_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.ACCOUNT_ID_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.CLIENT_ID_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.COMMAND_COUNT_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.HEADER_LENGTH;
import static io.ringex.bench.workload.WorkloadFileDescriptor.HEADER_LENGTH_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.INSTRUMENTS_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.INSTRUMENT_ID_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.LOT_SIZE_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.MAGIC;
import static io.ringex.bench.workload.WorkloadFileDescriptor.MAGIC_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.MAX_PRICE_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.MIN_PRICE_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.NEW_PRICE_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.NEW_SIZE_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.ORDER_ID_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.ORIG_CLIENT_ID_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.PREFILL_COUNT_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.PRICE_BAND_TICKS_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.PRICE_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.PRICE_SCALE_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.RECORD_LENGTH;
import static io.ringex.bench.workload.WorkloadFileDescriptor.RECORD_LENGTH_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.REFERENCE_PRICE_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.RESTING_ORDERS_TARGET_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.SEED_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.SIDE_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.SIZE_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.TICK_SIZE_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.TYPE_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.VERSION;
import static io.ringex.bench.workload.WorkloadFileDescriptor.VERSION_OFFSET;

/**
 * Writes a workload file (layout in {@link WorkloadFileDescriptor}): records are batched in a direct buffer and
 * appended; the header, which holds the counts, is written on {@link #close()}. A file is complete only after
 * close.
 * <p>
 * Threading: single-threaded.
 */
public final class WorkloadWriter implements AutoCloseable
{
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    private static final int BATCH_RECORDS = 8192;

    private final FileChannel channel;
    private final WorkloadSpec spec;
    private final ByteBuffer batch = ByteBuffer.allocateDirect(BATCH_RECORDS * RECORD_LENGTH);
    private final UnsafeBuffer batchBuffer = new UnsafeBuffer(batch);
    private int batchRecords;
    private long prefillCount = -1;
    private long records;

    /**
     * Create (or truncate) a workload file.
     *
     * @param path where to write.
     * @param spec what the header describes.
     * @throws IOException if it cannot be created.
     */
    public WorkloadWriter(final Path path, final WorkloadSpec spec) throws IOException
    {
        this.spec = spec;
        channel = FileChannel.open(
            path, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        channel.position(HEADER_LENGTH);
    }

    /**
     * Mark the end of the prefill: the records written so far are untimed.
     */
    public void endPrefill()
    {
        prefillCount = records;
    }

    /**
     * Append one record; see {@link WorkloadFileDescriptor} for what each field means per type.
     *
     * @param type         a {@link WorkloadCommandType}.
     * @param side         {@link WorkloadFileDescriptor#SIDE_BUY} or {@link WorkloadFileDescriptor#SIDE_SELL}.
     * @param instrumentId instrument.
     * @param accountId    account.
     * @param orderId      the order's id from its placement.
     * @param clientId     this request's id.
     * @param origClientId the target order's current client id, 0 for places.
     * @param price        price.
     * @param size         size.
     * @param newPrice     replace's new price.
     * @param newSize      replace's new total quantity.
     * @throws IOException if the append fails.
     */
    public void write(
        final byte type,
        final byte side,
        final int instrumentId,
        final long accountId,
        final long orderId,
        final long clientId,
        final long origClientId,
        final long price,
        final long size,
        final long newPrice,
        final long newSize) throws IOException
    {
        final int offset = batchRecords * RECORD_LENGTH;
        batchBuffer.putByte(offset + TYPE_OFFSET, type);
        batchBuffer.putByte(offset + SIDE_OFFSET, side);
        batchBuffer.putShort(offset + SIDE_OFFSET + 1, (short)0, ORDER);
        batchBuffer.putInt(offset + INSTRUMENT_ID_OFFSET, instrumentId, ORDER);
        batchBuffer.putLong(offset + ACCOUNT_ID_OFFSET, accountId, ORDER);
        batchBuffer.putLong(offset + ORDER_ID_OFFSET, orderId, ORDER);
        batchBuffer.putLong(offset + CLIENT_ID_OFFSET, clientId, ORDER);
        batchBuffer.putLong(offset + ORIG_CLIENT_ID_OFFSET, origClientId, ORDER);
        batchBuffer.putLong(offset + PRICE_OFFSET, price, ORDER);
        batchBuffer.putLong(offset + SIZE_OFFSET, size, ORDER);
        batchBuffer.putLong(offset + NEW_PRICE_OFFSET, newPrice, ORDER);
        batchBuffer.putLong(offset + NEW_SIZE_OFFSET, newSize, ORDER);
        records++;
        if (++batchRecords == BATCH_RECORDS)
        {
            flush();
        }
    }

    /** @return records written so far. */
    public long records()
    {
        return records;
    }

    private void flush() throws IOException
    {
        batch.clear().limit(batchRecords * RECORD_LENGTH);
        while (batch.hasRemaining())
        {
            channel.write(batch);
        }
        batchRecords = 0;
    }

    /**
     * Flush, write the header and close.
     *
     * @throws IOException if writing fails.
     */
    public void close() throws IOException
    {
        try
        {
            flush();
            final long prefill = prefillCount < 0 ? 0 : prefillCount;
            final ByteBuffer header = ByteBuffer.allocate(HEADER_LENGTH).order(ORDER);
            header.putInt(MAGIC_OFFSET, MAGIC);
            header.putInt(VERSION_OFFSET, VERSION);
            header.putInt(HEADER_LENGTH_OFFSET, HEADER_LENGTH);
            header.putInt(RECORD_LENGTH_OFFSET, RECORD_LENGTH);
            header.putLong(PREFILL_COUNT_OFFSET, prefill);
            header.putLong(COMMAND_COUNT_OFFSET, records - prefill);
            header.putLong(SEED_OFFSET, spec.seed());
            header.putInt(INSTRUMENTS_OFFSET, spec.instruments());
            header.putInt(ACCOUNTS_OFFSET, spec.accounts());
            header.putInt(PRICE_SCALE_OFFSET, WorkloadSpec.PRICE_SCALE);
            header.putInt(RESTING_ORDERS_TARGET_OFFSET, spec.restingOrdersPerInstrument());
            header.putLong(TICK_SIZE_OFFSET, WorkloadSpec.TICK_SIZE);
            header.putLong(LOT_SIZE_OFFSET, WorkloadSpec.LOT_SIZE);
            header.putLong(REFERENCE_PRICE_OFFSET, WorkloadSpec.REFERENCE_PRICE);
            header.putLong(MIN_PRICE_OFFSET, WorkloadSpec.MIN_PRICE);
            header.putLong(MAX_PRICE_OFFSET, WorkloadSpec.MAX_PRICE);
            header.putLong(PRICE_BAND_TICKS_OFFSET, WorkloadSpec.PRICE_BAND_TICKS);
            while (header.hasRemaining())
            {
                channel.write(header, header.position());
            }
        }
        finally
        {
            channel.close();
        }
    }
}
