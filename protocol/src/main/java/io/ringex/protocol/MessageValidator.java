package io.ringex.protocol;

import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.RejectReason;
import org.agrona.DirectBuffer;

/**
 * Checks that bytes claiming to be a Ringex message are one this node can decode safely, before anything decodes
 * them: the header is whole, the schema id is ours, the version is one we speak, the template id is known, the root
 * block is whole, and every group and var data field lies inside the given length.
 * <p>
 * Every schema version from {@link #MIN_SUPPORTED_VERSION} to {@link #SCHEMA_VERSION} is accepted, each with the root
 * block length it defines ({@link MessageCatalog#blockLength(int, int)}); the generated decoders read an older
 * message's later fields as their null values. A message of a newer schema version is refused
 * ({@link RejectReason#UNSUPPORTED_VERSION}) rather than decoded with an older layout; an unknown template id is
 * refused ({@link RejectReason#UNKNOWN_MESSAGE}); anything cut short or longer than the maximum is
 * {@link RejectReason#MALFORMED}. No exception is thrown and nothing is allocated.
 * <p>
 * Thread safety: stateless apart from configuration; one instance may be shared.
 */
public final class MessageValidator
{
    /** Oldest schema version this build decodes. */
    public static final int MIN_SUPPORTED_VERSION = 1;

    /** Schema version this build writes and the newest it decodes. */
    public static final int SCHEMA_VERSION = MessageHeaderDecoder.SCHEMA_VERSION;

    /** Schema id of every Ringex message. */
    public static final int SCHEMA_ID = MessageHeaderDecoder.SCHEMA_ID;

    private static final int HEADER_LENGTH = MessageHeaderDecoder.ENCODED_LENGTH;

    private final int maxMessageLength;

    /**
     * @param maxMessageLength the longest message accepted, header included.
     */
    public MessageValidator(final int maxMessageLength)
    {
        if (maxMessageLength < HEADER_LENGTH)
        {
            throw new IllegalArgumentException("maxMessageLength must be at least " + HEADER_LENGTH);
        }
        this.maxMessageLength = maxMessageLength;
    }

    /**
     * @return the longest message accepted, header included.
     */
    public int maxMessageLength()
    {
        return maxMessageLength;
    }

    /**
     * Validate one message.
     *
     * @param buffer holding the message.
     * @param offset where its header starts.
     * @param length how many bytes it may occupy; the message must fill exactly this many.
     * @return {@link RejectReason#NONE} if valid, else why not.
     */
    public RejectReason validate(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < HEADER_LENGTH || length > maxMessageLength || offset < 0 ||
            (long)offset + length > buffer.capacity())
        {
            return RejectReason.MALFORMED;
        }

        final int blockLength = buffer.getShort(offset + MessageHeaderDecoder.blockLengthEncodingOffset(),
            MessageHeaderDecoder.BYTE_ORDER) & 0xFFFF;
        final int templateId = buffer.getShort(offset + MessageHeaderDecoder.templateIdEncodingOffset(),
            MessageHeaderDecoder.BYTE_ORDER) & 0xFFFF;
        final int schemaId = buffer.getShort(offset + MessageHeaderDecoder.schemaIdEncodingOffset(),
            MessageHeaderDecoder.BYTE_ORDER) & 0xFFFF;
        final int version = buffer.getShort(offset + MessageHeaderDecoder.versionEncodingOffset(),
            MessageHeaderDecoder.BYTE_ORDER) & 0xFFFF;

        if (schemaId != SCHEMA_ID || version > SCHEMA_VERSION || version < MIN_SUPPORTED_VERSION)
        {
            return RejectReason.UNSUPPORTED_VERSION;
        }
        if (!MessageCatalog.isKnown(templateId))
        {
            return RejectReason.UNKNOWN_MESSAGE;
        }
        if (blockLength != MessageCatalog.blockLength(templateId, version))
        {
            return RejectReason.MALFORMED;
        }

        final int end = offset + length;
        int position = offset + HEADER_LENGTH + blockLength;
        if (position > end)
        {
            return RejectReason.MALFORMED;
        }

        final MessageCatalog.Part[] parts = MessageCatalog.parts(templateId);
        final int[] groupBlockLengths = MessageCatalog.groupBlockLengths(templateId);
        final int partCount = MessageCatalog.partCount(templateId, version);
        int groupIndex = 0;
        for (int p = 0; p < partCount; p++)
        {
            final MessageCatalog.Part part = parts[p];
            if (part == MessageCatalog.Part.GROUP)
            {
                if (position + MessageCatalog.GROUP_HEADER_LENGTH > end)
                {
                    return RejectReason.MALFORMED;
                }
                final int entryLength = buffer.getShort(position, MessageHeaderDecoder.BYTE_ORDER) & 0xFFFF;
                final int count = buffer.getShort(position + 2, MessageHeaderDecoder.BYTE_ORDER) & 0xFFFF;
                if (entryLength != groupBlockLengths[groupIndex++])
                {
                    return RejectReason.MALFORMED;
                }
                final long next = (long)position + MessageCatalog.GROUP_HEADER_LENGTH + (long)entryLength * count;
                if (next > end)
                {
                    return RejectReason.MALFORMED;
                }
                position = (int)next;
            }
            else
            {
                if (position + MessageCatalog.VAR_DATA_HEADER_LENGTH > end)
                {
                    return RejectReason.MALFORMED;
                }
                final long dataLength = buffer.getInt(position, MessageHeaderDecoder.BYTE_ORDER) & 0xFFFF_FFFFL;
                final long next = position + MessageCatalog.VAR_DATA_HEADER_LENGTH + dataLength;
                if (next > end)
                {
                    return RejectReason.MALFORMED;
                }
                position = (int)next;
            }
        }

        return position == end ? RejectReason.NONE : RejectReason.MALFORMED;
    }
}
