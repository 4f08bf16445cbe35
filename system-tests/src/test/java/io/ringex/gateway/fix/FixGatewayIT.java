package io.ringex.gateway.fix;

import io.aeron.CommonContext;
import io.ringex.gateway.Gateway;
import io.ringex.gateway.GatewayContext;
import io.ringex.testing.Await;
import io.ringex.gateway.testing.EngineStreams;
import io.ringex.gateway.testing.EngineUnderTest;
import io.ringex.gateway.testing.FixTestClient;
import io.ringex.gateway.testing.RawFixClient;
import io.ringex.gateway.testing.TestEngines;
import io.ringex.gateway.testing.TestGateways;
import io.ringex.gateway.testing.TestUsers;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;
import quickfix.Session;
import quickfix.SessionID;
import quickfix.field.ClOrdID;
import quickfix.field.MassCancelRequestType;
import quickfix.field.OrdType;
import quickfix.field.OrderQty;
import quickfix.field.OrigClOrdID;
import quickfix.field.PossDupFlag;
import quickfix.field.Price;
import quickfix.field.Side;
import quickfix.field.Symbol;
import quickfix.field.TimeInForce;
import quickfix.field.TransactTime;
import quickfix.fix44.NewOrderSingle;
import quickfix.fix44.OrderCancelReplaceRequest;
import quickfix.fix44.OrderCancelRequest;
import quickfix.fix44.OrderMassCancelRequest;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;

import static io.ringex.gateway.testing.FixTestClient.field;
import static io.ringex.gateway.testing.FixTestClient.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The FIX path end to end: QuickFIX/J initiator (FIX44 dictionary validation on) -> Artio acceptor -> SBE -> engine
 * (the stand-in from {@link TestEngines}) -> back as FIX. The gateway runs as {@code GatewayMain} would: its own
 * embedded archiving media driver; the engine connects to that driver.
 */
class FixGatewayIT
{
    private static final String IPC = "aeron:ipc";

    @TempDir
    Path tempDir;

    private Gateway gateway;
    private EngineUnderTest engine;
    private FixTestClient client;
    private GatewayContext ctx;
    private int port;

    @BeforeEach
    void setUp() throws Exception
    {
        port = freePort();
        final String aeronDir = CommonContext.generateRandomDirName();
        ctx = TestGateways.fixOverIpc(3, aeronDir, tempDir, port)
            .embeddedDriver(true)
            .addInstrument(2, "ETH-USD", 4);
        gateway = Gateway.launch(ctx, Throwable::printStackTrace);
        engine = TestEngines.launch(new EngineStreams(aeronDir, IPC, 1001, IPC, 1002, IPC, 1003,
            new EngineStreams.TestInstrument(1, "BTC-USD", 2)));
        Await.until("library connected and BTC-USD learnt from market data",
            () -> gateway.fixAgent().isLibraryConnected() && gateway.fixAgent().instrumentCount() >= 2, null);
        client = new FixTestClient(port);
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(client, engine, gateway);
    }

