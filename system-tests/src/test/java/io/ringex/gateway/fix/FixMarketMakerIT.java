package io.ringex.gateway.fix;

import io.aeron.Aeron;
import io.aeron.CommonContext;
import io.ringex.client.AdminClient;
import io.ringex.engine.node.NodeTestSupport;
import io.ringex.gateway.Gateway;
import io.ringex.gateway.GatewayContext;
import io.ringex.gateway.testing.EngineStreams;
import io.ringex.gateway.testing.FixMarketDataBook;
import io.ringex.gateway.testing.FixTestClient;
import io.ringex.gateway.testing.RealEngineNode;
import io.ringex.gateway.testing.TestGateways;
import io.ringex.gateway.testing.TestUsers;
import io.ringex.protocol.codecs.UserRole;
import io.ringex.testing.Await;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Group;
import quickfix.Message;
import quickfix.SessionID;
import quickfix.field.ClOrdID;
import quickfix.field.MDEntryType;
import quickfix.field.MDReqID;
import quickfix.field.MarketDepth;
import quickfix.field.OrdType;
import quickfix.field.OrderQty;
import quickfix.field.Price;
import quickfix.field.QuoteCancelType;
import quickfix.field.QuoteID;
import quickfix.field.Side;
import quickfix.field.SubscriptionRequestType;
import quickfix.field.Symbol;
import quickfix.field.TimeInForce;
import quickfix.field.TransactTime;
import quickfix.fix44.MarketDataRequest;
import quickfix.fix44.MassQuote;
import quickfix.fix44.NewOrderSingle;
import quickfix.fix44.QuoteCancel;

import java.math.BigDecimal;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static io.ringex.gateway.testing.FixTestClient.field;
import static io.ringex.gateway.testing.FixTestClient.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A market maker over FIX 4.4 as an independent client sends it: a QuickFIX/J initiator (its FIX44 dictionary
 * validating everything the gateway sends back) -> Artio acceptor -> the real engine node -> back. MassQuote (i) is
 * answered by a MassQuoteAcknowledgement (b) entry by entry; a taker's fills of the quote are ExecutionReports with
 * the quote's id; the fill that reaches the account's market-maker protection cancels the quote (ExecutionReports,
 * then a b with QuoteStatus 6) and freezes it (the next MassQuote refused, QuoteStatus 5) until the operator sets
 * the protection again; QuoteCancel (Z) by symbol and for all is answered by a b. A maker with cancel-on-disconnect
 * and a grace that logs on again within the grace finds its quote resting (its session id is Artio's, the same at each
 * logon); past the grace the engine cancels it, and the maker gets the cancels at its next logon. The gateway refuses,
 * with a reason, what it cannot translate. BTC-USD trades at scale 2 around a reference of 100.00.
 */
class FixMarketMakerIT
{
    private static final String IPC = "aeron:ipc";
    /** RealEngineNode's risk stream: the market-data stream plus 1000 (admin answers come on it). */
    private static final int RISK_STREAM = 1003 + 1000;

    @TempDir
    Path tempDir;

    private Gateway gateway;
    private RealEngineNode engine;
    private GatewayContext gatewayContext;
    private FixTestClient client;
    private SessionID alice;
    private SessionID bob;
    private String aeronDir;
    private long adminRequestId = 5_000;

