package io.ringex.protocol;

import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Random;

import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import org.agrona.MutableDirectBuffer;
import uk.co.real_logic.sbe.PrimitiveType;
import uk.co.real_logic.sbe.generation.Generators;
import uk.co.real_logic.sbe.ir.Ir;
import uk.co.real_logic.sbe.ir.Signal;
import uk.co.real_logic.sbe.ir.Token;
import uk.co.real_logic.sbe.xml.IrGenerator;
import uk.co.real_logic.sbe.xml.MessageSchema;
import uk.co.real_logic.sbe.xml.ParserOptions;
import uk.co.real_logic.sbe.xml.XmlSchemaParser;

import static uk.co.real_logic.sbe.generation.Generators.toUpperFirstChar;
import static uk.co.real_logic.sbe.ir.GenerationUtil.collectFields;
import static uk.co.real_logic.sbe.ir.GenerationUtil.collectGroups;
import static uk.co.real_logic.sbe.ir.GenerationUtil.collectVarData;

/**
 * Test support: reads the schema shipped in the jar into SBE's IR and drives the generated codecs reflectively, so
 * tests cover every message the schema declares, including ones added after the test was written.
 */
final class SchemaMessages
{
    static final String SCHEMA_RESOURCE = "/sbe/ringex-schema.xml";
    private static final String CODEC_PACKAGE = "io.ringex.protocol.codecs.";

    private SchemaMessages()
    {
    }

    static Ir ir() throws Exception
    {
        try (InputStream in = SchemaMessages.class.getResourceAsStream(SCHEMA_RESOURCE))
        {
            final MessageSchema schema = XmlSchemaParser.parse(in, ParserOptions.DEFAULT);
            return new IrGenerator().generate(schema);
        }
    }

    static Collection<List<Token>> messages() throws Exception
    {
        return ir().messages();
    }

    /** The parts after the root block, as the IR sees them. */
    static List<MessageCatalog.Part> parts(final List<Token> message)
    {
        final List<Token> body = message.subList(1, message.size() - 1);
        final List<Token> fields = new ArrayList<>();
        final List<Token> groups = new ArrayList<>();
        final List<Token> varData = new ArrayList<>();
        int i = collectFields(body, 0, fields);
        i = collectGroups(body, i, groups);
        collectVarData(body, i, varData);
        final List<MessageCatalog.Part> parts = new ArrayList<>();
        for (final Token token : groups)
        {
            if (token.signal() == Signal.BEGIN_GROUP)
            {
                parts.add(MessageCatalog.Part.GROUP);
            }
        }
        for (final Token token : varData)
        {
            if (token.signal() == Signal.BEGIN_VAR_DATA)
            {
                parts.add(MessageCatalog.Part.VAR_DATA);
            }
        }
        return parts;
    }

    /**
     * Encode the message with values drawn from {@code random}, recording each value in order.
     *
     * @return the encoded length, header included.
     */
    static int encode(
        final List<Token> message, final MutableDirectBuffer buffer, final Random random, final List<Object> values)
        throws Exception
    {
        final String name = message.get(0).name();
        final Object encoder = Class.forName(CODEC_PACKAGE + name + "Encoder").getConstructor().newInstance();
        encoder.getClass().getMethod("wrapAndApplyHeader", MutableDirectBuffer.class, int.class,
            MessageHeaderEncoder.class).invoke(encoder, buffer, 0, new MessageHeaderEncoder());
        encodeBody(encoder, message.subList(1, message.size() - 1), random, values);
        return MessageHeaderEncoder.ENCODED_LENGTH + (int)encoder.getClass().getMethod("encodedLength").invoke(encoder);
    }

