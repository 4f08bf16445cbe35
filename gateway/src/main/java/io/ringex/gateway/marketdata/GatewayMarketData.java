package io.ringex.gateway.marketdata;

import io.aeron.Aeron;
import io.ringex.client.marketdata.MarketDataClient;
import io.ringex.client.marketdata.MarketDataListener;
import io.ringex.gateway.EngineEndpoint;
import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.codecs.InstrumentDefinitionDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.RejectReason;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;

import java.util.List;

/**
 * The gateway's reading of the engines' market data: one {@link MarketDataClient} per engine node, following every
 * instrument ({@link MarketDataClient.Context#followAllInstruments}), so a gap is recovered before it reaches the
 * {@link MarketDataCache}, which gets every message in sequence or a rebuilt book ({@link
 * MarketDataCache#onRecovered}).
 * <p>
 * Instrument definitions go on at once, before any recovery: order entry learns symbols from them and must not wait for
 * the recovery service.
 * <p>
 * Threading: the gateway's FIX agent thread only ({@link #poll()}; the getters from any thread read plain fields and
 * may be stale).
 */
public final class GatewayMarketData implements AutoCloseable
{
    /** Told each valid InstrumentDefinition as it arrives. */
    @FunctionalInterface
    public interface DefinitionListener
    {
        /**
         * @param definition the message, valid during the call.
         */
        void onDefinition(InstrumentDefinitionDecoder definition);
    }

    private static final int HEADER_LENGTH = MessageHeaderDecoder.ENCODED_LENGTH;

    private final MarketDataCache cache;
    private final MessageValidator validator;
    private final DefinitionListener definitions;
    private final MarketDataClient[] clients;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final InstrumentDefinitionDecoder definition = new InstrumentDefinitionDecoder();

    /**
     * @param aeron            the gateway's Aeron client.
     * @param engines          the engine nodes: each one's market-data channel carries its feed, its market-data
     *                         request channel the requests (never its command ingress).
     * @param responseChannel  the gateway's own channel for the recovery services' answers.
     * @param responseStreamId the stream engine 1 answers on; engine n's is this + 100 x (n - 1).
     * @param requestStreamId  the engines' market-data request stream.
     * @param cache            the gateway's copy of the market.
     * @param validator        checks each message before the cache reads it.
     * @param definitions      told each instrument definition as it arrives.
     */
    public GatewayMarketData(
        final Aeron aeron,
        final List<EngineEndpoint> engines,
        final String responseChannel,
        final int responseStreamId,
        final int requestStreamId,
        final MarketDataCache cache,
        final MessageValidator validator,
        final DefinitionListener definitions)
    {
        this.cache = cache;
        this.validator = validator;
        this.definitions = definitions;
        clients = new MarketDataClient[engines.size()];
        try
        {
            for (int i = 0; i < clients.length; i++)
            {
                final EngineEndpoint engine = engines.get(i);
                final NodeListener listener = new NodeListener();
                // One response stream per engine: a retransmission's feed messages carry that engine's sequences.
                // Opened, not connected: the gateway starts whether or not the engine is up, and follows it once it
                // is.
                clients[i] = MarketDataClient.open(new MarketDataClient.Context()
                    .aeron(aeron)
                    .feedChannel(engine.marketDataChannel())
                    .feedStreamId(engine.marketDataStreamId())
                    .responseChannel(responseChannel)
                    .responseStreamId(responseStreamId + 100 * i)
                    .requestChannel(engine.marketDataRequestChannel())
                    .requestStreamId(requestStreamId)
                    .followAllInstruments(true)
                    .listener(listener));
                listener.client = clients[i];
            }
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietCloseAll(clients);
            throw ex;
        }
    }

    /**
     * Read every node's feed and recovery stream and send the requests due.
     *
     * @return work done.
     */
    public int poll()
    {
        int work = 0;
        for (final MarketDataClient client : clients)
        {
            work += client.poll();
        }
        return work;
    }

    /** @return gaps seen in the nodes' channel sequences. */
    public long channelGaps()
    {
        long total = 0;
        for (final MarketDataClient client : clients)
        {
            total += client.channelGaps();
        }
        return total;
    }

    /** @return gaps mended by retransmission. */
    public long retransmissions()
    {
        long total = 0;
        for (final MarketDataClient client : clients)
        {
            total += client.retransmissions();
        }
        return total;
    }

    /** @return books rebuilt from a snapshot (the first of each instrument included). */
    public long recoveries()
    {
        long total = 0;
        for (final MarketDataClient client : clients)
        {
            total += client.recoveries();
        }
        return total;
    }

    public void close()
    {
        CloseHelper.closeAll(clients);
    }

    private boolean valid(final DirectBuffer buffer, final int offset, final int length)
    {
        return validator.validate(buffer, offset, length) == RejectReason.NONE;
    }

    private final class NodeListener implements MarketDataListener
    {
        private MarketDataClient client;

        public void onArrival(final DirectBuffer buffer, final int offset, final int length)
        {
            if (length < HEADER_LENGTH ||
                header.wrap(buffer, offset).templateId() != InstrumentDefinitionDecoder.TEMPLATE_ID ||
                !valid(buffer, offset, length))
            {
                return;
            }
            cache.onMessage(buffer, offset);
            header.wrap(buffer, offset);
            definitions.onDefinition(definition.wrap(buffer, offset + HEADER_LENGTH, header.blockLength(),
                header.version()));
        }

        public void onFeedMessage(
            final int instrumentId, final int templateId, final DirectBuffer buffer, final int offset, final int length)
        {
            // Definitions went to the cache on arrival; the rest in sequence.
            if (templateId != InstrumentDefinitionDecoder.TEMPLATE_ID && valid(buffer, offset, length))
            {
                cache.onMessage(buffer, offset);
            }
        }

        public void onRecovered(final int instrumentId, final long mdSequence)
        {
            cache.onRecovered(instrumentId, mdSequence, client.book(instrumentId));
        }
    }
}
