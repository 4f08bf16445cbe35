package io.ringex.risk.model;

/**
 * Where a promotion request goes, or why it is refused ({@link RiskReadModel#promotionTarget(int)}).
 * <p>
 * Thread safety: immutable.
 *
 * @param engine  index of the node in the configuration (0 = {@code streams.*}, 1 = {@code standby.*}); -1 if refused.
 * @param nodeId  its node id for the NewEpoch (0: any node on that control stream, before it has reported one).
 * @param refusal a code (NO_STANDBY, IS_PRIMARY, UNKNOWN_NODE, NO_STANDBY_KNOWN), or null.
 * @param message why, for people, or null.
 */
public record PromotionTarget(int engine, int nodeId, String refusal, String message)
{
    static PromotionTarget refused(final String refusal, final String message)
    {
        return new PromotionTarget(-1, 0, refusal, message);
    }
}
