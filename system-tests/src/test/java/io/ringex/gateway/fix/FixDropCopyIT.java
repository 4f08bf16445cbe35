package io.ringex.gateway.fix;

import io.aeron.Aeron;
import io.aeron.CommonContext;
import io.aeron.archive.ArchivingMediaDriver;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.ringex.client.ExchangeClient;
import io.ringex.gateway.Gateway;
import io.ringex.gateway.GatewayContext;
import io.ringex.gateway.auth.User;
import io.ringex.protocol.CredentialHash;
import io.ringex.testing.Await;
import io.ringex.gateway.testing.EngineStreams;
import io.ringex.gateway.testing.EngineUnderTest;
import io.ringex.gateway.testing.FixTestClient;
import io.ringex.gateway.testing.RecordingListener;
import io.ringex.gateway.testing.TestEngines;
import io.ringex.gateway.testing.TestGateways;
import io.ringex.gateway.testing.TestUsers;
import io.ringex.protocol.codecs.UserRole;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;
import quickfix.SessionID;
import quickfix.field.ClOrdID;
import quickfix.field.MsgType;
import quickfix.field.OrdType;
import quickfix.field.OrderQty;
import quickfix.field.OrigClOrdID;
import quickfix.field.Price;
import quickfix.field.Side;
import quickfix.field.Symbol;
import quickfix.field.TransactTime;
import quickfix.fix44.NewOrderSingle;
import quickfix.fix44.OrderCancelRequest;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import static io.ringex.gateway.testing.FixTestClient.field;
import static io.ringex.gateway.testing.FixTestClient.header;
import static io.ringex.gateway.testing.FixTestClient.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * FIX drop copy against the real engine and a QuickFIX/J client with dictionary validation on. Three users trade on two
 * accounts: alice (FIX) and dave (SBE) on account 100, bob (FIX) on account 200. AUDIT is a DROP_COPY user of account
 * 100, CLEAR a CLEARING user (every account). Each drop-copy session must see every ExecutionReport of its scope
 * exactly once and in the engine's order: the same reports, in the same order, as the traders got them.
 * <p>
 * Reports are matched by OrderID(37), OrdStatus(39), CumQty(14) and LeavesQty(151), which tell the reports of these
 * scenarios apart on both protocols. Copies delivered again by a resend after a reconnect come with PossDupFlag=Y;
 * the drop-copy view drops a repeated ExecID(17) (as a drop-copy client must), and the test asserts the ExecIDs it
 * kept are the ones the first delivery would have had: each report exactly once.
 */
class FixDropCopyIT
{
    private static final String IPC = "aeron:ipc";
    private static final int INSTRUMENT = 1;
    private static final String DAVE_PASSWORD = "dave-secret";
    private static final String AUDIT_PASSWORD = "audit-secret";
    private static final String CLEAR_PASSWORD = "clear-secret";
    private static final User DAVE = new User("dave", CredentialHash.hash(DAVE_PASSWORD.toCharArray(), 1000),
        new long[]{ TestUsers.ALICE_ACCOUNT }, null, TestUsers.GATEWAY_COMP_ID);
    private static final User AUDIT = new User("audit", CredentialHash.hash(AUDIT_PASSWORD.toCharArray(), 1000),
        new long[]{ TestUsers.ALICE_ACCOUNT }, "AUDIT", TestUsers.GATEWAY_COMP_ID, false, true, 0,
        UserRole.DROP_COPY);
    private static final User CLEAR = new User("clear", CredentialHash.hash(CLEAR_PASSWORD.toCharArray(), 1000),
        new long[]{ TestUsers.CAROL_ACCOUNT }, "CLEAR", TestUsers.GATEWAY_COMP_ID, false, true, 0,
        UserRole.CLEARING);

    @TempDir
    Path tempDir;

    private ArchivingMediaDriver driver;
    private Gateway gateway;
    private GatewayContext ctx;
    private EngineUnderTest engine;
    private FixTestClient fix;
    private Aeron aeron;
    private ExchangeClient dave;
    private final RecordingListener daveReports = new RecordingListener();
    private String aeronDir;
    private int port;
    private SessionID alice;
    private SessionID bob;
    private SessionID audit;
    private SessionID clear;

