package io.ringex.gateway.sbe;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;

/**
 * A FIFO of whole messages, each with the command sequence it came from, in one growable buffer: the copies waiting
 * for a drop-copy client's publication, or the live copies held while its replay runs.
 * <pre>
 *   0        4                 12
 *   +--------+-----------------+---------------------+
 *   | length | commandSequence | message (length)    |  ... next record
 *   +--------+-----------------+---------------------+
 * </pre>
 * Once grown it allocates nothing; it starts again at offset 0 whenever it empties.
 * <p>
 * Thread safety: the gateway agent's thread only.
 */
final class CopyQueue
{
    static final int RECORD_HEADER = 12;

    private final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(4096);
    private int head;
    private int tail;
    private int count;

    /**
     * @param message         the bytes.
     * @param offset          where they start.
     * @param length          how many.
     * @param commandSequence the command the message came from (-1 for a notice of the gateway's own).
     */
    void append(final DirectBuffer message, final int offset, final int length, final long commandSequence)
    {
        buffer.putInt(tail, length);
        buffer.putLong(tail + 4, commandSequence);
        buffer.putBytes(tail + RECORD_HEADER, message, offset, length);
        tail += RECORD_HEADER + length;
        count++;
    }

    /** @return whether nothing waits. */
    boolean isEmpty()
    {
        return count == 0;
    }

    /** @return messages waiting. */
    int size()
    {
        return count;
    }

    /** @return bytes waiting, headers included. */
    int bytes()
    {
        return tail - head;
    }

    /** @return the buffer the records are in. */
    DirectBuffer buffer()
    {
        return buffer;
    }

    /** @return where the first message's bytes start. */
    int headOffset()
    {
        return head + RECORD_HEADER;
    }

    /** @return the first message's length. */
    int headLength()
    {
        return buffer.getInt(head);
    }

    /** @return the first message's command sequence. */
    long headSequence()
    {
        return buffer.getLong(head + 4);
    }

    /** Drop the first message. */
    void removeHead()
    {
        head += RECORD_HEADER + buffer.getInt(head);
        count--;
        if (count == 0)
        {
            clear();
        }
    }

    /** Drop everything. */
    void clear()
    {
        head = 0;
        tail = 0;
        count = 0;
    }

    /**
     * Move the messages of commands after a sequence to another queue, in order, and drop the rest: the live copies
     * held during a replay that ended at that sequence.
     *
     * @param after the last command the replay covered.
     * @param to    where they go.
     */
    void moveAfter(final long after, final CopyQueue to)
    {
        while (count > 0)
        {
            if (headSequence() > after)
            {
                to.append(buffer, headOffset(), headLength(), headSequence());
            }
            removeHead();
        }
    }
}
