package io.ringex.gateway.sbe;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.status.PublisherLimit;
import io.ringex.gateway.GatewayAgent;
import io.ringex.gateway.GatewayContext;
import io.ringex.gateway.auth.LogonPolicy;
import io.ringex.client.ExchangeClient;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import io.ringex.testing.Await;
import io.ringex.gateway.testing.EngineStreams;
import io.ringex.gateway.testing.EngineUnderTest;
import io.ringex.gateway.testing.LogonAttacker;
import io.ringex.gateway.testing.RecordingListener;
import io.ringex.gateway.testing.TestEngines;
import io.ringex.gateway.testing.TestGateways;
import io.ringex.gateway.testing.TestUsers;
import io.ringex.engine.node.NodeTestSupport;
import io.ringex.protocol.MessageCatalog;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.LogonEncoder;
import io.ringex.protocol.codecs.LogonResponseDecoder;
import io.ringex.protocol.codecs.LogoutEncoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewOrderEncoder;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.SelfTradePrevention;
import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The SBE Logon as an attacker sees it, over UDP with a real media driver: refused Logons open nothing for the caller
 * and answer late, a Logon cannot take or kill another session's response path, guessing passwords locks the name out,
 * an answer never goes anywhere but back to the caller, and a client of the previous schema version is answered in
 * its version.
 */
class SbeLogonSecurityIT
{
    private static final int INSTRUMENT = 1;
    private static final String IPC = "aeron:ipc";
    private static final long FAILURE_DELAY_MS = 200;
    /** The victim's heartbeat: long enough that a loaded machine's pause never times it out (3 of them) mid-test. */
    private static final int VICTIM_HEARTBEAT_MS = 1000;
    private static final String MAX_SESSIONS_PER_USER_KEY = "ringex.gateway.sbe.max.sessions.per.user";
    private static final int MAX_SESSIONS_PER_USER = 3;

    private MediaDriver driver;
    private Aeron aeron;
    private EngineUnderTest engine;
    private GatewayContext ctx;
    private AgentRunner gateway;
    private String gatewayChannel;
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @BeforeEach
    void setUp()
    {
        driver = TestGateways.launchDriver(64 * 1024);
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
        engine = TestEngines.launch(new EngineStreams(driver.aeronDirectoryName(), IPC, 1001, IPC, 1002, IPC, 1003,
            new EngineStreams.TestInstrument(INSTRUMENT, "BTC-USD", 2)));
        gatewayChannel = "aeron:udp?endpoint=localhost:" + NodeTestSupport.freeUdpPort();
        // The context reads its defaults from the system properties when it is made.
        System.setProperty(MAX_SESSIONS_PER_USER_KEY, Integer.toString(MAX_SESSIONS_PER_USER));
        try
        {
            ctx = new GatewayContext();
        }
        finally
        {
            System.clearProperty(MAX_SESSIONS_PER_USER_KEY);
        }
        ctx
            .gatewayId(7)
            .aeronDirectoryName(driver.aeronDirectoryName())
            .clientChannel(gatewayChannel).clientStreamId(2001)
            .engineIngressChannel(IPC).engineIngressStreamId(1001)
            .engineEgressChannel(IPC).engineEgressStreamId(1002)
            .marketDataChannel(IPC).marketDataStreamId(1003)
            .fixEnabled(false)
            .sbeResponseTermLength(64 * 1024)
            .logonTimeoutNs(TimeUnit.SECONDS.toNanos(1))
            .logonPolicy(new LogonPolicy(5, 5, 60_000, 900_000, FAILURE_DELAY_MS, 64, 10_000))
            .addUser(TestUsers.ALICE)
            .addUser(TestUsers.BOB)
            .conclude();
        gateway = new AgentRunner(ctx.idleStrategy(), Throwable::printStackTrace, null,
            new GatewayAgent(ctx, aeron, SystemNanoClock.INSTANCE));
        AgentRunner.startOnThread(gateway);
        Await.until("the gateway has the engine's users", () -> ctx.users().loaded(), null);
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(closeables);
        CloseHelper.closeAll(gateway, ctx, engine, aeron, driver);
    }

    private static String udpResponse()
    {
        return "aeron:udp?endpoint=localhost:" + NodeTestSupport.freeUdpPort();
    }

