package io.ringex.engine.node;

import io.ringex.engine.cluster.ClusterClient;
import io.ringex.engine.cluster.Leadership;
import io.ringex.protocol.SessionIds;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewEpochEncoder;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cluster member's intake of client commands: the {@link IngressAgent}, open only while the member leads a term,
 * appending to the cluster's log through the member's {@link ClusterClient}. When the service says the member leads a
 * new term (and the client has followed the leadership here), it drops what waited in the ingress stream from before,
 * offers the term's {@code NewEpoch} (the processor hands the node over to clients when it reaches it) and opens the
 * ingress, every command stamped with the term. When the member no longer leads, it closes the ingress at once. If the
 * term's {@code NewEpoch} has not come back through the log within {@link #NEW_EPOCH_RETRY_NS}, it is offered again.
 * <p>
 * Thread safety: the input thread.
 */
final class LeaderIngress implements Agent, CommandSink
{
    static final long NEW_EPOCH_RETRY_NS = 500_000_000L;
    private static final Logger LOG = LoggerFactory.getLogger(LeaderIngress.class);
    private static final long NEW_EPOCH_SOURCE = SessionIds.sessionId(SessionIds.ADMIN_GATEWAY_ID, 0);

    private final ClusterClient client;
    private final Leadership leadership;
    private final int nodeId;
    private final EpochNanoClock epochClock;
    private final NanoClock clock;
    private final UnsafeBuffer newEpochBuffer = new UnsafeBuffer(new byte[MessageHeaderEncoder.ENCODED_LENGTH +
        NewEpochEncoder.BLOCK_LENGTH]);
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final NewEpochEncoder newEpoch = new NewEpochEncoder();
    private IngressAgent ingress;
    private long servingTerm = Leadership.NO_TERM;
    private long newEpochOfferedNs;
    private boolean clientConnected;

    /**
     * @param client     the member's client of the cluster.
     * @param leadership the member's leadership.
     * @param nodeId     the member's id.
     * @param epochClock stamps the {@code NewEpoch}.
     * @param clock      times its retry.
     */
    LeaderIngress(
        final ClusterClient client,
        final Leadership leadership,
        final int nodeId,
        final EpochNanoClock epochClock,
        final NanoClock clock)
    {
        this.client = client;
        this.leadership = leadership;
        this.nodeId = nodeId;
        this.epochClock = epochClock;
        this.clock = clock;
    }

    /**
     * @param ingress the ingress this agent opens and closes, whose sink this is.
     */
    void ingress(final IngressAgent ingress)
    {
        this.ingress = ingress;
    }

    public int doWork()
    {
        int work = client.doWork();
        final boolean connected = client.isConnected();
        if (connected != clientConnected)
        {
            clientConnected = connected;
            leadership.clientSession(connected);
        }
        final long term = leadership.leadingTerm();
        if (term != servingTerm)
        {
            if (servingTerm != Leadership.NO_TERM)
            {
                ingress.close();
                LOG.warn("no longer leading term {}: ingress closed", servingTerm);
                servingTerm = Leadership.NO_TERM;
                work++;
            }
            if (term != Leadership.NO_TERM && followsUs(term))
            {
                final int discarded = ingress.discardPending();
                if (offerNewEpoch(term))
                {
                    servingTerm = term;
                    ingress.open(term);
                    LOG.warn("leading term {}: ingress open ({} commands from before dropped unread; their gateways " +
                        "settle them as in doubt)", term, discarded);
                }
                work++;
            }
        }
        else if (servingTerm != Leadership.NO_TERM)
        {
            if (leadership.handedOffTerm() != servingTerm && clock.nanoTime() - newEpochOfferedNs > NEW_EPOCH_RETRY_NS)
            {
                offerNewEpoch(servingTerm);
            }
            work += ingress.doWork();
        }
        return work;
    }

    /**
     * The client's commands go to the leader it knows: only when that is this member, in the term it leads.
     */
    private boolean followsUs(final long term)
    {
        return client.isConnected() && client.leaderMemberId() == nodeId && client.leadershipTermId() == term;
    }

    private boolean offerNewEpoch(final long term)
    {
        final int length = MessageHeaderEncoder.ENCODED_LENGTH + newEpoch.wrapAndApplyHeader(newEpochBuffer, 0,
            headerEncoder).requestId(0).epoch(term).nodeId(nodeId).encodedLength();
        newEpochOfferedNs = clock.nanoTime();
        return client.offer(term, epochClock.nanoTime(), NEW_EPOCH_SOURCE, NewEpochEncoder.TEMPLATE_ID,
            newEpochBuffer, 0, length);
    }

    public boolean offer(
        final long timestampNs,
        final long sourceId,
        final int templateId,
        final org.agrona.DirectBuffer buffer,
        final int offset,
        final int length,
        final long receivedNs)
    {
        return servingTerm != Leadership.NO_TERM &&
            client.offer(servingTerm, timestampNs, sourceId, templateId, buffer, offset, length);
    }

    public void onClose()
    {
        CloseHelper.quietClose(client);
    }

    public String roleName()
    {
        return "leader-ingress";
    }
}
