package io.ringex.gateway.fix;

import org.agrona.DirectBuffer;

/**
 * A flyweight index of the few tags the gateway translates, found by one pass over a raw FIX message
 * ({@code tag=value<SOH>...}). Values are read in place: {@link #value(int)} returns a reused {@link CharSequence}
 * view, so decimal text reaches {@code FixedPoint.parse} exactly as the client wrote it, with no intermediate
 * floating point or rounding. The first occurrence of a tag wins and a repeat is recorded ({@link #repeatedTag()}):
 * none of the indexed tags belongs to a repeating group of the messages translated, so a repeat is a malformed
 * message, never a second value to choose from. Unknown tags are skipped.
 * <p>
 * It never throws on malformed input: a message that does not scan leaves {@link #isWellFormed()} false.
 * Thread safety: single-threaded, reused per message.
 */
public final class FixFields
{
    /** Account. */
    public static final int ACCOUNT = 1;
    /** ClOrdID. */
    public static final int CL_ORD_ID = 11;
    /** ExecInst. */
    public static final int EXEC_INST = 18;
    /** MsgSeqNum. */
    public static final int MSG_SEQ_NUM = 34;
    /** MsgType. */
    public static final int MSG_TYPE = 35;
    /** OrderID. */
    public static final int ORDER_ID = 37;
    /** OrderQty. */
    public static final int ORDER_QTY = 38;
    /** OrdType. */
    public static final int ORD_TYPE = 40;
    /** OrigClOrdID. */
    public static final int ORIG_CL_ORD_ID = 41;
    /** PossDupFlag. */
    public static final int POSS_DUP_FLAG = 43;
    /** Price. */
    public static final int PRICE = 44;
    /** Side. */
    public static final int SIDE = 54;
    /** Symbol. */
    public static final int SYMBOL = 55;
    /** TimeInForce. */
    public static final int TIME_IN_FORCE = 59;
    /** TransactTime. */
    public static final int TRANSACT_TIME = 60;
    /** StopPx. */
    public static final int STOP_PX = 99;
    /** MinQty. */
    public static final int MIN_QTY = 110;
    /** MaxFloor. */
    public static final int MAX_FLOOR = 111;
    /** ExpireTime. */
    public static final int EXPIRE_TIME = 126;
    /** ExpireDate. */
    public static final int EXPIRE_DATE = 432;
    /** MassCancelRequestType. */
    public static final int MASS_CANCEL_REQUEST_TYPE = 530;
    /** MassStatusReqID. */
    public static final int MASS_STATUS_REQ_ID = 584;
    /** MassStatusReqType. */
    public static final int MASS_STATUS_REQ_TYPE = 585;
    /** OrdStatusReqID. */
    public static final int ORD_STATUS_REQ_ID = 790;
    /** DisplayQty (FIX 5.0; FIX 4.4 has MaxFloor). */
    public static final int DISPLAY_QTY = 1138;

    private static final byte SOH = 1;
    private static final int[] TAGS = {
        ACCOUNT, CL_ORD_ID, EXEC_INST, MSG_SEQ_NUM, MSG_TYPE, ORDER_ID, ORDER_QTY, ORD_TYPE, ORIG_CL_ORD_ID,
        POSS_DUP_FLAG, PRICE, SIDE, SYMBOL, TIME_IN_FORCE, TRANSACT_TIME, STOP_PX, MIN_QTY, MAX_FLOOR, EXPIRE_TIME,
        EXPIRE_DATE, MASS_CANCEL_REQUEST_TYPE, MASS_STATUS_REQ_ID, MASS_STATUS_REQ_TYPE, ORD_STATUS_REQ_ID,
        DISPLAY_QTY };
    private static final int MAX_TAG = DISPLAY_QTY;
    private static final byte[] SLOT_BY_TAG = new byte[MAX_TAG + 1];

    static
    {
        java.util.Arrays.fill(SLOT_BY_TAG, (byte)-1);
        for (int i = 0; i < TAGS.length; i++)
        {
            SLOT_BY_TAG[TAGS[i]] = (byte)i;
        }
    }

    private final int[] starts = new int[TAGS.length];
    private final int[] lengths = new int[TAGS.length];
    private final View[] views = new View[TAGS.length];
    private DirectBuffer buffer;
    private boolean wellFormed;
    private int repeatedTag;

    /** An empty index. */
    public FixFields()
    {
        for (int i = 0; i < views.length; i++)
        {
            views[i] = new View();
        }
    }

