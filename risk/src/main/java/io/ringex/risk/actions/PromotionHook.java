package io.ringex.risk.actions;

import io.ringex.risk.aeron.OfferOutcome;

/**
 * How POST /api/actions/promote reaches the standby node. Promotion is an operator action on the standby, not an
 * engine command: the default ({@link AeronNewEpochPromotionHook}) publishes a NewEpoch request on the chosen node's
 * control stream ({@code ringex.risk.streams.control-*} for the first node, {@code ringex.risk.standby.control-*}
 * for the second); a deployment with another mechanism (a script, an orchestrator) supplies its own bean. It is
 * called only with a pair configured, for the node {@link ActionService} chose.
 * <p>
 * Thread safety: called from HTTP threads.
 */
@FunctionalInterface
public interface PromotionHook
{
    /**
     * @param requestId correlates the request.
     * @param epoch     the new primary term.
     * @param nodeId    the node to promote (0: whichever node listens on that node's control stream).
     * @param engine    its index in the configuration (0 = {@code streams.*}, 1 = {@code standby.*}).
     * @return what happened to the request.
     */
    OfferOutcome promote(long requestId, long epoch, int nodeId, int engine);
}
