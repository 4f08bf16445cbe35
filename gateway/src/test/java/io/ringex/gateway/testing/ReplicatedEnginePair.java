package io.ringex.gateway.testing;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.ringex.client.AdminClient;
import io.ringex.engine.node.EngineContext;
import io.ringex.engine.node.EngineNode;
import io.ringex.engine.node.NodeTestSupport;
import io.ringex.gateway.EngineEndpoint;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewEpochEncoder;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.testing.FreePorts;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;

/**
 * A real primary/standby pair on the test's media driver, each node with its own UDP loopback ingress and outbound
 * (MDC) channel, replicating SYNC over UDP loopback, as in production; the standby listens for promotion on IPC. The
 * primary is node 1, the standby node 2. The pair's addresses are chosen at construction, so a gateway can be
 * configured (and launch the media driver) before {@link #launch} starts the nodes; the market of
 * {@link RealEngineNode#setUpMarket} is defined on the primary (and so replicated).
 */
public final class ReplicatedEnginePair implements AutoCloseable
{
    private static final int INGRESS_STREAM = 1001;
    private static final int EGRESS_STREAM = 1002;
    private static final int MARKET_DATA_STREAM = 1003;
    private static final int RISK_STREAM = 1004;
    private static final int CONTROL_STREAM = 3020;
    private static final String IPC = "aeron:ipc";
    /**
     * Status every 5 s: long enough that a gateway which switches within a second of a promotion can only have
     * learnt of it from the EngineStatus a node publishes when its role or epoch changes.
     */
    public static final long STATUS_INTERVAL_NS = 5_000_000_000L;

    private final String aeronDirectoryName;
    private final EngineContext primaryCtx;
    private final EngineContext standbyCtx;
    private EngineNode standby;
    private EngineNode primary;

    /**
     * Choose the pair's addresses; nothing starts yet.
     *
     * @param aeronDirectoryName the media driver.
     * @param directory          where the journals and snapshots go.
     */
    public ReplicatedEnginePair(final String aeronDirectoryName, final Path directory)
    {
        this.aeronDirectoryName = aeronDirectoryName;
        final String replication = "aeron:udp?endpoint=localhost:" + freeUdpPort();
        final String acks = "aeron:udp?endpoint=localhost:" + freeUdpPort();
        standbyCtx = node(directory.resolve("standby"))
            .role(EngineContext.Role.STANDBY)
            .nodeId(2)
            .controlChannel(IPC).controlStreamId(CONTROL_STREAM)
            .replicationChannel(replication)
            .replicationAckChannel(acks);
        primaryCtx = node(directory.resolve("primary"))
            .nodeId(1)
            .replicationMode(EngineContext.ReplicationMode.SYNC)
            .replicationChannel(replication)
            .replicationAckChannel(acks);
    }

    /**
     * Launch the standby, then the primary, and set up the market.
     *
     * @param instruments to define.
     * @return this.
     */
    public ReplicatedEnginePair launch(final EngineStreams.TestInstrument... instruments)
    {
        standby = EngineNode.launch(standbyCtx);
        try
        {
            primary = EngineNode.launch(primaryCtx);
            RealEngineNode.setUpMarket(aeronDirectoryName, primaryCtx.ingressChannel(), INGRESS_STREAM,
                subscriberChannel(primaryCtx), RISK_STREAM, instruments);
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietCloseAll(primary, standby);
            throw ex;
        }
        return this;
    }

    private EngineContext node(final Path directory)
    {
        return NodeTestSupport.forTest(new EngineContext())
            .marketDataRequestChannel("aeron:udp?endpoint=localhost:" + freeUdpPort())
            .aeronDirectoryName(aeronDirectoryName)
            .ingressChannel("aeron:udp?endpoint=localhost:" + freeUdpPort()).ingressStreamId(INGRESS_STREAM)
            .outboundChannel("aeron:udp?control=localhost:" + freeUdpPort() + "|control-mode=dynamic")
            .egressStreamId(EGRESS_STREAM).marketDataStreamId(MARKET_DATA_STREAM).riskStreamId(RISK_STREAM)
            .journalDirectory(directory.resolve("journal"))
            .snapshotDirectory(directory.resolve("snapshots"))
            .inputRingCapacity(4096)
            .outputRingCapacity(4096)
            .replicationHeartbeatIntervalNs(50_000_000L)
            .statusIntervalNs(STATUS_INTERVAL_NS);
    }

    private static String subscriberChannel(final EngineContext ctx)
    {
        final String control = ctx.outboundChannel().substring(ctx.outboundChannel().indexOf("control="));
        return "aeron:udp?endpoint=localhost:0|" + control;
    }

    private static EngineEndpoint endpoint(final EngineContext ctx)
    {
        final String outbound = subscriberChannel(ctx);
        return new EngineEndpoint(ctx.ingressChannel(), INGRESS_STREAM, outbound, EGRESS_STREAM, outbound,
            MARKET_DATA_STREAM, ctx.marketDataRequestChannel(), outbound, RISK_STREAM);
    }

    /**
     * @return how a gateway reaches the primary (node 1).
     */
    public EngineEndpoint primaryEndpoint()
    {
        return endpoint(primaryCtx);
    }

    /**
     * @return how a gateway reaches the standby (node 2).
     */
    public EngineEndpoint standbyEndpoint()
    {
        return endpoint(standbyCtx);
    }

    /**
     * @return the primary, or null once closed.
     */
    public EngineNode primary()
    {
        return primary;
    }

    /**
     * @return the standby (the primary once promoted).
     */
    public EngineNode standby()
    {
        return standby;
    }

    /**
     * An operator's admin client on the node that is primary now (node 1, or node 2 once promoted).
     *
     * @param aeron connected to the pair's media driver; not closed with the client.
     * @return the client.
     */
    public AdminClient admin(final Aeron aeron)
    {
        final EngineContext ctx = null != primary ? primaryCtx : standbyCtx;
        return new AdminClient(aeron, ctx.ingressChannel(), INGRESS_STREAM, subscriberChannel(ctx), RISK_STREAM,
            NodeTestSupport.ADMIN_KEYS.keys().get(0));
    }

    /**
     * Stop the primary, as a crash or an operator would.
     */
    public void closePrimary()
    {
        CloseHelper.close(primary);
        primary = null;
    }

    /**
     * Ask the standby to promote itself, as the dashboard's "Promote" action does, and wait until it has.
     *
     * @param requestId the request's id.
     */
    public void promoteStandby(final long requestId)
    {
        try (Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDirectoryName));
            Publication control = aeron.addPublication(IPC, CONTROL_STREAM))
        {
            final UnsafeBuffer request = new UnsafeBuffer(new byte[64]);
            final NewEpochEncoder newEpoch = new NewEpochEncoder()
                .wrapAndApplyHeader(request, 0, new MessageHeaderEncoder()).requestId(requestId).epoch(1).nodeId(2);
            final int length = MessageHeaderEncoder.ENCODED_LENGTH + newEpoch.encodedLength();
            Await.until("the promotion request sent", () -> control.offer(request, 0, length) > 0, null);
            Await.until("the standby promoted", () -> standby.role() == NodeRole.PRIMARY, null);
        }
    }

    /**
     * Close both nodes.
     */
    public void close()
    {
        CloseHelper.quietCloseAll(primary, standby);
    }

    private static int freeUdpPort()
    {
        return FreePorts.udp();
    }
}
