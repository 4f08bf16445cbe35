package io.ringex.engine.processor;

/**
 * Part of the engine's state that acts when the ring's clock reaches a time: an order's expiry, a scheduled trading
 * phase, the end of an auction. The clock is the timestamp of each command as the ingress stamped it (the processor
 * reads no other): before each command the processor lets every {@code Clocked} act on what is due by then, so a
 * replay of the journal acts at the same commands. When nothing else arrives, the node journals a {@code Tick} at
 * the earliest deadline ({@link BusinessLogicProcessor#nextDeadlineNs()}), so a deadline is not missed for want of
 * traffic.
 * <p>
 * Threading: the processor's thread.
 */
public interface Clocked
{
    /**
     * @return the earliest time this needs to act at, or {@link Long#MAX_VALUE} for none.
     */
    long nextDeadlineNs();

    /**
     * The clock has reached {@code nowNs}: act on everything due by then, in a deterministic order.
     *
     * @param nowNs the timestamp of the command about to be processed.
     */
    void onTime(long nowNs);
}
