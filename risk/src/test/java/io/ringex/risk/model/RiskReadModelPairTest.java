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
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TradingStatus;
import io.ringex.risk.aeron.EngineEventHandler;
import io.ringex.risk.synthetic.EventEncoders;

/**
 * The read model of a primary/standby pair, fed real SBE events through the handlers the Aeron agent uses, one per
 * node: only the followed node's events are applied, and after a failover the new primary's state replaces the old.
 */
class RiskReadModelPairTest
{
    private static final long M = 100_000_000L;
    private static final long TIMEOUT_NS = 1_000_000_000L;

    private final AtomicLong clock = new AtomicLong(5_000_000_000L);
    private final RiskReadModel model = new RiskReadModel(List.of("streams", "standby"), 4, TIMEOUT_NS, clock::get);
    private final EngineEventHandler[] nodes = {
        new EngineEventHandler(0, model, (a, b, c, d, e) -> { }),
        new EngineEventHandler(1, model, (a, b, c, d, e) -> { })};
    private final EventEncoders events = new EventEncoders();

    private void feed(final int engine, final int length)
    {
        nodes[engine].onFragment(new UnsafeBuffer(events.buffer(), 0, length), 0, length, null);
    }

    private void status(final int engine, final NodeRole role, final long epoch, final long processed)
    {
        feed(engine, events.engineStatus(epoch, engine + 1, role, clock.get(), 1024,
            new long[] {processed, processed, processed, processed, processed, 0}, new long[] {1, 2, 3, 4},
            new long[16], new long[64]));
    }

    private void account(final int engine, final long accountId, final long balanceUnits)
    {
        feed(engine, events.accountRiskUpdate(new EventEncoders.Account(accountId, 7, balanceUnits * M, 0, 0, 0, 0,
            0, 100, 1_000 * M, 0, 10, false, List.of())));
    }

    private String balance(final long accountId)
    {
        final Views.AccountDetail detail = model.account(accountId);
        return detail == null ? null : detail.summary().balance();
    }

    @Test
    void onlyTheFollowedPrimarysEventsAreApplied()
    {
        account(0, 7, 100);
        assertNull(balance(7), "no primary known yet: nothing applied");

        status(0, NodeRole.PRIMARY, 0, 50);
        status(1, NodeRole.STANDBY, 0, 48);
        account(0, 7, 100);
        account(1, 7, 999);
        assertEquals("100.00000000", balance(7));
        assertEquals(2, model.ignoredCount());

        final Views.EngineView engine = model.engine(false);
        assertEquals(0, engine.followedEngine());
        assertEquals(1, engine.nodeId());
        assertEquals(50, engine.sequences().get("processor"));
        assertEquals(2, engine.nodes().size());
        assertEquals("STANDBY", engine.nodes().get(1).role());
        assertEquals(48, engine.nodes().get(1).processorSequence());
        assertEquals("standby", engine.nodes().get(1).name());
        assertFalse(engine.nodes().get(1).followed());
        assertEquals("0000000000005eed", engine.nodes().get(1).stateHash());
        assertTrue(model.isEngineUp());
    }

