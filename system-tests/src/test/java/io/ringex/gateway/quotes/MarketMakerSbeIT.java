package io.ringex.gateway.quotes;

import io.aeron.Aeron;
import io.aeron.driver.MediaDriver;
import io.ringex.client.AdminClient;
import io.ringex.client.CommandEncoder;
import io.ringex.client.ExchangeClient;
import io.ringex.client.QuoteEntries;
import io.ringex.client.dropcopy.DropCopyClient;
import io.ringex.client.dropcopy.DropCopyListener;
import io.ringex.engine.node.NodeTestSupport;
import io.ringex.gateway.GatewayAgent;
import io.ringex.gateway.GatewayContext;
import io.ringex.gateway.auth.User;
import io.ringex.gateway.testing.EngineStreams;
import io.ringex.gateway.testing.RealEngineNode;
import io.ringex.gateway.testing.RecordingListener;
import io.ringex.gateway.testing.RecordingListener.BusinessRej;
import io.ringex.gateway.testing.RecordingListener.QuoteAck;
import io.ringex.gateway.testing.RecordingListener.QuoteEntryAck;
import io.ringex.gateway.testing.TestGateways;
import io.ringex.gateway.testing.TestUsers;
import io.ringex.protocol.CredentialHash;
import io.ringex.testing.Await;
import io.ringex.protocol.codecs.MassQuoteDecoder;
import io.ringex.protocol.codecs.MassQuoteEncoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.QuoteCancelDecoder;
import io.ringex.protocol.codecs.QuoteCancelEncoder;
import io.ringex.protocol.codecs.QuoteCancelScope;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.TimeInForce;
import io.ringex.protocol.codecs.UserRole;
import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.ToIntFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A market maker over SBE, end to end: ExchangeClient, the gateway, the real engine node (journal, ring, processor)
 * and back. A mass quote is acknowledged entry by entry; a taker's fill of a quote is reported; the fill that reaches
 * the account's market-maker protection cancels its quotes in the group and freezes them (new quotes refused
 * QUOTE_FROZEN) until the account resets; a quote cancel and a cancel-all-after that runs out on the engine's clock
 * take the quotes out. A maker with a cancel-on-disconnect grace that logs on again within it gets its session back
 * and its quote with it; past the grace the engine cancels the quote. The gateway refuses, with a reason, what it
 * must not forward.
 */
class MarketMakerSbeIT
{
    private static final int INSTRUMENT = 1;
    /** A second instrument, defined by the test: tick 5, outside the protected group. */
    private static final int COARSE_INSTRUMENT = 2;
    private static final String IPC = "aeron:ipc";
    /** RealEngineNode's risk stream: the market-data stream plus 1000 (admin answers come on it). */
    private static final int RISK_STREAM = 1003 + 1000;
    private static final String COPY_PASSWORD = "copy-secret";
    /** Sees every report of Alice's first account: the cancels of a session that is away. */
    private static final User ALICE_COPY = new User("alicecopy", CredentialHash.hash(COPY_PASSWORD.toCharArray(), 1000),
        new long[]{ TestUsers.ALICE_ACCOUNT }, null, TestUsers.GATEWAY_COMP_ID, false, true, 0, UserRole.DROP_COPY);

    private MediaDriver driver;
    private Aeron aeron;
    private RealEngineNode engine;
    private AgentRunner gateway;
    private GatewayContext gatewayContext;
    private final List<AutoCloseable> clients = new ArrayList<>();
    private int nextResponseStream = 3001;
    private long adminRequestId = 5_000;

