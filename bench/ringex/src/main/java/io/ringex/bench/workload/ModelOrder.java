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
    /** Iceberg display quantity, 0 for an order shown whole. */
    long display;
    /** What is left of an iceberg's current peak. */
    long peak;
    /** A stop-limit's stop price while it is pending, 0 otherwise. */
    long stopPrice;
    /** Arrival at its stop price, for the trigger order. */
    long stopArrival;

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

    long visible()
    {
        return display == 0 ? open() : peak;
    }

    boolean isBuy()
    {
        return side == WorkloadFileDescriptor.SIDE_BUY;
    }
}
