package io.ringex.engine.replication;

import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.ringex.engine.processor.BusinessLogicProcessor;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.protocol.codecs.ReplicationAckDecoder;
import io.ringex.protocol.codecs.ReplicationHeartbeatDecoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * On a replicating primary: reads what the standby sends back. Acknowledgements and the standby's heartbeats (which
 * carry its journaled sequence) advance the replicated-sequence counter that SYNC replication waits on, once the
 * {@link CatchUpAgent} has checked the standby's journal against this node's (before that, a standby still following
 * this node's previous life may acknowledge records this node lost in a crash, at sequences it will reuse). A heartbeat
 * from a peer that now claims to be PRIMARY at a higher epoch than this node's means this node has been superseded
 * (it was paused or cut off while the standby was promoted): it fences itself, closing its ingress so it takes no
 * more commands, and reports itself FENCED. Gateways already ignore events of an older epoch. A node that is not acting
 * as primary (a standby that would replicate onward once promoted) hears its primary's heartbeats here too and
 * ignores them.
 * <p>
 * It runs on the processor's thread, which never waits on replication (so acknowledgements keep flowing while the
 * replication stage waits for them) and may read the processor's epoch.
 * <p>
 * Thread safety: the processor's thread.
 */
public final class PeerMonitor implements Agent, FragmentHandler
{
    private static final System.Logger LOG = System.getLogger(PeerMonitor.class.getName());

    private final Subscription subscription;
    private final AtomicCounter replicatedSequence;
    private final BusinessLogicProcessor processor;
    private final ActingRole role;
    private final ClientIngress ingress;
    private final CatchUpAgent catchUp;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final ReplicationAckDecoder ack = new ReplicationAckDecoder();
    private final ReplicationHeartbeatDecoder heartbeat = new ReplicationHeartbeatDecoder();
    private boolean fenced;

    /**
     * @param subscription       this node's acknowledgement channel.
     * @param replicatedSequence advanced to what the standby has journaled, once verified.
     * @param processor          this node's processor, whose epoch a newer primary's is compared with.
     * @param role               the node's role: FENCED when superseded; only a PRIMARY fences.
     * @param ingress            closed when this node is fenced.
     * @param catchUp            whether the standby's journal has been checked against this node's.
     */
    public PeerMonitor(
        final Subscription subscription,
        final AtomicCounter replicatedSequence,
        final BusinessLogicProcessor processor,
        final ActingRole role,
        final ClientIngress ingress,
        final CatchUpAgent catchUp)
    {
        this.subscription = subscription;
        this.replicatedSequence = replicatedSequence;
        this.processor = processor;
        this.role = role;
        this.ingress = ingress;
        this.catchUp = catchUp;
    }

    public int doWork()
    {
        return subscription.poll(this, 64);
    }

    public void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header frame)
    {
        header.wrap(buffer, offset);
        if (header.schemaId() != ReplicationAckDecoder.SCHEMA_ID)
        {
            return;
        }
        if (header.templateId() == ReplicationAckDecoder.TEMPLATE_ID)
        {
            advance(ack.wrapAndApplyHeader(buffer, offset, header).sequence());
        }
        else if (header.templateId() == ReplicationHeartbeatDecoder.TEMPLATE_ID)
        {
            heartbeat.wrapAndApplyHeader(buffer, offset, header);
            if (heartbeat.role() == NodeRole.STANDBY)
            {
                advance(heartbeat.sequence());
            }
            else if (heartbeat.role() == NodeRole.PRIMARY && heartbeat.epoch() > processor.state().epoch() &&
                !fenced && role.isPrimary())
            {
                fenced = true;
                LOG.log(System.Logger.Level.ERROR, "node {0} is PRIMARY at epoch {1}, above this node''s {2}: " +
                    "FENCED, taking no more commands; restart this node as a standby of the new primary",
                    heartbeat.nodeId(), heartbeat.epoch(), processor.state().epoch());
                ingress.close();
                role.set(NodeRole.FENCED);
            }
        }
    }

    private void advance(final long sequence)
    {
        if (sequence > replicatedSequence.getPlain() && catchUp.standbyVerified())
        {
            // Release: the replication stage, on another thread, reads it with acquire.
            replicatedSequence.setRelease(sequence);
        }
    }

    public String roleName()
    {
        return "peer-monitor";
    }
}