    @BeforeEach
    void setUp()
    {
        driver = TestGateways.launchDriver(64 * 1024);
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
        engine = RealEngineNode.launch(new EngineStreams(driver.aeronDirectoryName(), IPC, 1001, IPC, 1002, IPC,
            1003, new EngineStreams.TestInstrument(INSTRUMENT, "BTC-USD", 2)));
        final GatewayContext ctx = TestGateways.sbeOverIpc(7, driver.aeronDirectoryName())
            .throttleMessagesPerSecond(1_000_000)
            .addUser(TestUsers.ALICE)
            .addUser(TestUsers.BOB)
            .addUser(ALICE_COPY);
        ctx.conclude();
        gatewayContext = ctx;
        gateway = new AgentRunner(ctx.idleStrategy(), Throwable::printStackTrace, null,
            new GatewayAgent(ctx, aeron, SystemNanoClock.INSTANCE));
        AgentRunner.startOnThread(gateway);

        admin(c -> c.addInstrument(++adminRequestId, COARSE_INSTRUMENT, "ETH-USD", 2, 5, 1, 10_000,
            PriceBandType.BASIS_POINTS, 5_000));
        // Alice's first account: two fills of its quotes in BTC-USD within a minute breach; frozen until reset.
        admin(c -> c.setMarketMakerProtection(++adminRequestId, TestUsers.ALICE_ACCOUNT, 1,
            TimeUnit.SECONDS.toNanos(60), 0, 0, 2, 0, false, new int[]{ INSTRUMENT }, "test maker"));
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(clients);
        CloseHelper.closeAll(gateway, engine, aeron, driver);
    }

