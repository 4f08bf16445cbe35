package io.ringex.engine.node;

import io.ringex.engine.ring.SequenceBase;
import io.ringex.engine.ring.SlotDescriptor;
import io.ringex.engine.ring.SlotHandler;
import io.ringex.journal.JournalWriter;
import org.agrona.concurrent.AtomicBuffer;

/**
 * The journal stage: appends each input slot to the journal and, once per batch, makes the batch as durable as the
 * journal's mode promises. Its sequence passing a slot means that command is journaled, which is what the processor
 * waits for. Run with {@link io.ringex.engine.ring.StageErrorPolicy#HALT}: a command that could not be journaled
 * must not reach the processor.
 * <p>
 * Thread safety: the stage's thread only, except {@link #lastChecksum()}.
 */
final class JournalStage implements SlotHandler
{
    private final JournalWriter writer;
    private final SequenceBase sequences;
    private volatile int lastChecksum;

    /**
     * @param writer       the journal's writer.
     * @param sequences    ring to command sequences.
     * @param lastChecksum the CRC-32C of the record the journal ended with at start (0 if empty).
     */
    JournalStage(final JournalWriter writer, final SequenceBase sequences, final int lastChecksum)
    {
        this.writer = writer;
        this.sequences = sequences;
        this.lastChecksum = lastChecksum;
    }

    /**
     * The CRC-32C of the last record of the last whole batch journaled: with the stage's sequence, the identity a
     * standby names in a catch-up request. Consistent with that sequence when no batch is being journaled (the
     * standby asks only once its journal has caught up with what it took).
     *
     * @return the checksum.
     */
    int lastChecksum()
    {
        return lastChecksum;
    }

    public void onSlot(final AtomicBuffer buffer, final int slotOffset, final long sequence, final boolean endOfBatch)
    {
        writer.append(
            sequences.commandSequence(sequence),
            buffer.getLong(slotOffset + SlotDescriptor.TIMESTAMP_OFFSET),
            buffer.getLong(slotOffset + SlotDescriptor.SOURCE_ID_OFFSET),
            buffer.getInt(slotOffset + SlotDescriptor.TEMPLATE_ID_OFFSET),
            buffer,
            slotOffset + SlotDescriptor.PAYLOAD_OFFSET,
            buffer.getInt(slotOffset + SlotDescriptor.LENGTH_OFFSET));
        if (endOfBatch)
        {
            writer.endOfBatch();
            lastChecksum = writer.lastChecksum();
        }
    }
}
