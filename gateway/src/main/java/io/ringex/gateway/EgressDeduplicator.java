package io.ringex.gateway;

/**
 * Drops client-bound events the gateway has already delivered, by the {@code commandSequence} they carry. Every node
 * of a pair numbers commands alike and publishes a command's events together, in command order, so one number
 * suffices: the highest sequence delivered, and how many events of that command were.
 * <p>
 * From the node it last delivered from, an event is new unless its sequence is below the highest (equal is the same
 * command's next event). From another node (a promoted standby re-publishing a window of recent events) it is new only
 * past what was delivered: a higher sequence, or, for the very command last delivered, the events beyond as many as
 * were already delivered (a command's events come out of the deterministic processor in the same order on every
 * node).
 * <p>
 * Call {@link #isNew} before delivering and {@link #delivered} once delivered: an event that is to be redelivered
 * (the handler returned ABORT) is asked about again and must get the same answer.
 * <p>
 * Thread safety: one thread (the agent's).
 */
public final class EgressDeduplicator
{
    private long highestSequence;
    private int eventsAtHighest;
    private int lastSource = -1;
    private int skipSource = -1;
    private long skipSequence;
    private int skipSeen;

    /**
     * @param source          the node (index in the configuration) the event came from.
     * @param commandSequence the event's command sequence.
     * @return true if the event is to be delivered.
     */
    public boolean isNew(final int source, final long commandSequence)
    {
        if (source == lastSource || lastSource == -1)
        {
            return commandSequence >= highestSequence;
        }
        if (commandSequence != highestSequence)
        {
            return commandSequence > highestSequence;
        }
        if (skipSource != source || skipSequence != commandSequence)
        {
            skipSource = source;
            skipSequence = commandSequence;
            skipSeen = 0;
        }
        if (skipSeen < eventsAtHighest)
        {
            // Dropped, never redelivered: count it now.
            skipSeen++;
            return false;
        }
        return true;
    }

    /**
     * The event {@link #isNew} accepted has been delivered (or deliberately passed over).
     *
     * @param source          the node it came from.
     * @param commandSequence its command sequence.
     */
    public void delivered(final int source, final long commandSequence)
    {
        if (commandSequence > highestSequence)
        {
            highestSequence = commandSequence;
            eventsAtHighest = 1;
        }
        else
        {
            eventsAtHighest++;
        }
        if (skipSource == source && skipSequence == commandSequence)
        {
            skipSeen++;
        }
        lastSource = source;
    }

    /**
     * @return the highest command sequence delivered.
     */
    public long highestSequence()
    {
        return highestSequence;
    }
}