    @Test
    void quotesAreAcknowledgedFilledProtectedCancelledAndTimedOut()
    {
        final RecordingListener a = new RecordingListener();
        final ExchangeClient alice = loggedOn(a, "alice", TestUsers.ALICE_PASSWORD);
        final RecordingListener b = new RecordingListener();
        final ExchangeClient bob = loggedOn(b, "bob", TestUsers.BOB_PASSWORD);
        final QuoteEntries entries = new QuoteEntries();

        // Each entry on its own: BTC-USD accepted; ETH-USD off its tick of 5, an unknown instrument and a crossed
        // ETH-USD quote refused; then ETH-USD accepted.
        entries.clear()
            .add(1, 1, INSTRUMENT, 9_900, 10, 10_100, 10)
            .add(2, 2, COARSE_INSTRUMENT, 9_901, 5, 10_100, 5)
            .add(3, 2, 99, 9_900, 5, 10_100, 5)
            .add(4, 2, COARSE_INSTRUMENT, 10_100, 5, 10_000, 5)
            .add(5, 2, COARSE_INSTRUMENT, 9_900, 5, 10_100, 5);
        final QuoteAck first = massQuote(alice, a, "Q1", entries);
        assertEquals("PARTIALLY_ACCEPTED", first.status());
        assertEquals(List.of("NONE", "INVALID_TICK", "UNKNOWN_INSTRUMENT", "QUOTE_CROSSED", "NONE"),
            first.entries().stream().map(QuoteEntryAck::reason).toList());
        assertEquals(List.of("ACCEPTED", "REJECTED", "REJECTED", "REJECTED", "ACCEPTED"),
            first.entries().stream().map(QuoteEntryAck::status).toList());
        final QuoteEntryAck btc = first.entries().get(0);
        assertNotEquals(0, btc.bidOrderId());
        assertNotEquals(0, btc.offerOrderId());
        assertEquals(0, first.entries().get(1).bidOrderId(), "a refused entry rests nothing");
        assertTrue(a.reports.isEmpty(), "a mass quote's own changes are told by its acknowledgement only");

        // Bob takes 3 of the bid: a fill of the quote (one of two the protection allows).
        sell(bob, b, "B1", 3);
        Await.until("quote filled", () -> a.report(r -> r.orderId() == btc.bidOrderId() &&
            r.execType().equals("PARTIAL_FILL")) != null, alice::poll);
        assertTrue(a.protectionEvents.isEmpty(), "one fill: no breach");

        // The second fill reaches the limit: in the same step both BTC-USD sides go; ETH-USD is in no group.
        sell(bob, b, "B2", 2);
        Await.until("breach", () -> !a.protectionEvents.isEmpty(), alice::poll);
        final RecordingListener.ProtectionEvent breach = a.protectionEvents.get(0);
        assertEquals(new RecordingListener.ProtectionEvent(TestUsers.ALICE_ACCOUNT, 1, "BREACHED", "FILLS", 2, true,
            2, 0), breach);
        assertEquals(2, a.reports.stream().filter(r -> r.cancelReason().equals("MARKET_MAKER_PROTECTION")).count());
        assertTrue(a.reports.stream().filter(r -> r.cancelReason().equals("MARKET_MAKER_PROTECTION"))
            .allMatch(r -> r.orderId() == btc.bidOrderId() || r.orderId() == btc.offerOrderId()));

        // Frozen: a new BTC-USD quote is refused; ETH-USD in the same message is not.
        entries.clear()
            .add(6, 1, INSTRUMENT, 9_900, 10, 10_100, 10)
            .add(7, 2, COARSE_INSTRUMENT, 9_895, 5, 10_105, 5);
        final QuoteAck frozen = massQuote(alice, a, "Q2", entries);
        assertEquals("PARTIALLY_ACCEPTED", frozen.status());
        assertEquals(List.of("QUOTE_FROZEN", "NONE"), frozen.entries().stream().map(QuoteEntryAck::reason).toList());

        // The maker resets; quotes are taken again.
        Await.until("reset sent", () -> alice.resetMarketMakerProtection(TestUsers.ALICE_ACCOUNT, 1) > 0,
            alice::poll);
        Await.until("reset", () -> a.protectionEvents.stream().anyMatch(e -> e.eventType().equals("RESET")),
            alice::poll);
        entries.clear().add(8, 1, INSTRUMENT, 9_900, 10, 10_100, 10);
        assertEquals("ACCEPTED", massQuote(alice, a, "Q3", entries).status());

        // Quote cancel by instrument: ETH-USD's two sides.
        Await.until("quote cancel sent", () -> alice.quoteCancel(TestUsers.ALICE_ACCOUNT, "C1",
            QuoteCancelScope.INSTRUMENT, COARSE_INSTRUMENT, 0) > 0, alice::poll);
        Await.until("quote cancel answered", () -> !a.quoteCancels.isEmpty(), alice::poll);
        assertEquals(new RecordingListener.QuoteCancel("C1", "INSTRUMENT", "NONE", 2), a.quoteCancels.get(0));

        // The dead man's switch: refused outside 100 ms..1 h, then armed, and it fires on the engine's clock.
        Await.until("cancel-all-after sent", () -> alice.cancelAllAfter(50) > 0, alice::poll);
        Await.until("refused", () -> !a.cancelAllAfters.isEmpty(), alice::poll);
        assertEquals("REJECTED", a.cancelAllAfters.get(0).status());
        assertEquals("INVALID_ARGUMENT", a.cancelAllAfters.get(0).reason());
        Await.until("cancel-all-after sent", () -> alice.cancelAllAfter(300) > 0, alice::poll);
        Await.until("armed and triggered", () -> a.cancelAllAfters.size() >= 3, alice::poll);
        assertEquals("ARMED", a.cancelAllAfters.get(1).status());
        final RecordingListener.CancelAllAfter fired = a.cancelAllAfters.get(2);
        assertEquals("TRIGGERED", fired.status());
        assertEquals(2, fired.ordersCanceled(), "the BTC-USD quote's two sides");
        assertEquals(2, a.reports.stream().filter(r -> r.cancelReason().equals("CANCEL_ALL_AFTER")).count());

        // Nothing of Alice's rests now: Bob's sell finds no bid.
        sell(bob, b, "B3", 1);
        assertEquals(List.of("NEW", "CANCELED"), b.reports.stream().filter(r -> r.clientOrderId().equals("B3"))
            .map(RecordingListener.Report::execType).toList(), "an IOC sell with no bid left");
    }

