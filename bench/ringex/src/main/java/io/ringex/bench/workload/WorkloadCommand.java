package io.ringex.bench.workload;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

import static io.ringex.bench.workload.WorkloadFileDescriptor.ACCOUNT_ID_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.CLIENT_ID_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.INSTRUMENT_ID_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.NEW_PRICE_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.NEW_SIZE_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.ORDER_ID_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.ORIG_CLIENT_ID_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.PRICE_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.SIDE_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.SIZE_OFFSET;
import static io.ringex.bench.workload.WorkloadFileDescriptor.TYPE_OFFSET;

/**
 * Flyweight over one record of a workload file (layout in {@link WorkloadFileDescriptor}). Reusable: wrap it at each
 * record in turn; it allocates nothing.
 * <p>
 * Threading: not thread-safe; one instance per reading thread.
 */
public final class WorkloadCommand
{
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private DirectBuffer buffer;
    private int offset;

    /**
     * Point this flyweight at a record.
     *
     * @param buffer the buffer holding the record.
     * @param offset the record's first byte.
     * @return this.
     */
    public WorkloadCommand wrap(final DirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    /** @return a {@link WorkloadCommandType} byte. */
    public byte type()
    {
        return buffer.getByte(offset + TYPE_OFFSET);
    }

    /** @return {@link WorkloadFileDescriptor#SIDE_BUY} or {@link WorkloadFileDescriptor#SIDE_SELL}. */
    public byte side()
    {
        return buffer.getByte(offset + SIDE_OFFSET);
    }

    /** @return the instrument id, 1..instruments. */
    public int instrumentId()
    {
        return buffer.getInt(offset + INSTRUMENT_ID_OFFSET, ORDER);
    }

    /** @return the owning account id, 1..accounts. */
    public long accountId()
    {
        return buffer.getLong(offset + ACCOUNT_ID_OFFSET, ORDER);
    }

    /** @return the order's id as placed (stable for its life). */
    public long orderId()
    {
        return buffer.getLong(offset + ORDER_ID_OFFSET, ORDER);
    }

    /** @return this request's own client id. */
    public long clientId()
    {
        return buffer.getLong(offset + CLIENT_ID_OFFSET, ORDER);
    }

    /** @return the target order's current client id; 0 for places. */
    public long origClientId()
    {
        return buffer.getLong(offset + ORIG_CLIENT_ID_OFFSET, ORDER);
    }

    /** @return price at the file's price scale. */
    public long price()
    {
        return buffer.getLong(offset + PRICE_OFFSET, ORDER);
    }

    /** @return size in units; meaning per type in {@link WorkloadFileDescriptor}. */
    public long size()
    {
        return buffer.getLong(offset + SIZE_OFFSET, ORDER);
    }

    /** @return the replace's new price (MOVE, REDUCE). */
    public long newPrice()
    {
        return buffer.getLong(offset + NEW_PRICE_OFFSET, ORDER);
    }

    /** @return the replace's new total quantity, filled part included (MOVE, REDUCE). */
    public long newSize()
    {
        return buffer.getLong(offset + NEW_SIZE_OFFSET, ORDER);
    }

    /** {@inheritDoc} */
    public String toString()
    {
        return WorkloadCommandType.name(type()) + "{side=" + side() + ", instrument=" + instrumentId() +
            ", account=" + accountId() + ", orderId=" + orderId() + ", clientId=" + clientId() +
            ", origClientId=" + origClientId() + ", price=" + price() + ", size=" + size() +
            ", newPrice=" + newPrice() + ", newSize=" + newSize() + '}';
    }
}
