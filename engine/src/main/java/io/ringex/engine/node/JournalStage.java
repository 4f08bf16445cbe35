package io.ringex.engine.node;

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
 * Thread safety: the stage's thread only.
 */
final class JournalStage implements SlotHandler
{
    private final JournalWriter writer;
    private final SequenceBase sequences;

    JournalStage(final JournalWriter writer, final SequenceBase sequences)
    {
        this.writer = writer;
        this.sequences = sequences;
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
        }
    }
}
