package io.ringex.engine.processor;

import io.ringex.protocol.codecs.MassStatusScope;
import io.ringex.protocol.codecs.OrderStatus;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.Side;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.ringex.engine.processor.Harness.INSTRUMENT;
import static io.ringex.engine.processor.Harness.SESSION;
import static io.ringex.engine.processor.Harness.only;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Order status and mass status through onCommand: what is reported, what is refused (unknown, another account's,
 * done, unknown instrument, malformed scope), the explicit empty answer, and that a query changes nothing: no event
 * other than its reports, the same state hash.
 */
final class OrderStatusScenarioTest
{
    private static final long OTHER_SESSION = SESSION + 1;
    private final Harness h = Harness.standard();

    private List<Harness.StatusRep> query(final int length)
    {
        final long hashBefore = h.processor.stateHash();
        final List<Object> events = h.send(length);
        events.addAll(h.endBatch());
        final List<Harness.StatusRep> reports = only(events, Harness.StatusRep.class);
        assertEquals(events.size(), reports.size(), "a query emits its reports and nothing else: " + events);
        assertEquals(hashBefore, h.processor.stateHash(), "a query leaves the state hash as it was");
        return reports;
    }

    private void restingOrders()
    {
        h.send(h.encoder.limit(SESSION, 1, 11, INSTRUMENT, Side.BUY, 9_900, 100));       // order 1
        h.send(h.encoder.limit(OTHER_SESSION, 1, 12, INSTRUMENT, Side.SELL, 10_100, 50)); // order 2
        h.send(h.encoder.limit(SESSION, 2, 21, INSTRUMENT, Side.SELL, 10_200, 30));       // order 3
        h.send(h.encoder.limit(SESSION, 3, 31, INSTRUMENT, Side.BUY, 9_800, 40));         // order 4, account 3
        h.endBatch();
    }

    @Test
    void statusByOrderIdAndByClientOrderIdReportsFillsLeavesAndAveragePrice()
    {
        h.send(h.encoder.limit(SESSION, 1, 11, INSTRUMENT, Side.BUY, 10_000, 100));
        h.send(h.encoder.limit(SESSION, 2, 21, INSTRUMENT, Side.SELL, 10_000, 30));
        h.send(h.encoder.limit(SESSION, 2, 22, INSTRUMENT, Side.SELL, 9_995, 10)); // fills at 100.00 (the resting)
        h.endBatch();

        final Harness.StatusRep byId = query(h.encoder.orderStatusRequest(SESSION, 1, 501, 1, 0)).get(0);
        assertEquals(new Harness.StatusRep(SESSION, "501", false, 1, 1, RejectReason.NONE, 1, INSTRUMENT, 1, "11",
            OrderStatus.PARTIALLY_FILLED, Side.BUY, 10_000, 100, 60, 40, 10_000, h.sequence), byId);

        final Harness.StatusRep byClientId = query(h.encoder.orderStatusRequest(SESSION, 1, 502, 0, 11)).get(0);
        assertEquals(1, byClientId.orderId());
        assertEquals("502", byClientId.statusRequestId());
        assertEquals(60, byClientId.leaves());

        // Another session of the same account may ask: status is per account, not per session.
        assertEquals(1, query(h.encoder.orderStatusRequest(OTHER_SESSION, 1, 503, 1, 0)).get(0).orderId());
    }

    @Test
    void unknownDoneAndOtherAccountsOrdersAreAllUnknownOrder()
    {
        restingOrders();
        h.send(h.encoder.cancel(SESSION, 1, 90, 0, 1, INSTRUMENT)); // order 1 is done
        h.endBatch();

        for (final int length : new int[]{
            h.encoder.orderStatusRequest(SESSION, 1, 601, 1, 0),   // done
            h.encoder.orderStatusRequest(SESSION, 1, 602, 777, 0), // never existed
            h.encoder.orderStatusRequest(SESSION, 1, 603, 3, 0),   // account 2's, asked as account 1
            h.encoder.orderStatusRequest(SESSION, 1, 604, 0, 21),  // account 2's client order id
            h.encoder.orderStatusRequest(SESSION, 1, 605, 0, 0) }) // names nothing
        {
            final List<Harness.StatusRep> reports = query(length);
            assertEquals(1, reports.size());
            final Harness.StatusRep refusal = reports.get(0);
            assertEquals(RejectReason.UNKNOWN_ORDER, refusal.reason());
            assertEquals(OrderStatus.REJECTED, refusal.status());
            assertEquals(0, refusal.totalReports());
            assertEquals(0, refusal.quantity(), "nothing of the order is told");
            assertEquals(Side.NULL_VAL, refusal.side());
        }
    }

