package io.ringex.engine.processor;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import io.ringex.client.risk.AccountRisk;
import io.ringex.client.risk.AccountRiskBook;
import io.ringex.engine.risk.Account;
import io.ringex.engine.risk.Position;
import io.ringex.engine.risk.Settlement;
import io.ringex.protocol.codecs.AccountDefinitionDecoder;
import io.ringex.protocol.codecs.AccountRiskUpdateDecoder;
import io.ringex.protocol.codecs.AccountStatus;
import io.ringex.protocol.codecs.MassCancelScope;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The risk stream's contract (docs/protocol.md, "The risk stream") between its writer, this processor, and the one
 * reader every Ringex reader uses ({@link AccountRiskBook}, client module): on seeded random trading, readers fed the
 * processor's own events hold the engine's state.
 * <ul>
 * <li>A reader from the start holds, after every account's update, exactly the account's positions that are not flat,
 *     each as the engine holds it, with the totals of that moment and, for the positions the update named, their
 *     marks; after every batch, every account's positions, balance, limits and standing, and says it is complete.</li>
 * <li>A reader that joins late says it is incomplete until a refresh, and is exact after it.</li>
 * <li>A reader that loses updates (back pressure on the risk stream drops them) is exact again after a refresh.</li>
 * <li>A reader that starts to follow another node (a failover to a standby that lacked commands) drops what that node
 *     does not hold, and is exact after its refresh.</li>
 * </ul>
 */
final class RiskStreamContractTest
{
    private static final int COMMANDS = 30_000;
    private static final int REFRESH_EVERY = 1_500;
    private static final int LATE_JOINER_FROM = 7_000;

    /** Every position's mark is compared (after a refresh, which names them all). */
    private static final Set<Integer> ALL = Set.of();

    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final AccountRiskUpdateDecoder update = new AccountRiskUpdateDecoder();

    @Test
    void readersKeepingTheContractHoldTheEnginesAccountsOnRandomTrading()
    {
        final Harness h = new Harness();
        final RandomCommands commands = new RandomCommands(38, h.encoder, h.processor, h.time - h.sequence, 1);
        final AccountRiskBook fromStart = new AccountRiskBook();
        final AccountRiskBook lossy = new AccountRiskBook();
        final AccountRiskBook lateJoiner = new AccountRiskBook();
        final SplittableRandom random = new SplittableRandom(38);
        final SplittableRandom losses = new SplittableRandom(7);
        for (int i = 0; i < RandomCommands.setupCount(); i++)
        {
            h.send(commands.setupCommand(i));
        }
        int from = 0;
        int updatesChecked = 0;
        int flatNamed = 0;
        int lateIncompleteSeen = 0;
        boolean lossyMissed = false;
        for (int i = 0; i < COMMANDS; i++)
        {
            h.send(sometimesALimitsChange(i, random, h) || sometimesAClose(random, h) ? lastLength : commands.next());
            if (random.nextInt(4) != 0 && i != COMMANDS - 1)
            {
                continue;
            }
            h.processor.onEndOfBatch();
            final Set<Integer> named = new HashSet<>();
            for (int e = from; e < h.sink.size(); e++)
            {
                final int offset = h.sink.offset(e);
                final AccountRisk account = fromStart.onMessage(h.sink.events(), offset);
                named.addAll(namedPositions(h, offset));
                if (account != null && isLastUpdateOfItsAccount(h, e))
                {
                    assertHoldsTheAccount(h.processor.state(), account, named, "from the start, event " + e);
                    updatesChecked++;
                }
                if (account == null || isLastUpdateOfItsAccount(h, e))
                {
                    named.clear();
                }
                flatNamed += flatEntries(h, offset);
                if (losses.nextInt(20) != 0)
                {
                    lossy.onMessage(h.sink.events(), offset);
                }
                else
                {
                    lossyMissed |= isAccountEvent(h, offset);
                }
                if (i >= LATE_JOINER_FROM)
                {
                    lateJoiner.onMessage(h.sink.events(), offset);
                }
            }
            from = h.sink.size();
            for (int a = 0; a < h.processor.state().accountCount(); a++)
            {
                final Account engine = h.processor.state().accountAt(a);
                final AccountRisk read = fromStart.get(engine.accountId());
                assertTrue(read.complete(), "a reader from the start is complete: account " + engine.accountId());
                assertHoldsTheAccount(h.processor.state(), read, null, "after the batch of command " + i);
                final AccountRisk late = lateJoiner.get(engine.accountId());
                if (late != null && !late.complete())
                {
                    lateIncompleteSeen++;
                }
                else if (late != null)
                {
                    assertHoldsTheAccount(h.processor.state(), late, null, "late joiner, complete, command " + i);
                }
            }
            if (i / REFRESH_EVERY != (i + 1) / REFRESH_EVERY || i == COMMANDS - 1)
            {
                refresh(h);
                for (int e = from; e < h.sink.size(); e++)
                {
                    fromStart.onMessage(h.sink.events(), h.sink.offset(e));
                    lossy.onMessage(h.sink.events(), h.sink.offset(e));
                    if (i >= LATE_JOINER_FROM)
                    {
                        lateJoiner.onMessage(h.sink.events(), h.sink.offset(e));
                    }
                }
                from = h.sink.size();
                for (int a = 0; a < h.processor.state().accountCount(); a++)
                {
                    final Account engine = h.processor.state().accountAt(a);
                    assertHoldsTheAccount(h.processor.state(), fromStart.get(engine.accountId()), ALL,
                        "from the start, after the refresh at " + i);
                    assertHoldsTheAccount(h.processor.state(), lossy.get(engine.accountId()), ALL,
                        "a reader that lost updates, after the refresh at " + i);
                    if (i >= LATE_JOINER_FROM)
                    {
                        assertTrue(lateJoiner.get(engine.accountId()).complete(), "late joiner after a refresh");
                        assertHoldsTheAccount(h.processor.state(), lateJoiner.get(engine.accountId()), ALL,
                            "late joiner, after the refresh at " + i);
                    }
                }
            }
        }
        assertTrue(updatesChecked > 2_000, "account updates checked: " + updatesChecked);
        assertTrue(flatNamed > 60, "positions closed (named flat): " + flatNamed);
        assertTrue(lateIncompleteSeen > 0, "the late joiner said it was incomplete before its first refresh");
        assertTrue(lossyMissed, "the lossy reader missed account events");
        assertTrue(h.processor.state().lastTradeId() > 400, "trades: " + h.processor.state().lastTradeId());
    }

