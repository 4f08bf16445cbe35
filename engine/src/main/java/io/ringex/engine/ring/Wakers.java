package io.ringex.engine.ring;

import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * The {@link WakeableIdleStrategy}s to wake after a gate advanced: the ring's cursor (woken by the sequencer's
 * publish) or a stage's sequence (woken by that stage's release). Empty, it costs a field load and a length check.
 * <p>
 * Thread safety: {@link #wakeAll()} from the one thread that advances the gate; strategies are added while the ring
 * is built, before its threads start (their start publishes the list).
 */
final class Wakers
{
    private WakeableIdleStrategy[] strategies = new WakeableIdleStrategy[0];

    void add(final WakeableIdleStrategy strategy)
    {
        for (final WakeableIdleStrategy known : strategies)
        {
            if (known == strategy)
            {
                return;
            }
        }
        strategies = Arrays.copyOf(strategies, strategies.length + 1);
        strategies[strategies.length - 1] = strategy;
    }

    /**
     * Call after the gate's release store: the fence orders that store before the loads of the parked flags, the
     * waker's half of the handshake {@link WakeableIdleStrategy} describes.
     */
    void wakeAll()
    {
        final WakeableIdleStrategy[] strategies = this.strategies;
        if (strategies.length > 0)
        {
            VarHandle.fullFence();
            for (final WakeableIdleStrategy strategy : strategies)
            {
                strategy.wake();
            }
        }
    }
}
