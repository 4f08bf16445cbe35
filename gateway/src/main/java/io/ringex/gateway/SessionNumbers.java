package io.ringex.gateway;

/**
 * How a gateway splits its session-number space (the low 32 bits of a {@code sessionId}) between its SBE, FIX and web
 * sessions, so each side picks its own events off the shared engine egress without asking the others: | <pre> |  bit 31
 * bit 30   bits 29..0 |  +------+--------+--------------------------------------------+ |  |  0   | 0=SBE  | SBE: logon
 * counter (1..2^30-1)              | |  |      | 1=FIX  | FIX: Artio's persistent session id          | |  |  1   |   0
 * | web: the API key's number (1..2^30-1)       | |  +------+--------+--------------------------------------------+ |
 * </pre>
 * <p>
 * No number repeats across gateway restarts: an order outlives its session, and its fills go to the session that
 * entered it (docs/architecture.md, "The gateway's front ends").
 */
public final class SessionNumbers
{
    /** Set on FIX session numbers. */
    public static final int FIX_FLAG = 0x4000_0000;

    /** Set on web (REST and WebSocket) session numbers. */
    public static final int WEB_FLAG = 0x8000_0000;

    /** Mask of the per-protocol part. */
    public static final int NUMBER_MASK = 0x3FFF_FFFF;

    /** 2026-01-01T00:00:00Z in Unix seconds: where the SBE numbering clock starts. */
    public static final long SBE_NUMBERING_EPOCH_S = 1_767_225_600L;

    private SessionNumbers()
    {
    }

    /**
     * @param sessionNumber low 32 bits of a session id.
     * @return true if it names a FIX session.
     */
    public static boolean isFix(final int sessionNumber)
    {
        return (sessionNumber & (WEB_FLAG | FIX_FLAG)) == FIX_FLAG;
    }

    /**
     * @param sessionNumber low 32 bits of a session id.
     * @return true if it names a web (REST and WebSocket) session.
     */
    public static boolean isWeb(final int sessionNumber)
    {
        return (sessionNumber & WEB_FLAG) != 0;
    }

    /**
     * @param apiKeyNumber the API key's number, 1..2^30-1.
     * @return the session number.
     */
    public static int web(final int apiKeyNumber)
    {
        return WEB_FLAG | (apiKeyNumber & NUMBER_MASK);
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
     * @param epochMillis the wall clock when the gateway starts.
     * @return the SBE logon counter to count on from, so that session numbers do not repeat across restarts.
     */
    public static int firstSbeCounter(final long epochMillis)
    {
        return sbe((int)(epochMillis / 1000 - SBE_NUMBERING_EPOCH_S));
    }

    /**
     * @param artioSessionId Artio's session id.
     * @return the session number.
     */
    public static int fix(final long artioSessionId)
    {
        return FIX_FLAG | ((int)artioSessionId & NUMBER_MASK);
    }

    /**
     * The inverse of {@link #fix(long)}: Artio's session ids count up from 1 and persist in its log directory, so a
     * FIX session number still names its Artio session after a gateway restart.
     *
     * @param sessionNumber a FIX session number.
     * @return Artio's session id.
     */
    public static long artioSessionId(final int sessionNumber)
    {
        return sessionNumber & NUMBER_MASK;
    }
}
