package io.ringex.risk.aeron;

import org.agrona.concurrent.Agent;

import io.aeron.FragmentAssembler;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.ringex.risk.model.RiskReadModel;

/**
 * The hot path: polls the engine's risk and market-data subscriptions and feeds the read model. A plain Agrona agent
 * on its own thread (started by {@link AeronConnection}); nothing here touches Spring.
 * <p>
 * Fragments are reassembled first: a BookSnapshot of a deep book can exceed one MTU.
 */
public final class EngineStreamsAgent implements Agent
{
    private static final int FRAGMENT_LIMIT = 256;
    private static final long CONNECTION_CHECK_INTERVAL_NS = 100_000_000L;

    private final Subscription risk;
    private final Subscription marketData;
    private final Publication ingress;
    private final RiskReadModel model;
    private final FragmentAssembler riskAssembler;
    private final FragmentAssembler marketDataAssembler;
    private long nextConnectionCheckNs;

    /**
     * @param risk       the risk stream.
     * @param marketData the market-data stream.
     * @param ingress    the engine ingress, watched for its connection state only.
     * @param handler    decodes events into the model.
     * @param model      the read model, told of connection changes.
     */
    public EngineStreamsAgent(
        final Subscription risk,
        final Subscription marketData,
        final Publication ingress,
        final EngineEventHandler handler,
        final RiskReadModel model)
    {
        this.risk = risk;
        this.marketData = marketData;
        this.ingress = ingress;
        this.model = model;
        this.riskAssembler = new FragmentAssembler(handler);
        this.marketDataAssembler = new FragmentAssembler(handler);
    }

    @Override
    public int doWork()
    {
        int work = risk.poll(riskAssembler, FRAGMENT_LIMIT);
        work += marketData.poll(marketDataAssembler, FRAGMENT_LIMIT);

        final long nowNs = System.nanoTime();
        if (nowNs - nextConnectionCheckNs >= 0)
        {
            nextConnectionCheckNs = nowNs + CONNECTION_CHECK_INTERVAL_NS;
            model.streamsConnected(risk.isConnected(), marketData.isConnected(), ingress.isConnected());
        }
        return work;
    }

    @Override
    public String roleName()
    {
        return "risk-engine-streams";
    }
}