    @Test
    void massStatusOfAccountsSessionAndInstrumentIsNumberedAndKeepsToTheAccounts()
    {
        restingOrders();

        final List<Harness.StatusRep> accounts = query(h.encoder.orderMassStatusRequest(
            SESSION, 0, 700, MassStatusScope.ACCOUNTS, 0, 1, 2));
        assertEquals(List.of(1L, 2L, 3L), accounts.stream().map(Harness.StatusRep::orderId).toList());
        for (int i = 0; i < accounts.size(); i++)
        {
            assertEquals(i + 1, accounts.get(i).reportNumber());
            assertEquals(3, accounts.get(i).totalReports());
            assertTrue(accounts.get(i).mass());
            assertEquals("700", accounts.get(i).statusRequestId());
            assertEquals(SESSION, accounts.get(i).sessionId(), "answered to the session that asked");
        }

        final List<Harness.StatusRep> session = query(h.encoder.orderMassStatusRequest(
            SESSION, 0, 701, MassStatusScope.SESSION, 0, 1, 2));
        assertEquals(List.of(1L, 3L), session.stream().map(Harness.StatusRep::orderId).toList());

        final List<Harness.StatusRep> oneAccount = query(h.encoder.orderMassStatusRequest(
            SESSION, 2, 702, MassStatusScope.ACCOUNTS, 0, 2, 2));
        assertEquals(List.of(3L), oneAccount.stream().map(Harness.StatusRep::orderId).toList(),
            "an account named twice is reported once");
    }

    @Test
    void massStatusOfAnInstrumentEmptyAnswerAndRefusals()
    {
        h.send(h.encoder.addInstrument(9, 2, "BETA", 2, 1, 1, 10_000, io.ringex.protocol.codecs.PriceBandType.TICKS,
            1000));
        restingOrders();
        h.send(h.encoder.limit(SESSION, 1, 13, 2, Side.BUY, 9_999, 5));              // order 5, instrument 2
        h.endBatch();

        final List<Harness.StatusRep> instrument = query(h.encoder.orderMassStatusRequest(
            SESSION, 0, 800, MassStatusScope.INSTRUMENT, 2, 1, 2));
        assertEquals(List.of(5L), instrument.stream().map(Harness.StatusRep::orderId).toList());

        final Harness.StatusRep empty = query(h.encoder.orderMassStatusRequest(
            OTHER_SESSION + 5, 0, 801, MassStatusScope.SESSION, 0, 1, 2)).get(0);
        assertEquals(RejectReason.NONE, empty.reason());
        assertEquals(0, empty.totalReports());
        assertEquals(0, empty.orderId());
        assertEquals(OrderStatus.NULL_VAL, empty.status());

        final Harness.StatusRep noAccounts = query(h.encoder.orderMassStatusRequest(
            SESSION, 0, 802, MassStatusScope.ACCOUNTS, 0)).get(0);
        assertEquals(0, noAccounts.totalReports(), "no accounts: nothing to show");

        final Harness.StatusRep unknownInstrument = query(h.encoder.orderMassStatusRequest(
            SESSION, 0, 803, MassStatusScope.INSTRUMENT, 99, 1, 2)).get(0);
        assertEquals(RejectReason.UNKNOWN_INSTRUMENT, unknownInstrument.reason());
        assertEquals(99, unknownInstrument.instrumentId());

        final Harness.StatusRep tooMany = query(h.encoder.orderMassStatusRequest(
            SESSION, 0, 804, MassStatusScope.ACCOUNTS, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9)).get(0);
        assertEquals(RejectReason.MALFORMED, tooMany.reason());

        final int length = h.encoder.orderMassStatusRequest(SESSION, 0, 805, MassStatusScope.ACCOUNTS, 0, 1);
        h.encoder.buffer().putByte(8 + io.ringex.protocol.codecs.OrderMassStatusRequestEncoder.scopeEncodingOffset(),
            (byte)9);
        final Harness.StatusRep badScope = query(length).get(0);
        assertEquals(RejectReason.MALFORMED, badScope.reason());
        assertFalse(badScope.reason() == RejectReason.NONE);
        assertEquals(0, h.processor.errorCount());
    }
}
