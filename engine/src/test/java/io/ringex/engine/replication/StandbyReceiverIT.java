package io.ringex.engine.replication;

import java.nio.ByteBuffer;
import java.util.function.BooleanSupplier;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.ringex.engine.node.NodeTestResources;
import io.ringex.engine.ring.ProducerType;
import io.ringex.engine.ring.Ring;
import io.ringex.engine.ring.SequenceBase;
import io.ringex.protocol.codecs.CatchUpRequestDecoder;
import io.ringex.protocol.codecs.CatchUpResponseEncoder;
import io.ringex.protocol.codecs.CatchUpStatus;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.protocol.codecs.ReplicationHeartbeatEncoder;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The standby receiver against a scripted primary over IPC (a real media driver): when the primary's catch-up session
 * ends under it (an UNAVAILABLE answer, or a catch-up stream gone quiet while the primary holds more), it asks again
 * with a new request once the interval has passed by the node's clock; a quiet primary with nothing more to send is
 * left alone. The clock is the test's: the intervals pass when the test says, not with the machine's speed.
 */
class StandbyReceiverIT
{
    private static final String IPC = "aeron:ipc";
    private static final long PRIMARY_SEQUENCE = 10;
    private static final long NO_REQUEST_WAIT_NS = 300_000_000L;

    @RegisterExtension
    final NodeTestResources env = new NodeTestResources();

    private final CachedNanoClock clock = new CachedNanoClock();
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
        clock.update(1_000_000_000L);
        final Aeron aeron = env.closing(Aeron.connect(new Aeron.Context()
            .aeronDirectoryName(env.aeronDirectoryName())));
        final Ring ring = env.closing(Ring.builder().name("input").capacity(64).slotLength(256)
            .producerType(ProducerType.SINGLE).build());
        final CountersManager counters = new CountersManager(
            new UnsafeBuffer(ByteBuffer.allocateDirect(16 * CountersReader.METADATA_LENGTH)),
            new UnsafeBuffer(ByteBuffer.allocateDirect(16 * CountersReader.COUNTER_LENGTH)));
        // Nothing journaled yet (the journal stage's sequence is -1): the first request names sequence 1.
        final AtomicCounter journaled = counters.newCounter("journal");
        journaled.set(-1);
        live = aeron.addPublication(IPC, 1);
        catchUp = aeron.addPublication(IPC, 2);
        requests = aeron.addSubscription(IPC, 3);
        receiver = new StandbyReceiver(aeron.addSubscription(IPC, 1), aeron.addSubscription(IPC, 2),
            aeron.addPublication(IPC, 3), ring, new SequenceBase(1), null, journaled, () -> 0, counters,
            new ActingRole(), clock, 2);
    }

    @Test
    void anUnavailableAnswerMidStreamIsFollowedByANewRequestAfterTheInterval()
    {
        final long first = startStreaming();
        respond(first, CatchUpStatus.UNAVAILABLE);
        runUntil(() -> receiver.stateName().equals("REQUESTING"), "the answer taken");
        // Heartbeats say the primary holds nothing more: only the answer makes it ask again, after the interval.
        assertEquals(-1, awaitRequest(0, NO_REQUEST_WAIT_NS), "asked again before the interval passed");
        clock.advance(StandbyReceiver.REQUEST_INTERVAL_NS);
        assertNewRequest(first, awaitRequest(0, 3_000_000_000L));
        assertEquals(1, lastFromSequence);
    }

    @Test
    void aCatchUpGoneQuietWhileThePrimaryHoldsMoreIsFollowedByANewRequestAfterTheInterval()
    {
        final long first = startStreaming();
        heartbeat(PRIMARY_SEQUENCE);
        runUntil(() -> !receiver.isInStep(), "the primary's heartbeat heard");
        assertEquals(-1, awaitRequest(PRIMARY_SEQUENCE, NO_REQUEST_WAIT_NS), "asked again before the interval passed");
        clock.advance(StandbyReceiver.REQUEST_INTERVAL_NS + 1);
        assertNewRequest(first, awaitRequest(PRIMARY_SEQUENCE, 3_000_000_000L));
    }

    @Test
    void aQuietPrimaryWithNothingMoreIsNotAskedAgain()
    {
        startStreaming();
        for (int i = 0; i < 4; i++)
        {
            clock.advance(StandbyReceiver.REQUEST_INTERVAL_NS);
            assertEquals(-1, awaitRequest(0, NO_REQUEST_WAIT_NS / 2));
        }
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
        runUntil(() -> receiver.stateName().equals("CATCHING_UP"), "the STREAMING answer taken");
        return first;
    }

    private void runUntil(final BooleanSupplier condition, final String what)
    {
        final long deadlineNs = System.nanoTime() + 5_000_000_000L;
        while (!condition.getAsBoolean())
        {
            assertTrue(System.nanoTime() < deadlineNs, "not " + what);
            receiver.doWork();
            Thread.yield();
        }
    }

    /**
     * Run the receiver, heartbeating as the primary, until it sends a catch-up request (the node's clock standing
     * still meanwhile).
     *
     * @param primarySequence what the heartbeats say the primary journaled.
     * @param timeoutNs       how long to wait, in real time.
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
            .timestampNs(clock.nanoTime());
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
