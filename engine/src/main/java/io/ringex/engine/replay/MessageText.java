package io.ringex.engine.replay;

import io.ringex.protocol.MessageCatalog;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import org.agrona.DirectBuffer;

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
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final Map<Integer, Reader> readers = new HashMap<>();

    /** A decoder of one template and its field getters. */
    private static final class Reader
    {
        final Object decoder;
        final Method wrap;
        final Method appendTo;
        final Map<String, Method> getters = new HashMap<>();

        Reader(final Object decoder) throws ReflectiveOperationException
        {
            this.decoder = decoder;
            final Class<?> type = decoder.getClass();
            wrap = type.getMethod("wrap", DirectBuffer.class, int.class, int.class, int.class);
            appendTo = type.getMethod("appendTo", StringBuilder.class);
            for (final Method method : type.getMethods())
            {
                if (method.getParameterCount() == 0 && !java.lang.reflect.Modifier.isStatic(method.getModifiers()) &&
                    (method.getReturnType() == long.class || method.getReturnType() == int.class ||
                    method.getReturnType() == String.class || method.getReturnType().isEnum()))
                {
                    getters.put(method.getName(), method);
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
        final Reader reader = reader(templateId);
        if (reader == null)
        {
            current = null;
            return -1;
        }
        try
        {
            reader.wrap.invoke(reader.decoder, buffer, offset + MessageHeaderDecoder.ENCODED_LENGTH,
                header.blockLength(), header.version());
        }
        catch (final ReflectiveOperationException ex)
        {
            current = null;
            return -1;
        }
        current = reader;
        return templateId;
    }

    private Reader current;

    /**
     * @return the wrapped message's name.
     */
    public String name()
    {
        return MessageCatalog.name(header.templateId());
    }

    /**
     * @return the wrapped message as the decoder prints it (fields in schema order).
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
            current.appendTo.invoke(current.decoder, line);
            // "[Name](sbeTemplateId=..|sbeBlockLength=..):field=.." -> "Name field=..|.."
            final int close = line.indexOf("):");
            if (line.length() > 0 && line.charAt(0) == '[' && close > 0)
            {
                final int nameEnd = line.indexOf("]");
                return line.substring(1, nameEnd) + ' ' + line.substring(close + 2);
            }
            return line.toString();
        }
        catch (final ReflectiveOperationException ex)
        {
            return MessageCatalog.name(header.templateId()) + " (undecodable: " + ex.getCause() + ")";
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
        final Object value = field(name);
        return value instanceof Number ? ((Number)value).longValue() : defaultValue;
    }

    /**
     * @param name a field of any type.
     * @return its value as text (char arrays without their padding), or null if the message has no such field.
     */
    public String textField(final String name)
    {
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
            return getter.invoke(current.decoder);
        }
        catch (final ReflectiveOperationException ex)
        {
            return null;
        }
    }

    private Reader reader(final int templateId)
    {
        Reader reader = readers.get(templateId);
        if (reader == null && !readers.containsKey(templateId))
        {
            try
            {
                final Object decoder = Class.forName("io.ringex.protocol.codecs." + MessageCatalog.name(templateId) +
                    "Decoder").getConstructor().newInstance();
                reader = new Reader(decoder);
            }
            catch (final ReflectiveOperationException | LinkageError ex)
            {
                reader = null;
            }
            readers.put(templateId, reader);
        }
        return reader;
    }
}
