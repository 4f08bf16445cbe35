package io.ringex.systemtests.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import io.ringex.testing.ChildProcesses;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Failure drills against a three-member cluster run as an operator runs one ({@code ./ringex engine} per member,
 * {@code ./ringex gateway}), with SBE and FIX traders keeping orders flowing through the gateway. Every drill ends
 * with the same checks ({@link DrillClients#settleAndCheck}): every order the clients sent answered exactly once,
 * every order acknowledged still live on whichever member leads, the clients still logged on, and the members at one
 * sequence with one state hash. Kill-to-first-acknowledgement times go to {@code target/cluster-drills.txt}.
 * <p>
 * {@code -Dringex.drill.seed=S} replays a drill's random choices.
 */
class ClusterDrillIT
{
    private static final Duration ELECTION = Duration.ofSeconds(30);
    private static final Duration SETTLE = Duration.ofSeconds(60);

    @RegisterExtension
    final ChildProcesses children = new ChildProcesses();

    @TempDir
    Path directory;

    private final long seed = Long.getLong("ringex.drill.seed", System.nanoTime());
    private final Random random = new Random(seed);
    private ClusterVenue venue;
    private DrillClients clients;

    @AfterEach
    void close()
    {
        CloseHelper.quietCloseAll(clients, venue);
    }

    @Test
    void aKilledLeaderIsReplacedWithoutAnOperatorAndNothingAcknowledgedIsLost() throws Exception
    {
        startVenue(null);
        for (int round = 1; round <= 2; round++)
        {
            final int leader = venue.awaitLeader(ELECTION);
            clients.trade(Duration.ofMillis(1_000 + random.nextInt(1_000)));
            clients.markFailover();
            venue.kill(leader);
            final int next = venue.awaitLeaderWhileTrading(clients, ELECTION, leader);
            assertNotEquals(leader, next);
            clients.tradeUntil("an order acknowledged after the kill", ELECTION,
                () -> clients.failoverToFirstAckNs() >= 0);
            record("leader SIGKILL, round " + round, clients.failoverToFirstAckNs());
            clients.trade(Duration.ofSeconds(1));
            venue.restart(leader, clients::tradeOnce);
            clients.trade(Duration.ofSeconds(1));
        }
        settle(List.of(1, 2, 3));
    }

    @Test
    void aKilledFollowerCostsNothingAndTwoOfThreeDownRefusesThenResumes() throws Exception
    {
        startVenue(null);
        final int leader = venue.awaitLeader(ELECTION);
        final int first = leader % 3 + 1;
        final int second = first % 3 + 1;
        clients.trade(Duration.ofSeconds(1));
        venue.kill(first);
        clients.markFailover();
        clients.trade(Duration.ofSeconds(2));
        assertEquals(leader, venue.leader(), "the leader stays the leader when a follower dies");
        assertTrue(clients.failoverToFirstAckNs() >= 0, "orders acknowledged while a follower is down");
        record("follower SIGKILL: orders acknowledged throughout", clients.failoverToFirstAckNs());

        // Two of three gone: no majority, so nothing sent from now on can be committed, and none is acknowledged.
        venue.kill(second);
        clients.markFailover();
        clients.trade(Duration.ofSeconds(3));
        assertEquals(-1, clients.failoverToFirstAckNs(), "an order acknowledged without a majority" +
            clients.describe());

        venue.restart(first, clients::tradeOnce);
        clients.markFailover();
        venue.awaitLeaderWhileTrading(clients, ELECTION);
        clients.tradeUntil("an order acknowledged once a majority is back", ELECTION,
            () -> clients.failoverToFirstAckNs() >= 0);
        record("two of three down, then one back", clients.failoverToFirstAckNs());
        venue.restart(second, clients::tradeOnce);
        settle(List.of(1, 2, 3));
    }

    private long acknowledged()
    {
        long acknowledged = 0;
        for (final OrderLedger ledger : clients.ledgers())
        {
            acknowledged += ledger.acknowledged();
        }
        return acknowledged;
    }

    private void startVenue(final Network network) throws Exception
    {
        venue = new ClusterVenue(children, directory, 3, network);
        venue.start();
        final int leader = venue.awaitLeader(ELECTION);
        venue.onboard(leader);
        clients = new DrillClients(venue, random);
        System.out.println("cluster drill seed " + seed + " (-Dringex.drill.seed=" + seed + " replays it)");
    }

    private void settle(final List<Integer> members) throws Exception
    {
        venue.awaitLeaderWhileTrading(clients, ELECTION);
        clients.settleAndCheck(SETTLE);
        venue.awaitConverged(members, SETTLE);
        checkJournals(members);
    }

    /**
     * Every member's journal is the same, and holds every order a client was told was acknowledged.
     */
    private void checkJournals(final List<Integer> members) throws IOException
    {
        final List<String> dumps = new ArrayList<>();
        for (final int id : members)
        {
            dumps.add(venue.dumpJournal(id));
        }
        for (int i = 1; i < dumps.size(); i++)
        {
            assertEquals(dumps.get(0), dumps.get(i), "member " + members.get(0) + "'s journal and member " +
                members.get(i) + "'s");
        }
        for (final String id : clients.acknowledged())
        {
            assertTrue(dumps.get(0).contains("clientOrderId=" + id + "|"), "acknowledged order " + id +
                " is in the journal");
        }
    }

    private void record(final String what, final long ns) throws IOException
    {
        final String line = what + ": first acknowledgement " + ns / 1_000_000 + " ms after the failure (seed " +
            seed + ")";
        System.out.println(line);
        final Path file = Path.of("target", "cluster-drills.txt");
        Files.writeString(file, line + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }
}
