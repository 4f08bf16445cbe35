package io.ringex.gateway;

import io.ringex.protocol.PrimarySelector;

/**
 * Where the gateway reaches one engine node: the node's command ingress, its client-bound egress, its market data, the
 * channel its market-data recovery service takes requests on, and its status stream ({@code EngineStatus}, on the
 * node's risk stream). A gateway knows every node of a
 * primary/standby pair and sends to the one that claims PRIMARY at the highest epoch ({@link PrimarySelector}).
 * <p>
 * Thread safety: immutable.
 */
public final class EngineEndpoint
{
    private final String ingressChannel;
    private final int ingressStreamId;
    private final String egressChannel;
    private final int egressStreamId;
    private final String marketDataChannel;
    private final int marketDataStreamId;
    private final String marketDataRequestChannel;
    private final String statusChannel;
    private final int statusStreamId;

    /**
     * @param ingressChannel     the node's command ingress.
     * @param ingressStreamId    its stream.
     * @param egressChannel      the node's outbound channel for client-bound events.
     * @param egressStreamId     its stream.
     * @param marketDataChannel  the node's market-data channel (instrument definitions).
     * @param marketDataStreamId its stream.
     * @param marketDataRequestChannel the node's market-data request channel (its recovery service's own).
     * @param statusChannel      the channel of the node's EngineStatus (its risk stream).
     * @param statusStreamId     its stream.
     */
    public EngineEndpoint(
        final String ingressChannel,
        final int ingressStreamId,
        final String egressChannel,
        final int egressStreamId,
        final String marketDataChannel,
        final int marketDataStreamId,
        final String marketDataRequestChannel,
        final String statusChannel,
        final int statusStreamId)
    {
        this.marketDataRequestChannel = marketDataRequestChannel;
        this.ingressChannel = ingressChannel;
        this.ingressStreamId = ingressStreamId;
        this.egressChannel = egressChannel;
        this.egressStreamId = egressStreamId;
        this.marketDataChannel = marketDataChannel;
        this.marketDataStreamId = marketDataStreamId;
        this.statusChannel = statusChannel;
        this.statusStreamId = statusStreamId;
    }

    /**
     * @return the node's command ingress channel.
     */
    public String ingressChannel()
    {
        return ingressChannel;
    }

    /**
     * @return the node's command ingress stream.
     */
    public int ingressStreamId()
    {
        return ingressStreamId;
    }

    /**
     * @return the node's egress channel.
     */
    public String egressChannel()
    {
        return egressChannel;
    }

    /**
     * @return the node's egress stream.
     */
    public int egressStreamId()
    {
        return egressStreamId;
    }

    /**
     * @return the node's market-data channel.
     */
    public String marketDataChannel()
    {
        return marketDataChannel;
    }

    /**
     * @return the node's market-data stream.
     */
    public int marketDataStreamId()
    {
        return marketDataStreamId;
    }

    /**
     * @return the channel the node's market-data recovery service takes requests on.
     */
    public String marketDataRequestChannel()
    {
        return marketDataRequestChannel;
    }

    /**
     * @return the channel of the node's EngineStatus.
     */
    public String statusChannel()
    {
        return statusChannel;
    }

    /**
     * @return the stream of the node's EngineStatus.
     */
    public int statusStreamId()
    {
        return statusStreamId;
    }

    /**
     * {@inheritDoc}
     */
    public String toString()
    {
        return "ingress=" + ingressChannel + "/" + ingressStreamId + " egress=" + egressChannel + "/" +
            egressStreamId + " status=" + statusChannel + "/" + statusStreamId;
    }
}
