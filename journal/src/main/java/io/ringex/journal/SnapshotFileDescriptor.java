package io.ringex.journal;

/**
 * Layout of a snapshot file, {@code snapshot-<sequence, 20 digits>.bin} in the snapshot directory.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                     Magic "RGXSNAP1" (int64)                  |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                   File format version (int32)                 |
 *  +---------------------------------------------------------------+
 *  |                State format version (int32)                   |
 *  +---------------------------------------------------------------+
 *  |        Sequence of the last command in the state (int64)      |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |      Timestamp ns of that command (int64)                     |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                   State hash (int64)                          |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                   State length (int64)                        |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                 CRC-32C of the state bytes (int32)            |
 *  +---------------------------------------------------------------+
 *  |                 CRC-32C of the header above (int32)           |
 *  +---------------------------------------------------------------+
 *  |      State: the processor's own format, versioned by it      ...
 * ...                                                              |
 *  +---------------------------------------------------------------+
 * </pre>
 * A snapshot is written to a temporary name, forced to disk and renamed, so a crash while writing leaves no file that
 * looks whole. A file whose magic, version or checksums do not match is not loaded: recovery takes the next older.
 */
public final class SnapshotFileDescriptor
{
    /** "RGXSNAP1" in ASCII, little-endian. */
    public static final long MAGIC = 0x3150414E53584752L;
    /** Version of this file layout. */
    public static final int FILE_VERSION = 1;

    /** Offset of the magic. */
    public static final int MAGIC_OFFSET = 0;
    /** Offset of the file layout version. */
    public static final int FILE_VERSION_OFFSET = 8;
    /** Offset of the state format version, which the processor owns. */
    public static final int STATE_VERSION_OFFSET = 12;
    /** Offset of the last sequence the state includes. */
    public static final int SEQUENCE_OFFSET = 16;
    /** Offset of that command's timestamp. */
    public static final int TIMESTAMP_OFFSET = 24;
    /** Offset of the state hash, for checking a restore. */
    public static final int STATE_HASH_OFFSET = 32;
    /** Offset of the state length. */
    public static final int STATE_LENGTH_OFFSET = 40;
    /** Offset of the state checksum. */
    public static final int STATE_CHECKSUM_OFFSET = 48;
    /** Offset of the header checksum, over bytes [0, 52). */
    public static final int HEADER_CHECKSUM_OFFSET = 52;
    /** Length of the header. */
    public static final int HEADER_LENGTH = 56;

    /** File name prefix. */
    public static final String PREFIX = "snapshot-";
    /** File name suffix. */
    public static final String SUFFIX = ".bin";

    private SnapshotFileDescriptor()
    {
    }

    /**
     * @param sequence last sequence in the snapshot.
     * @return the file name.
     */
    public static String fileName(final long sequence)
    {
        return PREFIX + String.format("%020d", sequence) + SUFFIX;
    }

    /**
     * The sequence a snapshot file's name says it holds, to pass over files without reading them.
     *
     * @param file a file named by {@link #fileName(long)}.
     * @return the sequence, or {@link Long#MAX_VALUE} if the name is not one of ours.
     */
    public static long sequenceOf(final java.nio.file.Path file)
    {
        final String name = file.getFileName().toString();
        if (!name.startsWith(PREFIX) || !name.endsWith(SUFFIX))
        {
            return Long.MAX_VALUE;
        }
        try
        {
            return Long.parseLong(name.substring(PREFIX.length(), name.length() - SUFFIX.length()));
        }
        catch (final NumberFormatException ex)
        {
            return Long.MAX_VALUE;
        }
    }
}
