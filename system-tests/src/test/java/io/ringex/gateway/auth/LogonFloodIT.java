package io.ringex.gateway.auth;

import io.aeron.Aeron;
import io.aeron.CommonContext;
import io.aeron.ExclusivePublication;
import io.ringex.gateway.Gateway;
import io.ringex.gateway.GatewayContext;
import io.ringex.gateway.fix.FixAuthenticator;
import io.ringex.testing.Await;
import io.ringex.gateway.testing.EngineStreams;
import io.ringex.gateway.testing.EngineUnderTest;
import io.ringex.gateway.testing.RawFixClient;
import io.ringex.gateway.testing.TestEngines;
import io.ringex.gateway.testing.TestGateways;
import io.ringex.gateway.testing.TestUsers;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.LogonEncoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.testing.FreePorts;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A flood of bad SBE Logons from one address (this machine, over IPC: the loopback key) while ten good FIX Logons
 * come from another address of this machine (its first non-loopback IPv4 address, the acceptor bound to the wildcard),
 * through the real gateway and Artio acceptor with production's one-second failure delay. The flood used to hold every
 * pending-logon slot (even once its address was locked) and the good Logons were refused "busy or not ready"; now a
 * locked address takes no slot and one address holds at most a few, so every good Logon succeeds.
 */
class LogonFloodIT
{
    private static final String IPC = TestGateways.IPC;
    private static final String[][] FIX_USERS = {
        { "ALICE", "alice", TestUsers.ALICE_PASSWORD },
        { "BOB", "bob", TestUsers.BOB_PASSWORD },
        { "CAROL", "carol", TestUsers.CAROL_FIX_PASSWORD } };

    @TempDir
    Path tempDir;

    private Gateway gateway;
    private EngineUnderTest engine;
    private GatewayContext ctx;
    private Aeron aeron;
    private int port;
    private String aeronDir;
    private String otherAddress;

    @BeforeEach
    void setUp() throws SocketException
    {
        final InetAddress address = otherAddressOfThisMachine();
        assertNotNull(address, "this test needs an address of this machine that is not loopback");
        otherAddress = address.getHostAddress();
        port = FreePorts.tcp();
        aeronDir = CommonContext.generateRandomDirName();
        ctx = TestGateways.fixOverIpc(4, aeronDir, tempDir, port)
            .fixHost("0.0.0.0")
            .embeddedDriver(true)
            .logonPolicy(new LogonPolicy(5, 20, 60_000, 900_000, 1_000, 64, 10_000));
        gateway = Gateway.launch(ctx, Throwable::printStackTrace);
        engine = TestEngines.launch(new EngineStreams(aeronDir, IPC, 1001, IPC, 1002, IPC, 1003,
            new EngineStreams.TestInstrument(1, "BTC-USD", 2)));
        Await.until("library connected", () -> gateway.fixAgent().isLibraryConnected(), null);
        Await.until("the gateway has the engine's users", () -> ctx.users().loaded(), null);
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDir));
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(aeron, engine, gateway);
    }

    @Test
    void aFloodOfBadLogonsFromOneAddressDoesNotKeepOthersOut() throws InterruptedException
    {
        final ExclusivePublication floodPublication = aeron.addExclusivePublication(IPC, 2001);
        Await.until("flood publication connected", floodPublication::isConnected, null);
        final AtomicBoolean flooding = new AtomicBoolean(true);
        final AtomicLong sent = new AtomicLong();
        final Thread flood = new Thread(() ->
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[512]);
            final LogonEncoder logon = new LogonEncoder();
            final MessageHeaderEncoder header = new MessageHeaderEncoder();
            long i = 0;
            while (flooding.get())
            {
                final int length = MessageHeaderEncoder.ENCODED_LENGTH + logon.wrapAndApplyHeader(buffer, 0, header)
                    .heartbeatIntervalMs(1000).cancelOnDisconnect(BooleanType.FALSE)
                    .responseStreamId(10_000 + (int)(i % 50_000)).logonRequestId(i + 1)
                    .username("mallory" + (i % 1000)).credential("guess").responseChannel(IPC).encodedLength();
                if (floodPublication.offer(buffer, 0, length) > 0)
                {
                    sent.incrementAndGet();
                    i++;
                }
                else
                {
                    Thread.onSpinWait();
                }
            }
        }, "logon-flood");
        flood.start();
        try
        {
            final LogonGuard guard = ctx.logonAuthenticator().guard();
            Await.until("the flood has locked its address out", () -> guard.lockouts() >= 1, null);
            for (int i = 0; i < 10; i++)
            {
                final String[] user = FIX_USERS[i % FIX_USERS.length];
                final long sentBefore = sent.get();
                final List<String> answer = logOnAndOff(user[0], user[1], user[2]);
                assertTrue(answer.stream().anyMatch(m -> m.contains("|35=A|")), "logon " + i + " as " + user[1] +
                    " from " + otherAddress + " during the flood: " + answer + " (busy text: " +
                    FixAuthenticator.BUSY_TEXT + ")");
                assertTrue(sent.get() > sentBefore, "the flood went on during logon " + i);
            }
        }
        finally
        {
            flooding.set(false);
            flood.join();
            floodPublication.close();
        }
    }

    /** Log on from the other address (ResetSeqNumFlag=Y), then log off; the messages the acceptor sent. */
    private List<String> logOnAndOff(final String sender, final String user, final String password)
    {
        try (RawFixClient raw = new RawFixClient(otherAddress, port, sender, "RINGEX"))
        {
            raw.send("A", 1, "", "98=0|108=30|141=Y|553=" + user + "|554=" + password + "|");
            Await.until("logon answered", () -> poll(raw).stream()
                .anyMatch(m -> m.contains("|35=A|") || m.contains("|35=5|")), null);
            if (poll(raw).stream().anyMatch(m -> m.contains("|35=A|")))
            {
                raw.send("5", 2, "", "");
                Await.until("logout answered", () -> poll(raw).stream().anyMatch(m -> m.contains("|35=5|")), null);
            }
            final List<String> received = List.copyOf(poll(raw));
            return received;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
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
            throw new UncheckedIOException(ex);
        }
    }

    private static InetAddress otherAddressOfThisMachine() throws SocketException
    {
        for (final NetworkInterface network : Collections.list(NetworkInterface.getNetworkInterfaces()))
        {
            if (!network.isUp() || network.isLoopback())
            {
                continue;
            }
            for (final InetAddress address : Collections.list(network.getInetAddresses()))
            {
                if (address instanceof Inet4Address && !address.isLinkLocalAddress() && !address.isLoopbackAddress())
                {
                    return address;
                }
            }
        }
        return null;
    }
}
