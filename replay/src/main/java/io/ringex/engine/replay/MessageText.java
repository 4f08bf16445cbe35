package io.ringex.engine.replay;

import io.ringex.protocol.MessageCatalog;
import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import org.agrona.DirectBuffer;
import org.agrona.sbe.MessageDecoderFlyweight;

import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads any message of the schema, command or event, through the generated SBE decoders found by name
 * ({@link MessageCatalog#name(int)} + "Decoder"): its readable text (the decoders' own {@code appendTo}) and its
 * fields by name ({@code orderId}, {@code accountId}, {@code clientOrderId}, ...). Nothing here lists the messages,
 * so a message added to the schema later is rendered and searched like the others.
 * <p>
 * Threading: one thread; decoders and accessors are cached per template.
 */
public final class MessageText
{
    /** What a credential hash prints as. */
    static final String HIDDEN = "(not shown)";
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final Map<Integer, Reader> readers = new HashMap<>();

    /** A decoder of one template and its field getters. */
    private static final class Reader
    {
        final MessageDecoderFlyweight decoder;
        final Map<String, Method> getters = new HashMap<>();
        /** Per primitive or char-array field of the root block: {offset, length, sinceVersion, isCharArray}. */
        final Map<String, int[]> fields = new HashMap<>();

        Reader(final MessageDecoderFlyweight decoder) throws ReflectiveOperationException
        {
            this.decoder = decoder;
            final Class<?> type = decoder.getClass();
            for (final Method method : type.getMethods())
            {
                if (method.getParameterCount() == 0 && !java.lang.reflect.Modifier.isStatic(method.getModifiers()) &&
                    (method.getReturnType() == long.class || method.getReturnType() == int.class ||
                    method.getReturnType() == String.class || method.getReturnType().isEnum()))
                {
                    getters.put(method.getName(), method);
                }
            }
            for (final String name : getters.keySet())
            {
                try
                {
                    final int offset = (int)type.getMethod(name + "EncodingOffset").invoke(null);
                    final int length = (int)type.getMethod(name + "EncodingLength").invoke(null);
                    final int since = (int)type.getMethod(name + "SinceVersion").invoke(null);
                    final boolean chars = getters.get(name).getReturnType() == String.class;
                    if (chars || (getters.get(name).getReturnType().isPrimitive() && length <= 8))
                    {
                        fields.put(name, new int[]{ offset, length, since, chars ? 1 : 0 });
                    }
                }
                catch (final NoSuchMethodException ex)
                {
                    // var data or a group: read through the getter
                }
            }
        }
    }

    /**
     * Point the reader at a message; fields and text then come from it.
     *
     * @param buffer holding the message, SBE header included.
     * @param offset where it starts.
     * @return its template id, or -1 if this build has no decoder for it.
     */
    public int wrap(final DirectBuffer buffer, final int offset)
    {
        header.wrap(buffer, offset);
        final int templateId = header.templateId();
        this.buffer = buffer;
        this.bodyOffset = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        this.blockLength = header.blockLength();
        this.version = heldVersion(templateId, header.version(), blockLength);
        final Reader reader = reader(templateId);
        current = reader;
        wrapped = false;
        return reader == null ? -1 : templateId;
    }

    private Reader current;
    /** The decoder is wrapped only when text or a field without a fixed offset is asked for. */
    private boolean wrapped;
    private DirectBuffer buffer;
    private int bodyOffset;
    private int blockLength;
    private int version;

    /**
     * @return the wrapped message's name.
     */
    public String name()
    {
        return MessageCatalog.name(header.templateId());
    }

    /**
     * A user's credential hash (SetUserCredential, UserDefinition) is never printed: an audit trail or an event log
     * passes through more hands than the journal does, and a hash invites offline guessing.
     */
    static void redactCredentials(final StringBuilder line)
    {
        final String field = "credentialHash='";
        for (int at = line.indexOf(field); at >= 0; at = line.indexOf(field, at + 1))
        {
            final int start = at + field.length();
            final int end = line.indexOf("'", start);
            if (end > start)
            {
                line.replace(start, end, HIDDEN);
            }
        }
    }

    /**
     * @return the wrapped message as the decoder prints it (fields in schema order), credential hashes hidden.
     */
    public String text()
    {
        if (current == null)
        {
            return MessageCatalog.name(header.templateId()) + " (no decoder in this build)";
        }
        try
        {
            final StringBuilder line = new StringBuilder(256);
            decoder().appendTo(line);
            redactCredentials(line);
            // "[Name](sbeTemplateId=..|sbeBlockLength=..):field=.." -> "Name field=..|.."
            final int close = line.indexOf("):");
            if (line.length() > 0 && line.charAt(0) == '[' && close > 0)
            {
                final int nameEnd = line.indexOf("]");
                return line.substring(1, nameEnd) + ' ' + line.substring(close + 2);
            }
            return line.toString();
        }
        catch (final RuntimeException ex)
        {
            return MessageCatalog.name(header.templateId()) + " (undecodable: " + ex + ")";
        }
    }

    /**
     * @param name a field of the wrapped message.
     * @return whether the message has it.
     */
    public boolean has(final String name)
    {
        return current != null && current.getters.containsKey(name);
    }

    /**
     * @param name         a numeric field.
     * @param defaultValue returned if the message has no such field.
     * @return its value.
     */
    public long longField(final String name, final long defaultValue)
    {
        if (current == null)
        {
            return defaultValue;
        }
        final int[] field = current.fields.get(name);
        if (field != null && field[3] == 0)
        {
            if (version < field[2] || field[0] + field[1] > blockLength)
            {
                return defaultValue;
            }
            final int at = bodyOffset + field[0];
            switch (field[1])
            {
                case 8:
                    return buffer.getLong(at, java.nio.ByteOrder.LITTLE_ENDIAN);
                case 4:
                    return buffer.getInt(at, java.nio.ByteOrder.LITTLE_ENDIAN);
                case 2:
                    return buffer.getShort(at, java.nio.ByteOrder.LITTLE_ENDIAN);
                default:
                    return buffer.getByte(at);
            }
        }
        final Object value = field(name);
        return value instanceof Number ? ((Number)value).longValue() : defaultValue;
    }

    /**
     * @param name a field of any type.
     * @return its value as text (char arrays without their padding), or null if the message has no such field.
     */
    public String textField(final String name)
    {
        final int[] field = current == null ? null : current.fields.get(name);
        if (field != null && field[3] == 1)
        {
            if (version < field[2] || field[0] + field[1] > blockLength)
            {
                return null;
            }
            final int at = bodyOffset + field[0];
            int end = 0;
            while (end < field[1] && buffer.getByte(at + end) != 0)
            {
                end++;
            }
            return buffer.getStringWithoutLengthAscii(at, end).trim();
        }
        final Object value = field(name);
        return value == null ? null : value.toString().trim();
    }

    private Object field(final String name)
    {
        if (current == null)
        {
            return null;
        }
        final Method getter = current.getters.get(name);
        if (getter == null)
        {
            return null;
        }
        try
        {
            return getter.invoke(decoder());
        }
        catch (final ReflectiveOperationException ex)
        {
            return null;
        }
    }

    /**
     * The version whose fields the block holds: its header's, or an earlier one whose block length it has. A journal
     * written before a message grew within the same schema version (the order types added fields to version 2 after
     * version 2 messages were journaled) holds the shorter block under the same version number; its decoder must not
     * read the fields it lacks.
     */
    private static int heldVersion(final int templateId, final int version, final int blockLength)
    {
        if (version > MessageValidator.SCHEMA_VERSION || !MessageCatalog.isKnown(templateId))
        {
            return version;
        }
        int held = version;
        while (held > MessageValidator.MIN_SUPPORTED_VERSION &&
            blockLength < MessageCatalog.blockLength(templateId, held))
        {
            held--;
        }
        return held;
    }

    private MessageDecoderFlyweight decoder()
    {
        if (!wrapped)
        {
            current.decoder.wrap(buffer, bodyOffset, blockLength, version);
            wrapped = true;
        }
        return current.decoder;
    }

    private Reader reader(final int templateId)
    {
        Reader reader = readers.get(templateId);
        if (reader == null && !readers.containsKey(templateId))
        {
            try
            {
                final MessageDecoderFlyweight decoder = (MessageDecoderFlyweight)Class.forName(
                    "io.ringex.protocol.codecs." + MessageCatalog.name(templateId) + "Decoder").getConstructor()
                    .newInstance();
                reader = new Reader(decoder);
            }
            catch (final ReflectiveOperationException | LinkageError | ClassCastException ex)
            {
                reader = null;
            }
            readers.put(templateId, reader);
        }
        return reader;
    }
}
