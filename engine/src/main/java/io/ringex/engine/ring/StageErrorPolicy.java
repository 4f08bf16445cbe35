package io.ringex.engine.ring;

/**
 * What a {@link Stage} does when its {@link SlotHandler} throws. Either way the exception first goes to the stage's
 * counted error handler, so it is logged and the stage's error counter goes up.
 * <p>
 * The journal stage and the replication stage MUST use {@link #HALT}: if they skipped a slot, the business logic
 * processor (gated on them) would act on a command that is not durable, and an acknowledged
 * order could be lost in a fail-over. Stages whose loss of one event is tolerable (metrics, market data) may use
 * {@link #SKIP}.
 * <p>
 * Threading: an immutable value; set on the {@link Stage.Builder} before the stage runs.
 */
public enum StageErrorPolicy
{
    /**
     * Count the error and go on with the next slot, as the Disruptor's default exception handler does after logging.
     */
    SKIP,

    /**
     * Count the error and stop the stage with its sequence just before the failing slot, so no stage gated on it
     * ever passes that slot; the ring then fills and producers get back pressure.
     */
    HALT
}
