package io.ringex.engine.ring;

/**
 * Layout of one ring slot: a fixed 32-byte header followed by the payload (an SBE message including its 8-byte
 * message header). Slots are a power-of-two number of bytes long and live back to back in one aligned off-heap
 * buffer, so slot {@code s} starts at {@code (s & mask) * slotLength} and every header field is naturally aligned.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                      Sequence (int64)                         |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                    Timestamp ns (int64)                       |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                 Source id / session id (int64)                |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                      Template id (int32)                      |
 *  +---------------------------------------------------------------+
 *  |                 Length of payload in bytes (int32)            |
 *  +---------------------------------------------------------------+
 *  |                 Payload (SBE header + message) ...           ...
 *  +---------------------------------------------------------------+
 * </pre>
 * The sequence field is written by the {@link Sequencer} when the slot is published, never by the producer: it is
 * the per-slot availability flag for multi-producer rings (the role of the Disruptor's {@code availableBuffer}) and
 * lets any reader check which lap of the ring a slot belongs to. It holds -1 until the slot is first published.
 * The other header fields and the payload are written by the producer between claim and publish.
 * <p>
 * Threading: constants only.
 */
public final class SlotDescriptor
{
    /**
     * Offset of the sequence this slot was last published with: int64, written with release semantics on publish.
     */
    public static final int SEQUENCE_OFFSET = 0;

    /**
     * Offset of the timestamp (nanoseconds) the producer stamped: int64. The business logic's only clock.
     */
    public static final int TIMESTAMP_OFFSET = 8;

    /**
     * Offset of the source id (the session id for client commands): int64.
     */
    public static final int SOURCE_ID_OFFSET = 16;

    /**
     * Offset of the SBE template id of the payload: int32.
     */
    public static final int TEMPLATE_ID_OFFSET = 24;

    /**
     * Offset of the payload length in bytes: int32.
     */
    public static final int LENGTH_OFFSET = 28;

    /**
     * Length of the header; the payload starts here, 32-byte aligned within a slot.
     */
    public static final int HEADER_LENGTH = 32;

    /**
     * Offset of the payload within a slot.
     */
    public static final int PAYLOAD_OFFSET = HEADER_LENGTH;

    /**
     * Smallest slot: header plus one cache line's worth of payload room is the practical minimum.
     */
    public static final int MIN_SLOT_LENGTH = 64;

    /**
     * Alignment of the ring buffer: a cache line, so slots of 64 bytes or more never straddle two lines needlessly.
     */
    public static final int BUFFER_ALIGNMENT = 64;

    /**
     * Value of the sequence field before a slot has ever been published.
     */
    public static final long UNPUBLISHED = -1L;

    private SlotDescriptor()
    {
    }

    /**
     * Payload room in a slot of the given length.
     *
     * @param slotLength bytes per slot.
     * @return bytes available for the payload.
     */
    public static int maxPayloadLength(final int slotLength)
    {
        return slotLength - HEADER_LENGTH;
    }

    /**
     * Check a slot length: a power of two and at least {@link #MIN_SLOT_LENGTH}.
     *
     * @param slotLength bytes per slot.
     * @throws IllegalArgumentException if it is not.
     */
    public static void checkSlotLength(final int slotLength)
    {
        if (slotLength < MIN_SLOT_LENGTH || Integer.bitCount(slotLength) != 1)
        {
            throw new IllegalArgumentException(
                "slotLength must be a power of two >= " + MIN_SLOT_LENGTH + ": " + slotLength);
        }
    }
}
