package io.ringex.risk.web;

import java.beans.PropertyEditorSupport;

import org.springframework.web.bind.WebDataBinder;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.InitBinder;

/**
 * Every controller reads a {@code long}, {@code Long}, {@code int} or {@code Integer} path variable or query parameter
 * with {@link StrictRequests#decimalLong} ({@code 0x3EB}, {@code #3EB}, {@code +1003} and {@code " 1003"} are
 * refused): a custom editor, because a converter alone is not enough (when a conversion fails, Spring's data binder
 * falls back to its default number editor, which reads hexadecimal and a sign). A refusal reaches
 * {@link ApiErrors#mismatch} as a type mismatch naming the parameter.
 */
@ControllerAdvice
public class StrictNumberBinding
{
    /**
     * @param binder the binder of one request's parameters.
     */
    @InitBinder
    public void decimalNumbersOnly(final WebDataBinder binder)
    {
        binder.registerCustomEditor(long.class, new Decimal(false, false));
        binder.registerCustomEditor(Long.class, new Decimal(false, true));
        binder.registerCustomEditor(int.class, new Decimal(true, false));
        binder.registerCustomEditor(Integer.class, new Decimal(true, true));
    }

    private static final class Decimal extends PropertyEditorSupport
    {
        private final boolean intRange;
        private final boolean emptyIsNull;

        Decimal(final boolean intRange, final boolean emptyIsNull)
        {
            this.intRange = intRange;
            this.emptyIsNull = emptyIsNull;
        }

        @Override
        public void setAsText(final String text)
        {
            if (emptyIsNull && (null == text || text.isEmpty()))
            {
                setValue(null);
                return;
            }
            setValue(intRange ? (Object)StrictRequests.decimalInt(text) : (Object)StrictRequests.decimalLong(text));
        }
    }
}