    @Test
    void theGatewayRefusesMalformedQuotesWithAReason()
    {
        final RecordingListener a = new RecordingListener();
        final ExchangeClient alice = loggedOn(a, "alice", TestUsers.ALICE_PASSWORD);
        final UnsafeBuffer raw = new UnsafeBuffer(new byte[1024]);

        // Eleven entries: one more than a mass quote may hold.
        send(alice, raw, massQuote(raw, alice.sessionId(), TestUsers.ALICE_ACCOUNT, "M1", 11, 1, 10));
        // None at all.
        send(alice, raw, massQuote(raw, alice.sessionId(), TestUsers.ALICE_ACCOUNT, "M2", 0, 1, 10));
        // A negative size.
        send(alice, raw, massQuote(raw, alice.sessionId(), TestUsers.ALICE_ACCOUNT, "M3", 1, 1, -1));
        // Quote set 0.
        send(alice, raw, massQuote(raw, alice.sessionId(), TestUsers.ALICE_ACCOUNT, "M4", 1, 0, 10));
        // Bob's account.
        send(alice, raw, massQuote(raw, alice.sessionId(), TestUsers.BOB_ACCOUNT, "M5", 1, 1, 10));
        // A quote id that is no client order id (a space in it).
        send(alice, raw, massQuote(raw, alice.sessionId(), TestUsers.ALICE_ACCOUNT, "M 6", 1, 1, 10));
        // A quote cancel of a scope outside the schema, and one for Bob's account.
        final QuoteCancelEncoder cancel = new QuoteCancelEncoder().wrapAndApplyHeader(raw, 0,
            new MessageHeaderEncoder()).sessionId(alice.sessionId()).accountId(TestUsers.ALICE_ACCOUNT)
            .quoteId("C1").scope(QuoteCancelScope.ALL).instrumentId(0).quoteSetId(0);
        raw.putByte(MessageHeaderEncoder.ENCODED_LENGTH + QuoteCancelEncoder.scopeEncodingOffset(), (byte)9);
        send(alice, raw, MessageHeaderEncoder.ENCODED_LENGTH + cancel.encodedLength());
        Await.until("quote cancel sent", () -> alice.quoteCancel(TestUsers.BOB_ACCOUNT, "C2", QuoteCancelScope.ALL,
            0, 0) > 0, alice::poll);
        // Resetting Bob's account's protection.
        Await.until("reset sent", () -> alice.resetMarketMakerProtection(TestUsers.BOB_ACCOUNT, 0) > 0, alice::poll);

        Await.until("all refused", () -> a.businessRejects.size() >= 9, alice::poll);
        final List<String> refusals = a.businessRejects.stream()
            .map(r -> r.refTemplateId() + " " + r.refClientOrderId() + " " + r.reason()).toList();
        final int mq = MassQuoteDecoder.TEMPLATE_ID;
        final int qc = QuoteCancelDecoder.TEMPLATE_ID;
        assertEquals(List.of(mq + " M1 TOO_MANY_QUOTE_ENTRIES", mq + " M2 TOO_MANY_QUOTE_ENTRIES",
            mq + " M3 INVALID_QUANTITY", mq + " M4 MALFORMED", mq + " M5 NOT_AUTHORISED", mq + " M 6 MALFORMED",
            qc + " C1 MALFORMED", qc + " C2 NOT_AUTHORISED", "125  NOT_AUTHORISED"), refusals);
        final BusinessRej tooMany = a.businessRejects.get(0);
        assertTrue(tooMany.text().contains("1 to 10 entries"), tooMany.text());

        // The session goes on: a good quote is acknowledged, and it is the only one the engine answered (a refused
        // message that reached the engine would have had its MassQuoteAck first).
        final QuoteEntries entries = new QuoteEntries().add(1, 1, INSTRUMENT, 9_900, 10, 10_100, 10);
        assertEquals("ACCEPTED", massQuote(alice, a, "OK", entries).status());
        assertEquals(List.of("OK"), a.quoteAcks.stream().map(QuoteAck::quoteId).toList());
    }

