package io.ringex.risk.aeron;

import org.agrona.concurrent.Agent;

import io.aeron.FragmentAssembler;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.ringex.risk.model.RiskReadModel;

/**
 * The hot path: polls every configured engine node's risk and market-data subscriptions and feeds the read model,
 * which applies a node's events only while it is the node followed. A plain Agrona agent on its own thread (started
 * by {@link AeronConnection}); nothing here touches Spring.
 * <p>
 * Fragments are reassembled first: a BookSnapshot of a deep book can exceed one MTU. Every
 * {@code CONNECTION_CHECK_INTERVAL_NS} the agent reports each node's stream connections and has the model choose the
 * followed node again, so a node that went silent stops being followed even when nothing arrives.
 * <p>
 * Threading: the agent's thread only.
 */
public final class EngineStreamsAgent implements Agent
{
    private static final int FRAGMENT_LIMIT = 256;
    private static final long CONNECTION_CHECK_INTERVAL_NS = 100_000_000L;

    private final Subscription[] risk;
    private final Subscription[] marketData;
    private final Publication[] ingress;
    private final RiskReadModel model;
    private final FragmentAssembler[] riskAssemblers;
    private final FragmentAssembler[] marketDataAssemblers;
    private long nextConnectionCheckNs;

    /**
     * @param risk       each node's risk stream, in configuration order.
     * @param marketData each node's market-data stream.
     * @param ingress    each node's ingress, watched for its connection state only.
     * @param handlers   each node's decoder into the model.
     * @param model      the read model, told of connection changes.
     */
    public EngineStreamsAgent(
        final Subscription[] risk,
        final Subscription[] marketData,
        final Publication[] ingress,
        final EngineEventHandler[] handlers,
        final RiskReadModel model)
    {
        this.risk = risk.clone();
        this.marketData = marketData.clone();
        this.ingress = ingress.clone();
        this.model = model;
        this.riskAssemblers = new FragmentAssembler[risk.length];
        this.marketDataAssemblers = new FragmentAssembler[risk.length];
        for (int i = 0; i < risk.length; i++)
        {
            riskAssemblers[i] = new FragmentAssembler(handlers[i]);
            marketDataAssemblers[i] = new FragmentAssembler(handlers[i]);
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
        }

        final long nowNs = System.nanoTime();
        if (nowNs - nextConnectionCheckNs >= 0)
        {
            nextConnectionCheckNs = nowNs + CONNECTION_CHECK_INTERVAL_NS;
            for (int i = 0; i < risk.length; i++)
            {
                model.streamsConnected(i, risk[i].isConnected(), marketData[i].isConnected(), ingress[i].isConnected());
            }
            model.tick();
        }
        return work;
    }

    @Override
    public String roleName()
    {
        return "risk-engine-streams";
    }
}
