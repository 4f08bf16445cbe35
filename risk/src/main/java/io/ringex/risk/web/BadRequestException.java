package io.ringex.risk.web;

/**
 * A request the API does not read (a query parameter given twice, an enum value not as documented): answered 400 with
 * the message, which names the parameter ({@link ApiErrors}).
 */
public final class BadRequestException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what is wrong, naming the parameter.
     */
    public BadRequestException(final String message)
    {
        super(message, null, false, false);
    }
}