    @Test
    void aMakerThatLogsOnAgainWithinItsGraceKeepsItsSessionAndQuoteAndPastItLosesThem()
    {
        // The operator gives Alice a grace of a minute: far longer than logging on again takes here.
        aliceGraceMs(60_000);
        final RecordingListener a = new RecordingListener();
        final ExchangeClient alice = loggedOn(a, "alice", TestUsers.ALICE_PASSWORD, true);
        final long sessionId = alice.sessionId();
        final RecordingListener b = new RecordingListener();
        final ExchangeClient bob = loggedOn(b, "bob", TestUsers.BOB_PASSWORD);
        final QuoteEntries entries = new QuoteEntries().add(1, 1, INSTRUMENT, 9_900, 10, 10_100, 10);
        assertEquals("ACCEPTED", massQuote(alice, a, "Q1", entries).status());

        // She goes: the engine is told, with her grace, and nothing is cancelled.
        final String wentWithGrace = "SessionStatus session=" + sessionId + " account=100 loggedOn=FALSE graceMs=";
        Await.until("logout sent", () -> alice.logout() > 0, alice::poll);
        Await.until("the engine told Alice went, with her grace", () -> engine.commandLog()
            .contains(wentWithGrace + 60_000));
        // Her quote rests meanwhile: Bob's sell meets its bid.
        sell(bob, b, "B1", 3);
        assertNotNull(b.report(r -> r.clientOrderId().equals("B1") && r.execType().equals("FILL")),
            "Bob's sell met Alice's bid: " + b.reports);

        // She logs on again within the grace: her session, and her quote with it (its two sides, the bid's rest).
        final RecordingListener again = new RecordingListener();
        final ExchangeClient back = loggedOn(again, "alice", TestUsers.ALICE_PASSWORD, true);
        assertEquals(sessionId, back.sessionId(), "the session's id back");
        Await.until("quote cancel sent", () -> back.quoteCancel(TestUsers.ALICE_ACCOUNT, "C1", QuoteCancelScope.ALL,
            0, 0) > 0, back::poll);
        Await.until("quote cancel answered", () -> !again.quoteCancels.isEmpty(), back::poll);
        assertEquals(new RecordingListener.QuoteCancel("C1", "ALL", "NONE", 2), again.quoteCancels.get(0));
        // The engine heard she was back (which disarms the grace) before anything she sent.
        final List<String> log = engine.commandLog();
        final int loggedOnAgain = log.lastIndexOf("SessionStatus session=" + sessionId + " account=100 loggedOn=TRUE");
        assertTrue(log.indexOf(wentWithGrace + 60_000) < loggedOnAgain, log.toString());
        assertTrue(loggedOnAgain < log.indexOf("QuoteCancel session=" + sessionId + " account=100 scope=ALL"),
            log.toString());
        assertTrue(log.stream().noneMatch(l -> l.startsWith("MassCancel session=" + sessionId)), log.toString());

        // Another session of hers at the same time is another session; so is Bob's.
        final ExchangeClient second = loggedOn(new RecordingListener(), "alice", TestUsers.ALICE_PASSWORD, false);
        final long secondId = second.sessionId();
        assertNotEquals(sessionId, secondId);
        assertNotEquals(sessionId, bob.sessionId());
        Await.until("the second session's logout sent", () -> second.logout() > 0, second::poll);
        Await.until("the second session gone", () -> engine.commandLog().contains("SessionStatus session=" +
            secondId + " account=100 loggedOn=FALSE"));

        // Past the grace: 300 ms now. A drop copy of her account watches; she quotes and her client dies.
        aliceGraceMs(300);
        final List<String> copies = new CopyOnWriteArrayList<>();
        final DropCopyClient copy = DropCopyClient.connect(new DropCopyClient.Context()
            .aeron(aeron)
            .gatewayChannel(IPC)
            .responseChannel(IPC)
            .responseStreamId(nextResponseStream++)
            .username("alicecopy")
            .password(COPY_PASSWORD)
            .heartbeatIntervalNs(TimeUnit.SECONDS.toNanos(10))
            .listener((DropCopyListener)report -> copies.add(report.orderId() + " " + report.execType() + " " +
                report.cancelReason())));
        clients.add(copy);
        Await.until("drop copy subscribed", () -> copy.subscribe(0) > 0, copy::poll);
        entries.clear().add(2, 1, INSTRUMENT, 9_800, 5, 10_200, 5);
        final QuoteEntryAck q2 = massQuote(back, again, "Q2", entries).entries().get(0);
        back.close();

        Await.until("the engine cancelled Q2 when the grace ran out", () -> copies.containsAll(List.of(
            q2.bidOrderId() + " CANCELED CANCEL_ON_DISCONNECT", q2.offerOrderId() + " CANCELED CANCEL_ON_DISCONNECT")),
            copy::poll);
        assertTrue(engine.commandLog().contains(wentWithGrace + 300), "told with the grace then");

        // The grace is over: her next logon is a new session.
        final ExchangeClient later = loggedOn(new RecordingListener(), "alice", TestUsers.ALICE_PASSWORD, true);
        assertNotEquals(sessionId, later.sessionId());
        assertNotEquals(secondId, later.sessionId(), "a session without cancel-on-disconnect has no grace");
    }

