package io.ringex.engine.ring;

import org.agrona.concurrent.IdleStrategy;

/**
 * The producer side of a {@link Ring}: claim slots, write them, publish them (docs/architecture.md, "Inside the node",
 * has an example).
 * <p>
 * Claims of n slots return the HIGHEST sequence claimed; the batch is {@code hi - n + 1 .. hi}. Every claimed sequence
 * must be published, promptly: consumers stop at the first unpublished slot.
 * <p>
 * Threading: a {@link ProducerType#SINGLE} sequencer may be used by one thread at a time only (hand it over with a
 * happens-before edge); a {@link ProducerType#MULTI} sequencer by any number of threads. {@link #close()} and the
 * queries from any thread; {@link #highestPublished(long, long)} is for stages.
 */
public interface Sequencer
{
    /**
     * The claim failed because the slowest gating stage has not freed enough slots. Retry later or push back.
     */
    long INSUFFICIENT_CAPACITY = -2L;

    /**
     * The claim failed because the sequencer is closed (draining or shut down). Do not retry.
     */
    long CLOSED = -3L;

    /**
     * Claim one slot, waiting with {@code idleStrategy} while the ring is full.
     *
     * @param idleStrategy how to wait; owned by the calling thread.
     * @return the claimed sequence, or {@link #CLOSED}.
     */
    long next(IdleStrategy idleStrategy);

    /**
     * Claim n contiguous slots, waiting with {@code idleStrategy} while the ring is full.
     *
     * @param n            slots to claim, 1 to capacity.
     * @param idleStrategy how to wait; owned by the calling thread.
     * @return the highest claimed sequence, or {@link #CLOSED}.
     */
    long next(int n, IdleStrategy idleStrategy);

    /**
     * Claim one slot if there is room, without waiting.
     *
     * @return the claimed sequence, {@link #INSUFFICIENT_CAPACITY} or {@link #CLOSED}.
     */
    long tryNext();

    /**
     * Claim n contiguous slots if there is room for all of them, without waiting.
     *
     * @param n slots to claim, 1 to capacity.
     * @return the highest claimed sequence, {@link #INSUFFICIENT_CAPACITY} or {@link #CLOSED}.
     */
    long tryNext(int n);

    /**
     * Make a claimed slot visible to the stages gated on the cursor. Writes the slot's sequence field.
     *
     * @param sequence a sequence this producer claimed.
     */
    void publish(long sequence);

    /**
     * Make claimed slots {@code lo..hi} visible.
     *
     * @param lo lowest sequence, inclusive.
     * @param hi highest sequence, inclusive.
     */
    void publish(long lo, long hi);

    /**
     * The highest sequence in {@code lo..available} such that it and every sequence before it is published; used by
     * stages gated on the cursor. {@code lo - 1} when {@code lo} itself is not yet published.
     *
     * @param lo        first sequence wanted.
     * @param available the cursor value read by the stage.
     * @return highest contiguous published sequence.
     */
    long highestPublished(long lo, long available);

    /**
     * The cursor: the highest published sequence for a single producer; the highest CLAIMED one for multi-producer
     * (consumers then check the per-slot flags).
     *
     * @return the cursor value, acquire ordering.
     */
    long cursor();

    /**
     * Slots that could be claimed now without waiting (an estimate when others are claiming concurrently).
     *
     * @return free slots.
     */
    long remainingCapacity();

    /**
     * Refuse further claims: {@link #tryNext()} and {@link #next(IdleStrategy)} return {@link #CLOSED}. Slots
     * already claimed may still be published. The first step of a drain.
     */
    void close();

    /**
     * Whether {@link #close()} was called.
     *
     * @return true once closed.
     */
    boolean isClosed();
}
