package io.ringex.gateway.sbe;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.ringex.gateway.EngineEndpoint;
import io.ringex.gateway.GatewayAgent;
import io.ringex.gateway.GatewayContext;
import io.ringex.client.ExchangeClient;
import io.ringex.client.LogonRefusedException;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.testing.Await;
import io.ringex.gateway.testing.EngineStreams;
import io.ringex.gateway.testing.EngineUnderTest;
import io.ringex.gateway.testing.RecordingListener;
import io.ringex.gateway.testing.TestEngines;
import io.ringex.gateway.testing.TestGateways;
import io.ringex.gateway.testing.TestUsers;
import io.ringex.protocol.SessionIds;
import io.ringex.protocol.codecs.EngineStatusEncoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewOrderDecoder;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.UserDirectoryEndEncoder;
import io.ringex.protocol.codecs.UserDirectoryRequestDecoder;
import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The SBE path end to end with a real media driver: ExchangeClient -> SbeGatewayAgent -> engine (the stand-in from
 * {@link TestEngines}) -> gateway -> client. Every channel is IPC so parallel builds on the machine cannot clash on
 * ports.
 */
class SbeGatewayIT
{
    private static final int INSTRUMENT = 1;
    private static final String IPC = "aeron:ipc";

    private MediaDriver driver;
    private Aeron aeron;
    private EngineUnderTest engine;
    private final List<AgentRunner> gateways = new ArrayList<>();
    private final List<ExchangeClient> clients = new ArrayList<>();
    private int nextResponseStream = 3001;

    @BeforeEach
    void setUp()
    {
        driver = TestGateways.launchDriver(64 * 1024);
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
        engine = TestEngines.launch(new EngineStreams(driver.aeronDirectoryName(), IPC, 1001, IPC, 1002, IPC, 1003,
            new EngineStreams.TestInstrument(INSTRUMENT, "BTC-USD", 2)));
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(clients);
        CloseHelper.closeAll(gateways);
        CloseHelper.closeAll(engine, aeron, driver);
    }

    private GatewayContext context()
    {
        return TestGateways.sbeOverIpc(7, driver.aeronDirectoryName())
            .addUser(TestUsers.ALICE)
            .addUser(TestUsers.BOB);
    }

    /** Start a gateway and wait until it has the engine's users: before, every logon is refused as busy. */
    private void startGateway(final GatewayContext ctx)
    {
        launchGateway(ctx);
        Await.until("the gateway has the engine's users", () -> ctx.users().loaded(), null);
    }

    private void launchGateway(final GatewayContext ctx)
    {
        ctx.conclude();
        final AgentRunner runner = new AgentRunner(ctx.idleStrategy(), Throwable::printStackTrace, null,
            new GatewayAgent(ctx, aeron, SystemNanoClock.INSTANCE));
        AgentRunner.startOnThread(runner);
        gateways.add(runner);
    }

    /**
     * The gateway's engine ingress leads nowhere: a stand-in answers its request for the users (none: the
     * configuration's serve), and goes away.
     */
    private void usersFromAStandIn(final GatewayContext ctx, final int ingressStreamId)
    {
        try (Subscription ingress = aeron.addSubscription(IPC, ingressStreamId);
            Publication egress = aeron.addPublication(IPC, 1002))
        {
            final UnsafeBuffer answer = new UnsafeBuffer(new byte[64]);
            final UserDirectoryRequestDecoder request = new UserDirectoryRequestDecoder();
            final MessageHeaderDecoder header = new MessageHeaderDecoder();
            Await.until("the gateway has the users", () -> ctx.users().loaded(), () -> ingress.poll((b, o, l, h) ->
            {
                header.wrap(b, o);
                if (header.templateId() == UserDirectoryRequestDecoder.TEMPLATE_ID)
                {
                    request.wrapAndApplyHeader(b, o, header);
                    final int length = MessageHeaderEncoder.ENCODED_LENGTH + new UserDirectoryEndEncoder()
                        .wrapAndApplyHeader(answer, 0, new MessageHeaderEncoder()).gatewayId(request.gatewayId())
                        .requestId(request.requestId()).userCount(0).commandSequence(1).encodedLength();
                    Await.until("answer sent", () -> egress.offer(answer, 0, length) > 0, null);
                }
            }, 10));
        }
    }

