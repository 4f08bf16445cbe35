package io.ringex.engine.replay;

import io.ringex.protocol.codecs.KillSwitchScope;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import io.ringex.protocol.codecs.TradingStatus;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The audit trail of an order rebuilt from the journal lists exactly its lifecycle, in order; an order rejected for
 * each reason the order entry checks shows that reason.
 */
class AuditTrailTest
{
    private static final long SELLER = 1;
    private static final long BUYER = 2;
    private static final long TIGHT = 3;
    private static final long LIMITED = 4;
    private static final long KILLED = 5;
    private static final long BIG = 1_000_000_000_000_000L;

    @TempDir
    Path temp;

    private JournalFixture venue;
    private long requestId = 1;
    private long clientOrderId = 100;

    @BeforeEach
    void venue()
    {
        venue = new JournalFixture(temp);
        admin(venue.encoder.addInstrument(requestId++, 1, "ACME", 2, 5, 10, 10_000, PriceBandType.TICKS, 40));
        admin(venue.encoder.addInstrument(requestId++, 2, "HALT", 2, 5, 10, 10_000, PriceBandType.TICKS, 40));
        admin(venue.encoder.setTradingStatus(requestId++, 2, TradingStatus.HALTED));
        account(SELLER, 1000, BIG, 10_000, 100, true, 1_000_000);
        account(BUYER, 1000, BIG, 10_000, 100, true, 1_000_000);
        account(TIGHT, 100, 5_000_00000000L, 10_000, 1, false, 2_000);
        account(LIMITED, 1000, BIG, 10, 100, true, 1_000_000);
        account(KILLED, 1000, BIG, 10_000, 100, true, 1_000_000);
        admin(venue.encoder.killSwitch(requestId++, KillSwitchScope.ACCOUNT, KILLED, true));
    }

    @Test
    void orderPartiallyFilledReplacedFilledAgainAndCancelledListsExactlyThoseEvents()
    {
        final long sellId = clientOrderId++;
        order(SELLER, sellId, Side.SELL, TimeInForce.GTC, false, 10_000, 100);
        final long orderId = venue.live.state().lastOrderId();
        order(BUYER, clientOrderId++, Side.BUY, TimeInForce.IOC, false, 10_000, 30);
        order(BUYER, clientOrderId++, Side.BUY, TimeInForce.GTC, false, 9_900, 10); // another order: not in the trail
        final long replacedId = clientOrderId++;
        venue.send(session(SELLER), venue.encoder.replace(session(SELLER), SELLER, replacedId, sellId, 0, 1, 10_005,
            80));
        order(BUYER, clientOrderId++, Side.BUY, TimeInForce.IOC, false, 10_005, 20);
        venue.send(session(SELLER), venue.encoder.cancel(session(SELLER), SELLER, clientOrderId++, replacedId, 0, 1));
        venue.close();

        final AuditTrail.Result byOrder = audit(AuditTrail.Query.order(orderId));
        // The order's book events (BookLevelUpdate names the order since the order-by-order feed) are in its trail.
        assertEquals(List.of(
            "NewOrder: ExecutionReport NEW, BookLevelUpdate",
            "NewOrder: ExecutionReport PARTIAL_FILL, Trade, BookLevelUpdate",
            "ReplaceOrder: BookLevelUpdate, ExecutionReport REPLACED, BookLevelUpdate",
            "NewOrder: ExecutionReport PARTIAL_FILL, Trade, BookLevelUpdate",
            "CancelOrder: BookLevelUpdate, ExecutionReport CANCELED"), lifecycle(byOrder), AuditTrail.text(byOrder));
        final AuditTrail.Entry secondFill = byOrder.entries().get(3);
        assertTrue(secondFill.eventTexts().get(1).contains("sellOrderId=" + orderId), secondFill.toString());
        assertTrue(secondFill.eventTexts().get(1).contains("buyOrderId=" + (orderId + 3)),
            "the counterparty's order id: " + secondFill);
        assertTrue(secondFill.eventTexts().get(0).contains("cumulativeQuantity=50"), secondFill.toString());

        // by the client's id: the same life, found through the id it had first and then its new one
        final AuditTrail.Result byClientId = audit(AuditTrail.Query.clientOrder(Long.toString(sellId), SELLER));
        assertEquals(lifecycle(byOrder), lifecycle(byClientId), AuditTrail.text(byClientId));
    }

