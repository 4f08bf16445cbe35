package io.ringex.gateway.fix;

import io.ringex.protocol.FixedPoint;
import uk.co.real_logic.artio.fields.DecimalFloat;

/**
 * Fits Ringex values into what Artio 0.175's FIX encoders can carry, and notes every change for Text(58)
 * (docs/client.md, "Numbers").
 * <p>
 * Decimals are written with every fractional digit of their scale ({@code 99.40}) through a {@link DecimalFloat} set
 * field by field ({@link #decimal()}), and cut to FIX's 18 significant digits when they have 19; text keeps 0x20..0x7E,
 * every other character becomes '?'.
 * <p>
 * Thread safety: single-threaded; reused per message. Allocates nothing.
 */
final class FixWireValues
{
    /** Largest unscaled magnitude Artio's {@code DecimalFloat} accepts. */
    static final long MAX_UNSCALED = 999_999_999_999_999_999L;

    /** Largest scale the translator uses (the int64 fixed-point range). */
    static final int MAX_SCALE = 18;

    /** A decimal lost digits or was clamped. */
    static final int DIGITS = 1;
    /** A string had characters FIX cannot carry. */
    static final int BYTES = 2;
    /** An event named an instrument the gateway does not know: prices went unscaled. */
    static final int INSTRUMENT = 4;
    /** An event carried an enum value outside the schema this gateway was built with. */
    static final int ENUM = 8;

    private final StringBuilder notes = new StringBuilder(256);
    private final DecimalFloat decimal = new DecimalFloat();
    private long value;
    private int scale;
    private int kinds;

    /** Forget the previous message's notes. */
    void reset()
    {
        notes.setLength(0);
        kinds = 0;
    }

    /**
     * Fit a fixed-point value; read the result from {@link #decimal()} (or {@link #value()} and {@link #scale()}).
     *
     * @param fixedPoint the value at {@code valueScale}.
     * @param valueScale its scale (clamped to 0..{@link #MAX_SCALE}).
     * @param field      the FIX field's name and tag, e.g. {@code "Price(44)"}, for the note.
     * @return true if sent exactly.
     */
    // DecimalFloat's value(long) and scale(int) are deprecated, but they are Artio 0.175's only setters that keep the
    // trailing zeros (set(value, scale) and the constructors normalise); FixEventTranslatorTest shows if that changes.
    @SuppressWarnings("deprecation")
    boolean fit(final long fixedPoint, final int valueScale, final String field)
    {
        final int s0 = Math.max(0, Math.min(MAX_SCALE, valueScale));
        long v = fixedPoint;
        int s = s0;
        while (s > 0 && v != 0 && v % 10 == 0)
        {
            v /= 10;
            s--;
        }
        if (v <= MAX_UNSCALED && v >= -MAX_UNSCALED)
        {
            // Within FIX's significant digits: sent at the value's own scale, trailing zeros included.
            value = fixedPoint;
            scale = s0;
            decimal.value(value).scale(scale);
            return true;
        }
        while (s > 0 && (v > MAX_UNSCALED || v < -MAX_UNSCALED))
        {
            v /= 10;
            s--;
        }
        if (v > MAX_UNSCALED)
        {
            v = MAX_UNSCALED;
        }
        else if (v < -MAX_UNSCALED)
        {
            v = -MAX_UNSCALED;
        }
        value = v;
        scale = s;
        decimal.value(value).scale(scale);
        kinds |= DIGITS;
        startNote().append(field).append('=');
        FixedPoint.appendTo(notes, fixedPoint, s0);
        notes.append(" exceeds FIX's 18 significant digits, sent as ");
        FixedPoint.appendTo(notes, v, s);
        return false;
    }

    /**
     * @return the last {@link #fit} as a decimal for an Artio encoder's {@code field(ReadOnlyDecimalFloat)} setter,
     * which copies it as it is (reused: valid until the next fit).
     */
    DecimalFloat decimal()
    {
        return decimal;
    }

    /**
     * @return the unscaled value of the last {@link #fit}.
     */
    long value()
    {
        return value;
    }

    /**
     * @return the scale of the last {@link #fit}.
     */
    int scale()
    {
        return scale;
    }

    /**
     * Copy text for a FIX string field.
     *
     * @param in    the text.
     * @param out   where the printable copy goes (cleared first).
     * @param field the FIX field's name and tag, for the note.
     * @return {@code out}.
     */
    StringBuilder printable(final CharSequence in, final StringBuilder out, final String field)
    {
        out.setLength(0);
        boolean changed = false;
        final int length = in.length();
        for (int i = 0; i < length; i++)
        {
            final char c = in.charAt(i);
            if (c >= ' ' && c <= '~')
            {
                out.append(c);
            }
            else
            {
                out.append('?');
                changed = true;
            }
        }
        if (changed)
        {
            kinds |= BYTES;
            startNote().append(field).append(" had characters FIX cannot carry, each sent as '?'");
        }
        return out;
    }

    /**
     * Note something else.
     *
     * @param kind one of the kind constants.
     * @return the note's builder, to append the text to.
     */
    StringBuilder note(final int kind)
    {
        kinds |= kind;
        return startNote();
    }

    /**
     * @return what the notes are about: a combination of {@link #DIGITS}, {@link #BYTES}, {@link #INSTRUMENT},
     * {@link #ENUM}; 0 if the message went out as it came.
     */
    int kinds()
    {
        return kinds;
    }

    /**
     * @return the notes, "; "-separated (empty if none).
     */
    CharSequence notes()
    {
        return notes;
    }

    /**
     * @param kind one of the kind constants.
     * @return its name, for logs.
     */
    static String kindName(final int kind)
    {
        switch (kind)
        {
            case DIGITS:
                return "decimal beyond FIX's 18 significant digits";
            case BYTES:
                return "text with characters FIX cannot carry";
            case INSTRUMENT:
                return "instrument unknown to the gateway";
            case ENUM:
                return "enum value unknown to this gateway";
            default:
                return "kind " + kind;
        }
    }

    private StringBuilder startNote()
    {
        if (notes.length() > 0)
        {
            notes.append("; ");
        }
        return notes;
    }
}
