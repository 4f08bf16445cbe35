package io.ringex.engine.node;

import io.ringex.engine.replication.Promotion;
import io.ringex.engine.replication.ReportWindow;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * What a promoted standby does when its processor reaches the command it wrote to promote itself: its processor's
 * output goes to clients from that command on, and first the recent reports its {@link ReportWindow} kept, which the
 * old primary may never have sent (gateways drop those they already delivered); its late joiners are refreshed from
 * then on.
 * <p>
 * Thread safety: the processor's thread.
 */
final class PromotionHandoff
{
    private static final System.Logger LOG = System.getLogger(PromotionHandoff.class.getName());

    private final Promotion promotion;
    private final SwitchableEventSink sink;
    private final RingEventSink output;
    private final ReportWindow window;
    private final LateJoinerRefresh refresh;
    private final AtomicCounter resent;

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
     * @param ringSequence a NewEpoch command's input-ring sequence.
     * @return whether it is this node's promotion command, not yet handed off.
     */
    boolean isDue(final long ringSequence)
    {
        return promotion.isPromotionCommand(ringSequence);
    }

    /**
     * Point the processor at the output ring and re-send the window, before the promotion command is processed.
     */
    void handOff()
    {
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
