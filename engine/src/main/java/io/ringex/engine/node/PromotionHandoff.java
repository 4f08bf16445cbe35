package io.ringex.engine.node;

import io.ringex.engine.replication.Promotion;
import io.ringex.engine.replication.ReportWindow;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * What a promoted standby does when its processor reaches the command it wrote to promote itself: its processor's
 * output goes to clients from that command on, and first the recent reports its {@link ReportWindow} kept, which the
 * old primary may never have sent (gateways drop those they already delivered); its late joiners are refreshed from
 * then on.
 * <p>
 * Thread safety: the processor's thread.
 */
final class PromotionHandoff implements EpochHandoff
{
    private static final System.Logger LOG = System.getLogger(PromotionHandoff.class.getName());

    private final Promotion promotion;
    private final SwitchableEventSink sink;
    private final RingEventSink output;
    private final ReportWindow window;
    private final LateJoinerRefresh refresh;
    private final AtomicCounter resent;
    private Runnable announce;

    /**
     * @param promotion the standby's promotion.
     * @param sink      the processor's sink, pointed at the output ring by the hand-off.
     * @param output    the output ring's sink.
     * @param window    the standby's recent reports.
     * @param refresh   the late-joiner refresh, enabled by the hand-off.
     * @param resent    counts the reports re-sent.
     */
    PromotionHandoff(
        final Promotion promotion,
        final SwitchableEventSink sink,
        final RingEventSink output,
        final ReportWindow window,
        final LateJoinerRefresh refresh,
        final AtomicCounter resent)
    {
        this.promotion = promotion;
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

    public void onNewEpoch(
        final long ringSequence, final long commandSequence, final DirectBuffer buffer, final int offset)
    {
        // Only the command this standby wrote to promote itself: one replicated from the old primary may be ahead.
        if (promotion.isPromotionCommand(ringSequence))
        {
            handOff();
        }
    }

    /**
     * Point the processor at the output ring and re-send the window, before the promotion command is processed.
     */
    private void handOff()
    {
        // Announce PRIMARY at the new epoch before the window: a gateway holds a node's events of an epoch it has not
        // seen claimed in a status, and a window larger than the output ring would otherwise block this thread, the
        // status agent's too, on an egress the gateway does not drain until that status comes.
        if (null != announce)
        {
            announce.run();
        }
        sink.target(output);
        final long oldest = window.oldestCommandSequence();
        final int count = window.republish(output, promotion.epoch());
        output.publish();
        resent.setRelease(count);
        LOG.log(System.Logger.Level.WARNING, "promoted: re-sent the {0} most recent client reports (commands {1} and " +
            "on) before new output, in case the old primary had not", count, oldest);
        refresh.enable();
        promotion.completed();
    }
}