    @BeforeEach
    void setUp() throws Exception
    {
        port = freePort();
        aeronDir = CommonContext.generateRandomDirName();
        ctx = gatewayContext();
        driver = ArchivingMediaDriver.launch(
            new MediaDriver.Context()
                .aeronDirectoryName(aeronDir)
                .threadingMode(ThreadingMode.SHARED)
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true),
            Gateway.fixArchive(ctx));
        gateway = Gateway.launch(ctx, Throwable::printStackTrace);
        engine = TestEngines.launch(new EngineStreams(aeronDir, IPC, 1001, IPC, 1002, IPC, 1003,
            new EngineStreams.TestInstrument(INSTRUMENT, "BTC-USD", 2)));
        awaitGatewayReady();
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDir));
        fix = new FixTestClient(port);
        alice = fix.addSession("ALICE", "RINGEX", "alice", TestUsers.ALICE_PASSWORD);
        bob = fix.addSession("BOB", "RINGEX", "bob", TestUsers.BOB_PASSWORD);
        audit = fix.addSession("AUDIT", "RINGEX", "audit", AUDIT_PASSWORD);
        clear = fix.addSession("CLEAR", "RINGEX", "clear", CLEAR_PASSWORD);
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(dave, fix, aeron, engine, gateway, driver);
    }

    private GatewayContext gatewayContext()
    {
        return TestGateways.fixOverIpc(4, aeronDir, tempDir, port).embeddedDriver(false)
            .addUser(DAVE).addUser(AUDIT).addUser(CLEAR);
    }

    private void awaitGatewayReady()
    {
        Await.until("library connected, BTC-USD known and the engine's users in", () ->
            gateway.fixAgent().isLibraryConnected() && gateway.fixAgent().instrumentCount() >= 1 &&
            ctx.users().loaded() && null != ctx.users().user("audit") &&
            UserRole.DROP_COPY == ctx.users().user("audit").role(), null);
    }

    private static int freePort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0))
        {
            return socket.getLocalPort();
        }
    }

    private void startAll() throws Exception
    {
        fix.start();
        awaitLoggedOn(alice, bob, audit, clear);
        dave = ExchangeClient.openChannels(aeron, IPC, 2001, IPC, 3001, daveReports);
        Await.until("dave connected", dave::isConnected, dave::poll);
        Await.until("dave logon sent", () -> dave.logon("dave", DAVE_PASSWORD, false, 1000) > 0, dave::poll);
        Await.until("dave logged on", dave::isLoggedOn, dave::poll);
    }

    private void awaitLoggedOn(final SessionID... ids)
    {
        for (final SessionID id : ids)
        {
            Await.until(id + " logged on", () -> fix.isLoggedOn(id), null == dave ? null : dave::poll);
        }
    }

    private static NewOrderSingle order(final String clOrdId, final char side, final String qty, final String price)
    {
        final NewOrderSingle m = new NewOrderSingle(new ClOrdID(clOrdId), new Side(side),
            new TransactTime(LocalDateTime.now(ZoneOffset.UTC)), new OrdType(OrdType.LIMIT));
        m.set(new Symbol("BTC-USD"));
        m.setString(OrderQty.FIELD, qty);
        m.setString(Price.FIELD, price);
        m.set(new quickfix.field.TimeInForce(quickfix.field.TimeInForce.GOOD_TILL_CANCEL));
        return m;
    }

    private void awaitFix(final SessionID id, final String what, final Predicate<Message> p)
    {
        Await.until(what, () -> !fix.find(id, p).isEmpty(), null == dave ? null : dave::poll);
    }

    private static Predicate<Message> report(final String clOrdId, final String ordStatus)
    {
        return m -> "8".equals(header(m, MsgType.FIELD)) && clOrdId.equals(field(m, 11)) &&
            ordStatus.equals(field(m, 39));
    }

    /**
     * Round one, every trader: alice rests a buy of 10 at 100 (account 100); bob sells 4 into it (200); dave (SBE,
     * account 100) rests a sell of 3 at 101; bob buys 3 from dave; alice cancels her rest.
     */
    private void roundOne(final String tag)
    {
        fix.send(alice, order("A1" + tag, Side.BUY, "10", "100"));
        awaitFix(alice, "A1 resting", report("A1" + tag, "0"));
        fix.send(bob, order("B1" + tag, Side.SELL, "4", "100"));
        awaitFix(alice, "A1 partly filled", report("A1" + tag, "1"));
        awaitFix(bob, "B1 filled", report("B1" + tag, "2"));
        Await.until("dave's sell sent", () -> dave.order().account(TestUsers.ALICE_ACCOUNT).clientOrderId("D1" + tag)
            .instrument(INSTRUMENT).side(io.ringex.protocol.codecs.Side.SELL)
            .limit(10100).quantity(3).send() > 0, dave::poll);
        Await.until("D1 resting", () -> null != daveReports.report(r -> r.clientOrderId().equals("D1" + tag)),
            dave::poll);
        fix.send(bob, order("B2" + tag, Side.BUY, "3", "101"));
        awaitFix(bob, "B2 filled", report("B2" + tag, "2"));
        Await.until("D1 filled", () -> null != daveReports.report(r -> r.clientOrderId().equals("D1" + tag) &&
            r.orderStatus().equals("FILLED")), dave::poll);
        final OrderCancelRequest cancel = new OrderCancelRequest(new OrigClOrdID("A1" + tag), new ClOrdID("C1" + tag),
            new Side(Side.BUY), new TransactTime(LocalDateTime.now(ZoneOffset.UTC)));
        cancel.set(new Symbol("BTC-USD"));
        fix.send(alice, cancel);
        awaitFix(alice, "A1 canceled", m -> "8".equals(header(m, MsgType.FIELD)) && "4".equals(field(m, 39)) &&
            ("C1" + tag).equals(field(m, 11)));
    }

    /** Alice and bob only (FIX): alice buys 2 at 100 resting, bob sells 2 into it. */
    private void roundTwo(final String tag)
    {
        fix.send(alice, order("A2" + tag, Side.BUY, "2", "100"));
        awaitFix(alice, "A2 resting", report("A2" + tag, "0"));
        fix.send(bob, order("B3" + tag, Side.SELL, "2", "100"));
        awaitFix(alice, "A2 filled", report("A2" + tag, "2"));
        awaitFix(bob, "B3 filled", report("B3" + tag, "2"));
    }

    private static String key(final Message m)
    {
        return field(m, 37) + "/" + field(m, 39) + "/" + field(m, 14) + "/" + field(m, 151);
    }

    private static String key(final RecordingListener.Report r)
    {
        final String status = switch (r.orderStatus())
        {
            case "NEW" -> "0";
            case "PARTIALLY_FILLED" -> "1";
            case "FILLED" -> "2";
            case "CANCELED" -> "4";
            case "REJECTED" -> "8";
            default -> r.orderStatus();
        };
        return r.orderId() + "/" + status + "/" + r.cumulative() + "/" + r.leaves();
    }

    private List<String> fixView(final SessionID id)
    {
        return fix.find(id, m -> "8".equals(header(m, MsgType.FIELD))).stream().map(FixDropCopyIT::key).toList();
    }

    private List<String> daveView()
    {
        return daveReports.reports.stream().map(FixDropCopyIT::key).toList();
    }

    /**
     * The copies a drop-copy session received, each ExecID once (a resend's PossDup repeat is dropped), in arrival
     * order; checks every copy carries Account(1) and names its origin (OnBehalfOfSubID, and the FIX CompID of a
     * FIX origin).
     */
    private Map<String, Message> copies(final SessionID id)
    {
        final Map<String, Message> byExecId = new LinkedHashMap<>();
        for (final Message m : fix.find(id, m -> "8".equals(header(m, MsgType.FIELD)) &&
            !String.valueOf(field(m, 11)).startsWith("X")))
        {
            // (ClOrdIDs X...: the gateway's answers to the drop copy's own refused messages, not copies.)
            assertNotNull(field(m, 1), "Account(1) on every copy: " + m);
            assertNotNull(header(m, 116), "OnBehalfOfSubID(116) on every copy: " + m);
            byExecId.putIfAbsent(field(m, 17), m);
        }
        return byExecId;
    }

    private static List<String> keys(final Map<String, Message> copies, final Predicate<Message> which)
    {
        final List<String> keys = new ArrayList<>();
        for (final Message m : copies.values())
        {
            if (which.test(m))
            {
                keys.add(key(m));
            }
        }
        return keys;
    }

    private static Predicate<Message> from(final String compId)
    {
        return m -> compId.equals(header(m, 115));
    }

    private static Predicate<Message> fromSbe()
    {
        return m -> null == header(m, 115);
    }

    private void awaitCopies(final SessionID id, final int count)
    {
        try
        {
            Await.until(id + ": " + count + " copies", () -> copies(id).size() >= count,
                null == dave ? null : dave::poll);
        }
        catch (final AssertionError ex)
        {
            throw new AssertionError(ex.getMessage() + "; received " + fix.received(id) + "; admin " +
                fix.receivedAdmin(id), ex);
        }
    }

    /**
     * What a drop copy of account 100 must hold: alice's and dave's reports, each trader's in the order the trader
     * got them; and CLEAR's copies of account 100, in the same order (both are the engine's order).
     */
    private void assertAuditSeesAccount100(final List<String> daveExpected)
    {
        final List<String> aliceView = fixView(alice);
        awaitCopies(audit, aliceView.size() + daveExpected.size());
        final Map<String, Message> auditCopies = copies(audit);
        assertEquals(aliceView.size() + daveExpected.size(), auditCopies.size(),
            "exactly the reports of account 100: " + auditCopies.values());
        assertEquals(aliceView, keys(auditCopies, from("ALICE")), "alice's reports, in her order");
        assertEquals(daveExpected, keys(auditCopies, fromSbe()), "dave's reports, in his order");
        assertTrue(auditCopies.values().stream().allMatch(m -> "100".equals(field(m, 1))), "account 100 only");
        assertTrue(keys(auditCopies, from("BOB")).isEmpty(), "none of bob's");
    }

    private void assertClearSeesEverything(final List<String> daveExpected)
    {
        final List<String> aliceView = fixView(alice);
        final List<String> bobView = fixView(bob);
        final int expected = aliceView.size() + bobView.size() + daveExpected.size();
        awaitCopies(clear, expected);
        final Map<String, Message> clearCopies = copies(clear);
        assertEquals(expected, clearCopies.size(), "every report of the venue once: " + clearCopies.values());
        assertEquals(aliceView, keys(clearCopies, from("ALICE")));
        assertEquals(bobView, keys(clearCopies, from("BOB")));
        assertEquals(daveExpected, keys(clearCopies, fromSbe()));
        assertEquals(keys(copies(audit), m -> true), keys(clearCopies, m -> "100".equals(field(m, 1))),
            "account 100 in the same (engine) order at both drop copies");
    }

    @Test
    void eachDropCopySeesItsScopeOnceInOrderAndSendsNothing() throws Exception
    {
        startAll();
        roundOne("a");

        final List<String> daveView = daveView();
        assertEquals(2, daveView.size(), "dave: new, fill: " + daveReports.reports);
        assertAuditSeesAccount100(daveView);
        assertClearSeesEverything(daveView);
        final long daveSession = daveReports.reports.get(0).sessionId();
        assertTrue(copies(audit).values().stream().filter(fromSbe())
            .allMatch(m -> String.valueOf(daveSession).equals(header(m, 116))), "dave's session named");
        final List<Message> bobReports = fix.find(bob, m -> "8".equals(header(m, MsgType.FIELD)));
        assertTrue(!bobReports.isEmpty() && bobReports.stream().allMatch(m -> "200".equals(field(m, 1)) &&
            null == header(m, 116)), "a TRADER's session is never a drop copy: bob sees his own only: " + bobReports);

        // A drop-copy session may not trade, cancel or ask: refused at the gateway, never forwarded.
        fix.send(audit, order("X1", Side.BUY, "1", "100"));
        awaitFix(audit, "the order refused", m -> "8".equals(header(m, MsgType.FIELD)) && "X1".equals(field(m, 11)));
        final Message refused = fix.find(audit, m -> "X1".equals(field(m, 11))).get(0);
        assertEquals("8", field(refused, 39));
        assertTrue(field(refused, 58).startsWith("DROP_COPY_SESSION"), field(refused, 58));
        final OrderCancelRequest cancel = new OrderCancelRequest(new OrigClOrdID("A1a"), new ClOrdID("X2"),
            new Side(Side.BUY), new TransactTime(LocalDateTime.now(ZoneOffset.UTC)));
        cancel.set(new Symbol("BTC-USD"));
        fix.send(clear, cancel);
        awaitFix(clear, "the cancel refused", is("9", 11, "X2"));
        assertTrue(field(fix.find(clear, is("9", 11, "X2")).get(0), 58).startsWith("DROP_COPY_SESSION"));
        assertTrue(engine.commandLog().stream().noneMatch(l -> l.contains("X1") || l.contains("X2")),
            "nothing forwarded: " + engine.commandLog());
        assertEquals(daveView.size() + fixView(alice).size(), copies(audit).size(), "no copy for a refusal");
    }

    /**
     * A client that sent {@code 44=99.40} and {@code 38=7.0} gets every report of the order with the price at the
     * instrument's scale (2: {@code 99.40}, {@code 120.00}) and the quantity whole ({@code 7}): the ack (ExecType 0),
     * the cancel (4), the fill (F) with its LastPx and AvgPx, and the drop copies of each, string for string.
     */
    @Test
    void pricesAreEchoedAtTheInstrumentsScaleOnEveryReportAndEveryCopy() throws Exception
    {
        startAll();
        fix.send(alice, order("Z1", Side.BUY, "7.0", "99.40"));
        awaitFix(alice, "Z1 resting", report("Z1", "0"));
        final Message ack = fix.find(alice, report("Z1", "0")).get(0);
        assertEquals("0", field(ack, 150));
        assertEquals("99.40", field(ack, 44), "Price(44) on the ack: " + ack);
        assertEquals("7", field(ack, 38), "OrderQty(38) on the ack: " + ack);
        assertEquals("7", field(ack, 151));
        assertEquals("0.00", field(ack, 6), "AvgPx(6) at the price scale too");

        final OrderCancelRequest cancel = new OrderCancelRequest(new OrigClOrdID("Z1"), new ClOrdID("Z1C"),
            new Side(Side.BUY), new TransactTime(LocalDateTime.now(ZoneOffset.UTC)));
        cancel.set(new Symbol("BTC-USD"));
        cancel.setString(OrderQty.FIELD, "7.0");
        fix.send(alice, cancel);
        awaitFix(alice, "Z1 canceled", report("Z1C", "4"));
        final Message canceled = fix.find(alice, report("Z1C", "4")).get(0);
        assertEquals("4", field(canceled, 150));
        assertEquals("99.40", field(canceled, 44), "Price(44) on the cancel: " + canceled);
        assertEquals("7", field(canceled, 38), "OrderQty(38) on the cancel: " + canceled);

        fix.send(alice, order("Z2", Side.BUY, "5.0", "120.00"));
        awaitFix(alice, "Z2 resting", report("Z2", "0"));
        assertEquals("120.00", field(fix.find(alice, report("Z2", "0")).get(0), 44));
        fix.send(bob, order("Z3", Side.SELL, "5", "120.00"));
        awaitFix(alice, "Z2 filled", report("Z2", "2"));
        final Message fill = fix.find(alice, report("Z2", "2")).get(0);
        assertEquals("F", field(fill, 150));
        assertEquals("120.00", field(fill, 44));
        assertEquals("120.00", field(fill, 31), "LastPx(31): " + fill);
        assertEquals("120.00", field(fill, 6), "AvgPx(6): " + fill);
        assertEquals("5", field(fill, 32));
        assertEquals("5", field(fill, 14));

        // The drop copy of account 100 gets the same strings for each of them.
        final List<Message> own = List.of(ack, canceled, fix.find(alice, report("Z2", "0")).get(0), fill);
        Await.until("the drop copy's copies of Z1 and Z2", () -> copies(audit).values().stream()
            .filter(m -> String.valueOf(field(m, 11)).startsWith("Z")).count() >= own.size(), dave::poll);
        for (final Message report : own)
        {
            final Message copy = copies(audit).get(field(report, 17));
            assertNotNull(copy, "a copy of " + report);
            for (final int tag : new int[]{ 44, 38, 151, 14, 6, 31, 32 })
            {
                assertEquals(field(report, tag), field(copy, tag), "tag " + tag + " of the copy of " + report);
            }
        }
    }

    @Test
    void copiesMadeWhileTheDropCopyWasAwayArriveOnReconnectOnce() throws Exception
    {
        startAll();
        roundOne("a");
        final List<String> daveView = daveView();
        assertAuditSeesAccount100(daveView);

        fix.session(audit).logout("away");
        Await.until("audit logged out", () -> !fix.isLoggedOn(audit), dave::poll);
        roundTwo("b");
        roundOne("c");

        fix.session(audit).logon();
        awaitLoggedOn(audit);
        final List<String> daveAll = daveView();
        assertEquals(4, daveAll.size());
        assertAuditSeesAccount100(daveAll);
        assertTrue(fix.find(audit, m -> "8".equals(header(m, MsgType.FIELD)) && "Y".equals(header(m, 43)))
            .size() > 0, "the copies made while it was away came by resend (PossDupFlag=Y)");
        assertClearSeesEverything(daveAll);
    }

    @Test
    void copiesSurviveAGatewayRestartWhileTheDropCopyIsAway() throws Exception
    {
        startAll();
        roundOne("a");
        final List<String> daveView = daveView();
        assertAuditSeesAccount100(daveView);
        fix.session(audit).logout("away");
        Await.until("audit logged out", () -> !fix.isLoggedOn(audit), dave::poll);
        CloseHelper.close(dave);
        dave = null;

        // A new gateway process on the same FIX log directory and archive: it has never seen AUDIT's session, and
        // must hold its copies from the first report on.
        gateway.close();
        ctx = gatewayContext();
        gateway = Gateway.launch(ctx, Throwable::printStackTrace);
        awaitGatewayReady();
        awaitLoggedOn(alice, bob, clear);
        roundTwo("b");

        fix.session(audit).logon();
        awaitLoggedOn(audit);
        assertAuditSeesAccount100(daveView);
        assertClearSeesEverything(daveView);
    }
}
