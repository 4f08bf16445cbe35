package io.ringex.gateway.sbe;

import io.ringex.gateway.auth.LogonAttempt;
import io.ringex.gateway.auth.User;

import java.util.Queue;

/**
 * An SBE Logon being checked: the credentials go to the logon worker with the response destination, which the
 * worker resolves and checks against the Logon's source ({@link ResponseDestination#resolve}) whatever the verdict,
 * so the agent knows whether it may answer there at all. The verdict comes back to the agent through a queue.
 * <p>
 * Thread safety: fields are set on the agent thread before submission and read back there after the queue hand-over;
 * {@link #prepare()} and {@link #onVerdict()} run on the worker.
 */
final class SbeLogon extends LogonAttempt
{
    final int imageSessionId;
    final String responseChannel;
    final ResponseDestination destination;
    final int schemaVersion;
    final long logonRequestId;
    final long heartbeatIntervalMs;
    final boolean cancelOnDisconnect;
    /** The image went away while the logon was being checked: drop the verdict. */
    boolean abandoned;
    private final boolean checkSource;
    private final Queue<SbeLogon> verdicts;
    /**
     * Null if the gateway may answer at the destination, else why not (set by the worker); until the worker has
     * checked the destination, it may not.
     */
    private volatile String destinationRefusal = "response destination not checked";

    SbeLogon(
        final String username,
        final CharSequence credential,
        final String sourceHost,
        final long receivedAtMs,
        final int imageSessionId,
        final String responseChannel,
        final ResponseDestination destination,
        final boolean checkSource,
        final int schemaVersion,
        final long logonRequestId,
        final long heartbeatIntervalMs,
        final boolean cancelOnDisconnect,
        final Queue<SbeLogon> verdicts)
    {
        super("SBE", username, credential, sourceHost, receivedAtMs);
        this.imageSessionId = imageSessionId;
        this.responseChannel = responseChannel;
        this.destination = destination;
        this.checkSource = checkSource;
        this.schemaVersion = schemaVersion;
        this.logonRequestId = logonRequestId;
        this.heartbeatIntervalMs = heartbeatIntervalMs;
        this.cancelOnDisconnect = cancelOnDisconnect;
        this.verdicts = verdicts;
    }

    protected void prepare()
    {
        destinationRefusal = destination.resolve(address(), checkSource);
    }

    protected String permits(final User user)
    {
        return destinationRefusal;
    }

    protected void onVerdict()
    {
        verdicts.offer(this);
    }

    /**
     * @return null if the gateway may answer at the destination, else why not.
     */
    String destinationRefusal()
    {
        return destinationRefusal;
    }
}
