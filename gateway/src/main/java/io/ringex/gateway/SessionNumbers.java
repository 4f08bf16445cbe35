package io.ringex.gateway;

/**
 * How a gateway splits its session-number space (the low 32 bits of a {@code sessionId}) between its SBE sessions
 * and its FIX sessions, so each side can pick its own events off the shared engine egress without asking the other.
 * <pre>
 *  bit 31  bit 30   bits 29..0
 *  +------+--------+--------------------------------------------+
 *  |  0   | 0=SBE  | SBE: logon counter (1..2^30-1)              |
 *  |      | 1=FIX  | FIX: Artio's persistent session id          |
 *  +------+--------+--------------------------------------------+
 * </pre>
 * A FIX session keeps its number across reconnects (Artio's session id is persistent per CompID pair), so reports
 * for orders entered before a reconnect still reach it.
 */
public final class SessionNumbers
{
    /** Set on FIX session numbers. */
    public static final int FIX_FLAG = 0x4000_0000;

    /** Mask of the per-protocol part. */
    public static final int NUMBER_MASK = 0x3FFF_FFFF;

    private SessionNumbers()
    {
    }

    /**
     * @param sessionNumber low 32 bits of a session id.
     * @return true if it names a FIX session.
     */
    public static boolean isFix(final int sessionNumber)
    {
        return (sessionNumber & FIX_FLAG) != 0;
    }

    /**
     * @param counter SBE logon counter.
     * @return the session number.
     */
    public static int sbe(final int counter)
    {
        return counter & NUMBER_MASK;
    }

    /**
     * @param artioSessionId Artio's session id.
     * @return the session number.
     */
    public static int fix(final long artioSessionId)
    {
        return FIX_FLAG | ((int)artioSessionId & NUMBER_MASK);
    }
}
