package io.ringex.gateway;

/**
 * Drops client-bound events the gateway has already delivered, by the {@code commandSequence} they carry and the era
 * they come from: a node at an epoch, with the {@code epochStartSequence} of its EngineStatus (docs/architecture.md,
 * "The gateway's front ends", gives the rules). A gateway that has delivered nothing yet starts from {@link
 * #joined(long)}.
 * <p>
 * Call {@link #isNew} before delivering and {@link #delivered} once delivered: an event that is to be redelivered (the
 * handler returned ABORT) is asked about again and must get the same answer.
 * <p>
 * Thread safety: one thread (the agent's).
 */
public final class EgressDeduplicator
{
    private long highestSequence = -1;
    private int eventsAtHighest;
    private boolean deliveredAny;
    private boolean joined;
    private int eraSource = -1;
    private long eraEpoch;
    private long eraStart;
    private int skipSource = -1;
    private long skipEpoch;
    private long skipSequence;
    private int skipSeen;

    /**
     * The gateway first followed a node, and has delivered nothing: window events at or below this sequence are for
     * commands older than the gateway and are not delivered. Ignored once anything was delivered, or if already
     * called.
     *
     * @param commandSequence the followed node's ingress sequence in its last status.
     */
    public void joined(final long commandSequence)
    {
        if (!deliveredAny && !joined)
        {
            joined = true;
            highestSequence = commandSequence;
            eventsAtHighest = Integer.MAX_VALUE;
        }
    }

    /**
     * @param source             the node (index in the configuration) the event came from.
     * @param epoch              the event's epoch.
     * @param epochStartSequence the node's first command sequence as primary in that epoch (0 with a single node).
     * @param commandSequence    the event's command sequence.
     * @return true if the event is to be delivered.
     */
    public boolean isNew(final int source, final long epoch, final long epochStartSequence, final long commandSequence)
    {
        if (commandSequence >= epochStartSequence)
        {
            if (isCurrentEra(source, epoch, epochStartSequence))
            {
                return commandSequence >= highestSequence;
            }
            if (isLaterEra(source, epoch, epochStartSequence))
            {
                return true;
            }
        }
        if (commandSequence != highestSequence)
        {
            return commandSequence > highestSequence;
        }
        if (skipSource != source || skipEpoch != epoch || skipSequence != commandSequence)
        {
            skipSource = source;
            skipEpoch = epoch;
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
     * @param source             the node it came from.
     * @param epoch              its epoch.
     * @param epochStartSequence the node's first command sequence as primary in that epoch.
     * @param commandSequence    its command sequence.
     */
    public void delivered(
        final int source, final long epoch, final long epochStartSequence, final long commandSequence)
    {
        deliveredAny = true;
        if (commandSequence >= epochStartSequence && !isCurrentEra(source, epoch, epochStartSequence) &&
            isLaterEra(source, epoch, epochStartSequence))
        {
            eraSource = source;
            eraEpoch = epoch;
            eraStart = epochStartSequence;
            highestSequence = commandSequence;
            eventsAtHighest = 1;
            skipSource = -1;
            return;
        }
        if (commandSequence > highestSequence)
        {
            // The command's further events from this node are judged against this one.
            highestSequence = commandSequence;
            eventsAtHighest = 1;
            skipSource = source;
            skipEpoch = epoch;
            skipSequence = commandSequence;
            skipSeen = 1;
            return;
        }
        eventsAtHighest++;
        if (skipSource == source && skipEpoch == epoch && skipSequence == commandSequence)
        {
            skipSeen++;
        }
    }

    /**
     * @return the highest command sequence delivered, in the numbering of the current era.
     */
    public long highestSequence()
    {
        return highestSequence;
    }

    private boolean isCurrentEra(final int source, final long epoch, final long epochStartSequence)
    {
        return eraSource == source && eraEpoch == epoch && eraStart == epochStartSequence;
    }

    private boolean isLaterEra(final int source, final long epoch, final long epochStartSequence)
    {
        return eraSource == -1 || epoch > eraEpoch ||
            (epoch == eraEpoch && source == eraSource && epochStartSequence > eraStart);
    }
}
