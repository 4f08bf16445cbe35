package io.ringex.engine.node;

import org.agrona.DirectBuffer;

/**
 * What the processor stage asks before it processes a {@code NewEpoch} command: whether the node now serves clients
 * (its output to the output ring, its report window re-sent first) or no longer does (its output back to the window).
 * A promoted standby hands over at its own promotion command ({@link PromotionHandoff}); a cluster member at the
 * {@code NewEpoch} of the term it leads, and back at another member's ({@link ClusterHandoff}).
 * <p>
 * Thread safety: the processor's thread.
 */
interface EpochHandoff
{
    /**
     * @param ringSequence    the command's input-ring sequence.
     * @param commandSequence its command sequence.
     * @param buffer          holding the command, SBE header included.
     * @param offset          where it starts.
     */
    void onNewEpoch(long ringSequence, long commandSequence, DirectBuffer buffer, int offset);
}
