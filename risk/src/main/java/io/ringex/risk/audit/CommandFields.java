package io.ringex.risk.audit;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntUnaryOperator;

import org.agrona.DirectBuffer;

import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.MessageCatalog;
import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.RejectReason;

/**
 * Decodes any admin command of the schema into its fields by name, with the generated SBE decoder of its template
 * ({@code io.ringex.protocol.codecs.<MessageCatalog.name>Decoder}) read through reflection: a message added to the
 * schema shows in the admin log without code here. The layout of each template (its fields, groups and var data, in
 * wire order: by schema id, which the schema assigns in that order) is learnt once and cached.
 * <p>
 * What a command carries that must not be shown is never turned into text: a var data field named in
 * {@link #REDACTED} (the credential hash of SetUserCredential) is skipped and shown as {@value #NOT_SHOWN}. Money
 * fields (by name: {@link #MONEY_FIELDS}) are shown as decimal text at the money scale; prices ({@link #PRICE_FIELDS})
 * at the message's own {@code priceScale}, else at the scale of its instrument if the caller knows it, else raw.
 * <p>
 * Threading: {@link #decode} allocates (maps, strings) and runs on the Aeron agent thread once per AdminResponse, which
 * is rare; the layout cache is concurrent.
 */
public final class CommandFields
{
    /** Shown in place of a field that is never shown. */
    public static final String NOT_SHOWN = "(not shown)";
    /** Var data fields skipped unread. */
    public static final Set<String> REDACTED = Set.of("credentialHash");
    /** Fields that are money, fixed point at 10^8. */
    public static final Set<String> MONEY_FIELDS = Set.of("amount", "maxOrderNotional", "creditLimit");
    /** Fields that are prices at the instrument's scale. */
    public static final Set<String> PRICE_FIELDS = Set.of("tickSize", "referencePrice");

    private static final String CODECS = "io.ringex.protocol.codecs.";
    private static final Map<Integer, Layout> LAYOUTS = new ConcurrentHashMap<>();

    private final MessageValidator validator = new MessageValidator(1 << 16);
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();

    /**
     * A command as the admin log shows it.
     *
     * @param templateId   its template id, 0 when there was no command.
     * @param name         its message name ({@link MessageCatalog#name}).
     * @param operatorName the operator it names, or null when it carries none (or it is empty).
     * @param reason       the reason it gives, or null when it carries none.
     * @param fields       its other fields in wire order (groups as lists of maps), without requestId; a
     *                     {@code problem} entry when it could not be decoded.
     */
    public record Decoded(int templateId, String name, String operatorName, String reason, Map<String, Object> fields)
    {
    }

    /**
     * @param buffer       holding the command, header included.
     * @param offset       where it starts.
     * @param length       its length; 0 when the AdminResponse carried none (an engine before schema version 2).
     * @param templateId   the template the AdminResponse says it answers, for a response without the command.
     * @param priceScaleOf an instrument's price scale, or -1 when unknown.
     * @return the command's fields.
     */
    public Decoded decode(
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final int templateId,
        final IntUnaryOperator priceScaleOf)
    {
        if (length == 0)
        {
            return new Decoded(templateId, MessageCatalog.name(templateId), null, null, Map.of());
        }
        final RejectReason invalid = validator.validate(buffer, offset, length);
        header.wrap(buffer, offset);
        final int commandTemplate = header.templateId();
        final String name = MessageCatalog.name(commandTemplate);
        if (invalid != RejectReason.NONE)
        {
            return new Decoded(commandTemplate, name, null, null, Map.of("problem", "malformed: " + invalid.name()));
        }
        if (MessageCatalog.kind(commandTemplate) != MessageCatalog.Kind.ADMIN)
        {
            return new Decoded(commandTemplate, name, null, null, Map.of("problem", "not an admin command"));
        }
        final Layout layout;
        try
        {
            layout = LAYOUTS.computeIfAbsent(commandTemplate, CommandFields::layoutOf);
        }
        catch (final IllegalStateException ex)
        {
            return new Decoded(commandTemplate, name, null, null, Map.of("problem", ex.getMessage()));
        }
        try
        {
            final Object decoder = layout.decoderType.getConstructor().newInstance();
            layout.wrap.invoke(decoder, buffer, offset + MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(),
                header.version());
            final Map<String, Object> fields = new LinkedHashMap<>();
            read(layout.parts, decoder, fields);
            final Object operator = fields.remove("operatorName");
            final Object reason = fields.remove("reason");
            fields.remove("requestId");
            scale(fields, priceScaleOf);
            // A change written before schema version 4 (AddInstrument, SetLimits, ...) has neither field: its decoder
            // gives "" for both, which is no operator and no reason, not an empty one.
            final boolean named = operator != null && !"".equals(operator);
            return new Decoded(commandTemplate, name, named ? operator.toString() : null,
                reason == null || (!named && "".equals(reason)) ? null : reason.toString(), fields);
        }
        catch (final ReflectiveOperationException | RuntimeException ex)
        {
            final Throwable cause = ex instanceof InvocationTargetException ite && ite.getCause() != null ?
                ite.getCause() : ex;
            return new Decoded(commandTemplate, name, null, null, Map.of("problem", "cannot be decoded: " + cause));
        }
    }

