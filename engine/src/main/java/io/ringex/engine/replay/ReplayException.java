package io.ringex.engine.replay;

/**
 * A question the journal cannot answer as asked (a time outside it, a sequence in a gap, an unknown order, a journal
 * of another schema version, a damaged file): the message says which and why, for the operator; the exit status
 * says how the command ended.
 */
public final class ReplayException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /** Exit status of a question the journal cannot answer. */
    public static final int NOT_ANSWERABLE = 1;
    /** Exit status of a command line that does not say what to do. */
    public static final int USAGE = 2;

    private final int exitStatus;

    /**
     * @param message    what is wrong, in the operator's terms.
     * @param exitStatus the command's exit status.
     */
    public ReplayException(final String message, final int exitStatus)
    {
        super(message);
        this.exitStatus = exitStatus;
    }

    /**
     * @param message what is wrong.
     */
    public ReplayException(final String message)
    {
        this(message, NOT_ANSWERABLE);
    }

    /** @return the exit status. */
    public int exitStatus()
    {
        return exitStatus;
    }
}
