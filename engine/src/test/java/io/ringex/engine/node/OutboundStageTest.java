package io.ringex.engine.node;

import java.lang.management.ManagementFactory;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.aeron.Aeron;
import io.aeron.FragmentAssembler;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.ControlledFragmentHandler.Action;
import io.aeron.logbuffer.FragmentHandler;
import io.ringex.client.EventBatches;
import io.ringex.engine.ring.SlotDescriptor;
import io.ringex.protocol.codecs.AccountRiskUpdateDecoder;
import io.ringex.protocol.codecs.EventBatchDecoder;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.testing.Await;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.agrona.concurrent.status.AtomicCounter;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The publishers' batching over a real media driver: what one output-ring batch becomes on the stream (how many Aeron
 * messages, what a reader unpacks from them), and the reader's side for a controlled poll that asks for an event again.
 */
class OutboundStageTest
{
    private static final int STREAM = 10;
    private static final int SLOT_LENGTH = 4096;
    private static final int OURS = ExecutionReportDecoder.TEMPLATE_ID;
    private static final int OTHERS = AccountRiskUpdateDecoder.TEMPLATE_ID;

    @RegisterExtension
    final NodeTestResources env = new NodeTestResources();

    private final UnsafeBuffer slots = new UnsafeBuffer(new byte[64 * SLOT_LENGTH]);
    private final List<String> received = new ArrayList<>();
    private final List<Integer> messageTemplates = new ArrayList<>();
    private Aeron aeron;
    private Publication publication;
    private Subscription subscription;
    private AtomicCounter dropped;
    private int slotCount;

    @BeforeEach
    void connect()
    {
        aeron = env.closing(Aeron.connect(new Aeron.Context().aeronDirectoryName(env.aeronDirectoryName())));
        publication = aeron.addPublication("aeron:ipc", STREAM);
        subscription = aeron.addSubscription("aeron:ipc", STREAM);
        dropped = aeron.addCounter(1001, "dropped");
        while (!publication.isConnected())
        {
            Thread.yield();
        }
    }

    @Test
    void theEventsOfOneBatchGoInOneMessageAndArriveWholeAndInOrder()
    {
        final OutboundStage stage = stage(publication, 64);

        batch(stage, slot(OURS, "a", 120), slot(OTHERS, "not ours", 80), slot(OURS, "b", 160), slot(OURS, "c", 64),
            slot(OTHERS, "not ours either", 80));

        receive(3);
        assertEquals(List.of("a/120", "b/160", "c/64"), received);
        assertEquals(List.of(EventBatchDecoder.TEMPLATE_ID), messageTemplates, "one message for the batch");
    }

    @Test
    void aLoneEventGoesAsItIs()
    {
        final OutboundStage stage = stage(publication, 64);

        batch(stage, slot(OTHERS, "x", 80), slot(OURS, "alone", 100));

        receive(1);
        assertEquals(List.of("alone/100"), received);
        assertEquals(List.of(OURS), messageTemplates);
    }

    @Test
    void aBatchIsSplitAtTheMostEventsPerMessageAndAtTheLargestUnfragmentedMessage()
    {
        batch(stage(publication, 2), slot(OURS, "1", 64), slot(OURS, "2", 64), slot(OURS, "3", 64),
            slot(OURS, "4", 64), slot(OURS, "5", 64));
        receive(5);
        assertEquals(List.of(EventBatchDecoder.TEMPLATE_ID, EventBatchDecoder.TEMPLATE_ID, OURS), messageTemplates);

        clear();
        final int large = (publication.maxPayloadLength() - 64) / 2;
        batch(stage(publication, 64), slot(OURS, "p", large), slot(OURS, "q", large), slot(OURS, "r", large));
        receive(3);
        assertEquals(List.of("p/" + large, "q/" + large, "r/" + large), received);
        assertEquals(List.of(EventBatchDecoder.TEMPLATE_ID, OURS), messageTemplates,
            "two fit in a message, the third goes alone");

        clear();
        final int oversize = publication.maxPayloadLength() + 500;
        batch(stage(publication, 64), slot(OURS, "s", 64), slot(OURS, "huge", oversize), slot(OURS, "t", 64));
        receive(3);
        assertEquals(List.of("s/64", "huge/" + oversize, "t/64"), received);
        assertEquals(List.of(OURS, OURS, OURS), messageTemplates, "an event too long for a batch goes alone");
    }

    @Test
    void everyEventGoesAloneWhenBatchingIsOff()
    {
        batch(stage(publication, 1), slot(OURS, "a", 64), slot(OURS, "b", 64), slot(OURS, "c", 64));

        receive(3);
        assertEquals(List.of("a/64", "b/64", "c/64"), received);
        assertEquals(List.of(OURS, OURS, OURS), messageTemplates);
    }

    @Test
    void theEventsOfABatchNobodyReadsAreCountedAsDropped()
    {
        final Publication unread = aeron.addPublication("aeron:ipc", STREAM + 1);

        batch(stage(unread, 64), slot(OURS, "a", 64), slot(OURS, "b", 64), slot(OURS, "c", 64));
        batch(stage(unread, 64), slot(OURS, "d", 64));

        assertEquals(4, dropped.get());
    }