    @Test
    void aReaderThatFollowsAnotherNodeDropsWhatThatNodeDoesNotHold()
    {
        // Two processors: the primary takes every command; the standby only the first few after the set-up (an
        // asynchronous standby far behind the primary when it failed), so it lacks positions the primary holds.
        final Harness primary = new Harness();
        final Harness standby = new Harness();
        final RandomCommands commands = new RandomCommands(5, primary.encoder, primary.processor,
            primary.time - primary.sequence, 1);
        for (int i = 0; i < RandomCommands.setupCount(); i++)
        {
            final int length = commands.setupCommand(i);
            primary.send(length);
            standby.encoder.buffer().putBytes(0, primary.encoder.buffer(), 0, length);
            standby.send(length);
        }
        for (int i = 0; i < 3_000; i++)
        {
            final int length = commands.next();
            primary.send(length);
            if (i < 12)
            {
                standby.encoder.buffer().putBytes(0, primary.encoder.buffer(), 0, length);
                standby.send(length);
            }
        }
        primary.processor.onEndOfBatch();
        standby.processor.onEndOfBatch();
        final AccountRiskBook reader = new AccountRiskBook();
        refresh(primary);
        feed(primary, reader);
        for (int a = 0; a < primary.processor.state().accountCount(); a++)
        {
            assertHoldsTheAccount(primary.processor.state(),
                reader.get(primary.processor.state().accountAt(a).accountId()), ALL, "on the primary");
        }
        int positionsBefore = 0;
        for (final AccountRisk account : reader.accounts())
        {
            positionsBefore += account.positions().size();
        }
        reader.forgetDefinitions();
        for (final AccountRisk account : reader.accounts())
        {
            assertFalse(account.complete(), "not complete until the new node's refresh");
        }
        standby.sink.clear();
        refresh(standby);
        feed(standby, reader);
        for (int a = 0; a < standby.processor.state().accountCount(); a++)
        {
            final AccountRisk account = reader.get(standby.processor.state().accountAt(a).accountId());
            assertTrue(account.complete(), "complete after the new node's refresh");
            assertHoldsTheAccount(standby.processor.state(), account, ALL, "on the new node");
        }
        int positionsAfter = 0;
        for (final AccountRisk account : reader.accounts())
        {
            positionsAfter += account.positions().size();
        }
        assertTrue(positionsAfter < positionsBefore, "positions the new node does not hold were dropped: " +
            positionsBefore + " -> " + positionsAfter);
    }

