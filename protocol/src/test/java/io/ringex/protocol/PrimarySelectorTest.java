package io.ringex.protocol;

import io.ringex.protocol.codecs.NodeRole;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PrimarySelectorTest
{
    private static final long TIMEOUT_NS = 3_000;

    @Test
    void aSingleEngineIsAlwaysTheTargetWithOrWithoutStatus()
    {
        final PrimarySelector selector = new PrimarySelector(1, TIMEOUT_NS);
        assertEquals(0, selector.select(0));
        selector.onStatus(0, NodeRole.STANDBY, 1, 10);
        assertEquals(0, selector.select(1_000_000));
    }

    @Test
    void aSingleEngineThatFollowsStatusIsTheTargetUntilHeardThenWhileHeardAsPrimary()
    {
        final PrimarySelector selector = new PrimarySelector(1, TIMEOUT_NS, true);
        assertEquals(0, selector.select(0), "a stand-in that never sends a status");
        selector.onStatus(0, NodeRole.PRIMARY, 1, 10);
        assertEquals(0, selector.select(10 + TIMEOUT_NS));
        assertEquals(PrimarySelector.NONE, selector.select(11 + TIMEOUT_NS), "silent");
        selector.onStatus(0, NodeRole.STANDBY, 1, 20_000);
        assertEquals(PrimarySelector.NONE, selector.select(20_001), "not claiming PRIMARY");
        selector.onStatus(0, NodeRole.PRIMARY, 1, 30_000);
        assertEquals(0, selector.select(30_001));
    }

    @Test
    void noPrimaryUntilANodeClaimsIt()
    {
        final PrimarySelector selector = new PrimarySelector(2, TIMEOUT_NS);
        assertEquals(PrimarySelector.NONE, selector.select(0));
        selector.onStatus(0, NodeRole.STANDBY, 0, 10);
        selector.onStatus(1, NodeRole.RECOVERING, 0, 10);
        assertEquals(PrimarySelector.NONE, selector.select(20));
        selector.onStatus(1, NodeRole.PRIMARY, 0, 30);
        assertEquals(1, selector.select(40));
    }

    @Test
    void followsThePrimaryOfTheHighestEpoch()
    {
        final PrimarySelector selector = new PrimarySelector(2, TIMEOUT_NS);
        selector.onStatus(0, NodeRole.PRIMARY, 3, 10);
        selector.onStatus(1, NodeRole.STANDBY, 3, 10);
        assertEquals(0, selector.select(20));

        // The standby promotes: for a moment both claim PRIMARY at epoch 3 (its status precedes its NewEpoch); the
        // one followed is kept until the higher epoch shows.
        selector.onStatus(1, NodeRole.PRIMARY, 3, 30);
        assertEquals(0, selector.select(40));
        selector.onStatus(1, NodeRole.PRIMARY, 4, 50);
        assertEquals(1, selector.select(60));

        // The superseded node still calling itself primary (it has not heard of the promotion) is not believed.
        selector.onStatus(0, NodeRole.PRIMARY, 3, 70);
        assertEquals(1, selector.select(80));
        selector.onStatus(0, NodeRole.FENCED, 3, 90);
        assertEquals(1, selector.select(100));
        assertEquals(4, selector.highestPrimaryEpoch());
    }

    @Test
    void aSilentPrimaryIsNoLongerFollowedAndNoOlderOneReplacesIt()
    {
        final PrimarySelector selector = new PrimarySelector(2, TIMEOUT_NS);
        selector.onStatus(0, NodeRole.PRIMARY, 5, 0);
        selector.onStatus(1, NodeRole.PRIMARY, 6, 0);
        assertEquals(1, selector.select(TIMEOUT_NS));
        selector.onStatus(0, NodeRole.PRIMARY, 5, TIMEOUT_NS);
        assertEquals(PrimarySelector.NONE, selector.select(TIMEOUT_NS + 1));
        selector.onStatus(1, NodeRole.PRIMARY, 6, TIMEOUT_NS + 2);
        assertEquals(1, selector.select(TIMEOUT_NS + 3));
    }

    @Test
    void equalClaimsWithNoneFollowedGoToTheFirstConfigured()
    {
        final PrimarySelector selector = new PrimarySelector(3, TIMEOUT_NS);
        selector.onStatus(2, NodeRole.PRIMARY, 1, 0);
        selector.onStatus(1, NodeRole.PRIMARY, 1, 0);
        assertEquals(1, selector.select(1));
        selector.onStatus(0, NodeRole.PRIMARY, 1, 2);
        assertEquals(1, selector.select(3));
    }

    @Test
    void aSupersededPrimaryIsNotBelievedEvenWhenItTalksAgain()
    {
        final PrimarySelector selector = new PrimarySelector(2, TIMEOUT_NS);
        selector.onStatus(0, NodeRole.PRIMARY, 0, 0);
        selector.onStatus(1, NodeRole.PRIMARY, 1, 0);
        assertEquals(1, selector.select(0));
        selector.onStatus(0, NodeRole.PRIMARY, 0, 500);
        assertEquals(1, selector.select(500));
        // the new primary goes silent: the old one is still not followed
        assertEquals(PrimarySelector.NONE, selector.select(TIMEOUT_NS + 1));
    }

    @Test
    void aDoubleClaimAtTheSameEpochKeepsTheNodeFollowed()
    {
        final PrimarySelector selector = new PrimarySelector(2, TIMEOUT_NS);
        selector.onStatus(1, NodeRole.PRIMARY, 2, 0);
        assertEquals(1, selector.select(0));
        selector.onStatus(0, NodeRole.PRIMARY, 2, 1);
        assertEquals(1, selector.select(1));
        assertEquals(1, selector.switches());
    }

    @Test
    void aFencedPrimaryIsNotFollowed()
    {
        final PrimarySelector selector = new PrimarySelector(2, TIMEOUT_NS);
        selector.onStatus(0, NodeRole.PRIMARY, 0, 0);
        assertEquals(0, selector.select(0));
        selector.onStatus(0, NodeRole.FENCED, 0, 1);
        assertEquals(PrimarySelector.NONE, selector.select(1));
    }
}