    @Test
    void aRejectedOrderShowsItsReasonForEveryReasonOrderEntryChecks()
    {
        order(SELLER, clientOrderId++, Side.SELL, TimeInForce.GTC, false, 10_000, 10);
        final long restingId = clientOrderId - 1;
        order(TIGHT, clientOrderId++, Side.BUY, TimeInForce.GTC, false, 9_800, 10); // TIGHT's one open order

        final Map<String, long[]> cases = new LinkedHashMap<>();
        cases.put("INVALID_QUANTITY", reject(SELLER, 1, Side.BUY, TimeInForce.GTC, false, 10_000, 0));
        cases.put("INVALID_LOT", reject(SELLER, 1, Side.BUY, TimeInForce.GTC, false, 10_000, 15));
        cases.put("INVALID_PRICE", reject(SELLER, 1, Side.BUY, TimeInForce.GTC, false, 0, 10));
        cases.put("INVALID_TICK", reject(SELLER, 1, Side.BUY, TimeInForce.GTC, false, 10_003, 10));
        cases.put("PRICE_OUTSIDE_BAND", reject(SELLER, 1, Side.BUY, TimeInForce.GTC, false, 11_000, 10));
        cases.put("INSTRUMENT_HALTED", reject(SELLER, 2, Side.BUY, TimeInForce.GTC, false, 10_000, 10));
        cases.put("UNKNOWN_INSTRUMENT", reject(SELLER, 99, Side.BUY, TimeInForce.GTC, false, 10_000, 10));
        cases.put("UNKNOWN_ACCOUNT", reject(99, 1, Side.BUY, TimeInForce.GTC, false, 10_000, 10));
        cases.put("ACCOUNT_KILLED", reject(KILLED, 1, Side.BUY, TimeInForce.GTC, false, 10_000, 10));
        cases.put("INVALID_ORDER_TYPE", reject(SELLER, 1, Side.BUY, TimeInForce.IOC, true, 10_000, 10));
        cases.put("DUPLICATE_CLIENT_ORDER_ID", new long[]{ SELLER, restingId, venue.sequence + 1 });
        order(SELLER, restingId, Side.SELL, TimeInForce.GTC, false, 10_050, 10);
        cases.put("POST_ONLY_WOULD_CROSS", reject(BUYER, 1, Side.BUY, TimeInForce.GTC, true, 10_000, 10));
        cases.put("FOK_NOT_FILLABLE", reject(BUYER, 1, Side.BUY, TimeInForce.FOK, false, 10_000, 1000));
        cases.put("MAX_ORDER_QUANTITY", reject(TIGHT, 1, Side.BUY, TimeInForce.IOC, false, 10_000, 110));
        cases.put("MAX_ORDER_NOTIONAL", reject(TIGHT, 1, Side.BUY, TimeInForce.IOC, false, 10_000, 100));
        cases.put("TOO_MANY_OPEN_ORDERS", reject(TIGHT, 1, Side.BUY, TimeInForce.GTC, false, 9_800, 10));
        cases.put("INSUFFICIENT_CREDIT", reject(TIGHT, 1, Side.BUY, TimeInForce.IOC, false, 10_000, 30));
        cases.put("INSUFFICIENT_POSITION", reject(TIGHT, 1, Side.SELL, TimeInForce.IOC, false, 10_100, 10));
        cases.put("POSITION_LIMIT", reject(LIMITED, 1, Side.BUY, TimeInForce.IOC, false, 10_000, 20));
        admin(venue.encoder.killSwitch(requestId++, KillSwitchScope.VENUE, 0, true));
        cases.put("VENUE_KILLED", reject(BUYER, 1, Side.BUY, TimeInForce.GTC, false, 10_000, 10));
        admin(venue.encoder.killSwitch(requestId++, KillSwitchScope.VENUE, 0, false));
        venue.close();

        for (final Map.Entry<String, long[]> c : cases.entrySet())
        {
            final long account = c.getValue()[0];
            final long id = c.getValue()[1];
            final AuditTrail.Query query = AuditTrail.Query.clientOrder(Long.toString(id), account);
            final long sequence = c.getValue()[2];
            final AuditTrail.Result result = audit(query.window(JournalFixture.START_NS +
                sequence * JournalFixture.STEP_NS, JournalFixture.START_NS + sequence * JournalFixture.STEP_NS));
            assertEquals(1, result.entries().size(), c.getKey() + ": " + AuditTrail.text(result));
            final AuditTrail.Entry entry = result.entries().get(0);
            assertEquals(sequence, entry.sequence(), c.getKey());
            assertEquals("NewOrder", entry.command(), c.getKey());
            assertEquals(List.of("ExecutionReport"), entry.events(), c.getKey() + ": " + entry);
            assertTrue(entry.eventTexts().get(0).contains("execType=REJECTED"), entry.toString());
            assertTrue(entry.eventTexts().get(0).contains("rejectReason=" + c.getKey() + "|"),
                c.getKey() + ": " + entry.eventTexts().get(0));
        }
    }

