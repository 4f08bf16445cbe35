package io.ringex.gateway.fix;

import io.aeron.CommonContext;
import io.ringex.gateway.Gateway;
import io.ringex.gateway.GatewayContext;
import io.ringex.testing.Await;
import io.ringex.gateway.testing.EngineStreams;
import io.ringex.gateway.testing.EngineUnderTest;
import io.ringex.gateway.testing.FixTestClient;
import io.ringex.gateway.testing.RealEngineNode;
import io.ringex.gateway.testing.TestGateways;
import io.ringex.gateway.testing.TestUsers;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;
import quickfix.SessionID;
import quickfix.field.ClOrdID;
import quickfix.field.OrdType;
import quickfix.field.OrderQty;
import quickfix.field.OrigClOrdID;
import quickfix.field.Price;
import quickfix.field.Side;
import quickfix.field.Symbol;
import quickfix.field.TimeInForce;
import quickfix.field.TransactTime;
import quickfix.fix44.NewOrderSingle;
import quickfix.fix44.OrderCancelReplaceRequest;

import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.function.Predicate;

import static io.ringex.gateway.testing.FixTestClient.field;
import static io.ringex.gateway.testing.FixTestClient.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The order types of FIX 4.4 as an independent client sends them: a QuickFIX/J initiator (its FIX44 dictionary
 * validating everything the gateway sends back) -> Artio acceptor -> the real engine node -> back. Stop and stop-limit
 * (OrdType 3/4, StopPx 99; a trigger reported as ExecType D Restated), icebergs (MaxFloor 111 and DisplayQty 1138),
 * GTD (TimeInForce 6 with ExpireTime 126 or ExpireDate 432), MinQty 110, a replace moving a pending stop, and the
 * combinations refused with their reasons. BTC-USD trades at scale 2 around a reference of 100.00.
 */
class FixOrderTypesIT
{
    private static final String IPC = "aeron:ipc";
    private static final DateTimeFormatter UTC_TIMESTAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HH:mm:ss.SSS");

    @TempDir
    Path tempDir;

    private Gateway gateway;
    private EngineUnderTest engine;
    private FixTestClient client;
    private SessionID alice;
    private SessionID bob;

    @BeforeEach
    void setUp() throws Exception
    {
        final int port;
        try (ServerSocket socket = new ServerSocket(0))
        {
            port = socket.getLocalPort();
        }
        final String aeronDir = CommonContext.generateRandomDirName();
        final GatewayContext ctx = TestGateways.fixOverIpc(3, aeronDir, tempDir, port).embeddedDriver(true);
        gateway = Gateway.launch(ctx, Throwable::printStackTrace);
        engine = RealEngineNode.launch(new EngineStreams(aeronDir, IPC, 1001, IPC, 1002, IPC, 1003,
            new EngineStreams.TestInstrument(1, "BTC-USD", 2)));
        Await.until("library connected and BTC-USD learnt", () -> gateway.fixAgent().isLibraryConnected() &&
            gateway.fixAgent().instrumentCount() >= 1, null);
        Await.until("the gateway has the engine's users", () -> ctx.users().loaded(), null);
        client = new FixTestClient(port);
        alice = client.addSession("ALICE", "RINGEX", "alice", TestUsers.ALICE_PASSWORD);
        bob = client.addSession("BOB", "RINGEX", "bob", TestUsers.BOB_PASSWORD);
        client.start();
        Await.until("logged on", () -> client.isLoggedOn(alice) && client.isLoggedOn(bob), null);
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(client, engine, gateway);
    }

    private static NewOrderSingle order(
        final String clOrdId, final char side, final char ordType, final char timeInForce, final String qty,
        final String price)
    {
        final NewOrderSingle m = new NewOrderSingle(new ClOrdID(clOrdId), new Side(side),
            new TransactTime(LocalDateTime.now(ZoneOffset.UTC)), new OrdType(ordType));
        m.set(new Symbol("BTC-USD"));
        m.setString(OrderQty.FIELD, qty);
        if (price != null)
        {
            m.setString(Price.FIELD, price);
        }
        m.set(new TimeInForce(timeInForce));
        return m;
    }

    private static NewOrderSingle limit(final String clOrdId, final char side, final String qty, final String price)
    {
        return order(clOrdId, side, OrdType.LIMIT, TimeInForce.GOOD_TILL_CANCEL, qty, price);
    }

    private Message awaitOne(final SessionID id, final String what, final Predicate<Message> p)
    {
        try
        {
            Await.until(what, () -> !client.find(id, p).isEmpty(), null);
        }
        catch (final AssertionError ex)
        {
            throw new AssertionError(ex.getMessage() + "; received " + client.received(id) + "; admin " +
                client.receivedAdmin(id) + "; engine " + engine.commandLog(), ex);
        }
        return client.find(id, p).get(0);
    }

    private static Predicate<Message> report(final String clOrdId, final String execType)
    {
        return is("8", 11, clOrdId).and(is("8", 150, execType));
    }