    @Test
    void afterAFailoverTheNewPrimarysStateReplacesTheOldOnesAndTheOldOneIsNotBelievedAgain()
    {
        status(0, NodeRole.PRIMARY, 0, 50);
        status(1, NodeRole.STANDBY, 0, 50);
        feed(0, events.instrumentDefinition(1, "BTC-USD", 2, 50, 1, 6_425_000, TradingStatus.OPEN, 1));
        feed(0, events.bookLevelUpdate(1, 1, Side.BUY, 6_400_000, 5, 1, 1));
        account(0, 7, 100);

        // The primary dies: after the status timeout nothing is followed and the engine is down.
        clock.addAndGet(TIMEOUT_NS + 1);
        status(1, NodeRole.STANDBY, 0, 50);
        model.tick();
        assertEquals(PrimarySelector.NONE, model.followedEngine());
        assertFalse(model.isEngineUp());
        assertEquals(1, model.engine(false).nodeId(), "the view still shows the last node followed");
        assertEquals("PRIMARY", model.engine(false).role());

        // The standby is promoted: its status at the new epoch, then its refresh.
        status(1, NodeRole.PRIMARY, 1, 51);
        assertEquals(1, model.followedEngine());
        assertTrue(model.isEngineUp());
        account(1, 7, 90);
        feed(1, events.bookSnapshot(1, 1, TradingStatus.HALTED, 6_400_050,
            List.of(new EventEncoders.Level(Side.SELL, 6_400_100, 3, 1)), 2));
        assertEquals("90.00000000", balance(7));
        final Views.InstrumentDetail btc = model.instrument(1);
        assertTrue(btc.bids().isEmpty(), "the old primary's bid level is gone with the new primary's snapshot");
        assertEquals(1, btc.asks().size());
        assertEquals("HALTED", btc.summary().status());

        final Views.EngineView engine = model.engine(true);
        assertEquals(2, engine.nodeId());
        assertEquals(1, engine.epoch());
        assertEquals(51, engine.sequences().get("processor"), "the new primary's sequences, not the old one's");
        assertEquals(3, engine.history().timeMs().length, "the new primary's own three statuses, not the old one's");
        assertEquals(1, model.primaryEpoch());

        // The old primary comes back still claiming PRIMARY at epoch 0: not followed, its events not applied.
        status(0, NodeRole.PRIMARY, 0, 60);
        account(0, 7, 5);
        assertEquals(1, model.followedEngine());
        assertEquals("90.00000000", balance(7));
        assertFalse(model.engine(false).nodes().get(0).followed());
    }

    @Test
    void afterAFailoverAccountsArePartialUntilTheNewPrimaryListsThemAndWhatItDoesNotHoldGoes()
    {
        // two engines' own events: the primary holds account 7 long in instruments 1 and 2, the standby (behind
        // when the primary failed) only in instrument 1
        final Venue primary = new Venue();
        final Venue standby = new Venue();
        for (final Venue venue : new Venue[] {primary, standby})
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
        primary.trade(2, 5_000);
        status(0, NodeRole.PRIMARY, 0, 1);
        status(1, NodeRole.STANDBY, 0, 1);
        primary.endBatch(nodes[0]);
        standby.endBatch(nodes[1]);
        assertEquals(List.of(1, 2), instruments(7), "the primary's positions");
        assertTrue(model.account(7).summary().positionsComplete());

        // the primary goes silent; the standby is promoted: until its refresh lists account 7, it is partial
        clock.addAndGet(2 * TIMEOUT_NS);
        status(1, NodeRole.PRIMARY, 1, 2);
        model.tick();
        standby.send(standby.commands.adjustBalance(99, 8, 1));
        standby.endBatch(nodes[1]);
        assertFalse(model.account(7).summary().positionsComplete(), "partial until the new primary's listing");
        assertEquals(List.of(1, 2), instruments(7), "what the old primary said is still shown meanwhile");
        standby.refresh(nodes[1]);
        assertTrue(model.account(7).summary().positionsComplete());
        assertEquals(List.of(1), instruments(7), "the position the new primary does not hold is gone");
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

    @Test
    void promotionGoesToTheNodeThatIsNotThePrimaryOrTheOneNamed()
    {
        final RiskReadModel single = new RiskReadModel(4, TIMEOUT_NS, clock::get);
        assertEquals("NO_STANDBY", single.promotionTarget(0).refusal());

        assertEquals("NO_STANDBY_KNOWN", model.promotionTarget(0).refusal(), "nothing heard yet");
        status(1, NodeRole.STANDBY, 0, 0);
        assertEquals(1, model.promotionTarget(0).engine(), "the only node reporting STANDBY");
        status(0, NodeRole.PRIMARY, 0, 0);

        final PromotionTarget other = model.promotionTarget(0);
        assertNull(other.refusal());
        assertEquals(1, other.engine());
        assertEquals(2, other.nodeId());
        assertEquals(1, model.promotionTarget(2).engine());
        assertEquals("IS_PRIMARY", model.promotionTarget(1).refusal());
        assertEquals("UNKNOWN_NODE", model.promotionTarget(9).refusal());

        // primary silent: still the other node
        clock.addAndGet(TIMEOUT_NS + 1);
        model.tick();
        assertEquals(PrimarySelector.NONE, model.followedEngine());
        assertEquals(1, model.promotionTarget(0).engine());
        assertEquals(0, model.promotionTarget(1).engine(), "named: a silent old primary may be promoted back");
    }
}