    private AuditTrail.Result audit(final AuditTrail.Query query)
    {
        try (Replayer replayer = Replayer.open(venue.journalDirectory, venue.snapshotDirectory))
        {
            return new AuditTrail().run(replayer, query);
        }
    }

    /** Each entry as "Command: Event EXEC_TYPE, Event". */
    private static List<String> lifecycle(final AuditTrail.Result result)
    {
        final List<String> lines = new ArrayList<>();
        for (final AuditTrail.Entry entry : result.entries())
        {
            final List<String> events = new ArrayList<>();
            for (int i = 0; i < entry.events().size(); i++)
            {
                final String text = entry.eventTexts().get(i);
                final int at = text.indexOf("execType=");
                events.add(entry.events().get(i) + (at < 0 ? "" : " " + text.substring(at + 9,
                    text.indexOf('|', at))));
            }
            lines.add(entry.command() + ": " + String.join(", ", events));
        }
        return lines;
    }

    private long[] reject(
        final long account,
        final int instrument,
        final Side side,
        final TimeInForce tif,
        final boolean postOnly,
        final long price,
        final long quantity)
    {
        final long id = clientOrderId++;
        venue.send(session(account), venue.encoder.newOrder(session(account), account, id, instrument, side,
            OrderType.LIMIT, tif, postOnly, SelfTradePrevention.ACCOUNT_DEFAULT, price, quantity));
        return new long[]{ account, id, venue.sequence };
    }

    private void order(
        final long account,
        final long id,
        final Side side,
        final TimeInForce tif,
        final boolean postOnly,
        final long price,
        final long quantity)
    {
        venue.send(session(account), venue.encoder.newOrder(session(account), account, id, 1, side,
            OrderType.LIMIT, tif, postOnly, SelfTradePrevention.ACCOUNT_DEFAULT, price, quantity));
    }

    private static long session(final long account)
    {
        return (1L << 32) | account;
    }

    private void admin(final int length)
    {
        venue.send(JournalFixture.ADMIN, length);
    }

    private void account(
        final long account,
        final long maxQuantity,
        final long maxNotional,
        final long positionLimit,
        final int maxOpenOrders,
        final boolean allowShort,
        final long depositUnits)
    {
        admin(venue.encoder.addAccount(requestId++, account, SelfTradePrevention.CANCEL_NEWEST));
        admin(venue.encoder.setLimits(requestId++, account, maxQuantity, maxNotional, 0, positionLimit,
            maxOpenOrders, allowShort, new int[0], new long[0]));
        admin(venue.encoder.adjustBalance(requestId++, account, depositUnits * 100_000_000L));
    }
}
