package io.ringex.gateway;

import io.ringex.client.CommandEncoder;
import io.ringex.protocol.codecs.ExecutionReportEncoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.Side;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gateway's table of unanswered commands against a plain map, under random adds and answers, and its order,
 * bound and expiry.
 */
final class InFlightCommandsTest
{
    private static final long SESSION = (3L << 32) | 9;

    private final CommandEncoder encoder = new CommandEncoder();
    private final UnsafeBuffer answer = new UnsafeBuffer(new byte[256]);
    private final ExecutionReportEncoder report = new ExecutionReportEncoder();

    @Test
    void agreesWithAMapUnderRandomAddsAndAnswers()
    {
        final InFlightCommands table = new InFlightCommands(64);
        final Map<String, Integer> model = new HashMap<>();
        final Random random = new Random(42);
        for (int step = 0; step < 200_000; step++)
        {
            final long session = SESSION + random.nextInt(3);
            final long id = random.nextInt(100);
            final String key = session + "/" + id;
            if (random.nextBoolean())
            {
                final boolean room = model.values().stream().mapToInt(Integer::intValue).sum() < 64;
                assertEquals(room, table.add(encoder.buffer(), 0, newOrder(session, id), step), "add " + key);
                if (room)
                {
                    model.merge(key, 1, Integer::sum);
                }
            }
            else
            {
                final boolean waiting = model.getOrDefault(key, 0) > 0;
                assertEquals(waiting, table.answered(session, answer, answerFor(id)), "answer " + key);
                if (waiting)
                {
                    model.merge(key, -1, Integer::sum);
                }
            }
            assertEquals(model.values().stream().mapToInt(Integer::intValue).sum(), table.size());
        }
    }

    @Test
    void givesTheCommandsInDoubtInTheOrderSentWithTheirBytes()
    {
        final InFlightCommands table = new InFlightCommands(8);
        final List<byte[]> sent = new ArrayList<>();
        for (long id = 1; id <= 5; id++)
        {
            final int length = newOrder(SESSION, id);
            final byte[] copy = new byte[length];
            encoder.buffer().getBytes(0, copy);
            sent.add(copy);
            assertTrue(table.add(encoder.buffer(), 0, length, id));
        }
        assertTrue(table.answered(SESSION, answer, answerFor(2)));
        assertEquals(4, table.markAllInDoubt());
        final int[] slots = new int[8];
        assertEquals(4, table.inDoubtInSendOrder(slots));
        final long[] expected = { 1, 3, 4, 5 };
        for (int i = 0; i < 4; i++)
        {
            final byte[] bytes = new byte[table.commandLength(slots[i])];
            table.commands().getBytes(table.commandOffset(slots[i]), bytes);
            assertArrayEquals(sent.get((int)expected[i] - 1), bytes, "command " + expected[i]);
            assertEquals(SESSION, table.sessionId(slots[i]));
        }
        table.resubmitted(slots[0], 100);
        table.remove(slots[1]);
        assertEquals(2, table.inDoubtCount());
        assertEquals(0, table.expire(50), "what is in doubt, or sent after the time, is kept");
        assertEquals(1, table.expire(101), "the re-submitted one, unanswered since 100, is forgotten");
        assertEquals(2, table.size());
    }

    @Test
    void keepsOnlyCommandsTheEngineAlwaysAnswers()
    {
        final InFlightCommands table = new InFlightCommands(4);
        assertFalse(table.add(encoder.buffer(), 0, encoder.massCancel(SESSION, 1, 7,
            io.ringex.protocol.codecs.MassCancelScope.ACCOUNT, 0, false), 1));
        assertTrue(table.add(encoder.buffer(), 0, encoder.cancel(SESSION, 1, 8, 0, 5, 1), 1));
        assertTrue(table.answered(SESSION, answer, answerFor(8)));
    }

    private int newOrder(final long session, final long clientOrderId)
    {
        return encoder.limit(session, 1, clientOrderId, 1, Side.BUY, 100, 1);
    }

    /** @return the offset of the client order id in an execution report answering this id. */
    private int answerFor(final long clientOrderId)
    {
        report.wrapAndApplyHeader(answer, 0, new MessageHeaderEncoder())
            .putClientOrderId(CommandEncoder.clientOrderId(clientOrderId, new byte[20]), 0);
        return MessageHeaderEncoder.ENCODED_LENGTH + ExecutionReportEncoder.clientOrderIdEncodingOffset();
    }
}