    /** Decode the message and return its values in the order {@link #encode} recorded them. */
    static List<Object> decode(final List<Token> message, final MutableDirectBuffer buffer) throws Exception
    {
        final String name = message.get(0).name();
        final Object decoder = Class.forName(CODEC_PACKAGE + name + "Decoder").getConstructor().newInstance();
        decoder.getClass().getMethod("wrapAndApplyHeader", org.agrona.DirectBuffer.class, int.class,
            MessageHeaderDecoder.class).invoke(decoder, buffer, 0, new MessageHeaderDecoder());
        final List<Object> values = new ArrayList<>();
        decodeBody(decoder, message.subList(1, message.size() - 1), values);
        return values;
    }

    private static void encodeBody(
        final Object encoder, final List<Token> body, final Random random, final List<Object> values)
        throws Exception
    {
        final List<Token> fields = new ArrayList<>();
        final List<Token> groups = new ArrayList<>();
        final List<Token> varData = new ArrayList<>();
        int i = collectFields(body, 0, fields);
        i = collectGroups(body, i, groups);
        collectVarData(body, i, varData);

        for (int f = 0; f < fields.size(); f++)
        {
            final Token field = fields.get(f);
            if (field.signal() != Signal.BEGIN_FIELD)
            {
                continue;
            }
            final Token encoding = fields.get(f + 1);
            final String property = formatProperty(field.name());
            final Object value = randomValue(encoder.getClass(), property, encoding, random);
            final Class<?> parameterType = value instanceof String ? String.class : parameterTypeOf(encoding, value);
            findSetter(encoder.getClass(), property, parameterType).invoke(encoder, value);
            values.add(value);
        }

        for (int g = 0; g < groups.size(); g++)
        {
            final Token group = groups.get(g);
            if (group.signal() != Signal.BEGIN_GROUP)
            {
                continue;
            }
            final int count = random.nextInt(4);
            values.add(count);
            final String property = formatProperty(group.name());
            final Object groupEncoder = encoder.getClass().getMethod(property + "Count", int.class)
                .invoke(encoder, count);
            final List<Token> groupBody = groups.subList(g + 1, g + group.componentTokenCount() - 1);
            final List<Token> entryBody = groupBody.subList(groupBody.get(0).componentTokenCount(), groupBody.size());
            for (int n = 0; n < count; n++)
            {
                groupEncoder.getClass().getMethod("next").invoke(groupEncoder);
                encodeBody(groupEncoder, entryBody, random, values);
            }
            g += group.componentTokenCount() - 1;
        }

        for (final Token data : varData)
        {
            if (data.signal() != Signal.BEGIN_VAR_DATA)
            {
                continue;
            }
            final String property = formatProperty(data.name());
            final String text = randomText(random, random.nextInt(40));
            final boolean isText = hasCharacterEncoding(varData, data);
            if (isText)
            {
                encoder.getClass().getMethod(property, String.class).invoke(encoder, text);
                values.add(text);
            }
            else
            {
                final byte[] bytes = text.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                encoder.getClass().getMethod("put" + toUpperFirstChar(property), byte[].class, int.class, int.class)
                    .invoke(encoder, bytes, 0, bytes.length);
                values.add(text);
            }
        }
    }