    private static int freePort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0))
        {
            return socket.getLocalPort();
        }
    }

    private SessionID alice() throws Exception
    {
        final SessionID id = client.addSession("ALICE", "RINGEX", "alice", TestUsers.ALICE_PASSWORD);
        return id;
    }

    private void startAndLogon(final SessionID... ids) throws Exception
    {
        client.start();
        for (final SessionID id : ids)
        {
            Await.until(id + " logged on", () -> client.isLoggedOn(id), null);
        }
    }

    private static TransactTime now()
    {
        return new TransactTime(LocalDateTime.now(ZoneOffset.UTC));
    }

    private static NewOrderSingle order(
        final String clOrdId, final char side, final String symbol, final String qty, final String price)
    {
        final NewOrderSingle m = new NewOrderSingle(new ClOrdID(clOrdId), new Side(side), now(),
            new OrdType(OrdType.LIMIT));
        m.set(new Symbol(symbol));
        m.setString(OrderQty.FIELD, qty);
        m.setString(Price.FIELD, price);
        m.set(new TimeInForce(TimeInForce.GOOD_TILL_CANCEL));
        return m;
    }

    private Message awaitOne(final SessionID id, final String what, final java.util.function.Predicate<Message> p)
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

    @Test
    void logonWithGoodAndBadPassword() throws Exception
    {
        final SessionID good = alice();
        final SessionID bad = client.addSession("BOB", "RINGEX", "bob", "not-bobs-password");
        client.start();
        Await.until("alice logged on", () -> client.isLoggedOn(good), null);
        Await.never("bob logged on with a wrong password", Duration.ofSeconds(2), () -> client.isLoggedOn(bad),
            null);
        Await.until("engine told of alice's session", () -> engine.commandLog().stream()
            .anyMatch(l -> l.startsWith("SessionStatus") && l.endsWith("loggedOn=TRUE")), null);
    }

    @Test
    void ordersAreAcknowledgedAndFilledWithExactDecimals() throws Exception
    {
        final SessionID alice = alice();
        final SessionID bob = client.addSession("BOB", "RINGEX", "bob", TestUsers.BOB_PASSWORD);
        startAndLogon(alice, bob);

        client.send(alice, order("A1", Side.BUY, "BTC-USD", "10", "101.25"));
        final Message ack = awaitOne(alice, "alice NEW", is("8", 150, "0"));
        assertEquals("A1", field(ack, 11));
        assertEquals("0", field(ack, 39));
        assertEquals("10", field(ack, 151));
        assertEquals("0", field(ack, 14));
        assertEquals("BTC-USD", field(ack, 55));
        assertEquals(101.25, Double.parseDouble(field(ack, 44)));
        assertTrue(engine.commandLog().stream().anyMatch(l -> l.contains("clOrdId=A1 price=10125 qty=10")));

        client.send(bob, order("B1", Side.SELL, "BTC-USD", "4", "101.25"));
        final Message fill = awaitOne(alice, "alice partial fill", is("8", 150, "F"));
        assertEquals("1", field(fill, 39));
        assertEquals("6", field(fill, 151));
        assertEquals("4", field(fill, 14));
        assertEquals("4", field(fill, 32));
        assertEquals(101.25, Double.parseDouble(field(fill, 31)));
        assertEquals(101.25, Double.parseDouble(field(fill, 6)));
        final Message bobFill = awaitOne(bob, "bob fill", is("8", 150, "F"));
        assertEquals("2", field(bobFill, 39));

        // a static-config instrument (scale 4) works too
        client.send(alice, order("A2", Side.BUY, "ETH-USD", "1", "2000.1234"));
        awaitOne(alice, "ETH ack", is("8", 11, "A2"));
        assertTrue(engine.commandLog().stream().anyMatch(l -> l.contains("clOrdId=A2 price=20001234 qty=1")));
    }

    @Test
    void badInputsAreRejectedWithReasons() throws Exception
    {
        final SessionID alice = alice();
        startAndLogon(alice);

        client.send(alice, order("P1", Side.BUY, "BTC-USD", "1", "101.255"));
        final Message tooFine = awaitOne(alice, "price reject", is("8", 11, "P1"));
        assertEquals("8", field(tooFine, 150));
        assertTrue(field(tooFine, 58).startsWith("INVALID_PRICE"), field(tooFine, 58));

        client.send(alice, order("ABCDEFGHIJKLMNOPQRSTU", Side.BUY, "BTC-USD", "1", "1"));
        final Message longId = awaitOne(alice, "long ClOrdID reject", is("8", 11, "ABCDEFGHIJKLMNOPQRSTU"));
        assertEquals("8", field(longId, 39));
        assertTrue(field(longId, 58).startsWith("MALFORMED"));

        client.send(alice, order("S1", Side.BUY, "NOPE", "1", "1"));
        final Message unknown = awaitOne(alice, "unknown symbol", is("8", 11, "S1"));
        assertEquals("1", field(unknown, 103));

        final NewOrderSingle bobsAccount = order("AC1", Side.BUY, "BTC-USD", "1", "1");
        bobsAccount.setString(1, "200");
        client.send(alice, bobsAccount);
        final Message notAuthorised = awaitOne(alice, "not authorised", is("8", 11, "AC1"));
        assertTrue(field(notAuthorised, 58).startsWith("NOT_AUTHORISED"));

        client.send(alice, order("Q1", Side.BUY, "BTC-USD", "1.5", "1"));
        final Message fractional = awaitOne(alice, "fractional quantity", is("8", 11, "Q1"));
        assertEquals("13", field(fractional, 103));

        assertTrue(engine.commandLog().stream().noneMatch(l -> l.startsWith("NewOrder")), "none reached the engine");
        assertTrue(client.isLoggedOn(alice));
    }

    @Test
    void cancelReplaceAndCancelRejectForUnknownOrder() throws Exception
    {
        final SessionID alice = alice();
        startAndLogon(alice);
        client.send(alice, order("C1", Side.BUY, "BTC-USD", "10", "100"));
        awaitOne(alice, "ack", is("8", 11, "C1"));

        final OrderCancelReplaceRequest replace = new OrderCancelReplaceRequest(new OrigClOrdID("C1"),
            new ClOrdID("C2"), new Side(Side.BUY), now(), new OrdType(OrdType.LIMIT));
        replace.set(new Symbol("BTC-USD"));
        replace.setString(OrderQty.FIELD, "5");
        replace.setString(Price.FIELD, "100.50");
        client.send(alice, replace);
        final Message replaced = awaitOne(alice, "replaced", is("8", 150, "5"));
        assertEquals("C2", field(replaced, 11));
        assertEquals("C1", field(replaced, 41));
        assertEquals("5", field(replaced, 38));
        assertEquals(100.5, Double.parseDouble(field(replaced, 44)));

        final OrderCancelRequest cancel = new OrderCancelRequest(new OrigClOrdID("C2"), new ClOrdID("C3"),
            new Side(Side.BUY), now());
        cancel.set(new Symbol("BTC-USD"));
        cancel.setString(OrderQty.FIELD, "5");
        client.send(alice, cancel);
        final Message canceled = awaitOne(alice, "canceled", is("8", 150, "4"));
        assertEquals("C3", field(canceled, 11));
        assertEquals("4", field(canceled, 39));

        final OrderCancelRequest unknown = new OrderCancelRequest(new OrigClOrdID("NOPE"), new ClOrdID("C4"),
            new Side(Side.BUY), now());
        unknown.set(new Symbol("BTC-USD"));
        unknown.setString(OrderQty.FIELD, "1");
        client.send(alice, unknown);
        final Message reject = awaitOne(alice, "cancel reject", m -> "9".equals(FixTestClient.header(m, 35)));
        assertEquals("1", field(reject, 102));
        assertEquals("1", field(reject, 434));
        assertEquals("C4", field(reject, 11));
        assertEquals("NOPE", field(reject, 41));
    }

    @Test
    void massCancelCancelsEveryOrderOfTheAccount() throws Exception
    {
        final SessionID alice = alice();
        startAndLogon(alice);
        client.send(alice, order("M1", Side.BUY, "BTC-USD", "1", "90"));
        client.send(alice, order("M2", Side.BUY, "BTC-USD", "1", "91"));
        Await.until("two acks", () -> client.find(alice, is("8", 150, "0")).size() == 2, null);

        final OrderMassCancelRequest massCancel = new OrderMassCancelRequest(new ClOrdID("MC1"),
            new MassCancelRequestType(MassCancelRequestType.CANCEL_ALL_ORDERS), now());
        client.send(alice, massCancel);
        Await.until("two cancels", () -> client.find(alice, is("8", 150, "4")).size() == 2, null);
        assertTrue(engine.commandLog().stream().anyMatch(l -> l.contains("scope=ACCOUNT cod=FALSE")));
    }

    @Test
    void logoutAndLogonAgainContinuesSequenceNumbers() throws Exception
    {
        final SessionID alice = alice();
        startAndLogon(alice);
        client.send(alice, order("L1", Side.BUY, "BTC-USD", "1", "50"));
        awaitOne(alice, "ack", is("8", 11, "L1"));
        final Session session = client.session(alice);
        final int senderBefore = session.getExpectedSenderNum();
        final int targetBefore = session.getExpectedTargetNum();

        session.logout("bye");
        Await.until("logged out", () -> !client.isLoggedOn(alice), null);
        session.logon();
        Await.until("logged on again", () -> client.isLoggedOn(alice), null);

        assertTrue(session.getExpectedSenderNum() > senderBefore, "our numbers continue");
        assertTrue(session.getExpectedTargetNum() > targetBefore, "the gateway's numbers continue");
        assertTrue(client.receivedAdmin(alice).stream().noneMatch(m -> "Y".equals(field(m, 141))), "no reset");

        client.send(alice, order("L2", Side.BUY, "BTC-USD", "1", "51"));
        awaitOne(alice, "ack after relogon", is("8", 11, "L2"));
    }

    @Test
    void resendRequestAfterAForcedGapIsAnsweredWithPossDupCopies() throws Exception
    {
        final SessionID alice = alice();
        startAndLogon(alice);
        for (int i = 0; i < 3; i++)
        {
            client.send(alice, order("R" + i, Side.BUY, "BTC-USD", "1", "60"));
        }
        Await.until("three acks", () -> client.find(alice, is("8", 150, "0")).size() == 3, null);

        // Pretend we missed the last three messages: the next one from the gateway reveals a gap, QuickFIX/J sends a
        // ResendRequest and the gateway (Artio, from its archive) replays them with PossDupFlag=Y.
        final Session session = client.session(alice);
        session.setNextTargetMsgSeqNum(session.getExpectedTargetNum() - 3);
        client.send(alice, order("R3", Side.BUY, "BTC-USD", "1", "60"));
        Await.until("possdup copies", () -> client.received(alice).stream()
            .filter(m -> "Y".equals(FixTestClient.header(m, PossDupFlag.FIELD))).count() >= 3, null);
        awaitOne(alice, "R3 ack", is("8", 11, "R3"));
        assertTrue(client.isLoggedOn(alice));
    }

    @Test
    void cancelOnDisconnectForUsersConfiguredForIt() throws Exception
    {
        final SessionID carol = client.addSession("CAROL", "RINGEX", "carol", TestUsers.CAROL_FIX_PASSWORD);
        final SessionID alice = alice();
        startAndLogon(carol, alice);
        client.send(carol, order("K1", Side.BUY, "BTC-USD", "1", "10"));
        client.send(alice, order("K2", Side.BUY, "BTC-USD", "1", "10"));
        awaitOne(carol, "carol ack", is("8", 11, "K1"));
        awaitOne(alice, "alice ack", is("8", 11, "K2"));

        client.session(carol).logout("bye");
        client.session(alice).logout("bye");
        Await.until("carol's orders cancelled on disconnect", () -> engine.commandLog().stream()
            .anyMatch(l -> l.startsWith("MassCancel") && l.contains("account=300 scope=SESSION cod=TRUE")), null);
        Await.until("both logged off", () -> engine.commandLog().stream()
            .filter(l -> l.startsWith("SessionStatus") && l.endsWith("loggedOn=FALSE")).count() == 2, null);
        assertTrue(engine.commandLog().stream().noneMatch(l -> l.contains("account=100 scope=SESSION")),
            "alice did not ask for it");
    }

    @Test
    void possDupDuplicateOfAProcessedMessageIsIgnored() throws Exception
    {
        // QuickFIX/J strips PossDupFlag from what it sends, so this client is a bare socket.
        try (RawFixClient raw = new RawFixClient(port, "ALICE", "RINGEX"))
        {
            raw.send("A", 1, "", "98=0|108=30|553=alice|554=" + TestUsers.ALICE_PASSWORD + "|");
            Await.until("logon answered", () -> poll(raw).stream().anyMatch(m -> m.contains("|35=A|")), null);

            final String d1 = "11=D1|1=100|55=BTC-USD|54=1|60=" + RawFixClient.now() + "|38=1|40=2|44=70|59=1|";
            raw.send("D", 2, "", d1);
            Await.until("D1 acknowledged", () -> poll(raw).stream().anyMatch(m -> m.contains("|11=D1|")), null);

            raw.send("D", 2, "43=Y|122=" + RawFixClient.now() + "|", d1);
            raw.send("D", 3, "", "11=D2|1=100|55=BTC-USD|54=1|60=" + RawFixClient.now() +
                "|38=1|40=2|44=71|59=1|");
            Await.until("D2 acknowledged", () -> poll(raw).stream().anyMatch(m -> m.contains("|11=D2|")), null);

            final List<String> d1Commands = engine.commandLog().stream().filter(l -> l.contains("clOrdId=D1 "))
                .toList();
            assertEquals(1, d1Commands.size(), "the PossDup copy did not reach the engine: " + d1Commands);
            assertEquals(1, poll(raw).stream().filter(m -> m.contains("|11=D1|")).count());
            assertTrue(poll(raw).stream().noneMatch(m -> m.contains("|35=5|")), "still logged on: " + poll(raw));
        }
    }

    @Test
    void aQuantityOrPriceBeyondWhatFixCarriesIsAnsweredAndAnEighteenDigitOneIsEchoedExactly() throws Exception
    {
        // The hostile probe: 38=1000000000000000000 (and 5e18) and 44=92233720368547758.07 were refused by the
        // engine, but the report threw inside Artio's encoder and the client never heard back. 19 significant
        // digits is more than FIX (Artio's DecimalFloat) carries: now a Reject(3), data format, naming the tag.
        final SessionID alice = alice();
        startAndLogon(alice);
        client.send(alice, order("OV1", Side.BUY, "BTC-USD", "1000000000000000000", "101.25"));
        client.send(alice, order("OV2", Side.BUY, "BTC-USD", "5000000000000000000", "101.25"));
        client.send(alice, order("OV3", Side.BUY, "BTC-USD", "1", "92233720368547758.07"));
        Await.until("three Reject(3)", () -> client.receivedAdmin(alice).stream()
            .filter(m -> "3".equals(FixTestClient.header(m, 35))).count() == 3, null);
        final List<Message> rejects = client.receivedAdmin(alice).stream()
            .filter(m -> "3".equals(FixTestClient.header(m, 35))).toList();
        assertEquals(List.of("38", "38", "44"), rejects.stream().map(m -> field(m, 371)).toList());
        for (final Message reject : rejects)
        {
            assertEquals("6", field(reject, 373), reject.toString());
            assertTrue(field(reject, 58).startsWith("Incorrect data format for value"), field(reject, 58));
        }

        // 18 digits is what FIX carries: the engine's answer echoes the client's values exactly.
        client.send(alice, order("OV4", Side.BUY, "BTC-USD", "999999999999999999", "101.25"));
        client.send(alice, order("OV5", Side.BUY, "BTC-USD", "1", "9999999999999999.99"));
        final Message bigQty = awaitOne(alice, "OV4 answered", is("8", 11, "OV4"));
        assertEquals(0, new java.math.BigDecimal("999999999999999999").compareTo(
            new java.math.BigDecimal(field(bigQty, 38))), bigQty.toString());
        final Message bigPrice = awaitOne(alice, "OV5 answered", is("8", 11, "OV5"));
        assertEquals(0, new java.math.BigDecimal("9999999999999999.99").compareTo(
            new java.math.BigDecimal(field(bigPrice, 44))), bigPrice.toString());
        for (final Message report : List.of(bigQty, bigPrice))
        {
            final String text = report.isSetField(58) ? field(report, 58) : "";
            assertTrue(!text.contains("exceeds FIX"), "nothing fitted: " + text);
        }

        assertTrue(engine.commandLog().stream().noneMatch(l -> l.contains("clOrdId=OV1 ") ||
            l.contains("clOrdId=OV2 ") || l.contains("clOrdId=OV3 ")), "the refused ones never reached the engine");
        Await.until("three Reject(3) counted", () -> gateway.fixAgent().sessionRejectsSent() == 3, null);
        assertEquals(0, gateway.fixAgent().encodingErrors());
        assertEquals(0, gateway.fixAgent().valuesFitted());
        assertEquals(0, gateway.fixAgent().droppedMessages());
        assertTrue(client.isLoggedOn(alice));
    }

    @Test
    void aRepeatedTagOrAMissingTransactTimeGetsARejectAndNothingReachesTheEngine() throws Exception
    {
        try (RawFixClient raw = new RawFixClient(port, "ALICE", "RINGEX"))
        {
            raw.send("A", 1, "", "98=0|108=30|553=alice|554=" + TestUsers.ALICE_PASSWORD + "|");
            Await.until("logon answered", () -> poll(raw).stream().anyMatch(m -> m.contains("|35=A|")), null);

            // a second OrderQty(38): FIX 4.4 says a tag outside a repeating group appears once
            raw.send("D", 2, "", "11=DUP1|1=100|55=BTC-USD|54=1|60=" + RawFixClient.now() +
                "|38=1|40=2|44=70|59=1|38=1000|");
            // no TransactTime(60), required in D, F, G and q
            raw.send("D", 3, "", "11=NT1|1=100|55=BTC-USD|54=1|38=1|40=2|44=70|59=1|");
            raw.send("F", 4, "", "11=NT2|41=X|55=BTC-USD|54=1|");
            raw.send("G", 5, "", "11=NT3|41=X|55=BTC-USD|54=1|40=2|38=1|44=70|");
            raw.send("q", 6, "", "11=NT4|530=7|");
            // a TransactTime that is not a UTCTimestamp
            raw.send("D", 7, "", "11=BT1|1=100|55=BTC-USD|54=1|60=20261301-00:00:00|38=1|40=2|44=70|59=1|");
            // Account(1) is not FIX 4.4's on q (a Ringex extension there): repeated, it is refused all the same
            raw.send("q", 8, "", "11=MQ1|530=7|1=100|1=101|60=" + RawFixClient.now() + "|");
            // and the session goes on
            raw.send("D", 9, "", "11=OK1|1=100|55=BTC-USD|54=1|60=" + RawFixClient.now() + "|38=1|40=2|44=70|59=1|");
            Await.until("OK1 answered", () -> poll(raw).stream().anyMatch(m -> m.contains("|35=8|") &&
                m.contains("|11=OK1|")), null);
            Await.until("seven Reject(3)", () -> poll(raw).stream().filter(m -> m.contains("|35=3|")).count() == 7,
                null);

            final List<String> rejects = poll(raw).stream().filter(m -> m.contains("|35=3|")).toList();
            final String[][] expected = {
                { "45=2", "371=38", "372=D", "373=13", "58=Tag appears more than once" },
                { "45=3", "371=60", "372=D", "373=1", "58=Required tag missing" },
                { "45=4", "371=60", "372=F", "373=1" },
                { "45=5", "371=60", "372=G", "373=1" },
                { "45=6", "371=60", "372=q", "373=1" },
                { "45=7", "371=60", "372=D", "373=6", "58=Incorrect data format for value" },
                { "45=8", "371=1", "372=q", "373=13" } };
            for (int i = 0; i < expected.length; i++)
            {
                for (final String fieldText : expected[i])
                {
                    assertTrue(rejects.get(i).contains("|" + fieldText), fieldText + " in " + rejects.get(i));
                }
            }
            final List<String> commands = engine.commandLog();
            for (final String id : new String[]{ "DUP1", "NT1", "NT2", "NT3", "NT4", "BT1", "MQ1" })
            {
                assertTrue(commands.stream().noneMatch(l -> l.contains("clOrdId=" + id + " ") ||
                    l.contains("orig=" + id)), id + " never reached the engine: " + commands);
            }
            assertTrue(poll(raw).stream().noneMatch(m -> m.contains("|35=5|")), "still logged on");
            Await.until("seven Reject(3) counted", () -> gateway.fixAgent().sessionRejectsSent() == 7, null);
            assertEquals(0, gateway.fixAgent().encodingErrors());
        }
    }

    @Test
    void aClOrdIdWithControlBytesIsRefusedAsTheSbeGatewayRefusesIt() throws Exception
    {
        try (RawFixClient raw = new RawFixClient(port, "ALICE", "RINGEX"))
        {
            raw.send("A", 1, "", "98=0|108=30|553=alice|554=" + TestUsers.ALICE_PASSWORD + "|");
            Await.until("logon answered", () -> poll(raw).stream().anyMatch(m -> m.contains("|35=A|")), null);
            raw.send("D", 2, "", "11=C\u0002X|1=100|55=BTC-USD|54=1|60=" + RawFixClient.now() +
                "|38=1|40=2|44=70|59=1|");
            raw.send("D", 3, "", "11=C X|1=100|55=BTC-USD|54=1|60=" + RawFixClient.now() + "|38=1|40=2|44=70|59=1|");
            Await.until("two rejects", () -> poll(raw).stream().filter(m -> m.contains("|150=8|")).count() == 2,
                null);
            final List<String> reports = poll(raw).stream().filter(m -> m.contains("|150=8|")).toList();
            assertTrue(reports.get(0).contains("|11=C?X|"), "echoed printable: " + reports.get(0));
            assertTrue(reports.get(1).contains("|11=C X|"), reports.get(1));
            for (final String report : reports)
            {
                assertTrue(report.contains("|58=MALFORMED: ClOrdID(11) must be 1-20 printable ASCII characters"),
                    report);
            }
            assertTrue(engine.commandLog().stream().noneMatch(l -> l.startsWith("NewOrder")));
        }
    }

    private static List<String> poll(final RawFixClient raw)
    {
        try
        {
            return raw.poll();
        }
        catch (final IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
    }
}
