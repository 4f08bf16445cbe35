package io.ringex.risk.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ringex.protocol.PrimarySelector;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.ringex.client.CommandEncoder;
import io.ringex.engine.processor.BusinessLogicProcessor;
import io.ringex.engine.processor.CapturingEventSink;
import io.ringex.protocol.codecs.EngineStatusDecoder;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TradingStatus;
import io.ringex.risk.aeron.EngineEventHandler;
import io.ringex.risk.synthetic.EventEncoders;

/**
 * The read model of a three-member engine cluster, fed real SBE events through the handlers the Aeron agent uses, one
 * per member: only the leader's events are applied (the member claiming PRIMARY at the highest term, while heard);
 * the engine view lists every member with its term, sequences, lag behind the leader's commit and a stale mark; after
 * a failover the new leader's state replaces the old, with no promotion asked of anyone.
 */
class RiskReadModelClusterTest
{
    private static final long M = 100_000_000L;
    private static final long TIMEOUT_NS = 1_000_000_000L;

    private final AtomicLong clock = new AtomicLong(5_000_000_000L);
    private final RiskReadModel model = new RiskReadModel(List.of("members[0]", "members[1]", "members[2]"), 4,
        TIMEOUT_NS, clock::get);
    private final EngineEventHandler[] members = {
        new EngineEventHandler(0, model, (a, b, c, d, e) -> { }),
        new EngineEventHandler(1, model, (a, b, c, d, e) -> { }),
        new EngineEventHandler(2, model, (a, b, c, d, e) -> { })};
    private final EventEncoders events = new EventEncoders();

    private void feed(final int member, final int length)
    {
        members[member].onFragment(new UnsafeBuffer(events.buffer(), 0, length), 0, length, null);
    }

    private void status(final int member, final NodeRole role, final long term, final long processed)
    {
        status(member, role, term, processed, processed, processed);
    }

    /** A member's status: what it journaled, what it knows committed, what it applied. */
    private void status(
        final int member,
        final NodeRole role,
        final long term,
        final long journaled,
        final long committed,
        final long processed)
    {
        feed(member, events.engineStatus(term, member + 1, role, clock.get(), 1024,
            new long[] {journaled, journaled, committed, processed, processed, 0}, new long[] {1, 2, 3, 4},
            new long[16], new long[64]));
    }

    private void account(final int member, final long accountId, final long balanceUnits)
    {
        feed(member, events.accountRiskUpdate(new EventEncoders.Account(accountId, 7, balanceUnits * M, 0, 0, 0, 0,
            0, 100, 1_000 * M, 0, 10, false, List.of())));
    }

    private String balance(final long accountId)
    {
        final Views.AccountDetail detail = model.account(accountId);
        return detail == null ? null : detail.summary().balance();
    }

    @Test
    void onlyTheLeadersEventsAreAppliedAndTheViewListsEveryMemberWithItsLagBehindTheCommit()
    {
        account(1, 7, 100);
        assertNull(balance(7), "no leader known yet: nothing applied");

        status(0, NodeRole.STANDBY, 3, 50, 48, 47);
        status(1, NodeRole.PRIMARY, 3, 52, 50, 49);
        status(2, NodeRole.STANDBY, 3, 45, 45, 44);
        account(0, 7, 999);
        account(1, 7, 100);
        account(2, 7, 555);
        assertEquals("100.00000000", balance(7), "the leader's");
        assertEquals(3, model.ignoredCount(), "the one before a leader was known, and the followers' (which publish " +
            "none in a real cluster)");
        assertEquals(1, model.followedEngine());

        final Views.EngineView engine = model.engine(false);
        assertEquals(1, engine.followedEngine());
        assertEquals(2, engine.nodeId());
        assertEquals(3, engine.epoch());
        assertEquals(3, engine.nodes().size());
        final Views.NodeView leader = engine.nodes().get(1);
        assertTrue(leader.followed());
        assertEquals("PRIMARY", leader.role());
        assertEquals(50L, leader.committedSequence());
        assertEquals(1L, leader.processorCommitLag(), "its processor applies what is committed, one behind");
        assertEquals(0L, leader.journalCommitLag());
        final Views.NodeView slow = engine.nodes().get(2);
        assertEquals("members[2]", slow.name());
        assertEquals(3, slow.nodeId());
        assertEquals("STANDBY", slow.role());
        assertEquals(3, slow.epoch());
        assertEquals(45L, slow.committedSequence());
        assertEquals(45, slow.journalSequence());
        assertEquals(44, slow.processorSequence());
        assertEquals(5L, slow.journalCommitLag(), "the leader's committed 50 minus its journal's 45");
        assertEquals(6L, slow.processorCommitLag(), "the leader's committed 50 minus its processor's 44");
        assertEquals(0L, engine.nodes().get(0).journalCommitLag(), "a member whose journal holds the commit");
        assertEquals("0000000000005eed", slow.stateHash());
        assertTrue(slow.up());
        assertTrue(model.isEngineUp());

        // member 3 falls silent: marked stale, still listed; the leader is still followed
        clock.addAndGet(TIMEOUT_NS / 2 + 1);
        status(0, NodeRole.STANDBY, 3, 50);
        status(1, NodeRole.PRIMARY, 3, 50);
        clock.addAndGet(TIMEOUT_NS / 2 + 1);
        model.tick();
        final Views.EngineView later = model.engine(false);
        assertFalse(later.nodes().get(2).up(), "not heard within the status timeout");
        assertTrue(later.nodes().get(2).seen());
        assertTrue(later.nodes().get(0).up());
        assertEquals(1, later.followedEngine());
        assertTrue(model.isEngineUp());
    }