    private ExchangeClient client(final String responseChannel, final int responseStream,
        final RecordingListener listener)
    {
        final ExchangeClient client = ExchangeClient.openChannels(aeron, gatewayChannel, 2001, responseChannel,
            responseStream, listener);
        closeables.add(client);
        Await.until("client connected to gateway", client::isConnected, client::poll);
        return client;
    }

    private ExclusivePublication rawPublication()
    {
        final ExclusivePublication publication = aeron.addExclusivePublication(gatewayChannel, 2001);
        closeables.add(publication);
        Await.until("raw publication connected", () -> publication.isConnected() &&
            publication.availableWindow() > 0, null);
        return publication;
    }

    private static int logon(final UnsafeBuffer buffer, final String user, final String password,
        final String responseChannel, final int responseStream)
    {
        final LogonEncoder logon = new LogonEncoder().wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .heartbeatIntervalMs(1000).cancelOnDisconnect(BooleanType.FALSE).responseStreamId(responseStream)
            .logonRequestId(99).username(user).credential(password).responseChannel(responseChannel);
        return MessageHeaderEncoder.ENCODED_LENGTH + logon.encodedLength();
    }

    private static void send(final ExclusivePublication publication, final UnsafeBuffer buffer, final int length)
    {
        Await.until("message sent", () -> publication.offer(buffer, 0, length) > 0, null);
    }

    /** Publications the media driver holds, the gateway's and everyone else's. */
    private int publications()
    {
        final CountersReader counters = aeron.countersReader();
        final int[] count = new int[1];
        final StringBuilder labels = new StringBuilder();
        counters.forEach((counterId, typeId, keyBuffer, label) ->
        {
            if (typeId == PublisherLimit.PUBLISHER_LIMIT_TYPE_ID)
            {
                count[0]++;
                labels.append(label).append('\n');
            }
        });
        lastPublications = labels.toString();
        return count[0];
    }

    private String lastPublications = "";

    private long counter(final String suffix)
    {
        final CountersReader counters = aeron.countersReader();
        final long[] value = { -1 };
        counters.forEach((counterId, typeId, keyBuffer, label) ->
        {
            if (label.endsWith(suffix))
            {
                value[0] = counters.getCounterValue(counterId);
            }
        });
        return value[0];
    }

