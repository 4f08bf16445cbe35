package io.ringex.gateway.auth;

/**
 * The caller's host from the address forms the transports report: Artio's {@code /10.0.0.5:51234}, an Aeron image's
 * source identity {@code 10.0.0.5:51234} or {@code [::1]:51234}, and {@code aeron:ipc} for a caller on this machine.
 * <p>
 * Thread safety: stateless; any thread.
 */
public final class RemoteAddresses
{
    /** The address of a caller on this machine's shared memory (Aeron IPC). */
    public static final String IPC = "aeron:ipc";

    private RemoteAddresses()
    {
    }

    /**
     * @param remote an address with a port, as a transport reports it; may be null.
     * @return the host part, without brackets, a leading slash or the port; "unknown" for null or empty.
     */
    public static String host(final String remote)
    {
        if (null == remote || remote.isEmpty())
        {
            return "unknown";
        }
        if (remote.startsWith("aeron:"))
        {
            return IPC;
        }
        String text = remote;
        final int slash = text.lastIndexOf('/');
        if (slash >= 0)
        {
            text = text.substring(slash + 1);
        }
        if (text.startsWith("["))
        {
            final int close = text.indexOf(']');
            return close > 0 ? text.substring(1, close) : text;
        }
        final int colon = text.lastIndexOf(':');
        return colon > 0 && text.indexOf(':') == colon ? text.substring(0, colon) : text;
    }
}
