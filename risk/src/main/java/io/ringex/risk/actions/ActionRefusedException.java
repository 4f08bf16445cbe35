package io.ringex.risk.actions;

/**
 * The action cannot apply to the venue as the service sees it (e.g. a user that exists, an instrument the service
 * has no definition of): the API answers 409 Conflict with the code and the reason. Nothing was sent.
 * <p>
 * Thread safety: immutable.
 */
public final class ActionRefusedException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final String code;

    /**
     * @param code    short machine-readable reason, e.g. USER_EXISTS.
     * @param message the reason, for people.
     */
    public ActionRefusedException(final String code, final String message)
    {
        super(message);
        this.code = code;
    }

    /** @return the short reason. */
    public String code()
    {
        return code;
    }
}
