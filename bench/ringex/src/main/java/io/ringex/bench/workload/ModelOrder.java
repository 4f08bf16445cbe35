package io.ringex.bench.workload;

/**
 * An order as the generator's model book sees it. Mutable, package-private: generator state only.
 */
final class ModelOrder
{
    final long orderId;
    final long accountId;
    final byte side;
    long clientId;
    long price;
    long total;
    long filled;
    int liveIndex = -1;

    ModelOrder(final long orderId, final long accountId, final byte side, final long price, final long total)
    {
        this.orderId = orderId;
        this.clientId = orderId;
        this.accountId = accountId;
        this.side = side;
        this.price = price;
        this.total = total;
    }

    long open()
    {
        return total - filled;
    }

    boolean isBuy()
    {
        return side == WorkloadFileDescriptor.SIDE_BUY;
    }
}