    @Test
    void aControlledReaderThatAsksForAnEventAgainGetsEachEventOnce()
    {
        batch(stage(publication, 64), slot(OURS, "a", 64), slot(OURS, "b", 64), slot(OURS, "c", 64));
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final boolean[] refused = new boolean[1];
        final var reader = EventBatches.unpackingControlled((buffer, offset, length, frame) ->
        {
            final String event = text(buffer, offset, length);
            if (event.startsWith("b") && !refused[0])
            {
                refused[0] = true;
                return Action.ABORT;
            }
            received.add(event);
            return Action.CONTINUE;
        });

        while (received.size() < 3)
        {
            subscription.controlledPoll(reader, 10);
        }

        assertEquals(List.of("a/64", "b/64", "c/64"), received);
    }

    @Test
    void sendingAndUnpackingABatchAllocatesNothingOnceWarm()
    {
        final OutboundStage stage = stage(publication, 64);
        final int[] batch = { slot(OURS, "a", 64), slot(OTHERS, "b", 64), slot(OURS, "c", 300), slot(OURS, "d", 64) };
        final long[] events = new long[1];
        final FragmentHandler reader = EventBatches.unpacking((buffer, offset, length, frame) -> events[0]++);
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

        long allocated = Long.MAX_VALUE;
        final int windows = 8;
        for (int window = 0; window < windows; window++)
        {
            final long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 20_000; i++)
            {
                batch(stage, batch);
                while (subscription.poll(reader, 10) > 0)
                {
                    // drained
                }
            }
            // the JIT's warm-up may allocate in a window or two; an allocation per batch would show in every one
            allocated = Math.min(allocated, threads.getCurrentThreadAllocatedBytes() - before);
        }

        assertEquals(0, allocated, "bytes allocated by 20,000 batches, in the quietest window");
        assertEquals(windows * 20_000 * 3, events[0]);
    }

    @Test
    void batchingBeyondItsLimitsIsRefused()
    {
        assertThrows(IllegalArgumentException.class, () -> stage(publication, 0));
        assertThrows(IllegalArgumentException.class,
            () -> stage(publication, OutboundStage.MAX_EVENTS_PER_MESSAGE + 1));
    }

    private OutboundStage stage(final Publication publication, final int maxEventsPerMessage)
    {
        return new OutboundStage(publication, new int[]{ OURS }, Long.MAX_VALUE, new YieldingIdleStrategy(), dropped,
            maxEventsPerMessage);
    }

    /** Write an event of the template, {@code length} bytes in all, its text at the start of its body. */
    private int slot(final int templateId, final String text, final int length)
    {
        final int slotOffset = (slotCount++ % 64) * SLOT_LENGTH;
        final int payload = slotOffset + SlotDescriptor.PAYLOAD_OFFSET;
        slots.setMemory(payload, length, (byte)0);
        new MessageHeaderEncoder().wrap(slots, payload).blockLength(length - MessageHeaderEncoder.ENCODED_LENGTH)
            .templateId(templateId).schemaId(MessageHeaderEncoder.SCHEMA_ID)
            .version(MessageHeaderEncoder.SCHEMA_VERSION);
        slots.putStringWithoutLengthAscii(payload + MessageHeaderEncoder.ENCODED_LENGTH, text);
        slots.putInt(slotOffset + SlotDescriptor.TEMPLATE_ID_OFFSET, templateId);
        slots.putInt(slotOffset + SlotDescriptor.LENGTH_OFFSET, length);
        return slotOffset;
    }

    private void batch(final OutboundStage stage, final int... slotOffsets)
    {
        for (int i = 0; i < slotOffsets.length; i++)
        {
            stage.onSlot(slots, slotOffsets[i], i, i == slotOffsets.length - 1);
        }
    }

    private void receive(final int events)
    {
        final FragmentHandler unpacked = EventBatches.unpacking(
            (buffer, offset, length, frame) -> received.add(text(buffer, offset, length)));
        final FragmentAssembler messages = new FragmentAssembler((buffer, offset, length, frame) ->
        {
            messageTemplates.add(buffer.getShort(offset + 2, ByteOrder.LITTLE_ENDIAN) & 0xFFFF);
            unpacked.onFragment(buffer, offset, length, frame);
        });
        Await.until(() -> events + " events (received " + received + ")", Duration.ofSeconds(10),
            () -> received.size() >= events, () -> subscription.poll(messages, 10));
        subscription.poll(messages, 10);
    }

    private void clear()
    {
        received.clear();
        messageTemplates.clear();
    }

    /** @return the event's text and its whole length, as "text/length". */
    private static String text(final DirectBuffer buffer, final int offset, final int length)
    {
        final StringBuilder text = new StringBuilder();
        for (int i = offset + MessageHeaderDecoder.ENCODED_LENGTH; buffer.getByte(i) != 0 && i < offset + length; i++)
        {
            text.append((char)buffer.getByte(i));
        }
        return text + "/" + length;
    }
}
