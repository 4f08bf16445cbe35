package io.ringex.gateway.sbe;

import io.aeron.ExclusivePublication;
import io.ringex.gateway.Throttle;
import io.ringex.gateway.auth.User;
import io.ringex.protocol.codecs.RejectReason;

/**
 * One SBE client session as the gateway sees it: the Aeron image it publishes on, the publication the gateway
 * answers on, and the session's timers, throttle and back-pressure state. Sessions whose client process publishes
 * for several users on one (non-exclusive) publication share an image; they are chained through
 * {@link #nextOnImage}.
 * <p>
 * Thread safety: owned by the {@link SbeGatewayAgent} thread.
 */
final class ClientSession
{
    enum State
    {
        /** Logon accepted; waiting for the response publication to connect before answering. */
        AWAITING_CONNECTION,
        /** Logon refused; the refusal is sent once the (small) publication connects, then it closes. */
        REJECTING,
        /** Logged on. */
        ACTIVE,
        /** Gone: its publication is closed. */
        CLOSED
    }

    final int imageSessionId;
    final String responseChannel;
    final int responseStreamId;
    final ExclusivePublication publication;
    /** The next session on the same image, or null. */
    ClientSession nextOnImage;
    /** The image has carried more than one session: its messages are told apart by the session id they carry. */
    boolean imageShared;
    final long createdNs;
    State state;
    User user;
    int sessionNumber;
    long sessionId;
    boolean cancelOnDisconnect;
    /** Its id was taken back from a session in its cancel-on-disconnect grace ({@link SessionsInGrace}). */
    boolean reclaimed;
    /** When the grace of the session whose id it took back runs out (if {@link #reclaimed}). */
    long graceExpiresNs;
    /** Logged out because the operator disabled or changed its user: no cancel-on-disconnect grace. */
    boolean endedByOperator;
    long heartbeatIntervalNs;
    long lastReceivedNs;
    long lastSentNs;
    Throttle throttle;
    RejectReason logonRejectReason = RejectReason.NONE;
    String logonRejectText;
    /** The resolved response channel and stream: one session's at a time. */
    String destinationKey;
    /** The schema version the client's Logon came in: everything it is sent is written at that version. */
    int schemaVersion;
    /** The client's Logon request id, echoed in the LogonResponse. */
    long logonRequestId;
    /** When the command now at the head of this client's image was first back-pressured; 0 if it was not. */
    long ingressBackPressureStartNs;
    /**
     * Engine events its publication refused (back-pressured), in order, waiting to be offered again; null until the
     * first. Later events queue behind them.
     */
    CopyQueue held;
    /** When the held events last moved: set when the first is held and at each one sent. */
    long heldProgressNs;

    ClientSession(
        final int imageSessionId,
        final String responseChannel,
        final int responseStreamId,
        final ExclusivePublication publication,
        final long nowNs)
    {
        this.imageSessionId = imageSessionId;
        this.responseChannel = responseChannel;
        this.responseStreamId = responseStreamId;
        this.publication = publication;
        this.createdNs = nowNs;
        this.lastReceivedNs = nowNs;
        this.lastSentNs = nowNs;
    }

    long accountId()
    {
        return user == null ? 0 : user.defaultAccount();
    }
}