    private String rejectText(final NewOrderSingle order)
    {
        final String clOrdId = field(order, 11);
        client.send(alice, order);
        final Message reject = awaitOne(alice, clOrdId + " rejected", report(clOrdId, "8"));
        assertEquals("8", field(reject, 39));
        return field(reject, 58);
    }

    @Test
    void aStopLimitIsAcknowledgedTriggeredAsRestatedAndFilled()
    {
        client.send(bob, limit("B1", Side.SELL, "1", "101"));
        client.send(bob, limit("B2", Side.SELL, "5", "102"));
        awaitOne(bob, "B2 ack", report("B2", "0"));

        final NewOrderSingle stopLimit = order("S1", Side.BUY, OrdType.STOP_LIMIT, TimeInForce.GOOD_TILL_CANCEL, "5",
            "102");
        stopLimit.setString(99, "101");
        client.send(alice, stopLimit);
        final Message ack = awaitOne(alice, "stop-limit NEW", report("S1", "0"));
        assertEquals("4", field(ack, 40));
        assertEquals(101.0, Double.parseDouble(field(ack, 99)));
        assertEquals(102.0, Double.parseDouble(field(ack, 44)));
        assertEquals("0", field(ack, 39));

        client.send(alice, limit("A1", Side.BUY, "1", "101"));
        final Message triggered = awaitOne(alice, "stop triggered", report("S1", "D"));
        assertEquals("0", field(triggered, 39));
        assertEquals("99", field(triggered, 378));
        assertEquals("TRIGGERED", field(triggered, 58));
        assertEquals("5", field(triggered, 151));
        final Message fill = awaitOne(alice, "stop-limit filled", report("S1", "F"));
        assertEquals("2", field(fill, 39));
        assertEquals(102.0, Double.parseDouble(field(fill, 31)));
        assertEquals("5", field(fill, 32));
    }

    @Test
    void aStopWithoutPriceTradesAtMarketOnceTriggeredAndMayMoveItsStopPriceBefore()
    {
        final NewOrderSingle stop = order("S1", Side.SELL, OrdType.STOP, TimeInForce.DAY, "3", null);
        stop.setString(99, "99");
        client.send(alice, stop);
        final Message ack = awaitOne(alice, "stop NEW", report("S1", "0"));
        assertEquals("3", field(ack, 40));
        assertNull(field(ack, 44), "no Price on a stop");
        assertEquals("0", field(ack, 59));

        final OrderCancelReplaceRequest move = new OrderCancelReplaceRequest(new OrigClOrdID("S1"),
            new ClOrdID("S2"), new Side(Side.SELL), new TransactTime(LocalDateTime.now(ZoneOffset.UTC)),
            new OrdType(OrdType.STOP));
        move.set(new Symbol("BTC-USD"));
        move.setString(OrderQty.FIELD, "3");
        move.setString(99, "98.50");
        client.send(alice, move);
        final Message replaced = awaitOne(alice, "stop moved", report("S2", "5"));
        assertEquals(98.5, Double.parseDouble(field(replaced, 99)));

        client.send(bob, limit("B1", Side.BUY, "3", "98.40"));
        client.send(bob, limit("B2", Side.BUY, "1", "98.50"));
        client.send(alice, limit("A1", Side.SELL, "1", "98.50"));
        awaitOne(alice, "triggered", report("S2", "D"));
        final Message fill = awaitOne(alice, "stop filled at market", report("S2", "F"));
        assertEquals(98.4, Double.parseDouble(field(fill, 31)));
        assertEquals("3", field(fill, 14));
    }

    @Test
    void anIcebergFillsInPeaksAndEchoesItsMaxFloor()
    {
        final NewOrderSingle iceberg = limit("I1", Side.SELL, "30", "103");
        iceberg.setString(111, "10");
        client.send(alice, iceberg);
        assertEquals("10", field(awaitOne(alice, "iceberg NEW", report("I1", "0")), 111));
        final NewOrderSingle displayQty = limit("I2", Side.SELL, "20", "104");
        displayQty.setString(1138, "5");
        client.send(alice, displayQty);
        assertEquals("5", field(awaitOne(alice, "DisplayQty iceberg NEW", report("I2", "0")), 111));

        client.send(bob, limit("B1", Side.BUY, "25", "103"));
        Await.until("three fills", () -> client.find(alice, report("I1", "F")).size() == 3, null);
        final List<Message> fills = client.find(alice, report("I1", "F"));
        assertEquals(List.of("10", "10", "5"), fills.stream().map(m -> field(m, 32)).toList());
        assertEquals("5", field(fills.get(2), 151));
    }

    @Test
    void aGtdOrderExpiresAtItsExpireTimeAndExpireDateIsAccepted() throws Exception
    {
        final NewOrderSingle gtd = order("G1", Side.BUY, OrdType.LIMIT, TimeInForce.GOOD_TILL_DATE, "1", "90");
        gtd.setString(126, LocalDateTime.now(ZoneOffset.UTC).plusSeconds(1).format(UTC_TIMESTAMP));
        client.send(alice, gtd);
        assertEquals("6", field(awaitOne(alice, "GTD NEW", report("G1", "0")), 59));

        final NewOrderSingle byDate = order("G2", Side.BUY, OrdType.LIMIT, TimeInForce.GOOD_TILL_DATE, "1", "90");
        byDate.setString(432, "20991231");
        client.send(alice, byDate);
        awaitOne(alice, "ExpireDate NEW", report("G2", "0"));

        // Nothing else is sent: the idle node journals a Tick at the expiry, and the order expires on it.
        final Message expired = awaitOne(alice, "expired", report("G1", "C"));
        assertEquals("C", field(expired, 39));
        assertEquals("EXPIRE_TIME", field(expired, 58));
        assertTrue(client.find(alice, report("G2", "C")).isEmpty(), "G2 lives until the end of 2099-12-31");
    }