    private static void decodeBody(final Object decoder, final List<Token> body, final List<Object> values)
        throws Exception
    {
        final List<Token> fields = new ArrayList<>();
        final List<Token> groups = new ArrayList<>();
        final List<Token> varData = new ArrayList<>();
        int i = collectFields(body, 0, fields);
        i = collectGroups(body, i, groups);
        collectVarData(body, i, varData);

        for (final Token field : fields)
        {
            if (field.signal() == Signal.BEGIN_FIELD)
            {
                values.add(decoder.getClass().getMethod(formatProperty(field.name())).invoke(decoder));
            }
        }

        for (int g = 0; g < groups.size(); g++)
        {
            final Token group = groups.get(g);
            if (group.signal() != Signal.BEGIN_GROUP)
            {
                continue;
            }
            final Object groupDecoder = decoder.getClass().getMethod(formatProperty(group.name())).invoke(decoder);
            final int count = (int)groupDecoder.getClass().getMethod("count").invoke(groupDecoder);
            values.add(count);
            final List<Token> groupBody = groups.subList(g + 1, g + group.componentTokenCount() - 1);
            final List<Token> entryBody = groupBody.subList(groupBody.get(0).componentTokenCount(), groupBody.size());
            for (int n = 0; n < count; n++)
            {
                groupDecoder.getClass().getMethod("next").invoke(groupDecoder);
                decodeBody(groupDecoder, entryBody, values);
            }
            g += group.componentTokenCount() - 1;
        }

        for (final Token data : varData)
        {
            if (data.signal() != Signal.BEGIN_VAR_DATA)
            {
                continue;
            }
            final String property = formatProperty(data.name());
            if (hasCharacterEncoding(varData, data))
            {
                values.add(decoder.getClass().getMethod(property).invoke(decoder));
            }
            else
            {
                final int length = (int)decoder.getClass().getMethod(property + "Length").invoke(decoder);
                final byte[] bytes = new byte[length];
                decoder.getClass().getMethod("get" + toUpperFirstChar(property), byte[].class, int.class, int.class)
                    .invoke(decoder, bytes, 0, length);
                values.add(new String(bytes, java.nio.charset.StandardCharsets.US_ASCII));
            }
        }
    }

    private static boolean hasCharacterEncoding(final List<Token> varData, final Token begin)
    {
        final int index = varData.indexOf(begin);
        final Token dataToken = Generators.findFirst("varData", varData, index);
        return dataToken.encoding().characterEncoding() != null;
    }

    private static Object randomValue(
        final Class<?> owner, final String property, final Token encoding, final Random random) throws Exception
    {
        if (encoding.signal() == Signal.BEGIN_ENUM)
        {
            final Class<?> enumType = Class.forName(CODEC_PACKAGE + encoding.applicableTypeName());
            final Object[] constants = enumType.getEnumConstants();
            Object value;
            do
            {
                value = constants[random.nextInt(constants.length)];
            }
            while ("NULL_VAL".equals(((Enum<?>)value).name()));
            return value;
        }

        final PrimitiveType type = encoding.encoding().primitiveType();
        if (type == PrimitiveType.CHAR)
        {
            return randomText(random, 1 + random.nextInt(encoding.arrayLength()));
        }

        final long min = ((Number)owner.getMethod(property + "MinValue").invoke(null)).longValue();
        final long max = ((Number)owner.getMethod(property + "MaxValue").invoke(null)).longValue();
        final long value = min + Math.floorMod(random.nextLong(), Math.max(1, max - min));
        switch (type)
        {
            // SBE's Java setters: int8 takes a byte, uint8 and int16 a short, uint16 and int32 an int.
            case INT8:
                return (byte)value;
            case UINT8:
            case INT16:
                return (short)value;
            case UINT16:
            case INT32:
                return (int)value;
            default:
                return value;
        }
    }

    private static Class<?> parameterTypeOf(final Token encoding, final Object value)
    {
        if (value instanceof Enum)
        {
            return value.getClass();
        }
        if (value instanceof Byte)
        {
            return byte.class;
        }
        if (value instanceof Short)
        {
            return short.class;
        }
        if (value instanceof Integer)
        {
            return int.class;
        }
        return encoding.encoding().primitiveType() == PrimitiveType.INT32 ? int.class : long.class;
    }

    private static Method findSetter(final Class<?> type, final String property, final Class<?> parameterType)
        throws NoSuchMethodException
    {
        for (final Method method : type.getMethods())
        {
            if (method.getName().equals(property) && method.getParameterCount() == 1 &&
                method.getParameterTypes()[0] == parameterType)
            {
                return method;
            }
        }
        throw new NoSuchMethodException(type.getName() + "." + property + "(" + parameterType + ")");
    }

    private static String randomText(final Random random, final int length)
    {
        final StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++)
        {
            text.append((char)('!' + random.nextInt(94)));
        }
        return text.toString();
    }

    private static String formatProperty(final String name)
    {
        return Character.toLowerCase(name.charAt(0)) + name.substring(1);
    }
}