    @Test
    void aSingleEngineReportsNoCommitAndNoLag()
    {
        final RiskReadModel single = new RiskReadModel(4, TIMEOUT_NS, clock::get);
        final int length = events.engineStatus(1, 1, NodeRole.PRIMARY, clock.get(), 1024, new long[] {9, 9,
            EngineStatusDecoder.replicationSequenceNullValue(), 9, 9, 0}, new long[4], new long[16], new long[64]);
        new EngineEventHandler(0, single, (a, b, c, d, e) -> { })
            .onFragment(new UnsafeBuffer(events.buffer(), 0, length), 0, length, null);
        final Views.NodeView engine = single.engine(false).nodes().get(0);
        assertNull(engine.committedSequence());
        assertNull(engine.processorCommitLag());
        assertEquals(9, engine.processorSequence());
    }

    @Test
    void whenTheLeaderIsLostTheMemberTheClusterElectsIsFollowedWithoutAPromotion()
    {
        status(0, NodeRole.PRIMARY, 1, 50);
        status(1, NodeRole.STANDBY, 1, 50);
        status(2, NodeRole.STANDBY, 1, 50);
        feed(0, events.instrumentDefinition(1, "BTC-USD", 2, 50, 1, 6_425_000, TradingStatus.OPEN, 1));
        feed(0, events.bookLevelUpdate(1, 1, Side.BUY, 6_400_000, 5, 1, 1));
        account(0, 7, 100);

        // The leader dies: after the status timeout no member is followed and the engine is down.
        clock.addAndGet(TIMEOUT_NS + 1);
        status(1, NodeRole.STANDBY, 1, 50);
        status(2, NodeRole.STANDBY, 1, 50);
        model.tick();
        assertEquals(PrimarySelector.NONE, model.followedEngine());
        assertFalse(model.isEngineUp());
        assertEquals(1, model.engine(false).nodeId(), "the view still shows the last member followed");
        assertNull(model.engine(false).nodes().get(2).processorCommitLag(), "no leader: no commit to lag behind");

        // The cluster elects member 3 in term 2: its status, then its refresh.
        status(2, NodeRole.PRIMARY, 2, 51);
        assertEquals(2, model.followedEngine());
        assertTrue(model.isEngineUp());
        account(2, 7, 90);
        account(1, 7, 80);
        feed(2, events.bookSnapshot(1, 1, TradingStatus.HALTED, 6_400_050,
            List.of(new EventEncoders.Level(Side.SELL, 6_400_100, 3, 1)), 2));
        assertEquals("90.00000000", balance(7));
        final Views.InstrumentDetail btc = model.instrument(1);
        assertTrue(btc.bids().isEmpty(), "the old leader's bid level is gone with the new leader's snapshot");
        assertEquals(1, btc.asks().size());
        assertEquals("HALTED", btc.summary().status());

        final Views.EngineView engine = model.engine(true);
        assertEquals(3, engine.nodeId());
        assertEquals(2, engine.epoch());
        assertEquals(51, engine.sequences().get("processor"), "the new leader's sequences, not the old one's");
        assertEquals(3, engine.history().timeMs().length, "the new leader's own three statuses, not the old one's");
        assertEquals(2, model.primaryEpoch());

        // The old leader comes back still claiming PRIMARY in term 1: not followed, its events not applied.
        status(0, NodeRole.PRIMARY, 1, 60);
        account(0, 7, 5);
        assertEquals(2, model.followedEngine());
        assertEquals("90.00000000", balance(7));
        assertFalse(model.engine(false).nodes().get(0).followed());
        // It rejoins as a follower of term 2.
        status(0, NodeRole.STANDBY, 2, 51);
        assertEquals(2, model.followedEngine());
        assertEquals(0L, model.engine(false).nodes().get(0).processorCommitLag());
    }

