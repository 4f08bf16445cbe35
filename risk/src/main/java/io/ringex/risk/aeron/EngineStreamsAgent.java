package io.ringex.risk.aeron;

import io.ringex.client.EventBatches;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.UnsafeBuffer;

import io.aeron.FragmentAssembler;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.ringex.protocol.PrimarySelector;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.UserDirectoryRequestEncoder;
import io.ringex.risk.model.RiskReadModel;
import io.ringex.risk.model.UserDirectory;

/**
 * The hot path: polls every engine node's risk, market-data and egress subscriptions into the read model, which applies
 * only the followed node's events, and asks for the user directory when {@link UserDirectory#requestNeeded} says so. A
 * plain Agrona agent on its own thread, started by {@link AeronConnection}; nothing here touches Spring.
 * <p>
 * Threading: the agent's thread only.
 */
public final class EngineStreamsAgent implements Agent
{
    private static final int FRAGMENT_LIMIT = 256;
    private static final long CONNECTION_CHECK_INTERVAL_NS = 100_000_000L;

    private final Subscription[] risk;
    private final Subscription[] marketData;
    private final Subscription[] egress;
    private final Publication[] ingress;
    private final RiskReadModel model;
    private final UserDirectory users;
    private final FragmentAssembler[] riskAssemblers;
    private final FragmentAssembler[] marketDataAssemblers;
    private final FragmentAssembler[] egressAssemblers;
    private final boolean[] egressConnected;
    private final UnsafeBuffer requestBuffer = new UnsafeBuffer(new byte[64]);
    private final MessageHeaderEncoder requestHeader = new MessageHeaderEncoder();
    private final UserDirectoryRequestEncoder request = new UserDirectoryRequestEncoder();
    private long nextDirectoryRequestId = System.currentTimeMillis() * 1000L;
    private long nextConnectionCheckNs;

    /**
     * @param risk        each node's risk stream, in configuration order.
     * @param marketData  each node's market-data stream.
     * @param egress      each node's egress stream (the user directory).
     * @param ingress     each node's ingress, watched for its connection state, and where directory requests go.
     * @param handlers    each node's decoder into the model.
     * @param model       the read model, told of connection changes.
     * @param users       the user directory, which says when to ask for it.
     */
    public EngineStreamsAgent(
        final Subscription[] risk,
        final Subscription[] marketData,
        final Subscription[] egress,
        final Publication[] ingress,
        final EngineEventHandler[] handlers,
        final RiskReadModel model,
        final UserDirectory users)
    {
        this.risk = risk.clone();
        this.marketData = marketData.clone();
        this.egress = egress.clone();
        this.ingress = ingress.clone();
        this.model = model;
        this.users = users;
        this.riskAssemblers = new FragmentAssembler[risk.length];
        this.marketDataAssemblers = new FragmentAssembler[risk.length];
        this.egressAssemblers = new FragmentAssembler[risk.length];
        this.egressConnected = new boolean[risk.length];
        for (int i = 0; i < risk.length; i++)
        {
            riskAssemblers[i] = new FragmentAssembler(EventBatches.unpacking(handlers[i]));
            marketDataAssemblers[i] = new FragmentAssembler(handlers[i]);
            egressAssemblers[i] = new FragmentAssembler(EventBatches.unpacking(handlers[i]));
        }
    }

    @Override
    public int doWork()
    {
        int work = 0;
        for (int i = 0; i < risk.length; i++)
        {
            work += risk[i].poll(riskAssemblers[i], FRAGMENT_LIMIT);
            work += marketData[i].poll(marketDataAssemblers[i], FRAGMENT_LIMIT);
            work += egress[i].poll(egressAssemblers[i], FRAGMENT_LIMIT);
        }

        final long nowNs = System.nanoTime();
        if (nowNs - nextConnectionCheckNs >= 0)
        {
            nextConnectionCheckNs = nowNs + CONNECTION_CHECK_INTERVAL_NS;
            final int followed = model.followedEngine();
            for (int i = 0; i < risk.length; i++)
            {
                model.streamsConnected(i, risk[i].isConnected(), marketData[i].isConnected(), ingress[i].isConnected());
                final boolean connected = egress[i].isConnected();
                if (connected && !egressConnected[i] && i == followed)
                {
                    // a node whose egress (re)appears may have restarted: what it said before may be gone
                    users.invalidate();
                }
                egressConnected[i] = connected;
            }
            model.tick();
            work += requestDirectoryIfNeeded(nowNs);
        }
        return work;
    }

    private int requestDirectoryIfNeeded(final long nowNs)
    {
        final int followed = model.followedEngine();
        if (followed == PrimarySelector.NONE || !egressConnected[followed] || !ingress[followed].isConnected() ||
            !users.requestNeeded(followed, nowNs))
        {
            return 0;
        }
        final long requestId = ++nextDirectoryRequestId;
        request.wrapAndApplyHeader(requestBuffer, 0, requestHeader)
            .gatewayId(users.gatewayId())
            .requestId(requestId);
        final long result = ingress[followed].offer(requestBuffer, 0,
            MessageHeaderEncoder.ENCODED_LENGTH + request.encodedLength());
        if (result > 0)
        {
            users.requested(followed, requestId, nowNs);
            return 1;
        }
        return 0;
    }

    @Override
    public String roleName()
    {
        return "risk-engine-streams";
    }
}
