package io.ringex.engine.processor;

import io.ringex.engine.book.Order;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The intrusive open-order index against a HashMap model, with far more orders than buckets (16) so every chain
 * holds many orders: random adds, removes and client-order-id changes, then every id the model ever saw is looked up
 * both ways, including ids of removed orders and the same client id under another account. Then the same with room
 * for 128K buckets, so the buckets in use double (chains split in place) several times on the way.
 */
final class OrderIndexTest
{
    private final UnsafeBuffer id = new UnsafeBuffer(new byte[Order.CLIENT_ORDER_ID_LENGTH]);

    @Test
    void lookupsAgreeWithAModelWhenChainsAreLong()
    {
        final OrderIndex index = new OrderIndex(16);
        randomOperationsAgreeWithAModel(index);
        assertEquals(16, index.activeBuckets());
    }

    @Test
    void lookupsAgreeWithAModelWhileTheBucketsGrow()
    {
        final OrderIndex index = new OrderIndex(1 << 17);
        randomOperationsAgreeWithAModel(index);
        assertTrue(index.activeBuckets() >= 8 * index.size(), "buckets in use " + index.activeBuckets());
        assertTrue(index.activeBuckets() < 1 << 17, "buckets in use " + index.activeBuckets());
    }

    private void randomOperationsAgreeWithAModel(final OrderIndex index)
    {
        final SplittableRandom random = new SplittableRandom(5);
        final Map<Long, Order> byId = new HashMap<>();
        final Map<String, Order> byClientId = new HashMap<>();
        final List<Order> open = new ArrayList<>();
        final List<String> seenClientIds = new ArrayList<>();
        long nextOrderId = 0;
        long nextClientId = 0;

        for (int step = 0; step < 20_000; step++)
        {
            final int roll = random.nextInt(10);
            if (roll < 5 || open.isEmpty())
            {
                final Order order = new Order();
                final long accountId = 1 + random.nextInt(3);
                order.init(++nextOrderId, accountId, 1, 1, true, Order.TYPE_LIMIT, Order.TIF_GTC, false,
                    Order.STP_CANCEL_NEWEST, 100, 10);
                order.clientOrderId(idBuffer(++nextClientId), 0);
                index.add(order);
                open.add(order);
                byId.put(order.orderId(), order);
                byClientId.put(key(accountId, nextClientId), order);
                seenClientIds.add(key(accountId, nextClientId));
            }
            else if (roll < 8)
            {
                final Order order = open.remove(random.nextInt(open.size()));
                index.remove(order);
                byId.remove(order.orderId());
                byClientId.values().remove(order);
            }
            else
            {
                final Order order = open.get(random.nextInt(open.size()));
                byClientId.values().remove(order);
                index.changeClientOrderId(order, idBuffer(++nextClientId), 0);
                byClientId.put(key(order.accountId(), nextClientId), order);
                seenClientIds.add(key(order.accountId(), nextClientId));
            }
        }

        assertEquals(open.size(), index.size());
        for (long orderId = 1; orderId <= nextOrderId + 5; orderId++)
        {
            assertSame(byId.get(orderId), index.byId(orderId), "order id " + orderId);
        }
        for (final String seen : seenClientIds)
        {
            final long accountId = Long.parseLong(seen.substring(0, seen.indexOf('/')));
            final long clientId = Long.parseLong(seen.substring(seen.indexOf('/') + 1));
            assertSame(byClientId.get(seen), index.byClientOrderId(accountId, idBuffer(clientId), 0), seen);
            assertNull(index.byClientOrderId(accountId + 10, idBuffer(clientId), 0), "another account's id");
        }
    }

    private UnsafeBuffer idBuffer(final long clientId)
    {
        id.setMemory(0, Order.CLIENT_ORDER_ID_LENGTH, (byte)0);
        // placed by the id so the digits fall in every one of the three words the index hashes and compares
        id.putStringWithoutLengthAscii((int)(clientId % 15), Long.toString(clientId));
        return id;
    }

    private static String key(final long accountId, final long clientId)
    {
        return accountId + "/" + clientId;
    }
}
