package io.ringex.gateway.testing;

import java.nio.file.Path;

import io.ringex.gateway.GatewayContext;

/**
 * Gateway configurations the FIX tests share: everything over IPC to an engine on the standard streams (ingress 1001,
 * egress 1002, market data 1003, clients 2001), Artio's files and archive in the test's directory, and the test users
 * (carol with FIX cancel-on-disconnect).
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
}