    @Test
    void anOrderOfAnAccountWithoutLimitsIsRefusedSayingWhy()
    {
        // A newly opened account's limits are all 0 until an operator sets them.
        ((RealEngineNode)engine).clearLimits(TestUsers.ALICE_ACCOUNT);
        final String text = rejectText(limit("NL1", Side.BUY, "1", "100"));
        assertTrue(text.startsWith("MAX_ORDER_QUANTITY: ") && text.contains("an account the venue has set no " +
            "limits for has a maximum of 0 and refuses every order"), text);
    }

    @Test
    void minQtyRefusesAnIocThatCouldNotTradeEnough()
    {
        client.send(bob, limit("B1", Side.SELL, "5", "104"));
        awaitOne(bob, "B1 ack", report("B1", "0"));
        final NewOrderSingle ioc = order("M1", Side.BUY, OrdType.LIMIT, TimeInForce.IMMEDIATE_OR_CANCEL, "10", "104");
        ioc.setString(110, "8");
        assertTrue(rejectText(ioc).startsWith("MIN_QUANTITY_NOT_MET"));
        final NewOrderSingle enough = order("M2", Side.BUY, OrdType.LIMIT, TimeInForce.IMMEDIATE_OR_CANCEL, "10",
            "104");
        enough.setString(110, "5");
        client.send(alice, enough);
        assertEquals("5", field(awaitOne(alice, "M2 fill", report("M2", "F")), 32));
        assertTrue(field(awaitOne(alice, "M2 remainder", report("M2", "4")), 58).startsWith("IOC_REMAINDER"));
    }

    @Test
    void unsupportedCombinationsAreRefusedWithTheirReason()
    {
        final NewOrderSingle stopPxOnLimit = limit("X1", Side.BUY, "1", "100");
        stopPxOnLimit.setString(99, "101");
        assertTrue(rejectText(stopPxOnLimit).startsWith("INVALID_STOP_PRICE"));

        assertTrue(rejectText(order("X2", Side.BUY, OrdType.STOP, TimeInForce.GOOD_TILL_CANCEL, "1", null))
            .startsWith("INVALID_STOP_PRICE"), "a stop without StopPx");

        final NewOrderSingle reached = order("X3", Side.BUY, OrdType.STOP, TimeInForce.GOOD_TILL_CANCEL, "1", null);
        reached.setString(99, "99");
        assertTrue(rejectText(reached).startsWith("INVALID_STOP_PRICE"), "a buy stop below the last price");

        assertTrue(rejectText(order("X4", Side.BUY, OrdType.LIMIT, TimeInForce.GOOD_TILL_DATE, "1", "100"))
            .startsWith("INVALID_EXPIRE_TIME"), "GTD without an expiry");

        final NewOrderSingle expiryOnGtc = limit("X5", Side.BUY, "1", "100");
        expiryOnGtc.setString(432, "20991231");
        assertTrue(rejectText(expiryOnGtc).startsWith("INVALID_EXPIRE_TIME"));

        assertTrue(rejectText(order("X6", Side.BUY, OrdType.PEGGED, TimeInForce.GOOD_TILL_CANCEL, "1", "100"))
            .startsWith("INVALID_ORDER_TYPE"));
        assertTrue(rejectText(order("X7", Side.BUY, OrdType.LIMIT, TimeInForce.AT_THE_OPENING, "1", "100"))
            .startsWith("INVALID_ORDER_TYPE"));

        final NewOrderSingle icebergIoc = order("X8", Side.BUY, OrdType.LIMIT, TimeInForce.IMMEDIATE_OR_CANCEL, "10",
            "100");
        icebergIoc.setString(111, "2");
        assertTrue(rejectText(icebergIoc).startsWith("INVALID_ORDER_TYPE"));

        final NewOrderSingle stopIceberg = order("X9", Side.BUY, OrdType.STOP_LIMIT, TimeInForce.GOOD_TILL_CANCEL,
            "10", "102");
        stopIceberg.setString(99, "101");
        stopIceberg.setString(111, "2");
        assertTrue(rejectText(stopIceberg).startsWith("INVALID_ORDER_TYPE"));

        final NewOrderSingle floorAboveQty = limit("X10", Side.BUY, "10", "100");
        floorAboveQty.setString(111, "11");
        assertTrue(rejectText(floorAboveQty).startsWith("INVALID_DISPLAY_QUANTITY"));
        assertTrue(client.isLoggedOn(alice), "business rejects only: the session stays");
    }
}
