package io.ringex.client;

import java.lang.management.ManagementFactory;

import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.NewOrderDecoder;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link NewOrder}'s terms as the client encodes them ({@link SessionMessages}, the bytes the client offers), read back
 * with the schema's decoder: each order type, the defaults after {@link NewOrder#reset()}, the refusals, and an encode
 * path that allocates nothing.
 */
class NewOrderTest
{
    private static final long SESSION = 5;
    private static final long DEFAULT_ACCOUNT = 1001;

    private final SessionMessages messages = new SessionMessages();
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final NewOrderDecoder decoder = new NewOrderDecoder();

    private String encoded(final NewOrder order)
    {
        final int length = messages.newOrder(SESSION, DEFAULT_ACCOUNT, order);
        decoder.wrapAndApplyHeader(messages.buffer(), 0, header);
        assertEquals(NewOrderDecoder.TEMPLATE_ID, header.templateId());
        assertEquals(length, MessageHeaderDecoder.ENCODED_LENGTH + decoder.encodedLength());
        return ExchangeClientConnectTest.describe(decoder);
    }

    @Test
    void aLimitOrderTakesTheSessionAndTheDefaultAccountAndLeavesTheRestUnset()
    {
        assertEquals("NewOrder session=5 account=1001 ord-1 instrument=7 BUY LIMIT GTC price=10125 quantity=10 " +
            "stop=0 display=0 min=0 expire=0 postOnly=FALSE ACCOUNT_DEFAULT",
            encoded(new NewOrder().clientOrderId("ord-1").instrument(7).buy().limit(10_125).quantity(10)));
    }

    @Test
    void everyTermOfTheSchemaIsWritten()
    {
        final NewOrder order = new NewOrder().account(1002).clientOrderId(42).instrument(3).sell()
            .stopLimit(9_900, 9_850).quantity(100).displayQuantity(10).minQuantity(5).goodTill(1_800_000_000_000L)
            .postOnly(true).selfTradePrevention(SelfTradePrevention.CANCEL_NEWEST);
        assertEquals("NewOrder session=5 account=1002 42 instrument=3 SELL STOP_LIMIT GTD price=9850 quantity=100 " +
            "stop=9900 display=10 min=5 expire=1800000000000 postOnly=TRUE CANCEL_NEWEST", encoded(order));

        order.market().timeInForce(TimeInForce.IOC);
        assertEquals("NewOrder session=5 account=1002 42 instrument=3 SELL MARKET IOC price=0 quantity=100 " +
            "stop=0 display=10 min=5 expire=0 postOnly=TRUE CANCEL_NEWEST", encoded(order),
            "market clears the prices, a time in force other than GTD the expiry");

        order.stop(9_800).side(Side.BUY);
        assertEquals("NewOrder session=5 account=1002 42 instrument=3 BUY STOP IOC price=0 quantity=100 " +
            "stop=9800 display=10 min=5 expire=0 postOnly=TRUE CANCEL_NEWEST", encoded(order));
    }

    @Test
    void resetGoesBackToNoTerms()
    {
        final NewOrder order = new NewOrder().account(1002).clientOrderId("x").instrument(3).sell().limit(1)
            .quantity(1).postOnly(true).goodTill(5).selfTradePrevention(SelfTradePrevention.CANCEL_BOTH);
        order.reset();
        assertThrows(IllegalStateException.class, () -> encoded(order), "no terms left to send");
        assertEquals("NewOrder session=5 account=1001 y instrument=4 BUY LIMIT GTC price=2 quantity=3 " +
            "stop=0 display=0 min=0 expire=0 postOnly=FALSE ACCOUNT_DEFAULT",
            encoded(order.clientOrderId("y").instrument(4).buy().limit(2).quantity(3)));
    }

    @Test
    void aBadOrIncompleteOrderIsRefusedBeforeAnythingIsWritten()
    {
        final NewOrder order = new NewOrder();
        assertEquals("clientOrderId: 1 to 20 characters, not 21", assertThrows(IllegalArgumentException.class,
            () -> order.clientOrderId("123456789012345678901")).getMessage());
        assertEquals("clientOrderId: 1 to 20 characters, not 0", assertThrows(IllegalArgumentException.class,
            () -> order.clientOrderId("")).getMessage());
        assertEquals("clientOrderId: printable ASCII only, not code 233 at 1", assertThrows(
            IllegalArgumentException.class, () -> order.clientOrderId("r\u00e9f")).getMessage());
        order.clientOrderId("ok").instrument(1).quantity(1);
        final IllegalStateException missing = assertThrows(IllegalStateException.class, () -> encoded(order));
        assertTrue(missing.getMessage().startsWith("an order needs a clientOrderId, an instrument, a side and a type"),
            missing::getMessage);
        assertEquals("this NewOrder belongs to no client: pass it to ExchangeClient.newOrder",
            assertThrows(IllegalStateException.class, order::send).getMessage());
    }

    @Test
    void encodingAnOrderAllocatesNothing()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported());
        threads.setThreadAllocatedMemoryEnabled(true);
        final NewOrder order = new NewOrder();
        long checksum = encodeOrders(order, 50_000); // warm up: the JIT
        final long before = threads.getCurrentThreadAllocatedBytes();
        checksum += encodeOrders(order, 200_000);
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(checksum > 0);
        // Not per order: one 16-byte object per hundred orders would be 32,000 bytes.
        assertTrue(allocated < 8 * 1024, "allocated " + allocated + " bytes over 200,000 orders");
    }

    private long encodeOrders(final NewOrder order, final int count)
    {
        long sum = 0;
        for (int i = 0; i < count; i++)
        {
            order.reset().clientOrderId(i).instrument(1 + (i & 3)).side((i & 1) == 0 ? Side.BUY : Side.SELL)
                .limit(10_000 + i).quantity(1 + (i & 7));
            sum += messages.newOrder(SESSION, DEFAULT_ACCOUNT, order);
        }
        return sum;
    }
}
