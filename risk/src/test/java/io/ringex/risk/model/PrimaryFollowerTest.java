package io.ringex.risk.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import io.ringex.protocol.codecs.NodeRole;

/**
 * The dashboard's choice of node, by the gateway's rules: the PRIMARY claim at the highest epoch, while heard from.
 */
class PrimaryFollowerTest
{
    private static final long TIMEOUT_NS = 1_000;

    @Test
    void aSingleEngineIsAlwaysFollowedStatusOrNot()
    {
        final PrimaryFollower follower = new PrimaryFollower(1, TIMEOUT_NS);
        assertEquals(0, follower.select(0));
        follower.onStatus(0, NodeRole.STANDBY, 3, 0);
        assertEquals(0, follower.select(1_000_000));
    }

    @Test
    void nothingIsFollowedBeforeAPrimaryClaimThenThePrimaryIs()
    {
        final PrimaryFollower follower = new PrimaryFollower(2, TIMEOUT_NS);
        assertEquals(PrimaryFollower.NONE, follower.select(0));
        follower.onStatus(1, NodeRole.STANDBY, 0, 0);
        assertEquals(PrimaryFollower.NONE, follower.select(0));
        follower.onStatus(0, NodeRole.PRIMARY, 0, 10);
        assertEquals(0, follower.select(10));
        assertEquals(1, follower.switches());
    }

    @Test
    void aSilentPrimaryIsDroppedAfterTheTimeoutAndThePromotedNodeFollowed()
    {
        final PrimaryFollower follower = new PrimaryFollower(2, TIMEOUT_NS);
        follower.onStatus(0, NodeRole.PRIMARY, 0, 0);
        follower.onStatus(1, NodeRole.STANDBY, 0, 0);
        assertEquals(0, follower.select(0));
        assertEquals(0, follower.select(TIMEOUT_NS), "still within the timeout");
        assertEquals(PrimaryFollower.NONE, follower.select(TIMEOUT_NS + 1));
        assertEquals(0, follower.lastFollowed(), "remembered: the promotion goes to the other node");

        follower.onStatus(1, NodeRole.PRIMARY, 1, TIMEOUT_NS + 2);
        assertEquals(1, follower.select(TIMEOUT_NS + 2));
        assertEquals(1, follower.highestPrimaryEpoch());
        assertEquals(2, follower.switches());
    }

    @Test
    void aSupersededPrimaryIsNotBelievedEvenWhenItTalksAgain()
    {
        final PrimaryFollower follower = new PrimaryFollower(2, TIMEOUT_NS);
        follower.onStatus(0, NodeRole.PRIMARY, 0, 0);
        follower.onStatus(1, NodeRole.PRIMARY, 1, 0);
        assertEquals(1, follower.select(0));
        follower.onStatus(0, NodeRole.PRIMARY, 0, 500);
        assertEquals(1, follower.select(500));
        // the new primary goes silent: the old one is still not followed
        assertEquals(PrimaryFollower.NONE, follower.select(TIMEOUT_NS + 1));
    }

    @Test
    void aDoubleClaimAtTheSameEpochKeepsTheNodeFollowed()
    {
        final PrimaryFollower follower = new PrimaryFollower(2, TIMEOUT_NS);
        follower.onStatus(1, NodeRole.PRIMARY, 2, 0);
        assertEquals(1, follower.select(0));
        follower.onStatus(0, NodeRole.PRIMARY, 2, 1);
        assertEquals(1, follower.select(1));
        assertEquals(1, follower.switches());
    }

    @Test
    void aFencedPrimaryIsNotFollowed()
    {
        final PrimaryFollower follower = new PrimaryFollower(2, TIMEOUT_NS);
        follower.onStatus(0, NodeRole.PRIMARY, 0, 0);
        assertEquals(0, follower.select(0));
        follower.onStatus(0, NodeRole.FENCED, 0, 1);
        assertEquals(PrimaryFollower.NONE, follower.select(1));
    }
}
