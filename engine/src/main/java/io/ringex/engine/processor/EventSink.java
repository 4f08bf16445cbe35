package io.ringex.engine.processor;

import org.agrona.MutableDirectBuffer;

/**
 * Where the business-logic processor writes its events: one SBE message (8-byte header included) per claim.
 * <p>
 * Protocol: {@code int offset = claim(maxLength)}, write at most {@code maxLength} bytes at {@code buffer()} from
 * {@code offset}, then {@code commit(length)} with the bytes actually written. Claims never overlap: a claim is
 * always committed before the next one. {@link #claim} may block (back-pressure from the output ring) but never
 * fails; {@code maxLength} never exceeds {@link #maxEventLength()}.
 * <p>
 * Threading: single producer, the business-logic thread. The implementation decides when consumers see a committed
 * event (the output ring publishes it with release semantics).
 */
public interface EventSink
{
    /**
     * The command whose events follow, told by whoever runs the processor before each command: a sink that stamps or
     * files events by their command (the output ring, a follower's report window) keeps it; others ignore it.
     *
     * @param commandSequence the command's sequence.
     * @param timestampNs     the command's ingress time.
     */
    default void command(final long commandSequence, final long timestampNs)
    {
    }

    /** @return the buffer claims are written into. */
    MutableDirectBuffer buffer();

    /**
     * Claim space for one event.
     *
     * @param maxLength the most bytes the event may take, header included.
     * @return offset in {@link #buffer()} to write the event at.
     */
    int claim(int maxLength);

    /**
     * Publish the claimed event.
     *
     * @param length bytes written, at most the claimed maximum.
     */
    void commit(int length);

    /** @return the longest event this sink accepts, header included. */
    int maxEventLength();
}