    @Test
    void afterAFailoverAccountsArePartialUntilTheNewLeaderListsThemAndWhatItDoesNotHoldGoes()
    {
        // three engines' own events: the leader holds account 7 long in instruments 1 and 2; member 3 (behind when
        // the leader failed, its trade in instrument 2 not yet applied) only in instrument 1
        final Venue leader = new Venue();
        final Venue follower = new Venue();
        final Venue next = new Venue();
        for (final Venue venue : new Venue[] {leader, follower, next})
        {
            venue.send(venue.commands.addInstrument(1, 1, "RGX-USD", 2, 1, 1, 10_000, PriceBandType.TICKS, 1_000));
            venue.send(venue.commands.addInstrument(2, 2, "LMX-USD", 2, 1, 1, 5_000, PriceBandType.TICKS, 1_000));
            for (long account = 7; account <= 8; account++)
            {
                venue.send(venue.commands.addAccount(account, account, SelfTradePrevention.CANCEL_NEWEST));
                venue.send(venue.commands.setLimits(10 + account, account, 1_000, Long.MAX_VALUE / 4,
                    Long.MAX_VALUE / 8, 1_000, 10, true, new int[0], new long[0]));
            }
            venue.trade(1, 10_000);
        }
        leader.trade(2, 5_000);
        follower.trade(2, 5_000);
        status(0, NodeRole.PRIMARY, 0, 1);
        status(1, NodeRole.STANDBY, 0, 1);
        status(2, NodeRole.STANDBY, 0, 1);
        leader.endBatch(members[0]);
        follower.endBatch(members[1]);
        next.endBatch(members[2]);
        assertEquals(List.of(1, 2), instruments(7), "the leader's positions");
        assertTrue(model.account(7).summary().positionsComplete());

        // the leader goes silent; the cluster elects member 3: until its refresh lists account 7, it is partial
        clock.addAndGet(2 * TIMEOUT_NS);
        status(2, NodeRole.PRIMARY, 1, 2);
        status(1, NodeRole.STANDBY, 1, 2);
        model.tick();
        assertEquals(2, model.followedEngine());
        next.send(next.commands.adjustBalance(99, 8, 1));
        next.endBatch(members[2]);
        follower.refresh(members[1]);
        assertFalse(model.account(7).summary().positionsComplete(), "partial until the new leader's listing; a " +
            "follower's listing does not count");
        assertEquals(List.of(1, 2), instruments(7), "what the old leader said is still shown meanwhile");
        next.refresh(members[2]);
        assertTrue(model.account(7).summary().positionsComplete());
        assertEquals(List.of(1), instruments(7), "the position the new leader does not hold is gone");
    }

    private List<Integer> instruments(final long accountId)
    {
        return model.account(accountId).positions().stream().map(Views.PositionView::instrumentId).toList();
    }

    /** A business-logic processor whose own events are handed to a node's handler. */
    private static final class Venue
    {
        final CapturingEventSink sink = new CapturingEventSink();
        final BusinessLogicProcessor processor = new BusinessLogicProcessor(sink, 64, null);
        final CommandEncoder commands = new CommandEncoder();
        long sequence;
        int fed;

        void send(final int length)
        {
            processor.onCommand(++sequence, sequence, (1L << 32) | 1, commands.buffer(), 0, length);
        }

        /** Account 7 buys from account 8 in an instrument. */
        void trade(final int instrumentId, final long price)
        {
            send(commands.limit((1L << 32) | 1, 8, 1000 + sequence, instrumentId, Side.SELL, price, 5));
            send(commands.limit((1L << 32) | 1, 7, 2000 + sequence, instrumentId, Side.BUY, price, 5));
        }

        void endBatch(final EngineEventHandler node)
        {
            processor.onEndOfBatch();
            for (; fed < sink.size(); fed++)
            {
                node.onFragment(sink.events(), sink.offset(fed), sink.length(fed), null);
            }
        }

        void refresh(final EngineEventHandler node)
        {
            for (int a = 0; a < processor.state().accountCount(); a++)
            {
                processor.publishAccountRisk(processor.state().accountAt(a).accountId());
            }
            endBatch(node);
        }
    }
}
