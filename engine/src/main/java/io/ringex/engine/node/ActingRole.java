package io.ringex.engine.node;

import io.ringex.protocol.codecs.NodeRole;

/**
 * The role a node acts in now: {@code RECOVERING} until its agents start, then the role it started in, and later
 * {@code PRIMARY} after a promotion, {@code FENCED} once a newer primary is heard, {@code DIVERGED} when its journal
 * is found to differ from its primary's. Whoever changes the role sets it here; the status, the heartbeats, the
 * catch-up server and the acknowledgements read it.
 * <p>
 * Thread safety: set and read from any thread; a volatile field, so a reader sees the latest role set.
 */
public final class ActingRole
{
    private volatile NodeRole role = NodeRole.RECOVERING;

    /**
     * @return the role now.
     */
    public NodeRole get()
    {
        return role;
    }

    /**
     * @param role the role from now on.
     */
    public void set(final NodeRole role)
    {
        this.role = role;
    }

    /**
     * @return whether the node acts as primary now (fenced is not).
     */
    public boolean isPrimary()
    {
        return role == NodeRole.PRIMARY;
    }

    /**
     * @return whether the node is a standby following its primary now.
     */
    public boolean isStandby()
    {
        return role == NodeRole.STANDBY;
    }
}
