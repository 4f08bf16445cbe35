package io.ringex.gateway.testing;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.ringex.gateway.GatewayContext;

/**
 * The media driver and gateway configurations the gateway tests share: everything over IPC to an engine on the
 * standard streams (ingress 1001, egress 1002, market data 1003, clients 2001); for FIX, Artio's files and archive in
 * the test's directory and the test users (carol with FIX cancel-on-disconnect).
 */
public final class TestGateways
{
    public static final String IPC = "aeron:ipc";

    private TestGateways()
    {
    }

    /**
     * A FIX gateway with its files in the test's directory and clients on IPC stream 2001: what every gateway test
     * shares, before it names its engines and users.
     *
     * @param gatewayId this gateway's id.
     * @param aeronDir  the media driver's directory.
     * @param dir       the test's directory: Artio's log and archive go under it.
     * @param fixPort   the acceptor's port.
     * @return the configuration, to be completed by the test (engines, users, driver) and concluded by launch.
     */
    public static GatewayContext fix(final int gatewayId, final String aeronDir, final Path dir, final int fixPort)
    {
        return new GatewayContext()
            .gatewayId(gatewayId)
            .aeronDirectoryName(aeronDir)
            .archiveDir(dir.resolve("archive").toString())
            .fixLogDir(dir.resolve("fix").toString())
            .fixHost("localhost")
            .fixPort(fixPort)
            .clientChannel(IPC).clientStreamId(2001);
    }

    /**
     * {@link #fix} to one engine over IPC on the standard streams, with the test users.
     *
     * @param gatewayId this gateway's id.
     * @param aeronDir  the media driver's directory.
     * @param dir       the test's directory: Artio's log and archive go under it.
     * @param fixPort   the acceptor's port.
     * @return the configuration, to be completed by the test (driver, instruments) and concluded by launch.
     */
    public static GatewayContext fixOverIpc(final int gatewayId, final String aeronDir, final Path dir,
        final int fixPort)
    {
        return fix(gatewayId, aeronDir, dir, fixPort)
            .marketDataRequestChannel(IPC).marketDataRecoveryChannel(IPC)
            .engineIngressChannel(IPC).engineIngressStreamId(1001)
            .engineEgressChannel(IPC).engineEgressStreamId(1002)
            .marketDataChannel(IPC).marketDataStreamId(1003)
            .addUser(TestUsers.ALICE)
            .addUser(TestUsers.BOB)
            .addUser(TestUsers.CAROL_FIX_CANCEL_ON_DISCONNECT);
    }

    /**
     * The tests' embedded media driver: small terms (64 KiB publications, so a client that stops reading fills its
     * term quickly), a short linger and image liveness (a closed client's image goes within half a second).
     *
     * @param ipcTermLength the IPC term length: 64 KiB, or more for a test whose bursts must not back-pressure.
     * @return the launched driver, its directory deleted on start and on close.
     */
    public static MediaDriver launchDriver(final int ipcTermLength)
    {
        return MediaDriver.launchEmbedded(new MediaDriver.Context()
            .threadingMode(ThreadingMode.SHARED)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .publicationTermBufferLength(64 * 1024)
            .ipcTermBufferLength(ipcTermLength)
            .publicationLingerTimeoutNs(TimeUnit.MILLISECONDS.toNanos(100))
            .imageLivenessTimeoutNs(TimeUnit.MILLISECONDS.toNanos(500)));
    }

    /**
     * An SBE-only gateway (FIX off) with its clients on IPC stream 2001, to one engine over IPC on the standard
     * streams.
     *
     * @param gatewayId this gateway's id.
     * @param aeronDir  the media driver's directory.
     * @return the configuration, to be completed by the test (users, throttle, front ends) and concluded.
     */
    public static GatewayContext sbeOverIpc(final int gatewayId, final String aeronDir)
    {
        return new GatewayContext()
            .gatewayId(gatewayId)
            .aeronDirectoryName(aeronDir)
            .clientChannel(IPC).clientStreamId(2001)
            .engineIngressChannel(IPC).engineIngressStreamId(1001)
            .engineEgressChannel(IPC).engineEgressStreamId(1002)
            .marketDataChannel(IPC).marketDataStreamId(1003)
            .fixEnabled(false);
    }
}
