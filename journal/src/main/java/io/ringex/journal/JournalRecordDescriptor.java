package io.ringex.journal;

/**
 * Layout of one journal record: one input-ring slot, written as one Chronicle Queue excerpt.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                        Sequence (int64)                       |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                      Timestamp ns (int64)                     |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                   Source / session id (int64)                 |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                     Template id (int32)                       |
 *  +---------------------------------------------------------------+
 *  |                   Payload length (int32)                      |
 *  +---------------------------------------------------------------+
 *  |        Payload: the SBE command, message header included     ...
 * ...                                                              |
 *  +---------------------------------------------------------------+
 *  |          CRC-32C of everything above (int32)                  |
 *  +---------------------------------------------------------------+
 * </pre>
 * Little-endian, as Chronicle and SBE both are on x86 and ARM. The checksum lets a reader tell a torn or corrupted
 * record from a good one: Chronicle guarantees an excerpt is either complete or invisible to tailers, but not that the
 * bytes of a completed excerpt survived a crash of the machine, and a writer killed mid-excerpt leaves a header that a
 * later writer recovers.
 */
public final class JournalRecordDescriptor
{
    /** Offset of the input-ring sequence. */
    public static final int SEQUENCE_OFFSET = 0;
    /** Offset of the ingress timestamp, nanoseconds since the epoch. */
    public static final int TIMESTAMP_OFFSET = 8;
    /** Offset of the source (session) id. */
    public static final int SOURCE_OFFSET = 16;
    /** Offset of the SBE template id of the payload. */
    public static final int TEMPLATE_ID_OFFSET = 24;
    /** Offset of the payload length. */
    public static final int LENGTH_OFFSET = 28;
    /** Length of the header before the payload. */
    public static final int HEADER_LENGTH = 32;
    /** Length of the checksum trailer. */
    public static final int TRAILER_LENGTH = 4;
    /** Largest payload a record may hold; larger commands are refused long before the journal. */
    public static final int MAX_PAYLOAD_LENGTH = 64 * 1024;

    private JournalRecordDescriptor()
    {
    }

    /**
     * @param payloadLength payload bytes.
     * @return the whole record's length.
     */
    public static int recordLength(final int payloadLength)
    {
        return HEADER_LENGTH + payloadLength + TRAILER_LENGTH;
    }
}
