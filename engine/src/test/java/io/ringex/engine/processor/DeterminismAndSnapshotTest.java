package io.ringex.engine.processor;

import io.ringex.client.CommandEncoder;
import io.ringex.protocol.codecs.RejectReason;
import org.agrona.ExpandableArrayBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Same commands give the same events byte for byte and the same state hash; a snapshot restored into a fresh
 * processor has the same hash and produces the same events as the original from then on; invariants hold after
 * every command of a long random stream; snapshots of another version are refused.
 */
final class DeterminismAndSnapshotTest
{
    private static final int COMMANDS = 20_000;

    private static final class Run
    {
        final CapturingEventSink sink = new CapturingEventSink(1 << 22, 4096);
        final BusinessLogicProcessor processor = new BusinessLogicProcessor(sink, 1024, null);
        final CommandEncoder encoder = new CommandEncoder();
        final RandomCommands commands;
        long sequence;

        Run(final long seed)
        {
            commands = new RandomCommands(seed, encoder, processor);
        }

        void setup()
        {
            for (int i = 0; i < RandomCommands.setupCount(); i++)
            {
                apply(commands.setupCommand(i));
            }
            processor.onEndOfBatch();
        }

        void apply(final int length)
        {
            sequence++;
            processor.onCommand(sequence, 1_000L * sequence, RandomCommands.SESSION_BASE, encoder.buffer(), 0, length);
            if (sequence % 7 == 0)
            {
                processor.onEndOfBatch();
            }
        }

        byte[] drain()
        {
            final int end = sink.size() == 0 ? 0 : sink.offset(sink.size() - 1) + sink.length(sink.size() - 1);
            final byte[] bytes = new byte[end];
            sink.events().getBytes(0, bytes);
            sink.clear();
            return bytes;
        }
    }

    @Test
    void sameCommandsSameEventsAndHashAndInvariantsHold()
    {
        final Run a = new Run(42);
        final Run b = new Run(42);
        a.setup();
        b.setup();
        for (int i = 0; i < COMMANDS; i++)
        {
            a.apply(a.commands.next());
            b.apply(b.commands.next());
            Invariants.check(a.processor.state(), a.commands.deposited());
            if (i % 1000 == 999)
            {
                assertArrayEquals(a.drain(), b.drain());
                assertEquals(a.processor.stateHash(), b.processor.stateHash());
            }
        }
        assertEquals(0, a.processor.errorCount());
        assertNotEquals(0, a.processor.state().lastTradeId(), "the stream trades");
    }

    @Test
    void snapshotRestoreGivesSameHashAndSameSubsequentEvents()
    {
        final Run original = new Run(7);
        original.setup();
        for (int i = 0; i < COMMANDS / 2; i++)
        {
            original.apply(original.commands.next());
        }
        original.processor.onEndOfBatch();
        final ExpandableArrayBuffer image = new ExpandableArrayBuffer(1024);
        final int length = original.processor.writeSnapshot(image, 0);
        original.drain();

        final Run restored = new Run(7);
        restored.processor.restore(image, 0, length);
        restored.sequence = original.sequence;
        final ExpandableArrayBuffer rewritten = new ExpandableArrayBuffer(1024);
        assertEquals(length, restored.processor.writeSnapshot(rewritten, 0), "restored snapshot length");
        for (int i = 0; i < length; i++)
        {
            assertEquals(image.getByte(i), rewritten.getByte(i), "snapshot byte " + i + " of " + length);
        }
        assertEquals(BookDescription.describe(original.processor.state()),
            BookDescription.describe(restored.processor.state()));
        assertEquals(original.processor.stateHash(), restored.processor.stateHash());
        assertEquals(original.processor.lastSequence(), restored.processor.lastSequence());
        assertStatisticsEqual(original, restored);

        for (int i = 0; i < COMMANDS / 2; i++)
        {
            final int commandLength = original.commands.next();
            original.apply(commandLength);
            restored.sequence++;
            restored.processor.onCommand(restored.sequence, 1_000L * restored.sequence, RandomCommands.SESSION_BASE,
                original.encoder.buffer(), 0, commandLength);
            if (restored.sequence % 7 == 0)
            {
                restored.processor.onEndOfBatch();
            }
            if (i % 500 == 499)
            {
                assertArrayEquals(original.drain(), restored.drain());
            }
        }
        assertEquals(original.processor.stateHash(), restored.processor.stateHash());

        assertStatisticsEqual(original, restored);
        assertTrue(original.processor.state().statistics().rejects() > 0, "the stream has rejects to count");

        final ExpandableArrayBuffer again = new ExpandableArrayBuffer(1024);
        final int againLength = restored.processor.writeSnapshot(again, 0);
        final ExpandableArrayBuffer first = new ExpandableArrayBuffer(1024);
        assertEquals(againLength, original.processor.writeSnapshot(first, 0));
    }

    private static void assertStatisticsEqual(final Run a, final Run b)
    {
        final VenueStatistics x = a.processor.state().statistics();
        final VenueStatistics y = b.processor.state().statistics();
        assertEquals(x.ordersAccepted(), y.ordersAccepted());
        assertEquals(x.trades(), y.trades());
        assertEquals(x.rejects(), y.rejects());
        for (final RejectReason reason : RejectReason.values())
        {
            if (reason != RejectReason.NULL_VAL)
            {
                assertEquals(x.rejects(reason), y.rejects(reason), reason.name());
            }
        }
    }

    @Test
    void snapshotOfAnotherVersionIsRefused()
    {
        final Run run = new Run(1);
        run.setup();
        final ExpandableArrayBuffer image = new ExpandableArrayBuffer(1024);
        final int length = run.processor.writeSnapshot(image, 0);
        image.putInt(SnapshotDescriptor.VERSION_OFFSET, SnapshotDescriptor.VERSION + 1, ByteOrder.LITTLE_ENDIAN);
        assertThrows(IllegalStateException.class, () -> new Run(1).processor.restore(image, 0, length));
        image.putInt(SnapshotDescriptor.VERSION_OFFSET, SnapshotDescriptor.VERSION - 1, ByteOrder.LITTLE_ENDIAN);
        final IllegalStateException before = assertThrows(IllegalStateException.class,
            () -> new Run(1).processor.restore(image, 0, length));
        assertTrue(before.getMessage().contains("older build"), before.getMessage());
        image.putInt(SnapshotDescriptor.VERSION_OFFSET, SnapshotDescriptor.VERSION, ByteOrder.LITTLE_ENDIAN);
        assertThrows(IllegalStateException.class, () -> new Run(1).processor.restore(image, 0, length - 1));
        new Run(1).processor.restore(image, 0, length);
    }
}