    @Test
    void anAccountWithManyPositionsIsSplitOverSeveralEventsAndAReaderThatMissesAPartWaitsForTheNextListing()
    {
        // 300-byte events: an update holds two positions, a definition eighteen; forty instruments
        final Harness h = new Harness(new CapturingEventSink(1 << 22, 300));
        final int instruments = 40;
        for (int i = 1; i <= instruments; i++)
        {
            h.send(h.encoder.addInstrument(i, i, "I" + i, 2, 1, 1, 10_000, PriceBandType.TICKS, 1_000));
        }
        for (long account = 1; account <= 3; account++)
        {
            h.send(h.encoder.addAccount(100 + account, account, SelfTradePrevention.CANCEL_NEWEST));
            h.send(h.encoder.setLimits(200 + account, account, 1_000_000, Long.MAX_VALUE / 4, Long.MAX_VALUE / 8,
                1_000_000, 1_000, true, new int[] {3, 7, 30}, new long[] {50, 60, 70}));
            h.send(h.encoder.adjustBalance(300 + account, account, 1_000_000_000_000L));
        }
        final AccountRiskBook whole = new AccountRiskBook();
        final AccountRiskBook missesAPart = new AccountRiskBook();
        final SplittableRandom random = new SplittableRandom(77);
        int from = 0;
        long id = 0;
        boolean missed = false;
        for (int round = 0; round < 250; round++)
        {
            for (int k = 0; k < 1 + random.nextInt(30); k++)
            {
                final long account = 1 + random.nextInt(3);
                final int instrument = 1 + random.nextInt(instruments);
                h.send(h.encoder.limit(RandomCommands.SESSION_BASE + account, account, ++id, instrument,
                    random.nextBoolean() ? Side.BUY : Side.SELL, 10_000 + random.nextInt(5) - 2,
                    1 + random.nextInt(5)));
            }
            h.processor.onEndOfBatch();
            if (round % 50 == 49)
            {
                refresh(h);
            }
            int definitionParts = 0;
            for (int e = from; e < h.sink.size(); e++)
            {
                whole.onMessage(h.sink.events(), h.sink.offset(e));
                header.wrap(h.sink.events(), h.sink.offset(e));
                final boolean definitionPart = header.templateId() == AccountDefinitionDecoder.TEMPLATE_ID;
                definitionParts += definitionPart ? 1 : 0;
                if (definitionPart && definitionParts == 2 && round == 149)
                {
                    missed = true; // the second part of the first definition of this refresh is lost
                    continue;
                }
                missesAPart.onMessage(h.sink.events(), h.sink.offset(e));
            }
            from = h.sink.size();
            for (long account = 1; account <= 3; account++)
            {
                assertHoldsTheAccount(h.processor.state(), whole.get(account), round % 50 == 49 ? ALL : null,
                    "round " + round);
                if (round == 149 && account == 1)
                {
                    assertEquals(3, missesAPart.get(account).ownPositionLimits().size(),
                        "a listing with a part missed is not taken: the limits of the last whole one stay");
                }
                else if (round % 50 == 49)
                {
                    assertTrue(missesAPart.get(account).complete(), "complete after a whole refresh");
                    assertHoldsTheAccount(h.processor.state(), missesAPart.get(account), ALL, "round " + round);
                }
            }
        }
        assertTrue(missed, "a part was missed");
        assertTrue(h.processor.state().account(1).positionCount() > 30, "positions of account 1: " +
            h.processor.state().account(1).positionCount());
    }

    private int lastLength;

    /** Now and then a SetLimits (a new default, and overrides on some instruments) or a suspension instead. */
    private boolean sometimesALimitsChange(final int i, final SplittableRandom random, final Harness h)
    {
        if (random.nextInt(200) != 0)
        {
            return false;
        }
        final long accountId = 1 + random.nextInt(RandomCommands.ACCOUNTS);
        if (random.nextInt(4) == 0)
        {
            lastLength = h.encoder.setAccountStatus(90_000 + i, accountId,
                random.nextInt(4) == 0 ? AccountStatus.SUSPENDED : AccountStatus.ACTIVE, "contract test");
            return true;
        }
        final int overrides = random.nextInt(3);
        final int[] instruments = new int[overrides];
        final long[] limits = new long[overrides];
        for (int k = 0; k < overrides; k++)
        {
            instruments[k] = 1 + k;
            limits[k] = 5_000 + random.nextInt(50_000);
        }
        lastLength = h.encoder.setLimits(90_000 + i, accountId, 1_000_000, Long.MAX_VALUE / 4, Long.MAX_VALUE / 8,
            100_000 + random.nextInt(1_000_000_000), 200, random.nextInt(4) != 0, instruments, limits);
        return true;
    }

