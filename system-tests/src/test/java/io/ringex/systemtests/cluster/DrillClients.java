package io.ringex.systemtests.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;

import io.ringex.testing.Await;
import quickfix.SessionNotFound;

/**
 * The drills' order flow: two SBE traders and one FIX trader resting buys below the market through the one gateway,
 * each keeping at most {@link #MAX_OPEN} open (the oldest cancelled), at about {@link #ORDERS_PER_SECOND} orders a
 * second in all, while the drill does what it does to the members. Then the checks: every order and every cancel
 * answered exactly once, every order acknowledged still live (its cancel succeeds on whichever member leads by then),
 * and the clients still logged on.
 * <p>
 * The test's thread.
 */
final class DrillClients implements AutoCloseable
{
    static final int ORDERS_PER_SECOND = 300;
    static final int MAX_OPEN = 100;
    private static final long INTERVAL_NS = 1_000_000_000L / ORDERS_PER_SECOND;

    private final ClusterVenue venue;
    private final Random random;
    private final List<SbeTrader> sbe = new ArrayList<>();
    private final FixTrader fix;
    private long nextSendNs;
    private int turn;

    DrillClients(final ClusterVenue venue, final Random random) throws Exception
    {
        this.venue = venue;
        this.random = random;
        // FIX first: QuickFIX/J heartbeats on its own threads, while an SBE session logged on first would miss its
        // heartbeats as the test waited for the FIX logon.
        fix = new FixTrader("trader1", venue.fixPort());
        fix.logOn();
        sbe.add(new SbeTrader(venue.aeron(), venue.gatewayChannel(), "maker1", 1001, 3001));
        sbe.add(new SbeTrader(venue.aeron(), venue.gatewayChannel(), "maker2", 1002, 3002));
        for (final SbeTrader trader : sbe)
        {
            trader.logOn(this::poll);
        }
    }

    /**
     * Trade for a while, reading every answer and the members' statuses.
     *
     * @param period how long.
     */
    void trade(final Duration period)
    {
        final long endNs = System.nanoTime() + period.toNanos();
        while (System.nanoTime() - endNs < 0)
        {
            tradeOnce();
        }
    }

    /**
     * Trade until a condition holds, or fail after the timeout.
     *
     * @param what      what is awaited.
     * @param timeout   how long at most.
     * @param condition true when done.
     */
    void tradeUntil(final String what, final Duration timeout, final java.util.function.BooleanSupplier condition)
    {
        Await.until(what, timeout, condition, this::tradeOnce, venue::describe);
    }

    void tradeOnce()
    {
        final long nowNs = System.nanoTime();
        if (nowNs - nextSendNs >= 0)
        {
            nextSendNs = nowNs + INTERVAL_NS;
            final long price = 9_500 + random.nextInt(400);
            final int who = turn++ % 3;
            if (who < 2)
            {
                final SbeTrader trader = sbe.get(who);
                if (trader.isLoggedOn())
                {
                    trader.trade(price, MAX_OPEN);
                }
            }
            else if (fix.isLoggedOn())
            {
                try
                {
                    fix.trade(price, MAX_OPEN);
                }
                catch (final SessionNotFound ex)
                {
                    throw new IllegalStateException(ex);
                }
            }
        }
        if (poll() == 0)
        {
            LockSupport.parkNanos(50_000);
        }
    }

    int poll()
    {
        int work = fix.poll();
        for (final SbeTrader trader : sbe)
        {
            work += trader.poll();
        }
        venue.poll();
        return work;
    }

    /**
     * Mark a failover's start in every ledger: the first acknowledgement of an order sent after it is timed.
     */
    void markFailover()
    {
        for (final OrderLedger ledger : ledgers())
        {
            ledger.markFailover();
        }
    }

