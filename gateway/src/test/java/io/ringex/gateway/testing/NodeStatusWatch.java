package io.ringex.gateway.testing;

import io.aeron.Aeron;
import io.aeron.Subscription;
import io.ringex.protocol.codecs.EngineStatusDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.NodeRole;
import org.agrona.CloseHelper;

/**
 * What a test knows of one engine node from its {@code EngineStatus} (on the node's risk stream): role, epoch, the
 * sequence its processor is at and its state hash there, and when it last spoke.
 * <p>
 * Thread safety: one thread (the test's), which calls {@link #poll()}.
 */
public final class NodeStatusWatch implements AutoCloseable
{
    private final Subscription subscription;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final EngineStatusDecoder status = new EngineStatusDecoder();
    private NodeRole role = NodeRole.NULL_VAL;
    private long epoch = -1;
    private long processed = -1;
    private long stateHash;
    private long lastHeardNs;
    private long statuses;

    /**
     * @param aeron       a connected client.
     * @param channel     the node's risk channel, subscriber side.
     * @param riskStream  its risk stream.
     */
    public NodeStatusWatch(final Aeron aeron, final String channel, final int riskStream)
    {
        subscription = aeron.addSubscription(channel, riskStream);
    }

    /**
     * @return fragments read.
     */
    public int poll()
    {
        return subscription.poll((buffer, offset, length, frame) ->
        {
            header.wrap(buffer, offset);
            if (header.schemaId() == EngineStatusDecoder.SCHEMA_ID &&
                header.templateId() == EngineStatusDecoder.TEMPLATE_ID)
            {
                status.wrapAndApplyHeader(buffer, offset, header);
                role = status.role();
                epoch = status.epoch();
                processed = status.processorSequence();
                stateHash = status.stateHash();
                lastHeardNs = System.nanoTime();
                statuses++;
            }
        }, 64);
    }

    public NodeRole role()
    {
        return role;
    }

    public long epoch()
    {
        return epoch;
    }

    public long processed()
    {
        return processed;
    }

    public long stateHash()
    {
        return stateHash;
    }

    /**
     * @return statuses received since made.
     */
    public long statuses()
    {
        return statuses;
    }

    /**
     * @param nowNs {@link System#nanoTime()}.
     * @return ns since the last status, or {@link Long#MAX_VALUE} if none came yet.
     */
    public long silentForNs(final long nowNs)
    {
        return 0 == lastHeardNs ? Long.MAX_VALUE : nowNs - lastHeardNs;
    }

    /**
     * Forget what was heard (a restarted node starts over).
     */
    public void reset()
    {
        role = NodeRole.NULL_VAL;
        epoch = -1;
        processed = -1;
        lastHeardNs = 0;
        statuses = 0;
    }

    public String toString()
    {
        return "role=" + role + " epoch=" + epoch + " processed=" + processed + " hash=" + Long.toHexString(stateHash);
    }

    public void close()
    {
        CloseHelper.quietClose(subscription);
    }
}
