package io.ringex.risk.web;

import java.util.List;
import java.util.Map;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;

import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * A request the API cannot read is answered 400 with {@code {"error":"BAD_REQUEST","message":...}}, the message
 * naming the field and what it must be ({@code "accountId must be a JSON integer"}, {@code "id must be a decimal
 * integer"}, {@code "accountId is given more than once"}), never with the parser's internals. JSON is read strictly
 * (see {@link HttpConfiguration#strictJson()}): an id of {@code 1004.7} or {@code "1004"}, or a key given twice, is
 * refused here, not rounded, converted or overwritten; so is a path or query id that is not decimal
 * ({@link StrictRequests}). Consulted before the controllers' own advice ({@link ActionErrors}), which would otherwise
 * answer a path id's refusal with the converter's words rather than the parameter's name.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
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
     * @param ex a path variable or query parameter that does not convert (an id not in decimal, out of range).
     * @return 400 naming the parameter.
     */
    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    public ResponseEntity<Map<String, String>> mismatch(final MethodArgumentTypeMismatchException ex)
    {
        final Class<?> type = ex.getRequiredType();
        final boolean integer = type == long.class || type == Long.class || type == int.class || type == Integer.class;
        return ResponseEntity.badRequest().body(Map.of("error", "BAD_REQUEST", "message",
            ex.getName() + (integer ? " must be a decimal integer" : " is invalid") +
            (integer && (type == int.class || type == Integer.class) ? " (32-bit)" : "")));
    }

    /**
     * @param ex a parameter the API does not read (given twice, an enum value not as documented).
     * @return 400 with the reason.
     */
    @ExceptionHandler(BadRequestException.class)
    public ResponseEntity<Map<String, String>> badRequest(final BadRequestException ex)
    {
        return ResponseEntity.badRequest().body(Map.of("error", "BAD_REQUEST", "message", ex.getMessage()));
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
                final String duplicate = duplicateKey(jackson.getOriginalMessage());
                if (null != duplicate)
                {
                    return duplicate + " is given more than once";
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

    /** The key a strict duplicate detection names ({@code Duplicate Object property "accountId"}), or null. */
    private static String duplicateKey(final String message)
    {
        final String prefix = "Duplicate Object property \"";
        if (message == null || !message.startsWith(prefix))
        {
            return null;
        }
        final int end = message.indexOf('"', prefix.length());
        final String key = end < 0 ? message.substring(prefix.length()) : message.substring(prefix.length(), end);
        return shortened(key.length() > 64 ? key.substring(0, 64) : key);
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
