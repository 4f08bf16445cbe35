package io.ringex.engine.replication;

import io.aeron.Publication;
import io.ringex.engine.ring.SequenceBase;
import io.ringex.engine.ring.SlotHandler;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.ReplicationAckEncoder;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * On the standby, gated on its journal stage: once per batch tells the primary the highest sequence journaled here.
 * Acks are cumulative; one that stays back-pressured is given up after a bounded retry, and the next batch's covers
 * it (or, after the last batch of a burst, this node's next heartbeat, which carries the same journaled sequence).
 * Acks carry the epoch of the primary's commands. A node that is no longer a standby (promoted, diverged)
 * acknowledges nothing: it is no one's standby.
 * <p>
 * Thread safety: the stage's thread only.
 */
public final class AckStage implements SlotHandler
{
    private static final int MAX_ATTEMPTS = 100_000;

    private final Publication publication;
    private final SequenceBase sequences;
    private final int nodeId;
    private final ActingRole role;
    private final StandbyReceiver receiver;
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final ReplicationAckEncoder encoder = new ReplicationAckEncoder();

    /**
     * @param publication the primary's acknowledgement channel.
     * @param sequences   ring to command sequences.
     * @param nodeId      this node's id.
     * @param role        the node's role: it acknowledges while STANDBY only.
     * @param receiver    where the epoch of the primary's commands is known.
     */
    public AckStage(
        final Publication publication,
        final SequenceBase sequences,
        final int nodeId,
        final ActingRole role,
        final StandbyReceiver receiver)
    {
        this.publication = publication;
        this.sequences = sequences;
        this.nodeId = nodeId;
        this.role = role;
        this.receiver = receiver;
    }

    public void onSlot(final AtomicBuffer slots, final int slotOffset, final long sequence, final boolean endOfBatch)
    {
        if (endOfBatch && role.isStandby())
        {
            encoder.wrapAndApplyHeader(buffer, 0, headerEncoder)
                .epoch(receiver.epoch())
                .nodeId(nodeId)
                .sequence(sequences.commandSequence(sequence));
            final int length = MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
            // Bounded retry: a later batch's ack covers this one, but the last batch of a burst has no later one.
            for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++)
            {
                final long result = publication.offer(buffer, 0, length);
                // No primary to tell (not connected, closing): the first ack or heartbeat it hears is cumulative.
                if (result > 0 || result == Publication.NOT_CONNECTED || result == Publication.CLOSED)
                {
                    return;
                }
                Thread.onSpinWait();
            }
            // Given up (back-pressured throughout): the next batch's ack or the next heartbeat carries it.
        }
    }
}
