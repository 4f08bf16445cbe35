package io.ringex.bench.workload;

import java.util.ArrayList;
import java.util.List;

/**
 * A deliberately simple order book for the tests, independent of the generator's {@link ModelBook}: a list scanned
 * for the best price and then the oldest time stamp. Same rules: price-time priority, trades at the resting price,
 * a price change loses priority, a reduce keeps it.
 */
final class NaiveBook
{
    static final class Order
    {
        final long orderId;
        final long accountId;
        final boolean buy;
        long clientId;
        long price;
        long total;
        long filled;
        long time;

        Order(final long orderId, final long accountId, final boolean buy, final long price, final long total)
        {
            this.orderId = orderId;
            this.clientId = orderId;
            this.accountId = accountId;
            this.buy = buy;
            this.price = price;
            this.total = total;
        }

        long open()
        {
            return total - filled;
        }
    }

    final List<Order> resting = new ArrayList<>();
    private long clock;

    Order find(final long orderId)
    {
        for (final Order o : resting)
        {
            if (o.orderId == orderId)
            {
                return o;
            }
        }
        return null;
    }

    void place(final Order order, final boolean rest)
    {
        match(order);
        if (rest && order.open() > 0)
        {
            order.time = ++clock;
            resting.add(order);
        }
    }

    void cancel(final Order order)
    {
        resting.remove(order);
    }

    void move(final Order order, final long newPrice)
    {
        resting.remove(order);
        order.price = newPrice;
        place(order, true);
    }

    private void match(final Order aggressor)
    {
        while (aggressor.open() > 0)
        {
            Order best = null;
            for (final Order o : resting)
            {
                if (o.buy != aggressor.buy && (best == null ||
                    (aggressor.buy ? o.price < best.price : o.price > best.price) ||
                    (o.price == best.price && o.time < best.time)))
                {
                    best = o;
                }
            }
            if (best == null || (aggressor.buy ? best.price > aggressor.price : best.price < aggressor.price))
            {
                return;
            }
            final long quantity = Math.min(best.open(), aggressor.open());
            best.filled += quantity;
            aggressor.filled += quantity;
            if (best.open() == 0)
            {
                resting.remove(best);
            }
        }
    }
}