    /** The operator sets Alice's cancel-on-disconnect grace; the gateway knows it from the engine's answer. */
    private void aliceGraceMs(final int graceMs)
    {
        admin(c -> c.upsertUser(++adminRequestId, "alice", true,
            new long[]{ TestUsers.ALICE_ACCOUNT, TestUsers.ALICE_SECOND_ACCOUNT }, "ALICE", false, 0, UserRole.TRADER,
            graceMs, "market maker"));
        Await.until("the gateway knows Alice's grace of " + graceMs + " ms", () ->
            gatewayContext.users().user("alice").cancelOnDisconnectGraceMs() == graceMs);
    }

    private ExchangeClient loggedOn(final RecordingListener listener, final String user, final String password)
    {
        return loggedOn(listener, user, password, false);
    }

    private ExchangeClient loggedOn(
        final RecordingListener listener, final String user, final String password, final boolean cancelOnDisconnect)
    {
        final ExchangeClient client =
            ExchangeClient.openChannels(aeron, IPC, 2001, IPC, nextResponseStream++, listener);
        clients.add(client);
        Await.until("client connected to gateway", client::isConnected, client::poll);
        Await.until("logon sent", () -> client.logon(user, password, cancelOnDisconnect, 10_000) > 0, null);
        Await.until("logged on", client::isLoggedOn, client::poll);
        return client;
    }

    private static QuoteAck massQuote(
        final ExchangeClient client, final RecordingListener listener, final String quoteId,
        final QuoteEntries entries)
    {
        Await.until("mass quote " + quoteId + " sent", () -> client.massQuote(TestUsers.ALICE_ACCOUNT, quoteId,
            SelfTradePrevention.ACCOUNT_DEFAULT, entries) > 0, client::poll);
        Await.until("mass quote " + quoteId + " acknowledged", () -> listener.quoteAck(quoteId) != null,
            client::poll);
        return listener.quoteAck(quoteId);
    }

    private static void sell(
        final ExchangeClient client, final RecordingListener listener, final String id, final long quantity)
    {
        Await.until("sell sent", () -> client.order().account(TestUsers.BOB_ACCOUNT).clientOrderId(id)
            .instrument(INSTRUMENT).sell().timeInForce(TimeInForce.IOC)
            .limit(9_900).quantity(quantity).send() > 0, client::poll);
        Await.until("sell " + id + " done", () -> listener.report(r -> r.clientOrderId().equals(id) &&
            (r.execType().equals("FILL") || r.execType().equals("CANCELED"))) != null, client::poll);
    }

    private static int massQuote(
        final UnsafeBuffer raw, final long sessionId, final long accountId, final String quoteId, final int count,
        final int quoteSetId, final long bidSize)
    {
        final MassQuoteEncoder encoder = new MassQuoteEncoder().wrapAndApplyHeader(raw, 0, new MessageHeaderEncoder())
            .sessionId(sessionId).accountId(accountId).quoteId(quoteId)
            .selfTradePrevention(SelfTradePrevention.ACCOUNT_DEFAULT);
        final MassQuoteEncoder.EntriesEncoder group = encoder.entriesCount(count);
        for (int i = 0; i < count; i++)
        {
            group.next().quoteEntryId(i + 1).quoteSetId(quoteSetId).instrumentId(INSTRUMENT)
                .bidPrice(9_900).bidSize(bidSize).offerPrice(10_100).offerSize(10);
        }
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }

    private static void send(final ExchangeClient client, final UnsafeBuffer raw, final int length)
    {
        Await.until("raw message sent", () -> client.offerRaw(raw, 0, length) > 0, client::poll);
    }

    private void admin(final ToIntFunction<CommandEncoder> command)
    {
        try (AdminClient admin = new AdminClient(aeron, IPC, 1001, IPC, RISK_STREAM,
                NodeTestSupport.ADMIN_KEYS.keys().get(0)))
        {
            final AdminClient.Answer answer = admin.request(command.applyAsInt(admin.commands()));
            if (!answer.accepted())
            {
                throw new IllegalStateException("engine refused admin request: " + answer.reason());
            }
        }
    }
}