    /**
     * @return nanoseconds from the mark to the first acknowledgement of an order sent after it, by any trader, or -1.
     */
    long failoverToFirstAckNs()
    {
        long first = -1;
        for (final OrderLedger ledger : ledgers())
        {
            final long ns = ledger.failoverToFirstAckNs();
            if (ns >= 0 && (first < 0 || ns < first))
            {
                first = ns;
            }
        }
        return first;
    }

    /**
     * Stop sending; wait until every order and cancel sent has its answer; cancel every order believed open and
     * check each cancel succeeds (the order is live where the venue now trades).
     *
     * @param timeout how long to wait for the answers.
     */
    void settleAndCheck(final Duration timeout) throws SessionNotFound
    {
        Await.until("every order and cancel answered", timeout, this::allAnswered, this::poll, this::describe);
        for (final SbeTrader trader : sbe)
        {
            trader.cancelAll();
        }
        fix.cancelAll();
        Await.until("every order left open cancelled", timeout, this::allAnswered, this::poll, this::describe);
        final List<String> problems = new ArrayList<>();
        for (final OrderLedger ledger : ledgers())
        {
            problems.addAll(ledger.problems());
            ledger.cancelOutcomes().forEach((cancel, outcome) ->
            {
                if (outcome.contains("UNKNOWN_ORDER") || outcome.contains("TOO_LATE"))
                {
                    problems.add(ledger + ": cancel " + cancel + " of an order it was told was open: " + outcome);
                }
            });
        }
        if (!problems.isEmpty())
        {
            throw new AssertionError("the drill's checks failed:\n  " + String.join("\n  ", problems) + describe());
        }
        for (final SbeTrader trader : sbe)
        {
            if (!trader.isLoggedOn())
            {
                throw new AssertionError("an SBE trader was logged out" + describe());
            }
        }
        if (!fix.isLoggedOn())
        {
            throw new AssertionError("the FIX trader was logged out" + describe());
        }
    }

    private boolean allAnswered()
    {
        for (final OrderLedger ledger : ledgers())
        {
            if (ledger.answered() != ledger.sent() || ledger.unansweredCancels() > 0)
            {
                return false;
            }
        }
        return true;
    }

    List<OrderLedger> ledgers()
    {
        final List<OrderLedger> ledgers = new ArrayList<>();
        for (final SbeTrader trader : sbe)
        {
            ledgers.add(trader.ledger());
        }
        ledgers.add(fix.ledger());
        return ledgers;
    }

    /**
     * @return every acknowledged order's client order id.
     */
    List<String> acknowledged()
    {
        final List<String> ids = new ArrayList<>();
        for (final OrderLedger ledger : ledgers())
        {
            ids.addAll(ledger.acknowledgedIds());
        }
        return ids;
    }

    String describe()
    {
        final StringBuilder out = new StringBuilder();
        final List<String> unanswered = new ArrayList<>();
        for (final OrderLedger ledger : ledgers())
        {
            out.append("\n  ").append(ledger);
            final List<String> missing = ledger.unanswered();
            for (final String id : missing.subList(0, Math.min(10, missing.size())))
            {
                out.append("\n    unanswered ").append(id).append(", sent at ")
                    .append(venue.millis(ledger.sentNs(id)) / 1000.0).append(" s");
                unanswered.add(id);
            }
        }
        for (final SbeTrader trader : sbe)
        {
            out.append("\n  SBE messages of another session ignored: ").append(trader.foreignSessionMessages())
                .append(", not offered (back-pressured): ").append(trader.notOffered());
            if (!trader.isLoggedOn())
            {
                out.append("\n  an SBE trader is logged out: ").append(trader.loggedOutBecause() == null ?
                    "by itself" : trader.loggedOutBecause() + " at " + venue.millis(trader.loggedOutNs()) / 1000.0 +
                    " s");
            }
        }
        return out + venue.describe() + venue.timeline() + venue.findInJournals(unanswered);
    }

    public void close()
    {
        fix.close();
        for (final SbeTrader trader : sbe)
        {
            trader.close();
        }
    }
}
