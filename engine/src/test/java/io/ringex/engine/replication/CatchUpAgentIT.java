package io.ringex.engine.replication;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.ringex.engine.node.NodeTestResources;
import io.ringex.journal.Journal;
import io.ringex.journal.JournalWriter;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.CatchUpRequestEncoder;
import io.ringex.protocol.codecs.CatchUpResponseDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.protocol.codecs.ReplicatedCommandDecoder;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The primary's catch-up agent over IPC with a real journal: a request repeated while its session streams (the
 * standby never had the STREAMING answer) is answered again and the stream restarts from the sequence it names.
 */
class CatchUpAgentIT
{
    private static final String IPC = "aeron:ipc";
    private static final int RECORDS = 20;

    @RegisterExtension
    final NodeTestResources env = new NodeTestResources();

    @TempDir
    Path dir;

    private final List<String> received = new ArrayList<>();
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final CatchUpResponseDecoder response = new CatchUpResponseDecoder();
    private final ReplicatedCommandDecoder command = new ReplicatedCommandDecoder();

    @Test
    void aRequestRepeatedWhileStreamingIsAnsweredAgainAndStreamedFromItsSequence()
    {
        final Journal journal = env.closing(Journal.open(dir.resolve("journal"), Journal.Durability.PROCESS));
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[16]);
        try (JournalWriter writer = journal.newWriter(0))
        {
            for (long sequence = 1; sequence <= RECORDS; sequence++)
            {
                writer.append(sequence, sequence, 1, 1, payload, 0, payload.capacity());
            }
            writer.endOfBatch();
        }
        final Aeron aeron = env.closing(Aeron.connect(new Aeron.Context()
            .aeronDirectoryName(env.aeronDirectoryName())));
        final Publication requests = aeron.addPublication(IPC, 1);
        final Subscription stream = aeron.addSubscription(IPC, 2);
        final AtomicCounter sent = new AtomicCounter(new UnsafeBuffer(ByteBuffer.allocateDirect(1024)), 0);
        final ActingRole primary = new ActingRole();
        primary.set(NodeRole.PRIMARY);
        final CatchUpAgent agent = new CatchUpAgent(aeron.addSubscription(IPC, 1),
            aeron.addExclusivePublication(IPC, 2), journal, () -> RECORDS, () -> 1, primary,
            SystemNanoClock.INSTANCE, 1, 1_000_000_000L, sent, 64);
        while (!requests.isConnected() || !stream.isConnected())
        {
            Thread.yield();
        }

        request(requests, 7, 1, 0);
        runUntil(agent, stream, RECORDS + 1);
        assertEquals("STREAMING 1", received.get(0));
        assertEquals("command " + RECORDS, received.get(RECORDS));

        // The same request again, from a later sequence: answered again, streamed again from there.
        received.clear();
        request(requests, 7, 11, DivergenceProbe.checksumAt(journal, 10));
        runUntil(agent, stream, RECORDS - 10 + 1);
        assertEquals("STREAMING 11", received.get(0));
        assertEquals("command 11", received.get(1));
        assertEquals("command " + RECORDS, received.get(RECORDS - 10));
    }

    private void runUntil(final CatchUpAgent agent, final Subscription stream, final int count)
    {
        final long deadlineNs = System.nanoTime() + 5_000_000_000L;
        while (received.size() < count && System.nanoTime() < deadlineNs)
        {
            agent.doWork();
            stream.poll((buffer, offset, length, frame) ->
            {
                header.wrap(buffer, offset);
                if (header.templateId() == CatchUpResponseDecoder.TEMPLATE_ID)
                {
                    response.wrapAndApplyHeader(buffer, offset, header);
                    received.add(response.status() + " " + response.sequence());
                }
                else if (header.templateId() == ReplicatedCommandDecoder.TEMPLATE_ID)
                {
                    received.add("command " + command.wrapAndApplyHeader(buffer, offset, header).sequence());
                }
            }, 64);
        }
        assertEquals(count, received.size(), received.toString());
    }

    private static void request(
        final Publication requests, final long requestId, final long fromSequence, final int lastChecksum)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[128]);
        final CatchUpRequestEncoder encoder = new CatchUpRequestEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder()).epoch(1).nodeId(2).fromSequence(fromSequence)
            .requestId(requestId).lastChecksum(lastChecksum).probe(BooleanType.FALSE);
        while (requests.offer(buffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength()) < 0)
        {
            Thread.yield();
        }
    }
}