    private static void read(final List<Part> parts, final Object decoder, final Map<String, Object> out)
        throws ReflectiveOperationException
    {
        for (final Part part : parts)
        {
            switch (part.kind)
            {
                case FIELD:
                    out.put(part.name, text(part.accessor.invoke(decoder)));
                    break;
                case GROUP:
                    final List<Map<String, Object>> entries = new ArrayList<>();
                    for (final Object entry : (Iterable<?>)part.accessor.invoke(decoder))
                    {
                        final Map<String, Object> values = new LinkedHashMap<>();
                        read(part.entryParts, entry, values);
                        entries.add(values);
                    }
                    out.put(part.name, entries);
                    break;
                case TEXT:
                    out.put(part.name, part.accessor.invoke(decoder));
                    break;
                case SKIPPED:
                default:
                    final int skipped = (int)part.accessor.invoke(decoder);
                    out.put(part.name, REDACTED.contains(part.name) ? NOT_SHOWN : skipped + " bytes");
                    break;
            }
        }
    }

    private static Object text(final Object value)
    {
        if (value instanceof Enum<?> e)
        {
            return e.name();
        }
        if (value instanceof Number || value instanceof Boolean)
        {
            return value;
        }
        return String.valueOf(value);
    }

    private static void scale(final Map<String, Object> fields, final IntUnaryOperator priceScaleOf)
    {
        for (final Map.Entry<String, Object> e : fields.entrySet())
        {
            if (MONEY_FIELDS.contains(e.getKey()) && e.getValue() instanceof Long money)
            {
                e.setValue(FixedPoint.format(money, FixedPoint.MONEY_SCALE));
            }
        }
        int scale = -1;
        if (fields.get("priceScale") instanceof Number s)
        {
            scale = s.intValue();
        }
        else if (fields.get("instrumentId") instanceof Integer instrumentId)
        {
            scale = priceScaleOf.applyAsInt(instrumentId);
        }
        if (scale < 0 || scale > FixedPoint.MAX_PRICE_SCALE)
        {
            return;
        }
        for (final Map.Entry<String, Object> e : fields.entrySet())
        {
            if (PRICE_FIELDS.contains(e.getKey()) && e.getValue() instanceof Long price)
            {
                e.setValue(FixedPoint.format(price, scale));
            }
        }
    }

    // ---------------------------------------------------------------- layouts, learnt once per template

    /**
     * @param templateId an admin command's template id.
     * @return the names of its top-level fields, groups and var data in the order they are read (for tests: it must
     *         be the schema's).
     */
    static List<String> partNames(final int templateId)
    {
        final List<String> names = new ArrayList<>();
        for (final Part part : LAYOUTS.computeIfAbsent(templateId, CommandFields::layoutOf).parts)
        {
            names.add(part.name);
        }
        return names;
    }

    private enum Kind
    {
        FIELD, GROUP, TEXT, SKIPPED
    }

    private record Part(Kind kind, String name, long order, Method accessor, List<Part> entryParts)
    {
    }

    private record Layout(Class<?> decoderType, Method wrap, List<Part> parts)
    {
    }

    private static Layout layoutOf(final int templateId)
    {
        final String name = MessageCatalog.name(templateId);
        try
        {
            final Class<?> type = Class.forName(CODECS + name + "Decoder");
            final Method wrap = type.getMethod("wrap", DirectBuffer.class, int.class, int.class, int.class);
            return new Layout(type, wrap, partsOf(type));
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new IllegalStateException("no generated decoder for " + name + ": " + ex, ex);
        }
    }

    /**
     * The parts of a message or group decoder: a field has a static {@code <name>EncodingOffset()}, a group a static
     * {@code <name>DecoderId()}, var data a static {@code <name>HeaderLength()} (text if it also names a character
     * encoding). They are read in wire order: the fields by their offset in the block (a field added in a later
     * version sits at the block's end whatever its schema id), then the groups and the var data by schema id.
     */
    private static List<Part> partsOf(final Class<?> type) throws ReflectiveOperationException
    {
        final List<Part> parts = new ArrayList<>();
        for (final Method m : type.getMethods())
        {
            if (!Modifier.isStatic(m.getModifiers()) || m.getParameterCount() != 0 || !m.getName().endsWith("Id"))
            {
                continue;
            }
            final String base = m.getName().substring(0, m.getName().length() - 2);
            if (base.endsWith("Decoder") && has(type, base + "SinceVersion"))
            {
                final String group = base.substring(0, base.length() - "Decoder".length());
                final Method accessor = type.getMethod(group);
                parts.add(new Part(Kind.GROUP, group, id(m), accessor, partsOf(accessor.getReturnType())));
            }
            else if (has(type, base + "EncodingOffset"))
            {
                final long offset = ((Number)type.getMethod(base + "EncodingOffset").invoke(null)).longValue();
                parts.add(new Part(Kind.FIELD, base, offset - FIELDS_FIRST, type.getMethod(base), List.of()));
            }
            else if (has(type, base + "HeaderLength"))
            {
                final String capitalised = Character.toUpperCase(base.charAt(0)) + base.substring(1);
                final boolean text = has(type, base + "CharacterEncoding") && !REDACTED.contains(base);
                parts.add(new Part(text ? Kind.TEXT : Kind.SKIPPED, base, id(m),
                    text ? type.getMethod(base) : type.getMethod("skip" + capitalised), List.of()));
            }
        }
        parts.sort(Comparator.comparingLong(Part::order));
        return List.copyOf(parts);
    }

    /** Puts every field (ordered by block offset) before every group and var data (ordered by schema id). */
    private static final long FIELDS_FIRST = 1L << 32;

    private static long id(final Method idMethod) throws ReflectiveOperationException
    {
        return ((Number)idMethod.invoke(null)).longValue();
    }

    private static boolean has(final Class<?> type, final String staticMethod)
    {
        try
        {
            return Modifier.isStatic(type.getMethod(staticMethod).getModifiers());
        }
        catch (final NoSuchMethodException ex)
        {
            return false;
        }
    }
}