    /**
     * Index a message.
     *
     * @param buffer holding the message.
     * @param offset its first byte.
     * @param length its length.
     * @return this.
     */
    public FixFields scan(final DirectBuffer buffer, final int offset, final int length)
    {
        this.buffer = buffer;
        java.util.Arrays.fill(starts, -1);
        java.util.Arrays.fill(lengths, 0);
        wellFormed = true;
        repeatedTag = 0;
        final int end = offset + length;
        int i = offset;
        while (i < end)
        {
            int tag = 0;
            int digits = 0;
            byte b;
            while (i < end && (b = buffer.getByte(i)) != '=')
            {
                if (b < '0' || b > '9' || digits > 6)
                {
                    wellFormed = false;
                    return this;
                }
                tag = tag * 10 + (b - '0');
                digits++;
                i++;
            }
            if (i >= end || digits == 0)
            {
                wellFormed = false;
                return this;
            }
            i++; // '='
            final int valueStart = i;
            while (i < end && buffer.getByte(i) != SOH)
            {
                i++;
            }
            if (i >= end)
            {
                wellFormed = false;
                return this;
            }
            if (tag <= MAX_TAG)
            {
                final int slot = SLOT_BY_TAG[tag];
                if (slot >= 0)
                {
                    if (starts[slot] < 0)
                    {
                        starts[slot] = valueStart;
                        lengths[slot] = i - valueStart;
                    }
                    else if (repeatedTag == 0)
                    {
                        repeatedTag = tag;
                    }
                }
            }
            i++; // SOH
        }
        return this;
    }

    /**
     * @return the buffer last scanned (for {@link #offset(int)}), valid until the next scan.
     */
    public DirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * @return false if the message did not scan as {@code tag=value<SOH>} pairs.
     */
    public boolean isWellFormed()
    {
        return wellFormed;
    }

    /**
     * @return the first indexed tag that appeared more than once, 0 if none did.
     */
    public int repeatedTag()
    {
        return repeatedTag;
    }

    /**
     * @param tag one of the constants.
     * @return true if present (possibly with an empty value).
     */
    public boolean has(final int tag)
    {
        return starts[slot(tag)] >= 0;
    }

    /**
     * @param tag one of the constants.
     * @return the value's length, 0 if absent.
     */
    public int length(final int tag)
    {
        return lengths[slot(tag)];
    }

    /**
     * @param tag one of the constants.
     * @return where the value starts in the scanned buffer, -1 if absent.
     */
    public int offset(final int tag)
    {
        return starts[slot(tag)];
    }

    /**
     * @param tag one of the constants.
     * @return a reused view of the value (empty if absent); valid until the next scan.
     */
    public CharSequence value(final int tag)
    {
        final int slot = slot(tag);
        return views[slot].wrap(buffer, starts[slot], lengths[slot]);
    }

    /**
     * @param tag one of the constants.
     * @return the first character of the value, or 0 if absent or empty.
     */
    public char firstChar(final int tag)
    {
        final int slot = slot(tag);
        return starts[slot] < 0 || lengths[slot] == 0 ? 0 : (char)buffer.getByte(starts[slot]);
    }

    /**
     * @param tag one of the constants.
     * @return true if the value is exactly one character.
     */
    public boolean isSingleChar(final int tag)
    {
        return lengths[slot(tag)] == 1;
    }

    /**
     * Parse a value as a non-negative decimal long: digits only (no sign, no decimal point), leading zeros allowed,
     * up to {@link Long#MAX_VALUE}.
     *
     * @param tag one of the constants.
     * @return the value, or -1 if absent, empty, not digits or beyond {@link Long#MAX_VALUE}.
     */
    public long longValue(final int tag)
    {
        final int slot = slot(tag);
        final int start = starts[slot];
        final int length = lengths[slot];
        if (start < 0 || length == 0)
        {
            return -1;
        }
        long value = 0;
        for (int i = start; i < start + length; i++)
        {
            final byte b = buffer.getByte(i);
            if (b < '0' || b > '9')
            {
                return -1;
            }
            final int digit = b - '0';
            if (value > (Long.MAX_VALUE - digit) / 10)
            {
                return -1;
            }
            value = value * 10 + digit;
        }
        return value;
    }

    private static int slot(final int tag)
    {
        final int slot = tag >= 0 && tag <= MAX_TAG ? SLOT_BY_TAG[tag] : -1;
        if (slot < 0)
        {
            throw new IllegalArgumentException("tag not indexed: " + tag);
        }
        return slot;
    }

    /** A reusable ASCII view of part of a buffer. */
    static final class View implements CharSequence
    {
        private DirectBuffer buffer;
        private int start;
        private int length;

        View wrap(final DirectBuffer buffer, final int start, final int length)
        {
            this.buffer = buffer;
            this.start = start;
            this.length = start < 0 ? 0 : length;
            return this;
        }

        /**
         * {@inheritDoc}
         */
        public int length()
        {
            return length;
        }

        /**
         * {@inheritDoc}
         */
        public char charAt(final int index)
        {
            if (index < 0 || index >= length)
            {
                throw new IndexOutOfBoundsException(index);
            }
            return (char)(buffer.getByte(start + index) & 0xFF);
        }

        /**
         * {@inheritDoc}
         */
        public CharSequence subSequence(final int from, final int to)
        {
            return toString().subSequence(from, to);
        }

        /**
         * {@inheritDoc}
         */
        public String toString()
        {
            return length == 0 ? "" : buffer.getStringWithoutLengthAscii(start, length);
        }
    }
}
