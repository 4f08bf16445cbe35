package io.ringex.risk.actions;

/**
 * An admin action as the API shows it.
 *
 * @param requestId       correlates the command with the engine's AdminResponse.
 * @param action          SET_LIMITS, KILL_SWITCH, TRADING_STATUS, TAKE_SNAPSHOT, UNLOCK_LOGONS, or one of
 *                        the console's ({@link ConsoleActions}): ADD_INSTRUMENT, AMEND_INSTRUMENT, DELIST_INSTRUMENT,
 *                        OPEN_ACCOUNT, ACCOUNT_STATUS, DEPOSIT, WITHDRAW, UPSERT_USER, SET_PASSWORD.
 * @param target          what it acts on, for people ("account 7", "venue", "instrument 1 -> HALTED").
 * @param requestedBy     the risk officer who asked.
 * @param requestedAtMs   wall time it was sent, ms since the epoch.
 * @param status          PENDING (sent, no response yet), ACCEPTED, REJECTED, TIMED_OUT (no response within the
 *                        configured time; a late response still updates it).
 * @param rejectReason    the engine's reason when REJECTED.
 * @param commandSequence the command's input-ring sequence once answered.
 * @param respondedAtMs   wall time the response arrived, 0 before.
 * @param reason          why, as the operator gave it (the console's actions), else null.
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
    long respondedAtMs,
    String reason)
{
    /**
     * An action without a reason of its own.
     *
     * @param requestId       correlates the command with the engine's AdminResponse.
     * @param action          what it is.
     * @param target          what it acts on.
     * @param requestedBy     who asked.
     * @param requestedAtMs   when it was sent.
     * @param status          as above.
     * @param rejectReason    the engine's reason when REJECTED.
     * @param commandSequence the command's sequence once answered.
     * @param respondedAtMs   when the response arrived.
     */
    public ActionView(
        final long requestId,
        final String action,
        final String target,
        final String requestedBy,
        final long requestedAtMs,
        final String status,
        final String rejectReason,
        final long commandSequence,
        final long respondedAtMs)
    {
        this(requestId, action, target, requestedBy, requestedAtMs, status, rejectReason, commandSequence,
            respondedAtMs, null);
    }

    ActionView withStatus(final String newStatus, final String engineReason, final long sequence, final long atMs)
    {
        return new ActionView(requestId, action, target, requestedBy, requestedAtMs, newStatus, engineReason, sequence,
            atMs, reason);
    }
}