    /** Now and then an account closes a position: its orders there cancelled, then a market order for the rest. */
    private boolean sometimesAClose(final SplittableRandom random, final Harness h)
    {
        if (random.nextInt(6) != 0)
        {
            return false;
        }
        final long accountId = 1 + random.nextInt(RandomCommands.ACCOUNTS);
        final int instrumentId = 1 + random.nextInt(2);
        final Position position = h.processor.state().account(accountId).position(instrumentId);
        final long session = RandomCommands.SESSION_BASE + accountId;
        if (position != null && (position.openBuyQuantity() != 0 || position.openSellQuantity() != 0))
        {
            lastLength = h.encoder.massCancel(session, accountId, 80_000_000 + ++closes, MassCancelScope.INSTRUMENT,
                instrumentId, false);
            return true;
        }
        if (position == null || position.position() == 0)
        {
            return false;
        }
        lastLength = h.encoder.newOrder(session, accountId, 80_000_000 + ++closes, instrumentId,
            position.position() > 0 ? Side.SELL : Side.BUY, OrderType.MARKET, TimeInForce.IOC, false,
            SelfTradePrevention.CANCEL_NEWEST, 0, Math.abs(position.position()));
        return true;
    }

    private long closes;

    /** The node's late-joiner refresh: every account's full picture, between batches. */
    private static void refresh(final Harness h)
    {
        for (int a = 0; a < h.processor.state().accountCount(); a++)
        {
            assertTrue(h.processor.publishAccountRisk(h.processor.state().accountAt(a).accountId()));
        }
    }

    private static void feed(final Harness h, final AccountRiskBook reader)
    {
        for (int e = 0; e < h.sink.size(); e++)
        {
            reader.onMessage(h.sink.events(), h.sink.offset(e));
        }
    }

    private boolean isAccountEvent(final Harness h, final int offset)
    {
        header.wrap(h.sink.events(), offset);
        return header.templateId() == AccountRiskUpdateDecoder.TEMPLATE_ID ||
            header.templateId() == AccountDefinitionDecoder.TEMPLATE_ID;
    }

    /** An account's update may be split over consecutive events: true for the last of them. */
    private boolean isLastUpdateOfItsAccount(final Harness h, final int index)
    {
        header.wrap(h.sink.events(), h.sink.offset(index));
        if (header.templateId() != AccountRiskUpdateDecoder.TEMPLATE_ID)
        {
            return false;
        }
        final long accountId = update.wrapAndApplyHeader(h.sink.events(), h.sink.offset(index), header).accountId();
        if (index + 1 >= h.sink.size())
        {
            return true;
        }
        header.wrap(h.sink.events(), h.sink.offset(index + 1));
        return header.templateId() != AccountRiskUpdateDecoder.TEMPLATE_ID ||
            update.wrapAndApplyHeader(h.sink.events(), h.sink.offset(index + 1), header).accountId() != accountId;
    }

    private Set<Integer> namedPositions(final Harness h, final int offset)
    {
        header.wrap(h.sink.events(), offset);
        final Set<Integer> out = new HashSet<>();
        if (header.templateId() == AccountRiskUpdateDecoder.TEMPLATE_ID)
        {
            for (final AccountRiskUpdateDecoder.PositionsDecoder p :
                update.wrapAndApplyHeader(h.sink.events(), offset, header).positions())
            {
                out.add(p.instrumentId());
            }
        }
        return out;
    }

    private int flatEntries(final Harness h, final int offset)
    {
        header.wrap(h.sink.events(), offset);
        if (header.templateId() != AccountRiskUpdateDecoder.TEMPLATE_ID)
        {
            return 0;
        }
        int flat = 0;
        for (final AccountRiskUpdateDecoder.PositionsDecoder p :
            update.wrapAndApplyHeader(h.sink.events(), offset, header).positions())
        {
            if (p.position() == 0 && p.openBuyQuantity() == 0 && p.openSellQuantity() == 0)
            {
                flat++;
            }
        }
        return flat;
    }

