package io.ringex.systemtests.cluster;

import java.time.Duration;

import io.aeron.Aeron;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.ringex.client.EventBatches;
import io.ringex.protocol.codecs.EngineStatusDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.NodeRole;

/**
 * What the test knows of one member from its {@code EngineStatus} (on its risk stream): role, epoch, processed
 * sequence, state hash, committed sequence, and when it last spoke.
 * <p>
 * The test's thread.
 */
final class StatusWatch implements AutoCloseable
{
    private final Subscription subscription;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final EngineStatusDecoder status = new EngineStatusDecoder();
    private final FragmentHandler handler = EventBatches.unpacking((buffer, offset, length, frame) ->
    {
        header.wrap(buffer, offset);
        if (header.schemaId() == EngineStatusDecoder.SCHEMA_ID &&
            header.templateId() == EngineStatusDecoder.TEMPLATE_ID)
        {
            status.wrapAndApplyHeader(buffer, offset, header);
            onStatus();
        }
    });
    private NodeRole role = NodeRole.NULL_VAL;
    private long epoch = -1;
    private long processed = -1;
    private long committed = -1;
    private long epochStart;
    private long stateHash;
    private long heardNs;

    StatusWatch(final Aeron aeron, final String channel, final int stream)
    {
        subscription = aeron.addSubscription(channel, stream);
    }

    private void onStatus()
    {
        role = status.role();
        epoch = status.epoch();
        processed = status.processorSequence();
        committed = status.replicationSequence();
        epochStart = status.epochStartSequence();
        stateHash = status.stateHash();
        heardNs = System.nanoTime();
    }

    int poll()
    {
        return subscription.poll(handler, 64);
    }

    NodeRole role()
    {
        return role;
    }

    long epoch()
    {
        return epoch;
    }

    long processed()
    {
        return processed;
    }

    long committed()
    {
        return committed;
    }

    long epochStart()
    {
        return epochStart;
    }

    long stateHash()
    {
        return stateHash;
    }

    boolean isFresh(final Duration within)
    {
        return heardNs != 0 && System.nanoTime() - heardNs < within.toNanos();
    }

    public void close()
    {
        subscription.close();
    }

    public String toString()
    {
        return role + " epoch " + epoch + " processed " + processed + " committed " + committed + " hash " +
            Long.toHexString(stateHash) + (heardNs == 0 ? " (never heard)" : " (heard " +
            (System.nanoTime() - heardNs) / 1_000_000 + " ms ago)");
    }
}
