package io.ringex.engine.processor;

import io.ringex.protocol.codecs.MassCancelReportDecoder;
import io.ringex.protocol.codecs.MassCancelScope;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.Side;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.ringex.engine.processor.Harness.INSTRUMENT;
import static io.ringex.engine.processor.Harness.SESSION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A client's mass cancel ends with a MassCancelReport saying how many orders it cancelled, after their execution
 * reports, even when that is none; cancel-on-disconnect and admin mass cancels get none.
 */
final class MassCancelReportTest
{
    private final Harness h = Harness.standard();

    /** As a gateway forwards it: the slot's source is the client's session, not the admin source. */
    private List<Object> fromClient(final int length)
    {
        final int before = h.sink.size();
        h.processor.onCommand(++h.sequence, ++h.time, SESSION, h.encoder.buffer(), 0, length);
        return h.decode(before, h.sink.size());
    }

    private MassCancelReportDecoder lastReport(final int from)
    {
        final MassCancelReportDecoder d = new MassCancelReportDecoder();
        for (int i = h.sink.size() - 1; i >= from; i--)
        {
            if (h.sink.templateId(i) == MassCancelReportDecoder.TEMPLATE_ID)
            {
                for (int after = i + 1; after < h.sink.size(); after++)
                {
                    assertTrue(h.sink.templateId(after) != io.ringex.protocol.codecs.ExecutionReportDecoder.TEMPLATE_ID,
                        "the report comes after the execution reports of the cancels");
                }
                return d.wrap(h.sink.events(), h.sink.offset(i) + MessageHeaderDecoder.ENCODED_LENGTH,
                    MassCancelReportDecoder.BLOCK_LENGTH, MassCancelReportDecoder.SCHEMA_VERSION);
            }
        }
        return null;
    }

    @Test
    void countsWhatItCancelledAndAnswersEvenNone()
    {
        h.send(h.encoder.limit(SESSION, 1, 11, INSTRUMENT, Side.BUY, 9_900, 10));
        h.send(h.encoder.limit(SESSION, 1, 12, INSTRUMENT, Side.BUY, 9_800, 10));
        h.send(h.encoder.limit(SESSION, 2, 21, INSTRUMENT, Side.BUY, 9_800, 10));

        int from = h.sink.size();
        final List<Object> events = fromClient(h.encoder.massCancel(SESSION, 1, 50, MassCancelScope.ACCOUNT, 0, false));
        assertEquals(2, Harness.only(events, Harness.Er.class).size());
        final MassCancelReportDecoder account = lastReport(from);
        assertEquals(2, account.totalAffectedOrders());
        assertEquals("50", account.clientRequestId());
        assertEquals(MassCancelScope.ACCOUNT, account.scope());
        assertEquals(SESSION, account.sessionId());
        assertEquals(h.sequence, account.commandSequence());

        from = h.sink.size();
        fromClient(h.encoder.massCancel(SESSION, 1, 51, MassCancelScope.INSTRUMENT, INSTRUMENT, false));
        assertEquals(0, lastReport(from).totalAffectedOrders(), "nothing left to cancel is an answer too");

        from = h.sink.size();
        fromClient(h.encoder.massCancel(SESSION, 2, 0, MassCancelScope.SESSION, 0, true));
        assertEquals(null, lastReport(from), "cancel-on-disconnect tells nobody");
        h.send(h.encoder.limit(SESSION, 2, 22, INSTRUMENT, Side.BUY, 9_800, 10));
        from = h.sink.size();
        h.send(h.encoder.massCancel(0, 2, 0, MassCancelScope.ACCOUNT, 0, false));
        assertEquals(null, lastReport(from), "an admin source gets no report");
        assertTrue(h.processor.state().orders.size() == 0);
    }
}
