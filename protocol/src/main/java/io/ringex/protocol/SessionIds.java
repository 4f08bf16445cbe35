package io.ringex.protocol;

/**
 * Session ids name both the gateway that owns a session and the session within it, so the engine's egress can route
 * a report to the right gateway by id alone: {@code sessionId = (gatewayId << 32) | sessionNumber}.
 * <p>
 * Gateway id 0 is reserved for the engine's own admin sources (risk service, operator tools).
 */
public final class SessionIds
{
    /** The gateway id of admin sources. */
    public static final int ADMIN_GATEWAY_ID = 0;

    private SessionIds()
    {
    }

    /**
     * Compose a session id.
     *
     * @param gatewayId     1.. for gateways, {@link #ADMIN_GATEWAY_ID} for admin sources.
     * @param sessionNumber the gateway's own number for the session.
     * @return the session id.
     */
    public static long sessionId(final int gatewayId, final int sessionNumber)
    {
        return ((long)gatewayId << 32) | (sessionNumber & 0xFFFF_FFFFL);
    }

    /**
     * The gateway part of a session id.
     *
     * @param sessionId the session id.
     * @return its gateway id.
     */
    public static int gatewayId(final long sessionId)
    {
        return (int)(sessionId >>> 32);
    }

    /**
     * The gateway-local part of a session id.
     *
     * @param sessionId the session id.
     * @return its session number.
     */
    public static int sessionNumber(final long sessionId)
    {
        return (int)sessionId;
    }
}
