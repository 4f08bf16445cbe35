package io.ringex.risk.actions;

/**
 * An admin action as the API shows it.
 *
 * @param requestId       correlates the command with the engine's AdminResponse.
 * @param action          SET_LIMITS, KILL_SWITCH, TRADING_STATUS, TAKE_SNAPSHOT or PROMOTE.
 * @param target          what it acts on, for people ("account 7", "venue", "instrument 1 -> HALTED").
 * @param requestedBy     the risk officer who asked.
 * @param requestedAtMs   wall time it was sent, ms since the epoch.
 * @param status          PENDING (sent, no response yet), ACCEPTED, REJECTED, TIMED_OUT (no response within the
 *                        configured time; a late response still updates it), or SENT (promotion: no AdminResponse
 *                        is expected; it turns ACCEPTED when an EngineStatus shows the new epoch).
 * @param rejectReason    the engine's reason when REJECTED.
 * @param commandSequence the command's input-ring sequence once answered.
 * @param respondedAtMs   wall time the response arrived, 0 before.
 */
public record ActionView(
    long requestId,
    String action,
    String target,
    String requestedBy,
    long requestedAtMs,
    String status,
    String rejectReason,
    long commandSequence,
    long respondedAtMs)
{
    ActionView withStatus(final String newStatus, final String reason, final long sequence, final long atMs)
    {
        return new ActionView(requestId, action, target, requestedBy, requestedAtMs, newStatus, reason, sequence,
            atMs);
    }
}
