package io.ringex.client;

import io.ringex.protocol.codecs.RejectReason;

/**
 * The gateway refused a logon that {@link ExchangeClient#connect(ExchangeClient.Context)} sent: the reason and the
 * gateway's text say why (INVALID_CREDENTIALS for a wrong password or an unknown or locked user, THROTTLED for a user
 * at its session limit, ENGINE_BUSY before the gateway has its users).
 */
public final class LogonRefusedException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final transient RejectReason reason;

    /**
     * @param username the user refused.
     * @param reason   the gateway's reason.
     * @param text     the gateway's text, may be empty.
     */
    public LogonRefusedException(final String username, final RejectReason reason, final String text)
    {
        super("logon of " + username + " refused: " + reason + (null == text || text.isEmpty() ? "" : " (" + text +
            ")"));
        this.reason = reason;
    }

    /**
     * @return the gateway's reason.
     */
    public RejectReason reason()
    {
        return reason;
    }
}