    private void claimPrimary(final Publication status)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[512]);
        final EngineStatusEncoder encoder = new EngineStatusEncoder().wrapAndApplyHeader(buffer, 0,
            new MessageHeaderEncoder()).epoch(1).nodeId(1).role(NodeRole.PRIMARY).epochStartSequence(1)
            .ingressSequence(0);
        encoder.countersCount(0);
        encoder.rejectsCount(0);
        status.offer(buffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength());
    }

    private boolean hasPrimary()
    {
        // Followed, then lost: two switches.
        return counter("primary switches") < 2;
    }

    private ExchangeClient client(final RecordingListener listener)
    {
        return client(listener, false);
    }

    private ExchangeClient client(final RecordingListener listener, final boolean sharedPublication)
    {
        final ExchangeClient client = sharedPublication ?
            ExchangeClient.openSharedChannels(aeron, IPC, 2001, IPC, nextResponseStream++, listener) :
            ExchangeClient.openChannels(aeron, IPC, 2001, IPC, nextResponseStream++, listener);
        clients.add(client);
        Await.until("client connected to gateway", client::isConnected, client::poll);
        return client;
    }

    private ExchangeClient loggedOn(final RecordingListener listener, final String user, final String password,
        final boolean cancelOnDisconnect, final int heartbeatMs)
    {
        return loggedOn(client(listener), user, password, cancelOnDisconnect, heartbeatMs);
    }

    private static ExchangeClient loggedOn(final ExchangeClient client, final String user, final String password,
        final boolean cancelOnDisconnect, final int heartbeatMs)
    {
        Await.until("logon sent", () -> client.logon(user, password, cancelOnDisconnect, heartbeatMs) > 0, null);
        Await.until("logged on", client::isLoggedOn, client::poll);
        return client;
    }

    @Test
    void logonWithGoodAndBadCredentials()
    {
        startGateway(context());
        final RecordingListener good = new RecordingListener();
        final ExchangeClient alice = loggedOn(good, "alice", TestUsers.ALICE_PASSWORD, false, 1000);
        assertEquals("ACCEPTED", good.logons.get(0).status());
        assertEquals(7, SessionIds.gatewayId(alice.sessionId()));
        assertEquals(TestUsers.ALICE_ACCOUNT, alice.accountId());
        Await.until("engine told of the session", () -> engine.commandLog().contains(
            "SessionStatus session=" + alice.sessionId() + " account=100 loggedOn=TRUE"), alice::poll);

        final RecordingListener bad = new RecordingListener();
        final ExchangeClient mallory = client(bad);
        Await.until("logon sent", () -> mallory.logon("alice", "wrong", false, 1000) > 0, null);
        Await.until("logon refused", () -> !bad.logons.isEmpty(), mallory::poll);
        assertEquals("REJECTED", bad.logons.get(0).status());
        assertEquals("INVALID_CREDENTIALS", bad.logons.get(0).reason());

        final RecordingListener unknown = new RecordingListener();
        final ExchangeClient nobody = client(unknown);
        Await.until("logon sent", () -> nobody.logon("nobody", "x", false, 1000) > 0, null);
        Await.until("logon refused", () -> !unknown.logons.isEmpty(), nobody::poll);
        assertEquals("INVALID_CREDENTIALS", unknown.logons.get(0).reason());
    }

    /** The client's Context connect against this gateway: logged on when it returns, or the gateway's refusal. */
    @Test
    void aContextConnectReturnsALoggedOnClientOrTheGatewaysRefusal()
    {
        startGateway(context());
        final RecordingListener a = new RecordingListener();
        final ExchangeClient alice = ExchangeClient.connect(clientContext(a).username("alice")
            .password(TestUsers.ALICE_PASSWORD));
        clients.add(alice);
        assertTrue(alice.isLoggedOn(), "logged on when connect returns");
        assertEquals(TestUsers.ALICE_ACCOUNT, alice.accountId());
        Await.until("alice's order sent", () -> alice.order().clientOrderId("C1").instrument(INSTRUMENT).buy()
            .limit(10_000).quantity(1).send() > 0, alice::poll);
        Await.until("alice NEW", () -> a.report(r -> "C1".equals(r.clientOrderId())) != null, alice::poll);
        assertEquals(TestUsers.ALICE_ACCOUNT, a.report(r -> "C1".equals(r.clientOrderId())).accountId(),
            "an order without an account goes on the user's default account");

        final LogonRefusedException refused = assertThrows(LogonRefusedException.class, () ->
            ExchangeClient.connect(clientContext(new RecordingListener()).username("alice").password("wrong")));
        assertEquals(RejectReason.INVALID_CREDENTIALS, refused.reason());
        assertTrue(refused.getMessage().startsWith("logon of alice refused: INVALID_CREDENTIALS"),
            refused::getMessage);
    }

    private ExchangeClient.Context clientContext(final RecordingListener listener)
    {
        return new ExchangeClient.Context().aeron(aeron).gatewayChannel(IPC).responseChannel(IPC)
            .responseStreamId(nextResponseStream++).listener(listener);
    }

    @Test
    void ordersAreAcknowledgedAndCrossingOrdersFill()
    {
        startGateway(context());
        final RecordingListener a = new RecordingListener();
        final RecordingListener b = new RecordingListener();
        final ExchangeClient alice = loggedOn(a, "alice", TestUsers.ALICE_PASSWORD, false, 1000);
        final ExchangeClient bob = loggedOn(b, "bob", TestUsers.BOB_PASSWORD, false, 1000);

        assertTrue(alice.order().account(100).clientOrderId("A1").instrument(INSTRUMENT).side(Side.BUY)
            .limit(10125).quantity(10).send() > 0);
        Await.until("alice NEW", () -> a.report(r -> r.execType().equals("NEW")) != null, alice::poll);
        final RecordingListener.Report ack = a.report(r -> r.execType().equals("NEW"));
        assertEquals("A1", ack.clientOrderId());
        assertEquals(alice.sessionId(), ack.sessionId());
        assertEquals(10, ack.leaves());

        assertTrue(bob.order().account(200).clientOrderId(42L).instrument(INSTRUMENT).side(Side.SELL)
            .limit(10125).quantity(4).send() > 0);
        Await.until("bob FILL", () -> b.report(r -> r.execType().equals("FILL")) != null, bob::poll);
        Await.until("alice PARTIAL_FILL", () -> a.report(r -> r.execType().equals("PARTIAL_FILL")) != null,
            alice::poll);
        final RecordingListener.Report partial = a.report(r -> r.execType().equals("PARTIAL_FILL"));
        assertEquals(6, partial.leaves());
        assertEquals(4, partial.lastQuantity());
        assertEquals(10125, partial.lastPrice());
        assertEquals("42", b.report(r -> r.execType().equals("FILL")).clientOrderId());
        assertTrue(b.reports.stream().allMatch(r -> r.sessionId() == bob.sessionId()), "bob sees only his own");
        assertTrue(a.reports.stream().allMatch(r -> r.sessionId() == alice.sessionId()), "alice sees only hers");
    }

    @Test
    void aSessionCannotCancelAnotherUsersOrder()
    {
        startGateway(context());
        final RecordingListener a = new RecordingListener();
        final RecordingListener b = new RecordingListener();
        final ExchangeClient alice = loggedOn(a, "alice", TestUsers.ALICE_PASSWORD, false, 1000);
        final ExchangeClient bob = loggedOn(b, "bob", TestUsers.BOB_PASSWORD, false, 1000);

        alice.order().account(100).clientOrderId("A1").instrument(INSTRUMENT).buy()
            .limit(10000).quantity(1).send();
        Await.until("alice NEW", () -> !a.reports.isEmpty(), alice::poll);
        final long orderId = a.reports.get(0).orderId();

        // Naming alice's account: refused by the gateway, never reaches the engine.
        bob.cancel(100, "B-C1", "A1", orderId, INSTRUMENT);
        Await.until("bob refused", () -> !b.businessRejects.isEmpty(), bob::poll);
        assertEquals("NOT_AUTHORISED", b.businessRejects.get(0).reason());
        assertEquals("B-C1", b.businessRejects.get(0).refClientOrderId());

        // Naming his own account and alice's order id: the engine refuses to touch another account's order.
        bob.cancel(200, "B-C2", "", orderId, INSTRUMENT);
        Await.until("bob cancel rejected", () -> !b.cancelRejects.isEmpty(), bob::poll);
        assertEquals("NOT_AUTHORISED", b.cancelRejects.get(0).reason());

        // Alice's order is untouched; she can cancel it herself.
        alice.cancel(100, "A-C1", "A1", 0, INSTRUMENT);
        Await.until("alice CANCELED", () -> a.report(r -> r.execType().equals("CANCELED")) != null, alice::poll);
        assertTrue(engine.commandLog().stream().noneMatch(l -> l.contains("clOrdId=B-C1") || l.contains("B-C1")));
    }

    @Test
    void excessMessagesAreThrottledNotQueued()
    {
        startGateway(context().throttleMessagesPerSecond(5).throttleBurst(5));
        final RecordingListener a = new RecordingListener();
        final ExchangeClient alice = loggedOn(a, "alice", TestUsers.ALICE_PASSWORD, false, 1000);
        final int sent = 30;
        for (int i = 0; i < sent; i++)
        {
            final long id = i;
            Await.until("order sent", () -> alice.order().account(100).clientOrderId(id).instrument(INSTRUMENT)
                .buy().limit(100 + id).quantity(1)
                .send() > 0, null);
        }
        Await.until("every order answered", () -> a.reports.size() + a.businessRejects.size() >= sent, alice::poll);
        final long throttled = a.businessRejects.stream().filter(r -> r.reason().equals("THROTTLED")).count();
        assertTrue(throttled >= sent - 10, "throttled " + throttled);
        assertEquals(sent, a.reports.size() + throttled);
    }

    @Test
    void cancelOnDisconnectWhenTheClientGoesAway()
    {
        startGateway(context());
        final RecordingListener a = new RecordingListener();
        final ExchangeClient alice = loggedOn(a, "alice", TestUsers.ALICE_PASSWORD, true, 1000);
        final long sessionId = alice.sessionId();
        alice.order().account(100).clientOrderId("A1").instrument(INSTRUMENT).buy()
            .limit(10000).quantity(1).send();
        Await.until("alice NEW", () -> !a.reports.isEmpty(), alice::poll);

        alice.close();
        clients.remove(alice);
        Await.until("cancel-on-disconnect", () -> engine.commandLog().contains(
            "MassCancel session=" + sessionId + " account=100 scope=SESSION cod=TRUE"), null);
        Await.until("logged off", () -> engine.commandLog().contains(
            "SessionStatus session=" + sessionId + " account=100 loggedOn=FALSE"), null);
    }

    @Test
    void silentSessionTimesOutAndCancelsOnDisconnect()
    {
        startGateway(context());
        final RecordingListener a = new RecordingListener();
        final ExchangeClient alice = loggedOn(a, "alice", TestUsers.ALICE_PASSWORD, true, 100);
        final long sessionId = alice.sessionId();
        // Stop polling: no heartbeats go out; the gateway gives up after ~3 intervals.
        Await.until("cancel-on-disconnect after timeout", () -> engine.commandLog().contains(
            "MassCancel session=" + sessionId + " account=100 scope=SESSION cod=TRUE"), null);
        Await.until("logout received", () -> !a.logouts.isEmpty(), alice::poll);
        assertEquals("NOT_LOGGED_ON", a.logouts.get(0));
    }

    @Test
    void noCancelOnDisconnectUnlessAsked()
    {
        startGateway(context());
        final RecordingListener a = new RecordingListener();
        final ExchangeClient alice = loggedOn(a, "alice", TestUsers.ALICE_PASSWORD, false, 1000);
        final long sessionId = alice.sessionId();
        alice.logout();
        Await.until("logged off", () -> engine.commandLog().contains(
            "SessionStatus session=" + sessionId + " account=100 loggedOn=FALSE"), null);
        assertTrue(engine.commandLog().stream().noneMatch(l -> l.startsWith("MassCancel")));
    }

    @Test
    void usersOfOneProcessLoggedOnOverOneSharedPublicationAreSeparateSessions()
    {
        startGateway(context());
        final RecordingListener a = new RecordingListener();
        final RecordingListener b = new RecordingListener();
        final ExchangeClient alice = loggedOn(client(a, true), "alice", TestUsers.ALICE_PASSWORD, true, 100);
        final ExchangeClient bob = loggedOn(client(b, true), "bob", TestUsers.BOB_PASSWORD, false, 100);
        assertNotEquals(alice.sessionId(), bob.sessionId());

        Await.until("alice's bid sent", () -> alice.order().account(100).clientOrderId("A1").instrument(INSTRUMENT)
            .buy().limit(10125).quantity(10)
            .send() > 0, null);
        Await.until("alice NEW", () -> a.report(r -> r.execType().equals("NEW")) != null, alice::poll);
        Await.until("bob's offer sent", () -> bob.order().account(200).clientOrderId("B1").instrument(INSTRUMENT)
            .sell().limit(10125).quantity(4)
            .send() > 0, null);
        Await.until("bob FILL", () -> b.report(r -> r.execType().equals("FILL")) != null, bob::poll);
        Await.until("alice PARTIAL_FILL", () -> a.report(r -> r.execType().equals("PARTIAL_FILL")) != null,
            alice::poll);
        assertTrue(a.reports.stream().allMatch(r -> r.sessionId() == alice.sessionId()), "alice sees only hers");
        assertTrue(b.reports.stream().allMatch(r -> r.sessionId() == bob.sessionId()), "bob sees only his own");

        // Each acts as its own user: bob naming alice's account is refused, and the refusal is his.
        Await.until("bob's cancel sent", () -> bob.cancel(100, "B-C1", "A1", 0, INSTRUMENT) > 0, null);
        Await.until("bob refused", () -> !b.businessRejects.isEmpty(), bob::poll);
        assertEquals("NOT_AUTHORISED", b.businessRejects.get(0).reason());
        assertTrue(a.businessRejects.isEmpty(), a.businessRejects.toString());

        // A message on the shared publication naming neither session is dropped, not taken for either's.
        final UnsafeBuffer unnamed = new UnsafeBuffer(new byte[256]);
        final int unnamedLength = SbeMessages.newOrder(unnamed, 100, 10000, 1);
        Await.until("an order naming no session sent", () -> alice.offerRaw(unnamed, 0, unnamedLength) > 0, null);
        Await.until("alice's next bid sent", () -> alice.order().account(100).clientOrderId("A2")
            .instrument(INSTRUMENT).buy().limit(10000)
            .quantity(1).send() > 0, null);
        Await.until("alice's next bid acknowledged", () -> a.report(r -> r.clientOrderId().equals("A2")) != null,
            alice::poll);
        assertTrue(engine.commandLog().stream().noneMatch(l -> l.contains("clOrdId=N1")), "the unnamed order went in");

        // Both heartbeat on the one publication: neither times out over more than three 100 ms intervals.
        Await.never("a session on the shared publication timing out", Duration.ofMillis(600),
            () -> !alice.isLoggedOn() || !bob.isLoggedOn(), () ->
            {
                alice.poll();
                bob.poll();
            });

        // Alice logs out (with cancel-on-disconnect); bob, on the same publication, trades on.
        final long aliceSession = alice.sessionId();
        Await.until("alice's logout sent", () -> alice.logout() > 0, null);
        Await.until("alice's orders cancelled on her logout", () -> engine.commandLog().contains(
            "MassCancel session=" + aliceSession + " account=100 scope=SESSION cod=TRUE"), bob::poll);
        // What alice's client still sends names her ended session: dropped, not taken for bob's, the one left.
        Await.until("an order from alice's ended session sent", () -> alice.order().account(100).clientOrderId("A3")
            .instrument(INSTRUMENT).buy().limit(10000)
            .quantity(1).send() > 0, null);
        Await.until("bob's second offer sent", () -> bob.order().account(200).clientOrderId("B2")
            .instrument(INSTRUMENT).sell()
            .limit(10200).quantity(1).send() > 0, null);
        Await.until("bob's second offer acknowledged", () -> b.report(
            r -> r.clientOrderId().equals("B2") && r.execType().equals("NEW")) != null, bob::poll);
        assertTrue(bob.isLoggedOn());
        assertEquals(1, b.businessRejects.size(), "bob was answered for alice's late order: " + b.businessRejects);
        assertTrue(engine.commandLog().stream().noneMatch(l -> l.contains("clOrdId=A3")), "alice's late order went in");
    }

    /**
     * One user's 64 sessions on one shared publication (the per-user cap raised past them, so the image's own bound
     * is what refuses the 65th).
     */
    @Test
    void aSharedPublicationCarriesAtMost64Sessions()
    {
        startGateway(context().sbeMaxSessionsPerUser(100));
        for (int i = 0; i < 64; i++)
        {
            loggedOn(client(new RecordingListener(), true), "alice", TestUsers.ALICE_PASSWORD, false, 1000);
        }
        final RecordingListener refused = new RecordingListener();
        final ExchangeClient extra = client(refused, true);
        Await.until("the 65th logon sent", () -> extra.logon("alice", TestUsers.ALICE_PASSWORD, false, 1000) > 0,
            null);
        Await.until("the 65th logon answered", () -> !refused.logons.isEmpty(), extra::poll);
        assertEquals("REJECTED", refused.logons.get(0).status());
        assertEquals("THROTTLED", refused.logons.get(0).reason());
    }

    /**
     * Alice stops reading while her reports keep coming: her publication fills and the rest of hers wait in her
     * session's queue. Bob's report must not wait behind them (before, the gateway re-read the engine's egress from
     * her refused report until she read again or was disconnected for it), and Alice, once she reads again, gets every
     * one of hers, in order.
     */
    @Test
    void aClientThatStopsReadingHoldsUpNobodyAndLosesNothing()
    {
        final GatewayContext ctx = context().sbeResponseTermLength(64 * 1024).throttleMessagesPerSecond(100_000)
            .throttleBurst(100_000).slowClientTimeoutNs(TimeUnit.SECONDS.toNanos(30));
        startGateway(ctx);
        final RecordingListener a = new RecordingListener();
        final RecordingListener b = new RecordingListener();
        final ExchangeClient alice = loggedOn(a, "alice", TestUsers.ALICE_PASSWORD, false, 30_000);
        final ExchangeClient bob = loggedOn(b, "bob", TestUsers.BOB_PASSWORD, false, 30_000);

        // About 1.5 times what her publication's window (half its 64 KiB term) holds of acks, and not reading them.
        final int orders = 300;
        for (int i = 0; i < orders; i++)
        {
            final long id = i;
            Await.until("alice order sent", () -> alice.order().account(100).clientOrderId(id).instrument(INSTRUMENT)
                .buy().limit(4000).quantity(1)
                .send() > 0, null);
        }
        Await.until("alice's acks waiting in her session's queue", () -> counter("sbe events held") > 0, null);

        assertTrue(bob.order().account(200).clientOrderId(1L).instrument(INSTRUMENT).side(Side.SELL)
            .limit(9000).quantity(1).send() > 0);
        Await.until("bob acknowledged while alice still is not reading", () -> !b.reports.isEmpty(), bob::poll);
        assertEquals(2, counter("sbe active sessions"), "alice still logged on");

        Await.until("alice's " + orders + " acks", () -> a.reports.size() == orders, alice::poll);
        for (int i = 0; i < orders; i++)
        {
            assertEquals(String.valueOf(i), a.reports.get(i).clientOrderId(), "in order");
        }
        assertTrue(alice.isLoggedOn());
        assertEquals(0, counter("sbe dropped (no session / slow client)"));
    }

    /** @return the gateway's counter of that name, or -1 while it has none. */
    private long counter(final String name)
    {
        final CountersReader counters = aeron.countersReader();
        final long[] value = { -1 };
        counters.forEach((counterId, typeId, keyBuffer, label) ->
        {
            if (label.equals("ringex-gateway-7 " + name))
            {
                value[0] = counters.getCounterValue(counterId);
            }
        });
        return value[0];
    }

    @Test
    void aClientDisconnectingMidStreamDoesNotDisturbOthers()
    {
        startGateway(context());
        final RecordingListener a = new RecordingListener();
        final RecordingListener b = new RecordingListener();
        final ExchangeClient alice = loggedOn(a, "alice", TestUsers.ALICE_PASSWORD, false, 1000);
        final ExchangeClient bob = loggedOn(b, "bob", TestUsers.BOB_PASSWORD, false, 1000);

        for (int i = 0; i < 20; i++)
        {
            alice.order().account(100).clientOrderId(i).instrument(INSTRUMENT).side(Side.BUY)
                .limit(5000 + i).quantity(1).send();
        }
        alice.close();
        clients.remove(alice);

        for (int i = 0; i < 20; i++)
        {
            final long id = 1000 + i;
            Await.until("bob order sent", () -> bob.order().account(200).clientOrderId(id).instrument(INSTRUMENT)
                .buy().limit(4000).quantity(1)
                .send() > 0, bob::poll);
        }
        Await.until("bob's 20 acknowledged", () -> b.reports.size() == 20, bob::poll);
        assertTrue(b.businessRejects.isEmpty());
        assertTrue(bob.isLoggedOn());
    }

    @Test
    void invalidMessagesAreRejectedWithAReason()
    {
        startGateway(context());
        final RecordingListener a = new RecordingListener();
        final ExchangeClient alice = loggedOn(a, "alice", TestUsers.ALICE_PASSWORD, false, 1000);

        final UnsafeBuffer raw = new UnsafeBuffer(new byte[MessageHeaderEncoder.ENCODED_LENGTH +
            NewOrderDecoder.BLOCK_LENGTH]);
        new MessageHeaderEncoder().wrap(raw, 0)
            .blockLength(NewOrderDecoder.BLOCK_LENGTH)
            .templateId(NewOrderDecoder.TEMPLATE_ID)
            .schemaId(NewOrderDecoder.SCHEMA_ID)
            .version(99);
        alice.offerRaw(raw, 0, raw.capacity());
        Await.until("reject", () -> !a.businessRejects.isEmpty(), alice::poll);
        assertEquals("UNSUPPORTED_VERSION", a.businessRejects.get(0).reason());

        alice.order().account(100).clientOrderId("Q0").instrument(INSTRUMENT).buy()
            .limit(100).quantity(0).send();
        Await.until("reject", () -> a.businessRejects.size() == 2, alice::poll);
        assertEquals("INVALID_QUANTITY", a.businessRejects.get(1).reason());
        assertEquals("Q0", a.businessRejects.get(1).refClientOrderId());

        alice.order().account(999).clientOrderId("X1").instrument(INSTRUMENT).buy()
            .limit(100).quantity(1).send();
        Await.until("reject", () -> a.businessRejects.size() == 3, alice::poll);
        assertEquals("NOT_AUTHORISED", a.businessRejects.get(2).reason());

        // the second account is allowed
        alice.order().account(101).clientOrderId("OK").instrument(INSTRUMENT).buy()
            .limit(100).quantity(1).send();
        Await.until("ack", () -> !a.reports.isEmpty(), alice::poll);
        assertEquals(101, a.reports.get(0).accountId());
    }

    @Test
    void backPressuredEngineIngressIsRetriedThenRejectedEngineBusy()
    {
        // Nothing subscribes to stream 1999: every offer is NOT_CONNECTED, so the gateway retries (ABORT) until its
        // bound and then answers ENGINE_BUSY. Nothing is dropped silently.
        final GatewayContext ctx = context().engineIngressStreamId(1999)
            .backPressureTimeoutNs(TimeUnit.MILLISECONDS.toNanos(200));
        launchGateway(ctx);
        usersFromAStandIn(ctx, 1999);
        final RecordingListener a = new RecordingListener();
        final ExchangeClient alice = loggedOn(a, "alice", TestUsers.ALICE_PASSWORD, false, 1000);
        final long start = System.nanoTime();
        alice.order().account(100).clientOrderId("B1").instrument(INSTRUMENT).buy()
            .limit(100).quantity(1).send();
        alice.order().account(100).clientOrderId("B2").instrument(INSTRUMENT).buy()
            .limit(100).quantity(1).send();
        Await.until("both rejected", () -> a.businessRejects.size() == 2, alice::poll);
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(200), "retried for the bound");
        assertEquals("ENGINE_BUSY", a.businessRejects.get(0).reason());
        assertEquals("B1", a.businessRejects.get(0).refClientOrderId());
        assertEquals("B2", a.businessRejects.get(1).refClientOrderId());
        Await.never("a report from nowhere", Duration.ofMillis(100), () -> !a.reports.isEmpty(), alice::poll);
        assertNotNull(alice);
    }

    @Test
    void withTwoEnginesAndNoPrimaryKnownOrdersAreRejectedAtOnceNoPrimary()
    {
        // Two engines configured; the first claims PRIMARY (the test speaks for it) until the gateway has the users and
        // alice has logged on, then falls silent: no node claims PRIMARY, so an order is refused NO_PRIMARY at once
        // (not held for the back-pressure bound, here longer than any wait of this test), never sent anywhere, never
        // dropped silently.
        final GatewayContext ctx = context().engineStatusStreamId(1999).backPressureTimeoutNs(TimeUnit.HOURS.toNanos(1))
            .engineStatusTimeoutNs(TimeUnit.MILLISECONDS.toNanos(300))
            .addEngine(new EngineEndpoint(IPC, 1101, IPC, 1102, IPC, 1103, IPC, IPC, 1998));
        launchGateway(ctx);
        final RecordingListener a = new RecordingListener();
        final ExchangeClient alice;
        try (Publication status = aeron.addPublication(IPC, 1999))
        {
            final Runnable primary = () -> claimPrimary(status);
            Await.until("the gateway has the users", () -> ctx.users().loaded(), primary);
            final ExchangeClient client = client(a);
            Await.until("logon sent", () -> client.logon("alice", TestUsers.ALICE_PASSWORD, false, 1000) > 0,
                primary);
            Await.until("logged on", client::isLoggedOn, () ->
            {
                client.poll();
                primary.run();
            });
            alice = client;
        }
        Await.until("no primary", () -> !hasPrimary(), alice::poll);
        alice.order().account(100).clientOrderId("N1").instrument(INSTRUMENT).buy()
            .limit(100).quantity(1).send();
        Await.until("rejected", () -> !a.businessRejects.isEmpty(), alice::poll);
        assertEquals("NO_PRIMARY", a.businessRejects.get(0).reason());
        assertEquals("N1", a.businessRejects.get(0).refClientOrderId());
        assertEquals("no primary engine; retry", a.businessRejects.get(0).text());
        Await.never("the order reaching an engine", Duration.ofMillis(300), () -> engine.commandLog().stream()
            .anyMatch(line -> line.contains("clOrdId=N1")), alice::poll);
    }
}
