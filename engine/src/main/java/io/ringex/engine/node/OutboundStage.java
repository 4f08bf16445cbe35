package io.ringex.engine.node;

import io.aeron.Publication;
import io.ringex.engine.ring.SlotDescriptor;
import io.ringex.engine.ring.SlotHandler;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.TradeEncoder;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * Offers the events of chosen templates on one Aeron publication: the egress (execution reports to gateways), the
 * market data, or the risk stream. One of the handlers of the output ring's publishers' stage ({@link FanOutHandler}).
 * <p>
 * Offer results: {@code BACK_PRESSURED} and {@code ADMIN_ACTION} are retried with the idle strategy, up to
 * {@code maxRetries} (unbounded for the egress: a report must not be lost while its gateway is there, so a slow
 * gateway slows the engine, as in LMAX); {@code NOT_CONNECTED} means no subscriber is there to tell, so the event is
 * counted as dropped; {@code CLOSED} and {@code MAX_POSITION_EXCEEDED} are fatal and go to the stage's error handler.
 * On the public market data, trades are sent with their accounts zeroed.
 * <p>
 * Thread safety: the stage's thread only.
 */
final class OutboundStage implements SlotHandler
{
    private final Publication publication;
    private final boolean[] templates;
    private final boolean hideTradeAccounts;
    private final long maxRetries;
    private final IdleStrategy idleStrategy;
    private final AtomicCounter dropped;
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[MessageHeaderDecoder.ENCODED_LENGTH +
        TradeEncoder.BLOCK_LENGTH]);

    OutboundStage(
        final Publication publication,
        final int[] templateIds,
        final boolean hideTradeAccounts,
        final long maxRetries,
        final IdleStrategy idleStrategy,
        final AtomicCounter dropped)
    {
        this.publication = publication;
        this.templates = new boolean[128];
        for (final int templateId : templateIds)
        {
            templates[templateId] = true;
        }
        this.hideTradeAccounts = hideTradeAccounts;
        this.maxRetries = maxRetries;
        this.idleStrategy = idleStrategy;
        this.dropped = dropped;
    }

    public void onSlot(final AtomicBuffer buffer, final int slotOffset, final long sequence, final boolean endOfBatch)
    {
        final int templateId = buffer.getInt(slotOffset + SlotDescriptor.TEMPLATE_ID_OFFSET);
        if (templateId < 0 || templateId >= templates.length || !templates[templateId])
        {
            return;
        }
        final int length = buffer.getInt(slotOffset + SlotDescriptor.LENGTH_OFFSET);
        final int offset = slotOffset + SlotDescriptor.PAYLOAD_OFFSET;
        if (hideTradeAccounts && templateId == TradeEncoder.TEMPLATE_ID)
        {
            scratch.putBytes(0, buffer, offset, length);
            final int body = MessageHeaderDecoder.ENCODED_LENGTH;
            scratch.putLong(body + TradeEncoder.buyAccountIdEncodingOffset(), 0L);
            scratch.putLong(body + TradeEncoder.sellAccountIdEncodingOffset(), 0L);
            send(scratch, 0, length);
        }
        else
        {
            send(buffer, offset, length);
        }
    }

    private void send(final org.agrona.DirectBuffer buffer, final int offset, final int length)
    {
        idleStrategy.reset();
        for (long attempt = 0; ; attempt++)
        {
            final long result = publication.offer(buffer, offset, length);
            if (result > 0)
            {
                return;
            }
            if (result == Publication.NOT_CONNECTED)
            {
                dropped.incrementRelease();
                return;
            }
            if (result == Publication.CLOSED || result == Publication.MAX_POSITION_EXCEEDED)
            {
                throw new IllegalStateException("publication " + publication.channel() + " stream " +
                    publication.streamId() + " unusable: " + Publication.errorString(result));
            }
            if (attempt >= maxRetries)
            {
                dropped.incrementRelease();
                return;
            }
            if (result != Publication.ADMIN_ACTION)
            {
                idleStrategy.idle();
            }
        }
    }
}
