package io.ringex.engine.node;

import io.ringex.engine.cluster.Leadership;
import io.ringex.engine.cluster.ReportWindow;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.NewEpochDecoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who a cluster member's output serves, decided at each {@code NewEpoch} in the log. The leader of a term offers its
 * term's {@code NewEpoch} before any client command; when this member's processor reaches the one of the term this
 * member leads, the member serves clients from that command on: it announces itself PRIMARY, re-sends the reports its
 * window kept (the previous leader may have died before sending them; gateways drop those they delivered), and
 * refreshes late joiners. When another member's {@code NewEpoch} comes (or one of a term this member no longer leads),
 * its output goes back to the window. A {@code NewEpoch} replayed from the log at a restart, of a term this member led
 * once, hands nothing over: the member leads no term then.
 * <p>
 * Only the output's destination follows this; the state does not, so every member keeps the same state hash.
 * <p>
 * Thread safety: the processor's thread.
 */
final class ClusterHandoff
{
    private static final Logger LOG = LoggerFactory.getLogger(ClusterHandoff.class);

    private final Leadership leadership;
    private final int nodeId;
    private final SwitchableEventSink sink;
    private final RingEventSink output;
    private final ReportWindow window;
    private final LateJoinerRefresh refresh;
    private final AtomicCounter resent;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final NewEpochDecoder decoder = new NewEpochDecoder();
    private Runnable announce;

    /**
     * @param leadership this member's leadership.
     * @param nodeId     this member's id.
     * @param sink       the processor's sink.
     * @param output     the output ring's sink.
     * @param window     the recent client reports kept while the member does not serve clients.
     * @param refresh    the late-joiner refresh, on while it serves them.
     * @param resent     counts the reports re-sent at a hand-over.
     */
    ClusterHandoff(
        final Leadership leadership,
        final int nodeId,
        final SwitchableEventSink sink,
        final RingEventSink output,
        final ReportWindow window,
        final LateJoinerRefresh refresh,
        final AtomicCounter resent)
    {
        this.leadership = leadership;
        this.nodeId = nodeId;
        this.sink = sink;
        this.output = output;
        this.window = window;
        this.refresh = refresh;
        this.resent = resent;
    }

    /**
     * @param announce publishes the node's status now (the status agent, on this same thread).
     */
    void announceWith(final Runnable announce)
    {
        this.announce = announce;
    }

    /**
     * A {@code NewEpoch} command is about to be processed.
     *
     * @param ringSequence    its input-ring sequence.
     * @param commandSequence its command sequence.
     * @param buffer          holding the command, SBE header included.
     * @param offset          where it starts.
     */
    void onNewEpoch(final long ringSequence, final long commandSequence, final DirectBuffer buffer, final int offset)
    {
        decoder.wrapAndApplyHeader(buffer, offset, header);
        final long term = decoder.epoch();
        final boolean ours = decoder.nodeId() == nodeId && term == leadership.leadingTerm();
        if (ours && term != leadership.handedOffTerm())
        {
            handOff(term, commandSequence);
        }
        else if (!ours && leadership.handedOffTerm() != Leadership.NO_TERM)
        {
            handBack(decoder.nodeId(), term);
        }
    }

    private void handOff(final long term, final long commandSequence)
    {
        leadership.handedOff(term, commandSequence);
        // Announced before the window: a gateway holds a node's events of an epoch it has not yet seen claimed.
        if (null != announce)
        {
            announce.run();
        }
        sink.target(output);
        final long oldest = window.oldestCommandSequence();
        final int count = window.republish(output, term);
        output.publish();
        resent.setRelease(count);
        refresh.enable();
        LOG.warn("serving clients as leader of term {} from command {}: re-sent the {} most recent client reports " +
            "(commands {} and on) first, in case the previous leader had not", term, commandSequence, count, oldest);
    }

    private void handBack(final int leaderNodeId, final long term)
    {
        leadership.handedBack();
        refresh.disable();
        sink.target(window);
        LOG.warn("no longer serving clients: member {} leads term {}", leaderNodeId, term);
    }
}
