package io.ringex.engine.replication;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.ringex.engine.node.NodeTestResources;
import io.ringex.engine.ring.ProducerType;
import io.ringex.engine.ring.Ring;
import io.ringex.engine.ring.SequenceBase;
import io.ringex.engine.ring.SlotDescriptor;
import io.ringex.protocol.codecs.CatchUpRequestDecoder;
import io.ringex.protocol.codecs.CatchUpResponseEncoder;
import io.ringex.protocol.codecs.CatchUpStatus;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewEpochEncoder;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.protocol.codecs.ReplicationHeartbeatEncoder;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.SystemEpochNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A standby configured to promote itself after a silence from its primary, against a scripted primary over IPC (a
 * real media driver): in step and matched, it promotes itself once the silence has lasted the timeout by the node's
 * clock, and not before, however long the test takes. The clock is the test's, so the timeout passes when the test
 * says.
 */
class PromotionIT
{
    private static final String IPC = "aeron:ipc";
    private static final long AUTO_PROMOTE_NS = TimeUnit.SECONDS.toNanos(2);
    private static final long PRIMARY_EPOCH = 3;

    @RegisterExtension
    final NodeTestResources env = new NodeTestResources();

    private final CachedNanoClock clock = new CachedNanoClock();
    private final ActingRole role = new ActingRole();
    private final RecordingIngress ingress = new RecordingIngress();
    private final UnsafeBuffer send = new UnsafeBuffer(new byte[128]);
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private Ring ring;
    private StandbyReceiver receiver;
    private Promotion promotion;
    private Publication live;
    private Publication catchUp;
    private Subscription requests;

    @BeforeEach
    void wire()
    {
        clock.update(1_000_000_000L);
        role.set(NodeRole.STANDBY);
        final Aeron aeron = env.closing(Aeron.connect(new Aeron.Context()
            .aeronDirectoryName(env.aeronDirectoryName())));
        ring = env.closing(Ring.builder().name("input").capacity(64).slotLength(256)
            .producerType(ProducerType.SINGLE).build());
        final CountersManager counters = new CountersManager(
            new UnsafeBuffer(ByteBuffer.allocateDirect(16 * CountersReader.METADATA_LENGTH)),
            new UnsafeBuffer(ByteBuffer.allocateDirect(16 * CountersReader.COUNTER_LENGTH)));
        final AtomicCounter journaled = counters.newCounter("journal");
        journaled.set(-1);
        live = aeron.addPublication(IPC, 1);
        catchUp = aeron.addPublication(IPC, 2);
        requests = aeron.addSubscription(IPC, 3);
        receiver = new StandbyReceiver(aeron.addSubscription(IPC, 1), aeron.addSubscription(IPC, 2),
            aeron.addPublication(IPC, 3), ring, new SequenceBase(1), null, journaled, () -> 0, counters, role, clock,
            2);
        promotion = new Promotion(receiver, ingress, aeron.addSubscription(IPC, 4), ring, new SystemEpochNanoClock(),
            clock, role, 2, AUTO_PROMOTE_NS, null);
    }

    @Test
    void aStandbyInStepPromotesItselfOnceItsPrimaryHasBeenSilentForTheTimeoutByItsClock()
    {
        matchedAndInStep();

        // The primary falls silent. However long this takes in real time, the node's clock has not moved.
        final long quietUntilNs = System.nanoTime() + 300_000_000L;
        while (System.nanoTime() < quietUntilNs)
        {
            promotion.doWork();
            Thread.yield();
        }
        assertEquals(NodeRole.STANDBY, role.get());
        assertEquals(-1, ingress.openedAt);

        clock.advance(AUTO_PROMOTE_NS);
        promotion.doWork();
        assertEquals(NodeRole.STANDBY, role.get(), "silent for exactly the timeout: not yet");

        clock.advance(1);
        runUntil(() -> role.get() == NodeRole.PRIMARY, "the promotion");
        assertEquals(PRIMARY_EPOCH + 1, ingress.openedAt, "ingress open at the next epoch");
        assertEquals(PRIMARY_EPOCH + 1, promotion.epoch());
        assertTrue(promotion.isPromotionCommand(0), "the promotion command is the first this node wrote");
        assertEquals(NewEpochEncoder.TEMPLATE_ID, ring.buffer().getInt(ring.slotOffset(0) +
            SlotDescriptor.TEMPLATE_ID_OFFSET));
    }

    /**
     * The scripted primary answers the standby's catch-up request STREAMING (nothing to send: both journals are
     * empty) and heartbeats once: the standby is matched, in step, and has heard its primary.
     */
    private void matchedAndInStep()
    {
        final CatchUpRequestDecoder request = new CatchUpRequestDecoder();
        final long[] requestId = { -1 };
        runUntil(() ->
        {
            requests.poll((buffer, offset, length, header) ->
            {
                headerDecoder.wrap(buffer, offset);
                if (headerDecoder.templateId() == CatchUpRequestDecoder.TEMPLATE_ID)
                {
                    requestId[0] = request.wrapAndApplyHeader(buffer, offset, headerDecoder).requestId();
                }
            }, 10);
            return requestId[0] != -1;
        }, "a catch-up request");
        final CatchUpResponseEncoder response = new CatchUpResponseEncoder()
            .wrapAndApplyHeader(send, 0, headerEncoder).epoch(PRIMARY_EPOCH).nodeId(1).requestId(requestId[0])
            .status(CatchUpStatus.STREAMING).sequence(1).primarySequence(0);
        offer(catchUp, MessageHeaderEncoder.ENCODED_LENGTH + response.encodedLength());
        final ReplicationHeartbeatEncoder heartbeat = new ReplicationHeartbeatEncoder()
            .wrapAndApplyHeader(send, 0, headerEncoder).epoch(PRIMARY_EPOCH).nodeId(1).role(NodeRole.PRIMARY)
            .sequence(0).timestampNs(1);
        offer(live, MessageHeaderEncoder.ENCODED_LENGTH + heartbeat.encodedLength());
        runUntil(() -> receiver.acknowledging() && receiver.isInStep() && receiver.lastHeardNs() != 0,
            "matched, in step, and the primary heard");
    }

    private void offer(final Publication publication, final int length)
    {
        runUntil(() -> publication.offer(send, 0, length) > 0, "a message to the standby sent");
    }

    private void runUntil(final BooleanSupplier condition, final String what)
    {
        final long deadlineNs = System.nanoTime() + 5_000_000_000L;
        while (!condition.getAsBoolean())
        {
            assertTrue(System.nanoTime() < deadlineNs, "not " + what);
            promotion.doWork();
            Thread.yield();
        }
    }

    /** The node's client ingress as failover sees it: opened by the promotion, at an epoch. */
    private static final class RecordingIngress implements ClientIngress
    {
        volatile long openedAt = -1;

        public int doWork()
        {
            return 0;
        }

        public String roleName()
        {
            return "ingress";
        }

        public void open(final long epoch)
        {
            openedAt = epoch;
        }

        public void close()
        {
        }
    }
}