    /**
     * The reader's account against the engine's: the positions that are not flat, each whole, and no other; the
     * balance, reservations, limits and standing. With {@code marked} (just after the account's own update: the
     * instruments it named; after a refresh: {@link #ALL}) also the totals that hang on the marks (unrealised P&amp;L,
     * exposure) and the marks of those positions: a mark moved by another account's trade is not sent again until
     * the account's position there changes, or the refresh.
     */
    private static void assertHoldsTheAccount(
        final EngineState state, final AccountRisk read, final Set<Integer> marked, final String when)
    {
        final boolean atItsUpdate = marked != null;
        final Account engine = state.account(read.accountId());
        final String what = when + ": account " + read.accountId();
        final TreeMap<Integer, String> expected = new TreeMap<>();
        long realised = 0;
        long unrealised = 0;
        long exposure = 0;
        final List<String> overrides = new ArrayList<>();
        for (int i = 0; i < engine.positionCount(); i++)
        {
            final Position p = engine.positionAt(i);
            final long mark = state.book(p.instrumentId()).markPrice();
            realised += p.realisedPnl();
            unrealised += Settlement.unrealisedPnl(p, mark);
            exposure += Settlement.exposure(p, mark);
            if (p.positionLimit() != Position.NO_LIMIT_OVERRIDE)
            {
                overrides.add(p.instrumentId() + "=" + p.positionLimit());
            }
            if (p.position() != 0 || p.openBuyQuantity() != 0 || p.openSellQuantity() != 0)
            {
                expected.put(p.instrumentId(), describe(p.position(), p.averageCost(), p.realisedPnl(),
                    p.openBuyQuantity(), p.openSellQuantity(), engine.positionLimitFor(p)) +
                    (compareMark(marked, p.instrumentId()) ?
                    " mark " + mark + " unrealised " + Settlement.unrealisedPnl(p, mark) : ""));
            }
        }
        final TreeMap<Integer, String> held = new TreeMap<>();
        for (final AccountRisk.Position p : read.positions())
        {
            if (!p.isFlat())
            {
                held.put(p.instrumentId(), describe(p.position(), p.averageCost(), p.realisedPnl(),
                    p.openBuyQuantity(), p.openSellQuantity(), p.positionLimit()) +
                    (compareMark(marked, p.instrumentId()) ?
                    " mark " + p.markPrice() + " unrealised " + p.unrealisedPnl() : ""));
            }
        }
        assertEquals(expected, held, what + " positions");
        assertEquals(expected.size(), read.openPositionCount(), what + " open position count");
        assertEquals(engine.balance(), read.balance(), what + " balance");
        assertEquals(engine.reserved(), read.reserved(), what + " reserved");
        assertEquals(realised, read.realisedPnl(), what + " realised P&L");
        assertEquals(engine.openOrders(), read.openOrders(), what + " open orders");
        assertEquals(engine.killed(), read.killSwitch(), what + " kill switch");
        assertEquals(engine.creditLimit(), read.creditLimit(), what + " credit limit");
        assertEquals(engine.maxOrderQuantity(), read.maxOrderQuantity(), what + " max order quantity");
        assertEquals(engine.maxOrderNotional(), read.maxOrderNotional(), what + " max order notional");
        assertEquals(engine.maxOpenOrders(), read.maxOpenOrders(), what + " max open orders");
        assertEquals(engine.defaultPositionLimit(), read.defaultPositionLimit(), what + " default position limit");
        assertEquals(engine.allowShort(), read.allowShort(), what + " allow short");
        assertEquals(SelfTradePrevention.get(engine.defaultSelfTradePrevention()), read.selfTradePrevention(),
            what + " self-trade prevention");
        assertEquals(engine.status() == Account.STATUS_SUSPENDED ? AccountStatus.SUSPENDED :
            engine.status() == Account.STATUS_CLOSED ? AccountStatus.CLOSED : AccountStatus.ACTIVE, read.status(),
            what + " standing");
        final List<String> readOverrides = new ArrayList<>();
        for (int i = 0; i < engine.positionCount(); i++)
        {
            final int instrumentId = engine.positionAt(i).instrumentId();
            if (read.ownPositionLimit(instrumentId) != AccountRisk.DEFAULT_LIMIT)
            {
                readOverrides.add(instrumentId + "=" + read.ownPositionLimit(instrumentId));
            }
        }
        assertEquals(overrides, readOverrides, what + " per-instrument position limits");
        assertEquals(overrides.size(), read.ownPositionLimits().size(), what + " no other position limits");
        if (atItsUpdate)
        {
            assertEquals(unrealised, read.unrealisedPnl(), what + " unrealised P&L");
            assertEquals(exposure, read.exposure(), what + " exposure");
        }
    }

    private static boolean compareMark(final Set<Integer> marked, final int instrumentId)
    {
        return marked != null && (marked == ALL || marked.contains(instrumentId));
    }

    private static String describe(
        final long position,
        final long averageCost,
        final long realisedPnl,
        final long openBuys,
        final long openSells,
        final long limit)
    {
        return "position " + position + " cost " + averageCost + " realised " + realisedPnl + " open " + openBuys +
            "/" + openSells + " limit " + limit;
    }
}