    /**
     * 300 Logons with wrong passwords, each naming a response channel of its own: the gateway used to open a
     * publication for each before checking the password (4.1 GB of log buffers mapped by 300 of them). Now nothing is
     * opened for a caller before its credentials pass, refusals are answered on at most a few small, short-lived
     * publications, and every refusal is counted.
     */
    @Test
    void refusedLogonsOpenNothingForTheCaller()
    {
        final ExclusivePublication attacker = rawPublication();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[512]);
        final int before = publications();
        final int attempts = 300;
        final int[] mostPublications = new int[1];
        final Runnable watch = () -> mostPublications[0] = Math.max(mostPublications[0], publications() - before);
        for (int i = 0; i < attempts; i++)
        {
            send(attacker, buffer, logon(buffer, "alice", "guess-" + i, udpResponse(), 5000 + i));
            watch.run();
        }
        Await.until("every refusal counted", () -> counter("sbe logons refused") == attempts, watch);
        Await.never("more publications than the refusal bound",
            Duration.ofMillis(FAILURE_DELAY_MS * 2), () -> mostPublications[0] > ctx.sbeMaxPendingRejects(), watch);
        try
        {
            Await.until("refusal paths closed (" + before + " publications before)", () -> publications() <= before,
                null);
        }
        catch (final AssertionError ex)
        {
            throw new AssertionError(ex.getMessage() + "\n" + lastPublications, ex);
        }
        assertTrue(ctx.logonAuthenticator().guard().lockouts() >= 1, "alice's name and the address were locked");
    }

    /**
     * A Logon naming another client's response channel and stream, with wrong credentials and then with another
     * user's right ones: the victim used to receive the attacker's REJECTED (and be logged out, its orders cancelled)
     * or adopt the attacker's session. Now the Logon is refused without a word and the victim trades on.
     */
    @Test
    void aLogonNamingALiveSessionsResponsePathIsRefusedWithoutTouchingIt()
    {
        final String victimChannel = udpResponse();
        final RecordingListener victimEvents = new RecordingListener();
        final ExchangeClient victim = client(victimChannel, 3001, victimEvents);
        Await.until("logon sent",
            () -> victim.logon("alice", TestUsers.ALICE_PASSWORD, true, VICTIM_HEARTBEAT_MS) > 0, null);
        Await.until("victim logged on", victim::isLoggedOn, victim::poll);

        final ExclusivePublication attacker = rawPublication();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[512]);
        send(attacker, buffer, logon(buffer, "alice", "wrong", victimChannel, 3001));
        send(attacker, buffer, logon(buffer, "bob", TestUsers.BOB_PASSWORD,
            victimChannel.replace("localhost", "127.0.0.1"), 3001));
        Await.until("both refused", () -> counter("sbe logons refused") == 2, victim::poll);

        Await.never("a LogonResponse or a logout for the victim beyond its own logon",
            Duration.ofMillis(FAILURE_DELAY_MS * 3), () -> victimEvents.logons.size() > 1 ||
            victim.foreignLogonResponses() > 0 || !victimEvents.logouts.isEmpty(), victim::poll);
        assertEquals(1, victimEvents.logons.size(), "the victim saw only its own LogonResponse");
        assertEquals(0, victim.foreignLogonResponses());
        assertTrue(victim.isLoggedOn());
        assertTrue(victimEvents.logouts.isEmpty(), "victim logged out: " + victimEvents.logouts);
        assertEquals(TestUsers.ALICE_ACCOUNT, victim.accountId());
        Await.until("order sent", () -> victim.order().account(TestUsers.ALICE_ACCOUNT).clientOrderId("V1")
            .instrument(INSTRUMENT).buy()
            .limit(10_000).quantity(1).send() > 0, victim::poll);
        Await.until("victim's order acknowledged", () -> victimEvents.report(r -> "V1".equals(r.clientOrderId())) !=
            null, victim::poll);
    }

    /**
     * The same, with the attacker in a process of its own, its own media driver, on this machine (where the source
     * check lets it name a local endpoint): the gateway refuses both Logons because the destination is the victim's.
     */
    @Test
    void anAttackerProcessCannotTakeOrKillAVictimsSession() throws Exception
    {
        final String victimChannel = udpResponse();
        final RecordingListener victimEvents = new RecordingListener();
        final ExchangeClient victim = client(victimChannel, 3010, victimEvents);
        Await.until("logon sent",
            () -> victim.logon("alice", TestUsers.ALICE_PASSWORD, true, VICTIM_HEARTBEAT_MS) > 0, null);
        Await.until("victim logged on", victim::isLoggedOn, victim::poll);

        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(Arrays.asList(System.getProperty("ringex.jvm.flags", "").trim().split("\\s+")));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(LogonAttacker.class.getName());
        command.addAll(List.of(gatewayChannel, "2001", victimChannel, "3010", "alice:wrong",
            "bob:" + TestUsers.BOB_PASSWORD));
        final Process attacker = new ProcessBuilder(command).redirectErrorStream(true).start();
        final StringBuilder attackerOutput = new StringBuilder();
        final Thread reader = new Thread(() ->
        {
            try
            {
                attackerOutput.append(new String(attacker.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            }
            catch (final java.io.IOException ignore)
            {
                // the process ended
            }
        });
        reader.start();
        try
        {
            Await.until("attacker done", () -> !attacker.isAlive(), victim::poll);
            reader.join(5_000);
            assertEquals(0, attacker.exitValue(), attackerOutput.toString());
            assertTrue(attackerOutput.toString().contains("SENT 2"), attackerOutput.toString());
        }
        finally
        {
            attacker.destroyForcibly();
        }

        Await.until("both refused (" + attackerOutput + ")", () -> counter("sbe logons refused") == 2, victim::poll);
        Await.never("the victim hears of the attacker's Logons", Duration.ofMillis(FAILURE_DELAY_MS * 3),
            () -> victimEvents.logons.size() != 1 || !victimEvents.logouts.isEmpty() || !victim.isLoggedOn(),
            victim::poll);
        assertEquals(TestUsers.ALICE_ACCOUNT, victim.accountId());
        Await.until("order sent", () -> victim.order().account(TestUsers.ALICE_ACCOUNT).clientOrderId("V2")
            .instrument(INSTRUMENT).buy()
            .limit(10_000).quantity(1).send() > 0, victim::poll);
        Await.until("victim's order acknowledged", () -> victimEvents.report(r -> "V2".equals(r.clientOrderId())) !=
            null, victim::poll);
    }

    /**
     * trader1 (alice) logs on with cancel-on-disconnect, its response channel on {@code localhost:P}, and rests a GTC
     * bid. trader2 (bob), on the same machine, logs on with its own right credentials naming the same stream at
     * {@code 0.0.0.0:P}, {@code 0:P}, {@code 127.0.0.2:P} and {@code [::ffff:127.0.0.1]:P}, then sends an order and a
     * Logout. Linux delivers what is sent to 0.0.0.0 to 127.0.0.1: the gateway used to accept the wildcard spellings
     * as another destination, so trader2's ExecutionReports and Logout reached trader1, which stopped heartbeating,
     * was timed out, and lost its bid to cancel-on-disconnect. Now every spelling is refused, trader1 hears nothing of
     * it, and its bid rests.
     */
    @Test
    void anotherSpellingOfALiveSessionsEndpointCannotReadOrKillIt()
    {
        final int port = NodeTestSupport.freeUdpPort();
        final RecordingListener trader1Events = new RecordingListener();
        final ExchangeClient trader1 = client("aeron:udp?endpoint=localhost:" + port, 3500, trader1Events);
        Await.until("logon sent", () -> trader1.logon("alice", TestUsers.ALICE_PASSWORD, true, 100) > 0, null);
        Await.until("trader1 logged on", trader1::isLoggedOn, trader1::poll);
        Await.until("bid sent", () -> trader1.order().account(TestUsers.ALICE_ACCOUNT).clientOrderId("BID1")
            .instrument(INSTRUMENT).buy().limit(9_000)
            .quantity(1).send() > 0, trader1::poll);
        Await.until("bid rests", () -> trader1Events.report(r -> "BID1".equals(r.clientOrderId()) &&
            "NEW".equals(r.orderStatus())) != null, trader1::poll);

        final ExclusivePublication trader2 = rawPublication();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[512]);
        final List<String> spellings = List.of("0.0.0.0", "0", "127.0.0.2", "[::ffff:127.0.0.1]");
        for (final String host : spellings)
        {
            send(trader2, buffer, logon(buffer, "bob", TestUsers.BOB_PASSWORD,
                "aeron:udp?endpoint=" + host + ":" + port, 3500));
        }
        Await.until("every Logon refused or answered", () -> counter("sbe logons refused") +
            counter("sbe active sessions") - 1 >= spellings.size(), trader1::poll);
        assertEquals(spellings.size(), counter("sbe logons refused"), "each spelling refused");
        assertEquals(1, counter("sbe active sessions"), "trader1's alone");

        final NewOrderEncoder order = new NewOrderEncoder().wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .sessionId(0).accountId(TestUsers.BOB_ACCOUNT).clientOrderId("X1").instrumentId(INSTRUMENT)
            .side(Side.SELL).orderType(OrderType.LIMIT).timeInForce(TimeInForce.GTC).postOnly(BooleanType.FALSE)
            .selfTradePrevention(SelfTradePrevention.ACCOUNT_DEFAULT).price(20_000).quantity(1);
        send(trader2, buffer, MessageHeaderEncoder.ENCODED_LENGTH + order.encodedLength());
        final int logoutLength = MessageHeaderEncoder.ENCODED_LENGTH + new LogoutEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder()).sessionId(0).reason(RejectReason.NONE)
            .text("").encodedLength();
        send(trader2, buffer, logoutLength);

        Await.never("trader1 hears of trader2's session, or is logged out", Duration.ofMillis(1_000),
            () -> trader1Events.logons.size() != 1 || !trader1Events.logouts.isEmpty() || !trader1.isLoggedOn() ||
            trader1Events.report(r -> r.accountId() != TestUsers.ALICE_ACCOUNT) != null, trader1::poll);
        Await.until("status asked", () -> trader1.orderStatus(TestUsers.ALICE_ACCOUNT, "S1", 0, "BID1") > 0,
            trader1::poll);
        Await.until("status answered", () -> trader1Events.statusAnswer("S1") != null, trader1::poll);
        final RecordingListener.StatusReport status = trader1Events.statusAnswer("S1").get(0);
        assertEquals("NEW", status.orderStatus(), "trader1's bid still rests: " + status);
        assertEquals(TestUsers.ALICE_ACCOUNT, trader1.accountId());
    }

    /**
     * A user may hold at most {@code ringex.gateway.sbe.max.sessions.per.user} sessions at once (each maps a response
     * publication): one more is refused THROTTLED, saying why, and nothing is opened for it; when one ends, another
     * may log on.
     */
    @Test
    void aUserMayHoldOnlyTheConfiguredNumberOfSessions()
    {
        final List<ExchangeClient> sessions = new ArrayList<>();
        for (int i = 0; i < MAX_SESSIONS_PER_USER; i++)
        {
            final ExchangeClient session = client(udpResponse(), 3600 + i, new RecordingListener());
            Await.until("logon sent", () -> session.logon("alice", TestUsers.ALICE_PASSWORD, false, 1000) > 0,
                null);
            Await.until("logged on", session::isLoggedOn, session::poll);
            sessions.add(session);
        }
        final int before = publications();
        final RecordingListener refusedEvents = new RecordingListener();
        final ExchangeClient oneTooMany = client(udpResponse(), 3700, refusedEvents);
        Await.until("logon sent", () -> oneTooMany.logon("alice", TestUsers.ALICE_PASSWORD, false, 1000) > 0, null);
        Await.until("refused", () -> !refusedEvents.logons.isEmpty(), () ->
        {
            oneTooMany.poll();
            sessions.forEach(ExchangeClient::poll);
        });
        assertEquals("REJECTED", refusedEvents.logons.get(0).status());
        assertEquals("THROTTLED", refusedEvents.logons.get(0).reason());
        assertEquals(MAX_SESSIONS_PER_USER, counter("sbe active sessions"));
        Await.until("the refusal's publication closed", () -> publications() <= before, null);

        final RecordingListener bobEvents = new RecordingListener();
        final ExchangeClient bob = client(udpResponse(), 3701, bobEvents);
        Await.until("logon sent", () -> bob.logon("bob", TestUsers.BOB_PASSWORD, false, 1000) > 0, null);
        Await.until("another user logs on", bob::isLoggedOn, bob::poll);

        Await.until("logout sent", () -> sessions.get(0).logout() > 0, null);
        Await.until("session ended", () -> counter("sbe active sessions") == MAX_SESSIONS_PER_USER, null);
        final ExchangeClient again = client(udpResponse(), 3702, new RecordingListener());
        Await.until("logon sent", () -> again.logon("alice", TestUsers.ALICE_PASSWORD, false, 1000) > 0, null);
        Await.until("logged on once one ended", again::isLoggedOn, () ->
        {
            again.poll();
            sessions.forEach(ExchangeClient::poll);
        });
    }

    /**
     * Five wrong passwords lock the name out: the right one is then refused too, with the same answer, until an
     * operator lifts the lockout.
     */
    @Test
    void guessingPasswordsLocksTheNameOutUntilAnOperatorUnlocksIt()
    {
        final String channel = udpResponse();
        for (int i = 0; i < 5; i++)
        {
            final RecordingListener listener = new RecordingListener();
            final ExchangeClient guesser = client(channel, 3100 + i, listener);
            Await.until("logon sent", () -> guesser.logon("alice", "guess", false, 1000) > 0, null);
            Await.until("refused", () -> !listener.logons.isEmpty(), guesser::poll);
            assertEquals("INVALID_CREDENTIALS", listener.logons.get(0).reason());
        }
        ctx.logonAuthenticator().guard().unlockAddress("127.0.0.1");

        final RecordingListener locked = new RecordingListener();
        final ExchangeClient alice = client(channel, 3200, locked);
        Await.until("logon sent", () -> alice.logon("alice", TestUsers.ALICE_PASSWORD, false, 1000) > 0, null);
        Await.until("refused", () -> !locked.logons.isEmpty(), alice::poll);
        assertEquals("INVALID_CREDENTIALS", locked.logons.get(0).reason(), "the right password of a locked name");

        assertTrue(ctx.logonAuthenticator().guard().unlockUser("alice"));
        final RecordingListener unlocked = new RecordingListener();
        final ExchangeClient again = client(channel, 3201, unlocked);
        Await.until("logon sent", () -> again.logon("alice", TestUsers.ALICE_PASSWORD, false, 1000) > 0, null);
        Await.until("logged on", again::isLoggedOn, again::poll);
    }

    /**
     * A Logon arriving from this machine that asks for answers at an address of another machine: nothing is opened
     * and nothing is sent there (an Aeron publication sends SETUP frames to its endpoint until answered).
     */
    @Test
    void anAnswerNeverGoesAnywhereButBackToTheCaller()
    {
        final ExclusivePublication attacker = rawPublication();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[512]);
        final int before = publications();
        send(attacker, buffer, logon(buffer, "bob", TestUsers.BOB_PASSWORD, "aeron:udp?endpoint=192.0.2.1:40999",
            3300));
        send(attacker, buffer, logon(buffer, "bob", "wrong", "aeron:udp?endpoint=192.0.2.1:41000", 3301));
        send(attacker, buffer, logon(buffer, "bob", TestUsers.BOB_PASSWORD,
            "aeron:udp?endpoint=localhost:40999|control-mode=dynamic|control=192.0.2.1:4000", 3302));
        Await.until("refused", () -> counter("sbe logons refused") == 3, null);
        Await.never("a publication opened", Duration.ofMillis(FAILURE_DELAY_MS * 2),
            () -> publications() != before, null);
    }

    /**
     * A client built on schema version 1 (no logonRequestId) logs on, trades and is answered at version 1 throughout.
     */
    @Test
    void aClientOfTheFirstSchemaVersionIsAnsweredInItsVersion()
    {
        final String channel = udpResponse();
        final Subscription responses = aeron.addSubscription(channel, 3400);
        closeables.add(responses);
        final ExclusivePublication client = rawPublication();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[512]);

        // Version 1's Logon: the root block ends before logonRequestId.
        final int length = logon(buffer, "bob", TestUsers.BOB_PASSWORD, channel, 3400);
        final int v1BlockLength = 9;
        final int varDataLength = length - MessageHeaderEncoder.ENCODED_LENGTH - LogonEncoder.BLOCK_LENGTH;
        buffer.putBytes(MessageHeaderEncoder.ENCODED_LENGTH + v1BlockLength, buffer,
            MessageHeaderEncoder.ENCODED_LENGTH + LogonEncoder.BLOCK_LENGTH, varDataLength);
        buffer.putShort(0, (short)v1BlockLength);
        buffer.putShort(6, (short)1);
        send(client, buffer, MessageHeaderEncoder.ENCODED_LENGTH + v1BlockLength + varDataLength);

        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final List<String> seen = new ArrayList<>();
        final long[] sessionId = new long[1];
        Await.until("logon answered", () -> sessionId[0] != 0, () -> responses.poll((b, o, l, h) ->
        {
            header.wrap(b, o);
            seen.add(header.templateId() + "@v" + header.version() + "/" + header.blockLength());
            if (header.templateId() == LogonResponseDecoder.TEMPLATE_ID)
            {
                sessionId[0] = new LogonResponseDecoder().wrap(b, o + 8, header.blockLength(), header.version())
                    .sessionId();
            }
        }, 10));
        assertEquals(List.of(LogonResponseDecoder.TEMPLATE_ID + "@v1/31"), seen);

        final NewOrderEncoder order = new NewOrderEncoder().wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .sessionId(sessionId[0]).accountId(TestUsers.BOB_ACCOUNT).clientOrderId("OLD1").instrumentId(INSTRUMENT)
            .side(Side.SELL).orderType(OrderType.LIMIT).timeInForce(TimeInForce.GTC).postOnly(BooleanType.FALSE)
            .selfTradePrevention(SelfTradePrevention.ACCOUNT_DEFAULT).price(10_100).quantity(1);
        // Version 1's NewOrder: the root block ends before the order types' fields (version 2).
        final int v1OrderBlockLength = MessageCatalog.blockLength(NewOrderEncoder.TEMPLATE_ID, 1);
        buffer.putShort(0, (short)v1OrderBlockLength);
        buffer.putShort(6, (short)1);
        send(client, buffer, MessageHeaderEncoder.ENCODED_LENGTH + v1OrderBlockLength);
        Await.until("execution report", () -> seen.size() > 1, () -> responses.poll((b, o, l, h) ->
        {
            header.wrap(b, o);
            if (header.templateId() == ExecutionReportDecoder.TEMPLATE_ID)
            {
                seen.add(header.templateId() + "@v" + header.version());
            }
        }, 10));
        assertEquals(ExecutionReportDecoder.TEMPLATE_ID + "@v1", seen.get(1));
    }
}
