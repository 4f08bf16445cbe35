package io.ringex.engine.node;

import java.nio.ByteBuffer;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.ringex.engine.ring.ProducerType;
import io.ringex.engine.ring.Ring;
import io.ringex.protocol.codecs.CatchUpRequestDecoder;
import io.ringex.protocol.codecs.CatchUpResponseEncoder;
import io.ringex.protocol.codecs.CatchUpStatus;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.protocol.codecs.ReplicationHeartbeatEncoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The standby receiver against a scripted primary over IPC (a real media driver): when the primary's catch-up session
 * ends under it (an UNAVAILABLE answer, or a catch-up stream gone quiet while the primary holds more), it asks again
 * with a new request; a quiet primary with nothing more to send is left alone.
 */
class StandbyReceiverIT
{
    private static final String IPC = "aeron:ipc";
    private static final long PRIMARY_SEQUENCE = 10;

    @RegisterExtension
    final NodeTestResources env = new NodeTestResources();

    private final UnsafeBuffer send = new UnsafeBuffer(new byte[128]);
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final CatchUpRequestDecoder request = new CatchUpRequestDecoder();
    private Publication live;
    private Publication catchUp;
    private Subscription requests;
    private StandbyReceiver receiver;
    private long lastRequestId;
    private long lastFromSequence;

    @BeforeEach
    void wire()
    {
        final Aeron aeron = env.closing(Aeron.connect(new Aeron.Context()
            .aeronDirectoryName(env.aeronDirectoryName())));
        final Ring ring = env.closing(Ring.builder().name("input").capacity(64).slotLength(256)
            .producerType(ProducerType.SINGLE).build());
        final UnsafeBuffer counters = new UnsafeBuffer(ByteBuffer.allocateDirect(4096));
        final StandbyReceiver.Links links = new StandbyReceiver.Links();
        links.live = aeron.addSubscription(IPC, 1);
        links.catchUp = aeron.addSubscription(IPC, 2);
        links.toPrimary = aeron.addPublication(IPC, 3);
        links.journaledSequence = () -> 0;
        links.journaledChecksum = () -> 0;
        links.gaps = new AtomicCounter(counters, 0);
        links.diverged = new AtomicCounter(counters, 1);
        links.caughtUp = new AtomicCounter(counters, 2);
        links.onDiverged = () -> { };
        links.nodeId = 2;
        live = aeron.addPublication(IPC, 1);
        catchUp = aeron.addPublication(IPC, 2);
        requests = aeron.addSubscription(IPC, 3);
        receiver = new StandbyReceiver(links, ring, new SequenceBase(1));
    }

    @Test
    void anUnavailableAnswerMidStreamIsFollowedByANewRequest()
    {
        final long first = startStreaming();
        respond(first, CatchUpStatus.UNAVAILABLE);
        // Heartbeats say the primary holds nothing more: only the answer can make it ask again.
        assertNewRequest(first, awaitRequest(0, 3_000_000_000L));
        assertEquals(1, lastFromSequence);
    }

    @Test
    void aCatchUpGoneQuietWhileThePrimaryHoldsMoreIsFollowedByANewRequest()
    {
        final long first = startStreaming();
        final long startNs = System.nanoTime();
        assertNewRequest(first, awaitRequest(PRIMARY_SEQUENCE, 3_000_000_000L));
        assertTrue(System.nanoTime() - startNs >= StandbyReceiver.REQUEST_INTERVAL_NS, "asked again too soon");
    }

    @Test
    void aQuietPrimaryWithNothingMoreIsNotAskedAgain()
    {
        startStreaming();
        assertEquals(-1, awaitRequest(0, 1_000_000_000L));
    }

    private static void assertNewRequest(final long first, final long next)
    {
        assertNotEquals(-1, next, "no new request");
        assertNotEquals(first, next, "the same request again");
    }

    /**
     * Take the receiver's first request and answer STREAMING.
     *
     * @return its request id.
     */
    private long startStreaming()
    {
        final long first = awaitRequest(0, 3_000_000_000L);
        assertNotEquals(-1, first);
        respond(first, CatchUpStatus.STREAMING);
        return first;
    }

    /**
     * Run the receiver, heartbeating as the primary, until it sends a catch-up request.
     *
     * @param primarySequence what the heartbeats say the primary journaled.
     * @param timeoutNs       how long to wait.
     * @return the request id, or -1 if none came.
     */
    private long awaitRequest(final long primarySequence, final long timeoutNs)
    {
        lastRequestId = -1;
        final long deadlineNs = System.nanoTime() + timeoutNs;
        long nextHeartbeatNs = 0;
        while (lastRequestId == -1 && System.nanoTime() < deadlineNs)
        {
            receiver.doWork();
            if (System.nanoTime() >= nextHeartbeatNs)
            {
                heartbeat(primarySequence);
                nextHeartbeatNs = System.nanoTime() + 50_000_000L;
            }
            requests.poll((buffer, offset, length, header) ->
            {
                headerDecoder.wrap(buffer, offset);
                if (headerDecoder.templateId() == CatchUpRequestDecoder.TEMPLATE_ID)
                {
                    request.wrapAndApplyHeader(buffer, offset, headerDecoder);
                    lastRequestId = request.requestId();
                    lastFromSequence = request.fromSequence();
                }
            }, 10);
            Thread.yield();
        }
        return lastRequestId;
    }

    private void heartbeat(final long sequence)
    {
        final ReplicationHeartbeatEncoder encoder = new ReplicationHeartbeatEncoder()
            .wrapAndApplyHeader(send, 0, headerEncoder).epoch(1).nodeId(1).role(NodeRole.PRIMARY).sequence(sequence)
            .timestampNs(System.nanoTime());
        live.offer(send, 0, MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength());
    }

    private void respond(final long requestId, final CatchUpStatus status)
    {
        final CatchUpResponseEncoder encoder = new CatchUpResponseEncoder()
            .wrapAndApplyHeader(send, 0, headerEncoder).epoch(1).nodeId(1).requestId(requestId).status(status)
            .sequence(1).primarySequence(0);
        while (catchUp.offer(send, 0, MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength()) < 0)
        {
            receiver.doWork();
            Thread.yield();
        }
    }
}
