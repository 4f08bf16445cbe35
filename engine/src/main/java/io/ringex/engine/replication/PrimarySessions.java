package io.ringex.engine.replication;

/**
 * Which publications a standby's primary speaks from: its live commands and its heartbeats come from two, each known
 * by its Aeron session id. Another session id than before means another publication: the primary restarted, or
 * another node took its place.
 * <p>
 * Thread safety: the {@link StandbyReceiver}'s thread.
 */
final class PrimarySessions
{
    private static final long NONE = Long.MIN_VALUE;

    private long commands = NONE;
    private long heartbeats = NONE;

    /**
     * @param sessionId the session a live command came from.
     * @return whether commands came from another session before it.
     */
    boolean commandsFrom(final int sessionId)
    {
        final long known = commands;
        commands = sessionId;
        return NONE != known && known != sessionId;
    }

    /**
     * @param sessionId the session a heartbeat came from.
     * @return whether heartbeats came from another session before it.
     */
    boolean heartbeatsFrom(final int sessionId)
    {
        final long known = heartbeats;
        heartbeats = sessionId;
        return NONE != known && known != sessionId;
    }
}
