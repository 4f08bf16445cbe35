package io.ringex.protocol;

import io.ringex.protocol.codecs.MessageHeaderDecoder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Rewrites a message written at this build's schema version as an older version wrote it, for a peer that speaks
 * only that version (a client whose Logon came at version 1 is answered at version 1).
 * <p>
 * Fields added in a later version sit at the end of the root block ({@code sinceVersion}), so the older layout is the
 * header with the older version and block length, the first {@link MessageCatalog#blockLength(int, int)} bytes of the
 * root block, then the groups and variable-length data the older version has (parts added later come after the older
 * ones and are left out; group entries never grow: a test of the schema checks both).
 * <p>
 * Thread safety: stateless; any thread. Allocates nothing.
 */
public final class OlderVersions
{
    private static final int HEADER_LENGTH = MessageHeaderDecoder.ENCODED_LENGTH;

    private OlderVersions()
    {
    }

    private static int partsEnd(final DirectBuffer buffer, final int start, final int templateId, final int count)
    {
        final MessageCatalog.Part[] parts = MessageCatalog.parts(templateId);
        int position = start;
        for (int p = 0; p < count; p++)
        {
            if (parts[p] == MessageCatalog.Part.GROUP)
            {
                final int entryLength = buffer.getShort(position, MessageHeaderDecoder.BYTE_ORDER) & 0xFFFF;
                final int entries = buffer.getShort(position + 2, MessageHeaderDecoder.BYTE_ORDER) & 0xFFFF;
                position += MessageCatalog.GROUP_HEADER_LENGTH + entryLength * entries;
            }
            else
            {
                position += MessageCatalog.VAR_DATA_HEADER_LENGTH +
                    buffer.getInt(position, MessageHeaderDecoder.BYTE_ORDER);
            }
        }
        return position;
    }

    /**
     * Copy a valid message, rewriting it at an older version when it was written at a newer one.
     *
     * @param src           holding the message, header first.
     * @param offset        where it starts.
     * @param length        its length.
     * @param targetVersion the version the reader speaks, at least {@link MessageValidator#MIN_SUPPORTED_VERSION}.
     * @param dst           where to write; needs room for {@code length} bytes.
     * @param dstOffset     where to start writing.
     * @return the length written.
     */
    public static int copyAs(
        final DirectBuffer src,
        final int offset,
        final int length,
        final int targetVersion,
        final MutableDirectBuffer dst,
        final int dstOffset)
    {
        final int version = src.getShort(offset + MessageHeaderDecoder.versionEncodingOffset(),
            MessageHeaderDecoder.BYTE_ORDER) & 0xFFFF;
        if (version <= targetVersion)
        {
            dst.putBytes(dstOffset, src, offset, length);
            return length;
        }

        final int templateId = src.getShort(offset + MessageHeaderDecoder.templateIdEncodingOffset(),
            MessageHeaderDecoder.BYTE_ORDER) & 0xFFFF;
        final int blockLength = src.getShort(offset + MessageHeaderDecoder.blockLengthEncodingOffset(),
            MessageHeaderDecoder.BYTE_ORDER) & 0xFFFF;
        final int olderBlockLength = MessageCatalog.blockLength(templateId, targetVersion);

        dst.putBytes(dstOffset, src, offset, HEADER_LENGTH + olderBlockLength);
        dst.putShort(dstOffset + MessageHeaderDecoder.blockLengthEncodingOffset(), (short)olderBlockLength,
            MessageHeaderDecoder.BYTE_ORDER);
        dst.putShort(dstOffset + MessageHeaderDecoder.versionEncodingOffset(), (short)targetVersion,
            MessageHeaderDecoder.BYTE_ORDER);
        // The groups and var data the older version has: those added later come last and are left out.
        final int partsStart = offset + HEADER_LENGTH + blockLength;
        final int rest = partsEnd(src, partsStart, templateId, MessageCatalog.partCount(templateId, targetVersion)) -
            partsStart;
        dst.putBytes(dstOffset + HEADER_LENGTH + olderBlockLength, src, partsStart, rest);
        return HEADER_LENGTH + olderBlockLength + rest;
    }
}
