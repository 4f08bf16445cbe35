package io.ringex.gateway.status;

import io.aeron.CommonContext;
import io.ringex.gateway.Gateway;
import io.ringex.gateway.GatewayContext;
import io.ringex.testing.Await;
import io.ringex.gateway.testing.EngineStreams;
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
import quickfix.field.Account;
import quickfix.field.ClOrdID;
import quickfix.field.MassStatusReqID;
import quickfix.field.MassStatusReqType;
import quickfix.field.OrdStatusReqID;
import quickfix.field.OrdType;
import quickfix.field.OrderID;
import quickfix.field.OrderQty;
import quickfix.field.Price;
import quickfix.field.Side;
import quickfix.field.Symbol;
import quickfix.field.TimeInForce;
import quickfix.field.TransactTime;
import quickfix.field.MassCancelRequestType;
import quickfix.fix44.NewOrderSingle;
import quickfix.fix44.OrderMassCancelRequest;
import quickfix.fix44.OrderMassStatusRequest;
import quickfix.fix44.OrderStatusRequest;

import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.Predicate;

import static io.ringex.gateway.testing.FixTestClient.field;
import static io.ringex.gateway.testing.FixTestClient.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Order status (H) and mass status (AF) over FIX 4.4, end to end: QuickFIX/J initiator (FIX44 dictionary validation
 * on, so every answer is valid FIX 4.4) -> Artio -> the real engine node -> ExecutionReports with ExecType I. Unknown
 * orders, another user's orders, unknown symbols and unsupported request types are answered with a reason.
 */
class OrderStatusFixIT
{
    private static final String IPC = "aeron:ipc";

    @TempDir
    Path tempDir;

