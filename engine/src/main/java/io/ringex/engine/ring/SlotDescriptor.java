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
 * The sequence field belongs to the ring, and only to a multi-producer ring: its {@link Sequencer} writes it when the
 * slot is published, never the producer, as the per-slot availability flag (the role of the Disruptor's
 * {@code availableBuffer}); it holds -1 until the slot is first published. A single-producer ring needs no flag (its
 * cursor says everything) and leaves every byte of the slot to the producer.
 * <p>
 * The other header fields are the engine's message framing, not the ring's: the engine's producers write them and
 * the payload between claim and publish. The ring itself reads nothing in a slot but a multi-producer flag, so a
 * single-producer ring holds slots as small as its producer's messages ({@link #MIN_SINGLE_PRODUCER_SLOT_LENGTH}).
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
     * Smallest slot of a multi-producer ring, or of a ring carrying the engine's header: the header and a payload.
     */
    public static final int MIN_SLOT_LENGTH = 64;

    /**
     * Smallest slot of a single-producer ring used without the engine's header: one long.
     */
    public static final int MIN_SINGLE_PRODUCER_SLOT_LENGTH = 8;

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
        return Math.max(0, slotLength - HEADER_LENGTH);
    }

    /**
     * Check a slot length: a power of two, at least {@link #MIN_SLOT_LENGTH} for a multi-producer ring (its flag)
     * and at least {@link #MIN_SINGLE_PRODUCER_SLOT_LENGTH} for a single-producer one.
     *
     * @param slotLength   bytes per slot.
     * @param producerType the ring's producer type.
     * @throws IllegalArgumentException if it is not.
     */
    public static void checkSlotLength(final int slotLength, final ProducerType producerType)
    {
        final int min = ProducerType.MULTI == producerType ? MIN_SLOT_LENGTH : MIN_SINGLE_PRODUCER_SLOT_LENGTH;
        if (slotLength < min || Integer.bitCount(slotLength) != 1)
        {
            throw new IllegalArgumentException(
                "slotLength must be a power of two >= " + min + " for a " + producerType + " producer ring: "
                + slotLength);
        }
    }
}
