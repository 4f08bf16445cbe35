package io.ringex.risk.audit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntUnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

import io.ringex.protocol.FixedPoint;

/**
 * A message's text as the replay tools write it ({@code "Name field=value|field=value|group=[(f=v|f=v)]"}) made
 * readable: each field the schema types {@code Money} shown as decimal money, each {@code Price} or
 * {@code OptionalPrice} at its instrument's scale (the {@code instrumentId} of the same group entry, else of the
 * message), a null price as {@code null}, each {@code TimeNs} as a UTC instant. Which fields those are is read once
 * from the schema the protocol jar ships ({@code /sbe/ringex-schema.xml}), so a message added to the schema is shown
 * the same way without code here. A price whose instrument's scale is unknown is left as the wire's integer.
 * <p>
 * Threading: immutable after construction; {@link #readable} may be called from any thread.
 */
public final class AuditText
{
    private static final Pattern FIELD = Pattern.compile("(?<=^|[ |(\\[])([A-Za-z][A-Za-z0-9]*)=(-?\\d+)(?=$|[|)\\]])");
    private static final Pattern INSTRUMENT = Pattern.compile("(?<=^|[ |(\\[])instrumentId=(\\d+)(?=$|[|)\\]])");
    private static final Pattern ENTRY = Pattern.compile("\\(([^()]*)\\)");
    private static final String MONEY = "money";
    private static final String PRICE = "price";
    private static final String TIME = "time";

    /** Message name to field name to MONEY or PRICE. */
    private final Map<String, Map<String, String>> units;

    /** Reads the schema the protocol jar ships. */
    public AuditText()
    {
        this.units = readSchema();
    }

    /**
     * @param text    a message's text from the replay tools.
     * @param scaleOf an instrument's price scale, or -1 when unknown.
     * @return the same text with money and prices as decimals.
     */
    public String readable(final String text, final IntUnaryOperator scaleOf)
    {
        final int space = text.indexOf(' ');
        final Map<String, String> fields = units.get(space < 0 ? text : text.substring(0, space));
        if (fields == null || space < 0)
        {
            return text;
        }
        final int rootScale = scaleIn(text.replaceAll("\\([^()]*\\)", ""), scaleOf);
        final StringBuilder out = new StringBuilder(text.length() + 32);
        final Matcher entries = ENTRY.matcher(text);
        int at = 0;
        while (entries.find())
        {
            out.append(format(text.substring(at, entries.start()), fields, rootScale));
            final String entry = entries.group(1);
            final int entryScale = entry.contains("instrumentId=") ? scaleIn(entry, scaleOf) : rootScale;
            out.append('(').append(format(entry, fields, entryScale)).append(')');
            at = entries.end();
        }
        out.append(format(text.substring(at), fields, rootScale));
        return out.toString();
    }

    private static int scaleIn(final String part, final IntUnaryOperator scaleOf)
    {
        final Matcher instrument = INSTRUMENT.matcher(part);
        if (instrument.find())
        {
            try
            {
                return scaleOf.applyAsInt(Integer.parseInt(instrument.group(1)));
            }
            catch (final NumberFormatException ex)
            {
                return -1;
            }
        }
        return -1;
    }

    private static String format(final String part, final Map<String, String> fields, final int scale)
    {
        final Matcher field = FIELD.matcher(part);
        final StringBuilder out = new StringBuilder(part.length() + 16);
        while (field.find())
        {
            final String unit = fields.get(field.group(1));
            String value = field.group(2);
            final long raw;
            try
            {
                raw = Long.parseLong(value);
            }
            catch (final NumberFormatException ex)
            {
                continue;
            }
            if (MONEY.equals(unit))
            {
                value = FixedPoint.format(raw, FixedPoint.MONEY_SCALE);
            }
            else if (PRICE.equals(unit))
            {
                value = raw == Long.MIN_VALUE ? "null" : scale < 0 ? value : FixedPoint.format(raw, scale);
            }
            else if (TIME.equals(unit) && raw > 0)
            {
                value = Instant.ofEpochSecond(0, raw).toString();
            }
            field.appendReplacement(out, Matcher.quoteReplacement(field.group(1) + "=" + value));
        }
        field.appendTail(out);
        return out.toString();
    }

    private static Map<String, Map<String, String>> readSchema()
    {
        try (InputStream in = AuditText.class.getResourceAsStream("/sbe/ringex-schema.xml"))
        {
            if (in == null)
            {
                throw new IllegalStateException("the protocol jar's /sbe/ringex-schema.xml is not on the class path");
            }
            final DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setNamespaceAware(false);
            final Document schema = factory.newDocumentBuilder().parse(in);
            final Map<String, Map<String, String>> out = new HashMap<>();
            final NodeList messages = schema.getElementsByTagName("sbe:message");
            for (int i = 0; i < messages.getLength(); i++)
            {
                final Element message = (Element)messages.item(i);
                final Map<String, String> fields = new HashMap<>();
                collect(message, fields);
                out.put(message.getAttribute("name"), fields);
            }
            return out;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        catch (final ParserConfigurationException | SAXException ex)
        {
            throw new IllegalStateException("the schema could not be read: " + ex, ex);
        }
    }

    private static void collect(final Element parent, final Map<String, String> fields)
    {
        for (Node child = parent.getFirstChild(); child != null; child = child.getNextSibling())
        {
            if (child instanceof Element element)
            {
                if ("field".equals(element.getTagName()))
                {
                    final String type = element.getAttribute("type");
                    if ("Money".equals(type))
                    {
                        fields.put(element.getAttribute("name"), MONEY);
                    }
                    else if ("Price".equals(type) || "OptionalPrice".equals(type))
                    {
                        fields.put(element.getAttribute("name"), PRICE);
                    }
                    else if ("TimeNs".equals(type))
                    {
                        fields.put(element.getAttribute("name"), TIME);
                    }
                }
                else if ("group".equals(element.getTagName()))
                {
                    collect(element, fields);
                }
            }
        }
    }
}
