package io.ringex.engine.node;

import java.nio.ByteOrder;
import java.util.Arrays;

import io.aeron.DirectBufferVector;
import io.aeron.Publication;
import io.ringex.engine.ring.SlotDescriptor;
import io.ringex.engine.ring.SlotHandler;
import io.ringex.protocol.codecs.EventBatchEncoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * Offers the events of chosen templates on one Aeron publication, the egress or the risk stream, several to a message
 * as an {@code EventBatch} (docs/protocol.md, "Event batches"); one of the handlers of the publishers' stage ({@link
 * FanOutHandler}).
 * <p>
 * A back-pressured offer is retried, without limit on the egress: a report must not be lost while its gateway is there,
 * so a slow gateway slows the engine, as in LMAX. With no subscriber the events are counted as dropped; {@code CLOSED}
 * and {@code MAX_POSITION_EXCEEDED} go to the stage's error handler.
 * <p>
 * Thread safety: the stage's thread only.
 */
final class OutboundStage implements SlotHandler
{
    /** The most events one message may carry. */
    static final int MAX_EVENTS_PER_MESSAGE = 64;

    private static final int LENGTH_PREFIX = EventBatchEncoder.eventsHeaderLength();
    private static final int ENVELOPE = MessageHeaderEncoder.ENCODED_LENGTH + EventBatchEncoder.BLOCK_LENGTH +
        LENGTH_PREFIX;

    private final Publication publication;
    private final boolean[] templates;
    private final long maxRetries;
    private final IdleStrategy idleStrategy;
    private final AtomicCounter dropped;
    private final int maxEvents;
    private final int maxMessageLength;
    /** The envelope: message header, eventCount, the var data's length. */
    private final UnsafeBuffer envelope = new UnsafeBuffer(new byte[ENVELOPE]);
    private final EventBatchEncoder batchEncoder = new EventBatchEncoder();
    /** Each pending event's length prefix. */
    private final UnsafeBuffer prefixes;
    /** {@code vectorsFor[n]}: the envelope, then prefix and event for each of n events; the same vectors in each. */
    private final DirectBufferVector[][] vectorsFor;
    private final DirectBufferVector[] vectors;
    private int pendingEvents;
    private int pendingLength;

    /**
     * @param publication         where the events go.
     * @param templateIds         the templates this stream carries; the rest are not for it.
     * @param maxRetries          offers retried on back pressure before an event is counted as dropped.
     * @param idleStrategy        between retries.
     * @param dropped             counts events dropped.
     * @param maxEventsPerMessage 1..{@link #MAX_EVENTS_PER_MESSAGE}; 1 sends every event alone.
     */
    OutboundStage(
        final Publication publication,
        final int[] templateIds,
        final long maxRetries,
        final IdleStrategy idleStrategy,
        final AtomicCounter dropped,
        final int maxEventsPerMessage)
    {
        if (maxEventsPerMessage < 1 || maxEventsPerMessage > MAX_EVENTS_PER_MESSAGE)
        {
            throw new IllegalArgumentException("events per message must be 1.." + MAX_EVENTS_PER_MESSAGE + ": " +
                maxEventsPerMessage);
        }
        this.publication = publication;
        this.templates = new boolean[256];
        for (final int templateId : templateIds)
        {
            templates[templateId] = true;
        }
        this.maxRetries = maxRetries;
        this.idleStrategy = idleStrategy;
        this.dropped = dropped;
        this.maxEvents = maxEventsPerMessage;
        this.maxMessageLength = publication.maxPayloadLength();
        this.prefixes = new UnsafeBuffer(new byte[maxEventsPerMessage * LENGTH_PREFIX]);
        this.vectors = new DirectBufferVector[1 + 2 * maxEventsPerMessage];
        for (int i = 0; i < vectors.length; i++)
        {
            vectors[i] = new DirectBufferVector();
        }
        vectors[0].reset(envelope, 0, ENVELOPE);
        this.vectorsFor = new DirectBufferVector[maxEventsPerMessage + 1][];
        for (int n = 2; n <= maxEventsPerMessage; n++)
        {
            vectorsFor[n] = Arrays.copyOf(vectors, 1 + 2 * n);
        }
        batchEncoder.wrapAndApplyHeader(envelope, 0, new MessageHeaderEncoder());
    }

    public void onSlot(final AtomicBuffer buffer, final int slotOffset, final long sequence, final boolean endOfBatch)
    {
        final int templateId = buffer.getInt(slotOffset + SlotDescriptor.TEMPLATE_ID_OFFSET);
        if (templateId >= 0 && templateId < templates.length && templates[templateId])
        {
            final int length = buffer.getInt(slotOffset + SlotDescriptor.LENGTH_OFFSET);
            final int offset = slotOffset + SlotDescriptor.PAYLOAD_OFFSET;
            if (pendingEvents == maxEvents || ENVELOPE + pendingLength + LENGTH_PREFIX + length > maxMessageLength)
            {
                flush();
            }
            final int index = pendingEvents++;
            prefixes.putInt(index * LENGTH_PREFIX, length, ByteOrder.LITTLE_ENDIAN);
            vectors[1 + 2 * index].reset(prefixes, index * LENGTH_PREFIX, LENGTH_PREFIX);
            vectors[2 + 2 * index].reset(buffer, offset, length);
            pendingLength += LENGTH_PREFIX + length;
        }
        if (endOfBatch)
        {
            flush();
        }
    }

    /** Send what is pending: one event as it is, several in one EventBatch. */
    private void flush()
    {
        final int events = pendingEvents;
        if (0 == events)
        {
            return;
        }
        if (events > 1)
        {
            batchEncoder.eventCount(events);
            envelope.putInt(ENVELOPE - LENGTH_PREFIX, pendingLength, ByteOrder.LITTLE_ENDIAN);
        }
        pendingEvents = 0;
        pendingLength = 0;
        if (!publication.isConnected())
        {
            // Nobody to tell: nothing is copied for a stream no one reads.
            dropped.getAndAddRelease(events);
            return;
        }
        final DirectBufferVector single = vectors[2];
        idleStrategy.reset();
        for (long attempt = 0; ; attempt++)
        {
            final long result = 1 == events ?
                publication.offer(single.buffer(), single.offset(), single.length()) :
                publication.offer(vectorsFor[events]);
            if (done(result, attempt, events))
            {
                return;
            }
        }
    }

    /**
     * @return true when the offer is done with: sent, or given up (counted as dropped); false to offer again, once
     * the idle strategy has run.
     */
    private boolean done(final long result, final long attempt, final int events)
    {
        if (result > 0)
        {
            return true;
        }
        if (result == Publication.CLOSED || result == Publication.MAX_POSITION_EXCEEDED)
        {
            throw new IllegalStateException("publication " + publication.channel() + " stream " +
                publication.streamId() + " unusable: " + Publication.errorString(result));
        }
        if (result == Publication.NOT_CONNECTED || attempt >= maxRetries)
        {
            dropped.getAndAddRelease(events);
            return true;
        }
        if (result != Publication.ADMIN_ACTION)
        {
            idleStrategy.idle();
        }
        return false;
    }
}