    private Gateway gateway;
    private RealEngineNode engine;
    private FixTestClient client;

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
        Await.until("library connected and BTC-USD learnt from market data",
            () -> gateway.fixAgent().isLibraryConnected() && gateway.fixAgent().instrumentCount() >= 1, null);
        client = new FixTestClient(port);
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(client, engine, gateway);
    }

    private static NewOrderSingle order(final String clOrdId, final char side, final String qty, final String price)
    {
        final NewOrderSingle m = new NewOrderSingle(new ClOrdID(clOrdId), new Side(side),
            new TransactTime(LocalDateTime.now(ZoneOffset.UTC)), new OrdType(OrdType.LIMIT));
        m.set(new Symbol("BTC-USD"));
        m.setString(OrderQty.FIELD, qty);
        m.setString(Price.FIELD, price);
        m.set(new TimeInForce(TimeInForce.GOOD_TILL_CANCEL));
        return m;
    }

    private static OrderStatusRequest status(final String clOrdId, final String orderId, final String reqId)
    {
        final OrderStatusRequest m = new OrderStatusRequest(new ClOrdID(clOrdId), new Side(Side.BUY));
        m.set(new Symbol("BTC-USD"));
        if (orderId != null)
        {
            m.set(new OrderID(orderId));
        }
        m.set(new OrdStatusReqID(reqId));
        return m;
    }

    private static OrderMassStatusRequest massStatus(final String reqId, final int type)
    {
        return new OrderMassStatusRequest(new MassStatusReqID(reqId), new MassStatusReqType(type));
    }

    private Message awaitOne(final SessionID id, final String what, final Predicate<Message> p)
    {
        Await.until(what, () -> !client.find(id, p).isEmpty(), null);
        return client.find(id, p).get(0);
    }

    private List<Message> massAnswer(final SessionID id, final String reqId)
    {
        final Predicate<Message> mine = is("8", 584, reqId);
        Await.until("mass status " + reqId + " answered", () -> client.find(id, mine).stream()
            .anyMatch(m -> "Y".equals(field(m, 912))), null);
        return client.find(id, mine);
    }

    /** A mass cancel is answered with OrderMassCancelReport (r) and the number of orders it cancelled, 0 included. */
    @Test
    void massCancelIsAnsweredWithOrderMassCancelReport() throws Exception
    {
        final SessionID alice = client.addSession("ALICE", "RINGEX", "alice", TestUsers.ALICE_PASSWORD);
        client.start();
        Await.until("logged on", () -> client.isLoggedOn(alice), null);
        client.send(alice, order("C1", Side.BUY, "1", "90.00"));
        client.send(alice, order("C2", Side.BUY, "2", "91.00"));
        awaitOne(alice, "C2 new", is("8", 11, "C2"));

        final OrderMassCancelRequest all = new OrderMassCancelRequest(new ClOrdID("MC1"),
            new MassCancelRequestType(MassCancelRequestType.CANCEL_ALL_ORDERS),
            new TransactTime(LocalDateTime.now(ZoneOffset.UTC)));
        client.send(alice, all);
        final Message report = awaitOne(alice, "mass cancel report", is("r", 11, "MC1"));
        assertEquals("2", field(report, 533));
        assertEquals("7", field(report, 530));
        assertEquals("7", field(report, 531));
        assertNull(field(report, 55), "no instrument named for a cancel of all orders");
        assertEquals(2, client.find(alice, m -> is("8", 11, "MC1").test(m) && "4".equals(field(m, 150))).size(),
            "both cancels reported before the r");

        final OrderMassCancelRequest bySymbol = new OrderMassCancelRequest(new ClOrdID("MC2"),
            new MassCancelRequestType(MassCancelRequestType.CANCEL_ORDERS_FOR_A_SECURITY),
            new TransactTime(LocalDateTime.now(ZoneOffset.UTC)));
        bySymbol.set(new Symbol("BTC-USD"));
        client.send(alice, bySymbol);
        final Message none = awaitOne(alice, "empty mass cancel report", is("r", 11, "MC2"));
        assertEquals("0", field(none, 533));
        assertEquals("1", field(none, 531));
        assertEquals("BTC-USD", field(none, 55));
    }

    @Test
    void statusAndMassStatusAnswerWithExecTypeI() throws Exception
    {
        final SessionID alice = client.addSession("ALICE", "RINGEX", "alice", TestUsers.ALICE_PASSWORD);
        final SessionID bob = client.addSession("BOB", "RINGEX", "bob", TestUsers.BOB_PASSWORD);
        client.start();
        Await.until("logged on", () -> client.isLoggedOn(alice) && client.isLoggedOn(bob), null);

        // Nothing open yet: the explicit empty answer.
        client.send(bob, massStatus("M0", MassStatusReqType.STATUS_FOR_ALL_ORDERS));
        final List<Message> none = massAnswer(bob, "M0");
        assertEquals(1, none.size());
        assertEquals("0", field(none.get(0), 911));
        assertEquals("I", field(none.get(0), 150));
        assertEquals("NONE", field(none.get(0), 37));
        assertEquals("no open orders", field(none.get(0), 58));

        client.send(alice, order("A1", Side.BUY, "10", "101.25"));
        final String a1 = field(awaitOne(alice, "A1 new", is("8", 11, "A1")), 37);
        final NewOrderSingle second = order("A2", Side.BUY, "3", "100.50");
        second.set(new Account(Long.toString(TestUsers.ALICE_SECOND_ACCOUNT)));
        client.send(alice, second);
        awaitOne(alice, "A2 new", is("8", 11, "A2"));
        client.send(bob, order("B1", Side.SELL, "4", "101.25"));
        awaitOne(alice, "A1 partly filled", is("8", 150, "F"));
        client.send(bob, order("B2", Side.SELL, "7", "150.00"));
        final String b2 = field(awaitOne(bob, "B2 new", is("8", 11, "B2")), 37);

        // H by ClOrdID and by OrderID
        client.send(alice, status("A1", null, "Q1"));
        final Message byClOrdId = awaitOne(alice, "status Q1", is("8", 790, "Q1"));
        assertEquals("I", field(byClOrdId, 150));
        assertEquals("1", field(byClOrdId, 39));
        assertEquals(a1, field(byClOrdId, 37));
        assertEquals("6", field(byClOrdId, 151));
        assertEquals("4", field(byClOrdId, 14));
        assertEquals(101.25, Double.parseDouble(field(byClOrdId, 6)));
        assertEquals("BTC-USD", field(byClOrdId, 55));
        client.send(alice, status("ANY", a1, "Q2"));
        assertEquals(a1, field(awaitOne(alice, "status Q2", is("8", 790, "Q2")), 37));

        // Bob's order, and an order that never was: unknown, nothing told
        client.send(alice, status("B2", b2, "Q3"));
        final Message foreign = awaitOne(alice, "status Q3", is("8", 790, "Q3"));
        assertEquals("8", field(foreign, 39));
        assertEquals("5", field(foreign, 103));
        assertEquals("NONE", field(foreign, 37));
        assertNull(field(foreign, 38));
        client.send(alice, status("NOPE", null, "Q4"));
        assertEquals("5", field(awaitOne(alice, "status Q4", is("8", 790, "Q4")), 103));

        // AF 7: every account of the user; 8: the one account; 1: one symbol
        client.send(alice, massStatus("M1", MassStatusReqType.STATUS_FOR_ALL_ORDERS));
        final List<Message> allOrders = massAnswer(alice, "M1");
        assertEquals(List.of("A1", "A2"), allOrders.stream().map(m -> field(m, 11)).toList());
        assertEquals(List.of("2", "2"), allOrders.stream().map(m -> field(m, 911)).toList());
        assertEquals(List.of("N", "Y"), allOrders.stream().map(m -> String.valueOf(field(m, 912)).equals("Y") ?
            "Y" : "N").toList());
        final OrderMassStatusRequest oneAccount = massStatus("M2", MassStatusReqType.STATUS_FOR_ORDERS_FOR_A_PARTYID);
        oneAccount.set(new Account(Long.toString(TestUsers.ALICE_SECOND_ACCOUNT)));
        client.send(alice, oneAccount);
        assertEquals(List.of("A2"), massAnswer(alice, "M2").stream().map(m -> field(m, 11)).toList());
        final OrderMassStatusRequest bySymbol = massStatus("M3", MassStatusReqType.STATUS_FOR_ORDERS_FOR_A_SECURITY);
        bySymbol.set(new Symbol("BTC-USD"));
        client.send(bob, bySymbol);
        assertEquals(List.of("B2"), massAnswer(bob, "M3").stream().map(m -> field(m, 11)).toList());

        // Refusals: another user's account, an unknown symbol, an unsupported type
        final OrderMassStatusRequest bobAccount = massStatus("M5", MassStatusReqType.STATUS_FOR_ORDERS_FOR_A_PARTYID);
        bobAccount.set(new Account(Long.toString(TestUsers.ALICE_ACCOUNT)));
        client.send(bob, bobAccount);
        awaitOne(bob, "not bob's account", is("j", 379, "M5"));
        final OrderMassStatusRequest unknown = massStatus("M6", MassStatusReqType.STATUS_FOR_ORDERS_FOR_A_SECURITY);
        unknown.set(new Symbol("NOPE-USD"));
        client.send(alice, unknown);
        final Message unknownSymbol = awaitOne(alice, "unknown symbol", is("j", 379, "M6"));
        assertEquals(true, field(unknownSymbol, 58).startsWith("UNKNOWN_INSTRUMENT"));
        client.send(alice, massStatus("M7", MassStatusReqType.STATUS_FOR_ORDERS_FOR_A_TRADING_SESSION));
        final Message unsupported = awaitOne(alice, "unsupported type", is("j", 379, "M7"));
        assertEquals(true, field(unsupported, 58).contains("MassStatusReqType(585)"));

        client.send(alice, order("A3", Side.SELL, "1", "200.00"));
        awaitOne(alice, "A3 new", is("8", 11, "A3"));
        client.send(bob, massStatus("M9", MassStatusReqType.STATUS_FOR_ALL_ORDERS));
        final List<Message> bobsAfter = massAnswer(bob, "M9");
        assertEquals(List.of("B2"), bobsAfter.stream().map(m -> field(m, 11)).toList(),
            "the queries changed nothing: bob's order is still there, alice's new one not his");
    }
}
