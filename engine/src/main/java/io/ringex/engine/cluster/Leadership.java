package io.ringex.engine.cluster;

import io.aeron.cluster.service.Cluster;

/**
 * What a cluster member knows of its own leadership, shared by the threads that act on it:
 * <ul>
 *   <li>the clustered service sets the consensus module's role and, when this member leads a term whose
 *   {@code NewLeadershipTermEvent} it has reached in the log, that term ({@link #leadingTerm()});</li>
 *   <li>the ingress, seeing a term to lead, first offers the term's {@code NewEpoch} command, then takes client
 *   commands stamped with that term; it stops at once when the member no longer leads;</li>
 *   <li>the ingress says whether the member's client of the cluster holds a session ({@link #clientSession});</li>
 *   <li>the processor hands the node over to clients when it reaches the {@code NewEpoch} of the term this member
 *   leads ({@link #handedOff}), and back to the report window when another member's {@code NewEpoch} comes.</li>
 * </ul>
 * Thread safety: volatile fields, each written by one thread and read by any.
 */
public final class Leadership
{
    /** No term: the member leads none, or has handed none off. */
    public static final long NO_TERM = -1;

    private volatile Cluster.Role role;
    private volatile long leadingTerm = NO_TERM;
    private volatile long handedOffTerm = NO_TERM;
    private volatile long epochStartSequence;
    private volatile boolean clientSessionOpen;

    /**
     * @return the consensus module's role as the service last heard it, or null before the service started.
     */
    public Cluster.Role role()
    {
        return role;
    }

    /**
     * The service's thread: the consensus module's role changed. A member that is no longer the leader leads no term.
     *
     * @param role the new role.
     */
    public void role(final Cluster.Role role)
    {
        if (role != Cluster.Role.LEADER)
        {
            leadingTerm = NO_TERM;
        }
        this.role = role;
    }

    /**
     * The service's thread: this member leads a term, whose {@code NewLeadershipTermEvent} the service has reached.
     *
     * @param term the leadership term id.
     */
    public void lead(final long term)
    {
        leadingTerm = term;
    }

    /**
     * @return the term this member leads now, or {@link #NO_TERM}.
     */
    public long leadingTerm()
    {
        return leadingTerm;
    }

    /**
     * The processor's thread: it has reached the {@code NewEpoch} of the term this member leads, at a command.
     *
     * @param term            the term.
     * @param commandSequence the {@code NewEpoch} command's sequence, where the epoch starts.
     */
    public void handedOff(final long term, final long commandSequence)
    {
        epochStartSequence = commandSequence;
        handedOffTerm = term;
    }

    /**
     * The processor's thread: another member's {@code NewEpoch} came; this member's output goes to clients no more.
     */
    public void handedBack()
    {
        handedOffTerm = NO_TERM;
    }

    /**
     * @return the term whose clients this node's output serves, or {@link #NO_TERM}.
     */
    public long handedOffTerm()
    {
        return handedOffTerm;
    }

    /**
     * The ingress's thread: whether the member's client of the cluster holds a session, through which alone it can
     * append clients' commands to the log.
     *
     * @param open true while it does.
     */
    public void clientSession(final boolean open)
    {
        clientSessionOpen = open;
    }

    /**
     * @return whether this member serves clients now: it leads the term its processor handed off at, and can append
     * to the log. A leader that has lost its followers loses its client's session at once, while the service may hear
     * of the consensus module's new role only later: clients are refused (no primary) from the first of the two.
     */
    public boolean isPrimary()
    {
        final long handedOff = handedOffTerm;
        return handedOff != NO_TERM && handedOff == leadingTerm && role == Cluster.Role.LEADER && clientSessionOpen;
    }

    /**
     * @return the sequence of the {@code NewEpoch} that started the term this node serves (meaningful while
     * {@link #isPrimary()}).
     */
    public long epochStartSequence()
    {
        return epochStartSequence;
    }
}
