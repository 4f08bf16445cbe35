package io.ringex.engine.node;

import io.ringex.engine.ring.SequenceBase;
import io.ringex.engine.ring.SlotDescriptor;
import io.ringex.engine.ring.SlotHandler;
import io.ringex.journal.Journal;
import io.ringex.journal.JournalReader;
import io.ringex.journal.JournalRecordHandler;
import io.ringex.journal.JournalWriter;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;

/**
 * The journal stage: appends each input slot to the journal and, once per batch, makes the batch as durable as the
 * journal's mode promises. Its sequence passing a slot means that command is journaled, which is what the processor
 * waits for. Run with {@link io.ringex.engine.ring.StageErrorPolicy#HALT}: a command that could not be journaled
 * must not reach the processor.
 * <p>
 * A cluster member replays the cluster's log from its last snapshot at every start, and so meets again commands its
 * journal already holds: those it compares with the journal's records instead of appending them. A command that
 * differs from the record of its sequence means the journal is not this cluster's log (a journal from elsewhere, or
 * damaged): the stage stops, saying so, and marks the journal to be rebuilt from the log at the next start
 * ({@link JournalRebuild}).
 * <p>
 * Thread safety: the stage's thread only.
 */
final class JournalStage implements SlotHandler
{
    private final JournalWriter writer;
    private final SequenceBase sequences;
    private final Journal verified;
    private final long verifyThrough;
    private final JournalRecordHandler compare = this::compare;
    private JournalReader reader;
    private AtomicBuffer slotBuffer;
    private int slotOffset;
    private long expectedSequence;
    private boolean matched;
    private boolean seen;

    /**
     * @param writer        the journal's writer.
     * @param sequences     ring to command sequences.
     * @param verified      a cluster member's journal, whose records up to {@code verifyThrough} are compared with
     *                      the log's commands rather than written again; null for any other node.
     * @param verifyThrough the journal's last sequence at start.
     */
    JournalStage(
        final JournalWriter writer,
        final SequenceBase sequences,
        final Journal verified,
        final long verifyThrough)
    {
        this.writer = writer;
        this.sequences = sequences;
        this.verified = verified;
        this.verifyThrough = null == verified ? 0 : verifyThrough;
    }

    /**
     * @return the last sequence the journal held at start, which a cluster member compares rather than writes.
     */
    long verifyThrough()
    {
        return verifyThrough;
    }

    public void onSlot(final AtomicBuffer buffer, final int slotOffset, final long sequence, final boolean endOfBatch)
    {
        final long commandSequence = sequences.commandSequence(sequence);
        if (commandSequence <= verifyThrough)
        {
            verify(buffer, slotOffset, commandSequence);
            return;
        }
        writer.append(
            commandSequence,
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

    private void verify(final AtomicBuffer buffer, final int offset, final long commandSequence)
    {
        if (null == reader)
        {
            reader = verified.newReaderAt(commandSequence);
        }
        slotBuffer = buffer;
        slotOffset = offset;
        expectedSequence = commandSequence;
        matched = false;
        seen = false;
        int read = 1;
        // The reader may start a record or so before the sequence: read on until it is handed over.
        while (!seen && (read = reader.read(compare, 1)) > 0)
        {
        }
        if (!matched)
        {
            JournalRebuild.mark(verified.directory(), commandSequence);
            throw new IllegalStateException("the journal's command " + commandSequence + " differs from the " +
                "cluster log's (" + (seen ? "another command" : "unreadable: " + (read < 0 ? reader.problem() :
                "the journal ends before it")) + "): this " +
                "journal is not this cluster's log. The node stops; restarted, it moves this journal aside and " +
                "rebuilds it from the cluster's log");
        }
        if (commandSequence == verifyThrough)
        {
            reader.close();
            reader = null;
        }
    }

    private void compare(
        final long sequence,
        final long timestampNs,
        final long sourceId,
        final int templateId,
        final DirectBuffer buffer,
        final int offset,
        final int length)
    {
        final int slotLength = slotBuffer.getInt(slotOffset + SlotDescriptor.LENGTH_OFFSET);
        boolean same = sequence == expectedSequence &&
            timestampNs == slotBuffer.getLong(slotOffset + SlotDescriptor.TIMESTAMP_OFFSET) &&
            sourceId == slotBuffer.getLong(slotOffset + SlotDescriptor.SOURCE_ID_OFFSET) &&
            templateId == slotBuffer.getInt(slotOffset + SlotDescriptor.TEMPLATE_ID_OFFSET) &&
            length == slotLength;
        for (int i = 0; same && i < length; i++)
        {
            same = buffer.getByte(offset + i) == slotBuffer.getByte(slotOffset + SlotDescriptor.PAYLOAD_OFFSET + i);
        }
        matched = same;
        seen = true;
    }
}
