package io.ringex.engine.cluster;

/**
 * The engine's part of a cluster snapshot: messages on the snapshot publication, a header and then the processor's
 * state (the processor's own snapshot format) in chunks.
 * <pre>
 *   header, one message:
 *    0                   4                   8
 *   +-------------------+-------------------+
 *   | magic 'RXCS'      | version           |
 *   +-------------------+-------------------+
 *   | next sequence                         |  the sequence the next command fed carries
 *   +---------------------------------------+
 *   | last timestamp ns                     |  time never goes backwards across a leader change
 *   +---------------------------------------+
 *   | log term                              |  the term of the log at the snapshot: the fence's
 *   +---------------------------------------+
 *   | state hash                            |  the processor's, checked after restoring
 *   +-------------------+-------------------+
 *   | state length      |
 *   +-------------------+
 *   then ceil(state length / chunk) messages of state bytes, in order
 * </pre>
 * Little-endian, as Agrona's buffers write by default.
 */
final class ClusterSnapshotDescriptor
{
    static final int MAGIC = 0x52584353;
    static final int VERSION = 1;
    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 4;
    static final int NEXT_SEQUENCE_OFFSET = 8;
    static final int LAST_TIMESTAMP_OFFSET = 16;
    static final int LOG_TERM_OFFSET = 24;
    static final int STATE_HASH_OFFSET = 32;
    static final int STATE_LENGTH_OFFSET = 40;
    static final int HEADER_LENGTH = 44;

    private ClusterSnapshotDescriptor()
    {
    }
}
