package io.ringex.risk.web;

import java.util.List;
import java.util.Map;

import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * A request body the API cannot read is answered 400 with {@code {"error":"BAD_REQUEST","message":...}}, the
 * message naming the field and what it must be ({@code "accountId must be a JSON integer"}), never with the
 * parser's internals. JSON is read strictly (see {@link HttpConfiguration#strictJson()}): an id of {@code 1004.7} or
 * {@code "1004"} is refused here, not rounded or converted.
 */
@RestControllerAdvice
public final class ApiErrors
{
    private static final int MAX_DETAIL = 160;

    /**
     * @param ex why the body could not be read.
     * @return 400 with the field and the reason.
     */
    @ExceptionHandler(HttpMessageNotReadableException.class)
    public ResponseEntity<Map<String, String>> unreadable(final HttpMessageNotReadableException ex)
    {
        return ResponseEntity.badRequest().body(Map.of("error", "BAD_REQUEST", "message", describe(ex)));
    }

    /**
     * @param ex an unreadable body's exception.
     * @return what a client needs to fix it.
     */
    static String describe(final Throwable ex)
    {
        for (Throwable t = ex; t != null; t = t.getCause())
        {
            if (t instanceof JacksonException jackson)
            {
                final String field = path(jackson.getPath());
                if (jackson instanceof UnrecognizedPropertyException unknown)
                {
                    return "unknown field '" + field + "'";
                }
                if (jackson instanceof InputCoercionException range && !field.isEmpty())
                {
                    return field + " is out of range for " + typeName(range.getTargetType());
                }
                if (jackson instanceof MismatchedInputException mismatch && !field.isEmpty())
                {
                    final String original = mismatch.getOriginalMessage();
                    // every field of an action is required: a primitive left out (or null) is not taken as 0
                    final boolean absent = original != null && original.startsWith("Cannot map `null`");
                    return field + (absent ? " is missing or null; it must be " : " must be ") +
                        typeName(mismatch.getTargetType());
                }
                if (jackson instanceof StreamReadException && jackson.getLocation() != null)
                {
                    return "malformed JSON at line " + jackson.getLocation().getLineNr() + ", column " +
                        jackson.getLocation().getColumnNr();
                }
                return (field.isEmpty() ? "the body" : field) + " is invalid: " + shortened(
                    jackson.getOriginalMessage());
            }
        }
        final String message = ex.getMessage();
        if (message != null && message.startsWith("Required request body is missing"))
        {
            return "the request body is missing";
        }
        return "the request body cannot be read as JSON";
    }

    private static String path(final List<JacksonException.Reference> path)
    {
        final StringBuilder out = new StringBuilder();
        for (final JacksonException.Reference ref : path)
        {
            if (ref.getPropertyName() != null)
            {
                if (out.length() > 0)
                {
                    out.append('.');
                }
                out.append(ref.getPropertyName());
            }
            else if (ref.getIndex() >= 0)
            {
                out.append('[').append(ref.getIndex()).append(']');
            }
        }
        return out.toString();
    }

    private static String typeName(final Class<?> type)
    {
        if (type == null)
        {
            return "of another type";
        }
        if (type == long.class || type == Long.class || type == int.class || type == Integer.class ||
            type == short.class || type == Short.class || type == byte.class || type == Byte.class)
        {
            return "a JSON integer" + (type == int.class || type == Integer.class ? " (32-bit)" : "");
        }
        if (type == boolean.class || type == Boolean.class)
        {
            return "true or false";
        }
        if (type == String.class)
        {
            return "a JSON string";
        }
        if (List.class.isAssignableFrom(type) || type.isArray())
        {
            return "a JSON array";
        }
        if (type.isRecord())
        {
            return "a JSON object";
        }
        return "a " + type.getSimpleName();
    }

    private static String shortened(final String text)
    {
        if (text == null)
        {
            return "";
        }
        final String line = text.lines().findFirst().orElse("");
        return line.length() > MAX_DETAIL ? line.substring(0, MAX_DETAIL) + "..." : line;
    }
}
