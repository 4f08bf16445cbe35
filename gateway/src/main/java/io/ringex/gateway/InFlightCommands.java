package io.ringex.gateway;

import io.ringex.protocol.codecs.CancelOrderDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.NewOrderDecoder;
import io.ringex.protocol.codecs.ReplaceOrderDecoder;
import org.agrona.BitUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The commands this gateway forwarded to an engine and has not yet seen answered: NewOrder, CancelOrder and
 * ReplaceOrder, each of which the engine always answers (an ExecutionReport, a CancelReject or a BusinessReject
 * naming the command's session and client order id). MassCancel is not kept: its answer is one report per order
 * cancelled, possibly none. What {@link EngineRouter} does with them on a change of primary is in its Javadoc.
 * <p>
 * Keyed by session id and the 20 bytes of the client order id, as the engine echoes them; a key forwarded twice
 * before its first answer is kept twice, and each answer removes one. Each entry keeps a copy of the command (to
 * re-submit it) and the order it was sent in. Capacity is fixed at construction: an open-addressing index (linear
 * probing, backward-shift deletion) over preallocated slots and a free list; nothing is allocated after that.
 * <p>
 * Layout of a slot's command copy: the message as forwarded, header included, at {@code slot * MAX_COMMAND_LENGTH}.
 * <p>
 * Thread safety: one thread (the gateway agent's).
 */
public final class InFlightCommands
{
    /** Largest command kept (ReplaceOrder, the largest, is 92 bytes with its header). */
    public static final int MAX_COMMAND_LENGTH = 128;

    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    private static final int HEADER_LENGTH = MessageHeaderDecoder.ENCODED_LENGTH;
    private static final int FREE = -1;

    private final int capacity;
    private final int[] index;
    private final int indexMask;
    private final long[] sessionIds;
    private final long[] id0;
    private final long[] id1;
    private final int[] id2;
    private final int[] hashes;
    private final int[] templateIds;
    private final int[] lengths;
    private final long[] sentNs;
    private final long[] sendOrder;
    private final boolean[] inDoubt;
    private final int[] checks;
    private final int[] nextFree;
    private final long[] sortScratch;
    private final UnsafeBuffer commands;
    private int freeHead;
    private int size;
    private int inDoubtCount;
    private long sendCounter;

    /**
     * @param capacity commands kept at most, at least 1 and at most 2^20.
     */
    public InFlightCommands(final int capacity)
    {
        if (capacity < 1 || capacity > 1 << 20)
        {
            throw new IllegalArgumentException("in-flight capacity must be 1..1048576: " + capacity);
        }
        this.capacity = capacity;
        final int indexLength = BitUtil.findNextPositivePowerOfTwo(capacity * 2);
        index = new int[indexLength];
        Arrays.fill(index, FREE);
        indexMask = indexLength - 1;
        sessionIds = new long[capacity];
        id0 = new long[capacity];
        id1 = new long[capacity];
        id2 = new int[capacity];
        hashes = new int[capacity];
        templateIds = new int[capacity];
        lengths = new int[capacity];
        sentNs = new long[capacity];
        sendOrder = new long[capacity];
        inDoubt = new boolean[capacity];
        checks = new int[capacity];
        nextFree = new int[capacity];
        sortScratch = new long[capacity];
        commands = new UnsafeBuffer(new byte[capacity * MAX_COMMAND_LENGTH]);
        for (int i = 0; i < capacity; i++)
        {
            nextFree[i] = i + 1 < capacity ? i + 1 : FREE;
        }
        freeHead = 0;
    }

    /**
     * @param templateId a command's template id.
     * @return whether commands of this template are kept until answered.
     */
    public static boolean isTracked(final int templateId)
    {
        return templateId == NewOrderDecoder.TEMPLATE_ID || templateId == CancelOrderDecoder.TEMPLATE_ID ||
            templateId == ReplaceOrderDecoder.TEMPLATE_ID;
    }

    /**
     * @return whether another command can be kept.
     */
    public boolean hasRoom()
    {
        return freeHead != FREE;
    }

    /**
     * Keep a command just forwarded.
     *
     * @param buffer holding it, session id stamped.
     * @param offset of its header.
     * @param length whole message.
     * @param nowNs  the agent's clock.
     * @return false if it is not of a kept template, too long, or there is no room.
     */
    public boolean add(final DirectBuffer buffer, final int offset, final int length, final long nowNs)
    {
        final int templateId = buffer.getShort(offset + 2, ORDER) & 0xFFFF;
        if (!isTracked(templateId) || length > MAX_COMMAND_LENGTH ||
            length < HEADER_LENGTH + clientOrderIdOffset(templateId) + 20 || freeHead == FREE)
        {
            return false;
        }
        final int slot = freeHead;
        freeHead = nextFree[slot];
        nextFree[slot] = FREE;
        final int body = offset + HEADER_LENGTH;
        final int idOffset = body + clientOrderIdOffset(templateId);
        // Every kept command starts its body with the session id (schema convention).
        sessionIds[slot] = buffer.getLong(body, ORDER);
        id0[slot] = buffer.getLong(idOffset, ORDER);
        id1[slot] = buffer.getLong(idOffset + 8, ORDER);
        id2[slot] = buffer.getInt(idOffset + 16, ORDER);
        hashes[slot] = hash(sessionIds[slot], id0[slot], id1[slot], id2[slot]);
        templateIds[slot] = templateId;
        lengths[slot] = length;
        sentNs[slot] = nowNs;
        sendOrder[slot] = ++sendCounter;
        inDoubt[slot] = false;
        checks[slot] = 0;
        commands.putBytes(slot * MAX_COMMAND_LENGTH, buffer, offset, length);
        int i = hashes[slot] & indexMask;
        while (index[i] != FREE)
        {
            i = (i + 1) & indexMask;
        }
        index[i] = slot;
        size++;
        return true;
    }

    /**
     * An answer came for a session and client order id: forget one command of that key, if any.
     *
     * @param sessionId the session the answer is for.
     * @param buffer    holding the answer.
     * @param idOffset  where its 20-byte client order id starts.
     * @return true if a command was waiting for it.
     */
    public boolean answered(final long sessionId, final DirectBuffer buffer, final int idOffset)
    {
        if (size == 0)
        {
            return false;
        }
        final long w0 = buffer.getLong(idOffset, ORDER);
        final long w1 = buffer.getLong(idOffset + 8, ORDER);
        final int w2 = buffer.getInt(idOffset + 16, ORDER);
        final int hash = hash(sessionId, w0, w1, w2);
        int i = hash & indexMask;
        int slot;
        while ((slot = index[i]) != FREE)
        {
            if (hashes[slot] == hash && sessionIds[slot] == sessionId && id0[slot] == w0 && id1[slot] == w1 &&
                id2[slot] == w2)
            {
                removeAt(i);
                return true;
            }
            i = (i + 1) & indexMask;
        }
        return false;
    }

    /**
     * Every command kept now is in doubt: it went to a primary the gateway no longer follows as it was.
     *
     * @return how many are in doubt.
     */
    public int markAllInDoubt()
    {
        for (int slot = 0; slot < capacity; slot++)
        {
            if (isLive(slot))
            {
                inDoubt[slot] = true;
            }
        }
        inDoubtCount = size;
        return inDoubtCount;
    }

    /**
     * The commands sent before a time and still unanswered, though their primary has not changed, are in doubt: the
     * primary is asked about them with a barrier (it answers in order, so one unanswered when the barrier is reached
     * never reached its state).
     *
     * @param beforeNs the agent's clock time.
     * @return how many are now in doubt.
     */
    public int markInDoubtSentBefore(final long beforeNs)
    {
        int marked = 0;
        for (int slot = 0; slot < capacity; slot++)
        {
            if (isLive(slot) && !inDoubt[slot] && sentNs[slot] - beforeNs < 0)
            {
                inDoubt[slot] = true;
                checks[slot]++;
                marked++;
            }
        }
        inDoubtCount += marked;
        return marked;
    }

    /**
     * @param slot a slot.
     * @return how many times its command was marked in doubt for having waited too long ({@link
     * #markInDoubtSentBefore}).
     */
    public int checks(final int slot)
    {
        return checks[slot];
    }

    /**
     * Fill {@code out} with the slots of the commands in doubt, oldest sent first.
     *
     * @param out at least {@link #inDoubtCount()} long.
     * @return how many.
     */
    public int inDoubtInSendOrder(final int[] out)
    {
        int count = 0;
        for (int slot = 0; slot < capacity; slot++)
        {
            if (isLive(slot) && inDoubt[slot])
            {
                // Send order in the high bits, slot in the low 20: sorting the longs sorts by send order.
                sortScratch[count++] = (sendOrder[slot] << 20) | slot;
            }
        }
        Arrays.sort(sortScratch, 0, count);
        for (int i = 0; i < count; i++)
        {
            out[i] = (int)(sortScratch[i] & 0xFFFFF);
        }
        return count;
    }

    /**
     * @param slot a slot.
     * @return whether it holds a command still in doubt.
     */
    public boolean isInDoubt(final int slot)
    {
        return isLive(slot) && inDoubt[slot];
    }

    /**
     * @return commands in doubt and not yet re-submitted or answered.
     */
    public int inDoubtCount()
    {
        return inDoubtCount;
    }

    /**
     * A command in doubt was sent again: it is an ordinary unanswered command once more, sent now.
     *
     * @param slot  its slot.
     * @param nowNs the agent's clock.
     */
    public void resubmitted(final int slot, final long nowNs)
    {
        if (inDoubt[slot])
        {
            inDoubt[slot] = false;
            inDoubtCount--;
        }
        sentNs[slot] = nowNs;
    }

    /**
     * A command in doubt was answered by the gateway itself: forget it.
     *
     * @param slot its slot.
     */
    public void remove(final int slot)
    {
        int i = hashes[slot] & indexMask;
        while (index[i] != slot)
        {
            i = (i + 1) & indexMask;
        }
        removeAt(i);
    }

    /**
     * Forget the commands, not in doubt, sent before a time: an answer that never came (a bug, or a refusal at the
     * engine's ingress that names no client order id) must not hold a slot for ever.
     *
     * @param beforeNs the agent's clock time.
     * @return how many were forgotten.
     */
    public int expire(final long beforeNs)
    {
        int expired = 0;
        for (int slot = 0; slot < capacity; slot++)
        {
            if (isLive(slot) && !inDoubt[slot] && sentNs[slot] - beforeNs < 0)
            {
                remove(slot);
                expired++;
            }
        }
        return expired;
    }

    /**
     * @return commands kept.
     */
    public int size()
    {
        return size;
    }

    /**
     * @return the most that can be kept.
     */
    public int capacity()
    {
        return capacity;
    }

    /**
     * @return the buffer holding the kept commands, each at {@link #commandOffset(int)}.
     */
    public DirectBuffer commands()
    {
        return commands;
    }

    /**
     * @param slot a slot.
     * @return where its command starts in {@link #commands()}.
     */
    public int commandOffset(final int slot)
    {
        return slot * MAX_COMMAND_LENGTH;
    }

    /**
     * @param slot a slot.
     * @return its command's length.
     */
    public int commandLength(final int slot)
    {
        return lengths[slot];
    }

    /**
     * @param slot a slot.
     * @return its command's template id.
     */
    public int templateId(final int slot)
    {
        return templateIds[slot];
    }

    /**
     * @param slot a slot.
     * @return its command's session id.
     */
    public long sessionId(final int slot)
    {
        return sessionIds[slot];
    }

    private boolean isLive(final int slot)
    {
        return lengths[slot] > 0;
    }

    private void removeAt(final int at)
    {
        final int slot = index[at];
        if (inDoubt[slot])
        {
            inDoubt[slot] = false;
            inDoubtCount--;
        }
        lengths[slot] = 0;
        nextFree[slot] = freeHead;
        freeHead = slot;
        size--;

        // Backward-shift deletion: move later entries of the probe run into the hole unless their home is after it.
        int hole = at;
        int i = at;
        while (true)
        {
            i = (i + 1) & indexMask;
            final int moving = index[i];
            if (moving == FREE)
            {
                break;
            }
            final int home = hashes[moving] & indexMask;
            final boolean homeInRange = hole <= i ? (home > hole && home <= i) : (home > hole || home <= i);
            if (!homeInRange)
            {
                index[hole] = moving;
                hole = i;
            }
        }
        index[hole] = FREE;
    }

    private static int clientOrderIdOffset(final int templateId)
    {
        switch (templateId)
        {
            case NewOrderDecoder.TEMPLATE_ID:
                return NewOrderDecoder.clientOrderIdEncodingOffset();
            case CancelOrderDecoder.TEMPLATE_ID:
                return CancelOrderDecoder.clientOrderIdEncodingOffset();
            default:
                return ReplaceOrderDecoder.clientOrderIdEncodingOffset();
        }
    }

    private static int hash(final long sessionId, final long w0, final long w1, final int w2)
    {
        long h = sessionId * 0x9E3779B97F4A7C15L;
        h = (h ^ w0) * 0xC2B2AE3D27D4EB4FL;
        h = (h ^ w1) * 0x165667B19E3779F9L;
        h = (h ^ w2) * 0x9E3779B97F4A7C15L;
        return (int)(h ^ (h >>> 32));
    }
}