    @BeforeEach
    void setUp() throws Exception
    {
        final int port;
        try (ServerSocket socket = new ServerSocket(0))
        {
            port = socket.getLocalPort();
        }
        aeronDir = CommonContext.generateRandomDirName();
        final GatewayContext ctx = TestGateways.fixOverIpc(3, aeronDir, tempDir, port).embeddedDriver(true);
        gateway = Gateway.launch(ctx, Throwable::printStackTrace);
        gatewayContext = ctx;
        engine = RealEngineNode.launch(new EngineStreams(aeronDir, IPC, 1001, IPC, 1002, IPC, 1003,
            new EngineStreams.TestInstrument(1, "BTC-USD", 2)));
        Await.until("library connected and BTC-USD learnt", () -> gateway.fixAgent().isLibraryConnected() &&
            gateway.fixAgent().instrumentCount() >= 1, null);
        Await.until("the gateway has the engine's users", () -> ctx.users().loaded(), null);
        protectAlice();
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

    @Test
    void aMassQuoteIsAcknowledgedFilledProtectedAndCancelled()
    {
        // Entry 1 rests; entry 2's symbol is unknown and entry 3 (a second quote set) is crossed: refused each.
        final MassQuote first = massQuote("Q1",
            set("1", entry("1", "BTC-USD", "99", "10", "101", "10"), entry("2", "XYZ-USD", "99", "1", "101", "1")),
            set("2", entry("3", "BTC-USD", "101", "1", "100", "1")));
        client.send(alice, first);
        final Message ack = awaitOne(alice, "Q1 acknowledged", is("b", 117, "Q1"));
        assertEquals("0", field(ack, 297));
        assertEquals("100", field(ack, 1));
        assertEquals("299=2:UNKNOWN_INSTRUMENT 299=3:QUOTE_CROSSED", field(ack, 58));
        final List<Group> sets = ack.getGroups(296);
        assertEquals(2, sets.size());
        assertEquals(List.of("", "1"), rejectReasons(sets.get(0)), "entry 1 accepted, entry 2 unknown symbol");
        assertEquals(List.of("7"), rejectReasons(sets.get(1)), "entry 3: invalid bid/ask spread");

        // Bob takes 3 of the bid, then 2 more: the second fill reaches the limit of two fills.
        client.send(bob, ioc("B1", "3"));
        final Message fill = awaitOne(alice, "quote filled", is("8", 11, "Q1").and(is("8", 150, "F")));
        assertEquals("3", field(fill, 32));
        assertEquals("1", field(fill, 54));
        client.send(bob, ioc("B2", "2"));
        final Message breach = awaitOne(alice, "protection breached", is("b", 297, "6"));
        assertEquals("market-maker protection breached: FILLS group 1, 2 quote sides canceled, frozen",
            field(breach, 58));
        final List<Message> canceled = client.find(alice, is("8", 11, "Q1").and(is("8", 150, "4")));
        assertEquals(2, canceled.size(), "both sides' ExecutionReports came before the acknowledgement");
        assertTrue(canceled.stream().allMatch(m -> field(m, 58).contains("MARKET_MAKER_PROTECTION")));

        // Frozen: the next quote is refused whole.
        client.send(alice, massQuote("Q2", set("1", entry("1", "BTC-USD", "99", "10", "101", "10"))));
        final Message frozen = awaitOne(alice, "Q2 refused", is("b", 117, "Q2"));
        assertEquals("5", field(frozen, 297));
        assertEquals("299=1:QUOTE_FROZEN", field(frozen, 58));

        // The operator sets the protection again, which lifts the freeze; the quote rests again.
        protectAlice();
        client.send(alice, massQuote("Q3", set("1", entry("1", "BTC-USD", "99", "10", "101", "10"))));
        assertEquals("0", field(awaitOne(alice, "Q3 acknowledged", is("b", 117, "Q3")), 297));

        // Quote cancel for the symbol: its two sides; then for all: nothing left.
        client.send(alice, quoteCancel("C1", QuoteCancelType.CANCEL_FOR_ONE_OR_MORE_SECURITIES, "BTC-USD"));
        final Message bySymbol = awaitOne(alice, "C1 answered", is("b", 117, "C1"));
        assertEquals("1", field(bySymbol, 297));
        assertEquals("sides canceled=2", field(bySymbol, 58));
        client.send(alice, quoteCancel("C2", QuoteCancelType.CANCEL_ALL_QUOTES, null));
        final Message all = awaitOne(alice, "C2 answered", is("b", 117, "C2"));
        assertEquals("4", field(all, 297));
        assertEquals("sides canceled=0", field(all, 58));

        // Nothing of Alice's rests now: Bob's sell finds no bid.
        client.send(bob, ioc("B3", "1"));
        final Message expired = awaitOne(bob, "B3 done", is("8", 11, "B3").and(is("8", 39, "4")));
        assertEquals("0", field(expired, 14));
    }

    @Test
    void whatTheGatewayCannotTranslateIsRefusedWithAReason()
    {
        final Group[] eleven = new Group[11];
        for (int i = 0; i < eleven.length; i++)
        {
            eleven[i] = entry(Integer.toString(i + 1), "BTC-USD", "99", "1", "101", "1");
        }
        client.send(alice, massQuote("M1", set("1", eleven)));
        client.send(alice, massQuote("M2", set("1", entry("1", "BTC-USD", "99.001", "1", "101", "1"))));
        client.send(alice, massQuote("M3", set("1", entry("1", "BTC-USD", "99", "-1", "101", "1"))));
        client.send(alice, massQuote("M4", set("0", entry("1", "BTC-USD", "99", "1", "101", "1"))));
        client.send(alice, massQuote("M5", set("1", entry("x", "BTC-USD", "99", "1", "101", "1"))));
        final MassQuote foreign = massQuote("M6", set("1", entry("1", "BTC-USD", "99", "1", "101", "1")));
        foreign.setString(1, Long.toString(TestUsers.BOB_ACCOUNT));
        client.send(alice, foreign);
        client.send(alice, quoteCancel("C1", QuoteCancelType.CANCEL_FOR_SECURITY_TYPE, null));
        client.send(alice, quoteCancel("C2", QuoteCancelType.CANCEL_FOR_ONE_OR_MORE_SECURITIES, null));

        Await.until("all refused", () -> client.find(alice, m -> isType(m, "j")).size() >= 8, null);
        final List<String> texts = client.find(alice, m -> isType(m, "j")).stream()
            .map(m -> field(m, 372) + " " + field(m, 58).split(":")[0]).toList();
        assertEquals(List.of("i TOO_MANY_QUOTE_ENTRIES", "i INVALID_PRICE", "i INVALID_QUANTITY", "i MALFORMED",
            "i MALFORMED", "i NOT_AUTHORISED", "Z INVALID_ARGUMENT", "Z MALFORMED"), texts);
        assertTrue(client.find(alice, is("b", 297, "0")).isEmpty(), "nothing was quoted");

        // The session goes on.
        client.send(alice, massQuote("OK", set("1", entry("1", "BTC-USD", "99", "1", "101", "1"))));
        assertEquals("0", field(awaitOne(alice, "OK acknowledged", is("b", 117, "OK")), 297));
    }

    @Test
    void aMakerWithAGraceKeepsItsQuoteOverAReconnectAndLosesItWhenTheGraceRunsOut() throws Exception
    {
        // The operator gives Alice cancel-on-disconnect with a grace of a minute: far longer than a reconnect takes.
        aliceCancelOnDisconnect(60_000);
        client.send(alice, massQuote("Q1", set("1", entry("1", "BTC-USD", "99", "10", "101", "10"))));
        assertEquals("0", field(awaitOne(alice, "Q1 acknowledged", is("b", 117, "Q1")), 297));
        final String quoted = engine.commandLog().stream().filter(l -> l.startsWith("MassQuote") &&
            l.endsWith("quoteId=Q1")).findFirst().orElseThrow();
        final String session = "session=" + quoted.split(" ")[1].substring("session=".length());

        // She goes: the engine is told, with her grace, and nothing is cancelled.
        final String wentWithGrace = "SessionStatus " + session + " account=100 loggedOn=FALSE graceMs=";
        client.session(alice).logout("bye");
        Await.until("the engine told Alice went, with her grace", () -> engine.commandLog()
            .contains(wentWithGrace + 60_000));
        // Her quote rests meanwhile: Bob's sell meets its bid.
        client.send(bob, ioc("B1", "3"));
        assertEquals("3", field(awaitOne(bob, "B1 filled", is("8", 11, "B1").and(is("8", 150, "F"))), 32));

        // She logs on again within the grace: the fill she missed comes by resend, and the quote is still hers.
        client.session(alice).logon();
        Await.until("Alice logged on again", () -> client.isLoggedOn(alice));
        awaitOne(alice, "the fill while she was away", is("8", 11, "Q1").and(is("8", 150, "F")));
        client.send(alice, quoteCancel("C1", QuoteCancelType.CANCEL_FOR_ONE_OR_MORE_SECURITIES, "BTC-USD"));
        assertEquals("sides canceled=2", field(awaitOne(alice, "C1 answered", is("b", 117, "C1")), 58));
        // The engine heard she was back (which disarms the grace) before anything she sent.
        final List<String> log = engine.commandLog();
        final int loggedOnAgain = log.lastIndexOf("SessionStatus " + session + " account=100 loggedOn=TRUE");
        assertTrue(log.indexOf(wentWithGrace + 60_000) < loggedOnAgain, log.toString());
        assertTrue(loggedOnAgain < log.indexOf("QuoteCancel " + session + " account=100 scope=INSTRUMENT"),
            log.toString());
        assertTrue(log.stream().noneMatch(l -> l.startsWith("MassCancel " + session)), log.toString());

        // Past the grace: 300 ms now. Bob watches the book; Alice quotes and goes for longer than that.
        aliceCancelOnDisconnect(300);
        client.send(bob, bookRequest("MD1"));
        client.send(alice, massQuote("Q2", set("1", entry("1", "BTC-USD", "98", "5", "102", "5"))));
        assertEquals("0", field(awaitOne(alice, "Q2 acknowledged", is("b", 117, "Q2")), 297));
        Await.until("Bob sees Q2", () -> book(bob, "MD1").bids().containsKey(new BigDecimal("98")) &&
            book(bob, "MD1").asks().containsKey(new BigDecimal("102")));
        client.session(alice).logout("bye");
        Await.until("the engine took Q2 out when the grace ran out: Bob's book is empty", () ->
            book(bob, "MD1").bids().isEmpty() && book(bob, "MD1").asks().isEmpty());
        assertTrue(engine.commandLog().contains(wentWithGrace + 300), "told with the grace then");

        // At her next logon she gets the two cancels, sent while she was away.
        client.session(alice).logon();
        Await.until("Alice logged on again", () -> client.isLoggedOn(alice));
        Await.until("both sides of Q2 cancelled on disconnect", () -> client.find(alice, is("8", 11, "Q2")
            .and(is("8", 150, "4")).and(m -> field(m, 58).contains("CANCEL_ON_DISCONNECT"))).size() == 2);
        assertTrue(engine.commandLog().stream().noneMatch(l -> l.startsWith("MassCancel " + session)),
            "no cancel at the disconnect: the engine's grace ran out");
    }

    /** The operator gives Alice cancel-on-disconnect with a grace; the gateway knows it from the engine's answer. */
    private void aliceCancelOnDisconnect(final int graceMs)
    {
        try (Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDir));
            AdminClient admin = new AdminClient(aeron, IPC, 1001, IPC, RISK_STREAM,
                NodeTestSupport.ADMIN_KEYS.keys().get(0)))
        {
            final AdminClient.Answer answer = admin.request(admin.commands().upsertUser(++adminRequestId, "alice",
                true, new long[]{ TestUsers.ALICE_ACCOUNT, TestUsers.ALICE_SECOND_ACCOUNT }, "ALICE", true, 0,
                UserRole.TRADER, graceMs, "market maker"));
            assertTrue(answer.accepted(), "alice's grace set: " + answer.reason());
        }
        Await.until("the gateway knows Alice's grace of " + graceMs + " ms", () ->
            gatewayContext.users().user("alice").fixCancelOnDisconnect() &&
            gatewayContext.users().user("alice").cancelOnDisconnectGraceMs() == graceMs);
    }

    private static MarketDataRequest bookRequest(final String mdReqId)
    {
        // SubscriptionRequestType 1: a snapshot, then its updates.
        final MarketDataRequest m = new MarketDataRequest(new MDReqID(mdReqId), new SubscriptionRequestType('1'),
            new MarketDepth(0));
        for (final char entryType : new char[]{ MDEntryType.BID, MDEntryType.OFFER })
        {
            final Group group = new MarketDataRequest.NoMDEntryTypes();
            group.setField(new MDEntryType(entryType));
            m.addGroup(group);
        }
        final Group symbol = new MarketDataRequest.NoRelatedSym();
        symbol.setField(new Symbol("BTC-USD"));
        m.addGroup(symbol);
        return m;
    }

    private FixMarketDataBook book(final SessionID id, final String mdReqId)
    {
        final FixMarketDataBook book = new FixMarketDataBook();
        try
        {
            for (final Message m : client.find(id, m -> mdReqId.equals(field(m, 262))))
            {
                book.apply(m);
            }
        }
        catch (final quickfix.FieldNotFound ex)
        {
            throw new AssertionError(ex);
        }
        return book;
    }

    private void protectAlice()
    {
        try (Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDir));
            AdminClient admin = new AdminClient(aeron, IPC, 1001, IPC, RISK_STREAM,
                NodeTestSupport.ADMIN_KEYS.keys().get(0)))
        {
            final AdminClient.Answer answer = admin.request(admin.commands().setMarketMakerProtection(
                ++adminRequestId, TestUsers.ALICE_ACCOUNT, 1, TimeUnit.SECONDS.toNanos(60), 0, 0, 2, 0, false,
                new int[]{ 1 }, "test maker"));
            assertTrue(answer.accepted(), "protection set: " + answer.reason());
        }
    }

    private static boolean isType(final Message m, final String msgType)
    {
        return msgType.equals(FixTestClient.header(m, 35));
    }

    private static List<String> rejectReasons(final Group set)
    {
        return set.getGroups(295).stream().map(e -> e.isSetField(368) ? groupField(e, 368) : "").toList();
    }

    private static String groupField(final Group group, final int tag)
    {
        try
        {
            return group.getString(tag);
        }
        catch (final quickfix.FieldNotFound ex)
        {
            throw new AssertionError(ex);
        }
    }

    private static MassQuote massQuote(final String quoteId, final Group... sets)
    {
        final MassQuote m = new MassQuote(new QuoteID(quoteId));
        m.setString(1, Long.toString(TestUsers.ALICE_ACCOUNT));
        for (final Group set : sets)
        {
            m.addGroup(set);
        }
        return m;
    }

    private static Group set(final String quoteSetId, final Group... entries)
    {
        final MassQuote.NoQuoteSets set = new MassQuote.NoQuoteSets();
        set.setString(302, quoteSetId);
        set.setInt(304, entries.length);
        for (final Group entry : entries)
        {
            set.addGroup(entry);
        }
        return set;
    }

    private static Group entry(
        final String entryId, final String symbol, final String bidPx, final String bidSize, final String offerPx,
        final String offerSize)
    {
        final MassQuote.NoQuoteSets.NoQuoteEntries entry = new MassQuote.NoQuoteSets.NoQuoteEntries();
        entry.setString(299, entryId);
        entry.set(new Symbol(symbol));
        entry.setString(132, bidPx);
        entry.setString(133, offerPx);
        entry.setString(134, bidSize);
        entry.setString(135, offerSize);
        return entry;
    }

    private static QuoteCancel quoteCancel(final String quoteId, final int type, final String symbol)
    {
        final QuoteCancel m = new QuoteCancel(new QuoteID(quoteId), new QuoteCancelType(type));
        m.setString(1, Long.toString(TestUsers.ALICE_ACCOUNT));
        if (null != symbol)
        {
            final QuoteCancel.NoQuoteEntries entry = new QuoteCancel.NoQuoteEntries();
            entry.set(new Symbol(symbol));
            m.addGroup(entry);
        }
        return m;
    }

    private static NewOrderSingle ioc(final String clOrdId, final String qty)
    {
        final NewOrderSingle m = new NewOrderSingle(new ClOrdID(clOrdId), new Side(Side.SELL),
            new TransactTime(LocalDateTime.now(ZoneOffset.UTC)), new OrdType(OrdType.LIMIT));
        m.set(new Symbol("BTC-USD"));
        m.setString(OrderQty.FIELD, qty);
        m.setString(Price.FIELD, "99");
        m.set(new TimeInForce(TimeInForce.IMMEDIATE_OR_CANCEL));
        return m;
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
                client.receivedAdmin(id), ex);
        }
        return client.find(id, p).get(0);
    }
}
