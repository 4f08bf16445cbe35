package io.ringex.engine.node;

import io.ringex.protocol.codecs.NodeRole;

/**
 * The role a single node acts in now: {@code RECOVERING} until its agents start, then {@code PRIMARY}. The status
 * reads it (a cluster member's role comes from its {@link io.ringex.engine.cluster.Leadership} instead).
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
}
