package io.ringex.risk.actions;

import io.ringex.risk.aeron.OfferOutcome;

/**
 * How POST /api/actions/promote reaches the standby node. Promotion is an operator action on the standby, not an
 * engine command: the default ({@link AeronNewEpochPromotionHook}) publishes a NewEpoch request on the standby's
 * control stream ({@code ringex.risk.streams.control-*}); a deployment with another mechanism (a script, an
 * orchestrator) supplies its own bean.
 */
@FunctionalInterface
public interface PromotionHook
{
    /**
     * @param requestId correlates the request.
     * @param epoch     the new primary term.
     * @param nodeId    the node to promote.
     * @return what happened to the request.
     */
    OfferOutcome promote(long requestId, long epoch, int nodeId);
}
