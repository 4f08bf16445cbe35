package io.ringex.engine.replay;

import io.ringex.engine.risk.Account;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A trade bust (BustTrade, journaled) puts both accounts' cash and positions back as they were before the trade,
 * publishes a TradeBusted with its reason, and the trade file, the statements and the audit trail show it; a bust the
 * engine can tell is wrong is refused with a reason and changes nothing.
 */
class TradeBustTest
{
    private static final long SELLER = 1;
    private static final long BUYER = 2;

    @TempDir
    Path temp;

    @Test
    void aBustReversesTheTradeAndTheFilesAndTheAuditTrailShowIt()
    {
        final long sellOrder;
        final long buyOrder;
        final long[] before = new long[2];
        final long liveHash;
        try (JournalFixture venue = new JournalFixture(temp))
        {
            venue.encoder.operator("ops");
            venue.send(JournalFixture.ADMIN, venue.encoder.addInstrument(1, 1, "ACME", 2, 5, 10, 10_000,
                PriceBandType.TICKS, 40));
            for (long account = SELLER; account <= BUYER; account++)
            {
                venue.send(JournalFixture.ADMIN, venue.encoder.addAccount(10 + account, account,
                    SelfTradePrevention.CANCEL_NEWEST));
                venue.send(JournalFixture.ADMIN, venue.encoder.setLimits(20 + account, account, 1000,
                    Long.MAX_VALUE / 4, 0, 10_000, 100, true, new int[0], new long[0]));
                venue.send(JournalFixture.ADMIN, venue.encoder.adjustBalance(30 + account, account,
                    1_000_000_00000000L));
            }
            before[0] = venue.live.state().account(SELLER).balance();
            before[1] = venue.live.state().account(BUYER).balance();
            order(venue, SELLER, 100, Side.SELL, TimeInForce.GTC, 10_000, 30);
            sellOrder = venue.live.state().lastOrderId();
            order(venue, BUYER, 200, Side.BUY, TimeInForce.IOC, 10_000, 30);
            buyOrder = venue.live.state().lastOrderId();
            assertEquals(1, venue.live.state().lastTradeId());
            assertEquals(before[1] - 3_000_00000000L, venue.live.state().account(BUYER).balance());

            // refused: nothing changes
            final String refusedUnknownAccount = admin(venue, venue.encoder.bustTrade(40, 1, 1, 10_000, 30,
                buyOrder, sellOrder, 99, SELLER, "fat finger"));
            assertTrue(refusedUnknownAccount.contains("rejectReason=UNKNOWN_ACCOUNT"), refusedUnknownAccount);
            final String refusedUnknownTrade = admin(venue, venue.encoder.bustTrade(41, 2, 1, 10_000, 30,
                buyOrder, sellOrder, BUYER, SELLER, "fat finger"));
            assertTrue(refusedUnknownTrade.contains("rejectReason=INVALID_ARGUMENT"), refusedUnknownTrade);
            final String refusedNoReason = admin(venue, venue.encoder.bustTrade(42, 1, 1, 10_000, 30,
                buyOrder, sellOrder, BUYER, SELLER, ""));
            assertTrue(refusedNoReason.contains("rejectReason=INVALID_ARGUMENT"), refusedNoReason);
            assertEquals(before[1] - 3_000_00000000L, venue.live.state().account(BUYER).balance());

            final String accepted = admin(venue, venue.encoder.bustTrade(43, 1, 1, 10_000, 30, buyOrder,
                sellOrder, BUYER, SELLER, "fat finger"));
            assertTrue(accepted.contains("TradeBusted instrumentId=1|tradeId=1|price=10000|quantity=30|buyOrderId=" +
                buyOrder + "|sellOrderId=" + sellOrder + "|buyAccountId=2|sellAccountId=1|"), accepted);
            assertTrue(accepted.contains("reason='fat finger'"), accepted);
            assertTrue(accepted.contains("AdminResponse requestId=43|templateId=90|status=ACCEPTED"), accepted);
            for (final long accountId : new long[]{ SELLER, BUYER })
            {
                final Account account = venue.live.state().account(accountId);
                assertEquals(before[(int)accountId - 1], account.balance(), "cash back where it was");
                assertEquals(0, account.position(1).position(), "position back where it was");
                assertEquals(0, account.position(1).cost());
                assertEquals(0, account.position(1).realisedPnl());
            }
            liveHash = venue.live.stateHash();
        }

        try (Replayer replayer = Replayer.open(temp.resolve("journal"), null))
        {
            assertEquals(liveHash, PointInTime.atSequence(replayer, replayer.ends().lastSequence()).stateHash(),
                "a replay applies the bust as the venue did");
        }
        final String trades = cli("trades", "--from", "1", "--to", "13");
        assertEquals(List.of(
            "record,trade_id,sequence,time,instrument_id,symbol,price,quantity,notional,aggressor_side," +
                "buy_order_id,buy_account_id,buy_client_order_id,sell_order_id,sell_account_id," +
                "sell_client_order_id,operator,reason",
            "TRADE,1,9,2026-01-05T08:00:00.009Z,1,ACME,100.00,30,3000.00000000,BUY," + buyOrder + ",2,200," +
                sellOrder + ",1,100,,",
            "BUST,1,13,2026-01-05T08:00:00.013Z,1,ACME,100.00,30,3000.00000000,," + buyOrder + ",2,," + sellOrder +
                ",1,,ops,fat finger"), trades.lines().toList());

        final String statements = cli("statements", "--from", "8", "--to", "13", "--account", "2");
        assertTrue(statements.contains("\naccount,2,8,13,1000000.00000000,0.00000000,0.00000000,0.00000000," +
            "1000000.00000000,"), statements);
        assertTrue(statements.contains("\nfill,2,1,9,2026-01-05T08:00:00.009Z,1,ACME,BUY,TAKER,100.00,30,"),
            statements);
        assertTrue(statements.contains("\nbust,2,1,13,2026-01-05T08:00:00.013Z,1,ACME,SELL,BUST,100.00,30,"),
            statements);
        assertTrue(statements.contains(",fat finger\n"), statements);

        final String audit = cli("audit", "--account", "2", "--from", "2026-01-05T08:00:00.013Z");
        assertTrue(audit.contains("#13 ") && audit.contains("BustTrade requestId=43|tradeId=1|"), audit);
        assertTrue(audit.contains("-> TradeBusted instrumentId=1|tradeId=1|"), audit);
    }

    private static String admin(final JournalFixture venue, final int length)
    {
        final EventLog events = venue.send(JournalFixture.ADMIN, length);
        final MessageText text = new MessageText();
        final StringBuilder out = new StringBuilder();
        for (int i = 0; i < events.count(); i++)
        {
            text.wrap(events.events(), events.offset(i));
            out.append(text.text()).append('\n');
        }
        return out.toString();
    }

    private String cli(final String... args)
    {
        final String[] full = new String[args.length + 1];
        full[0] = args[0];
        full[1] = temp.resolve("journal").toString();
        System.arraycopy(args, 1, full, 2, args.length - 1);
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = new ReplayCli(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8)).run(full);
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    private static void order(
        final JournalFixture venue,
        final long account,
        final long clientOrderId,
        final Side side,
        final TimeInForce tif,
        final long price,
        final long quantity)
    {
        final long session = 1L << 32 | account;
        venue.send(session, venue.encoder.newOrder(session, account, clientOrderId, 1, side, OrderType.LIMIT, tif,
            false, SelfTradePrevention.ACCOUNT_DEFAULT, price, quantity));
    }
}
