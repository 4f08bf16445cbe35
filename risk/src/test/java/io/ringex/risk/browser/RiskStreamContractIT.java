package io.ringex.risk.browser;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.SortedMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import io.ringex.engine.risk.Account;
import io.ringex.protocol.FixedPoint;
import io.ringex.risk.aeron.AeronConnection;
import io.ringex.risk.model.RiskReadModel;
import io.ringex.risk.model.Views;
import io.ringex.testing.Await;

/**
 * The risk service's read model against a running engine node over Aeron (the risk stream on IPC, as the all-in-one
 * runs it), on seeded random trading: after each round of trades the dashboard's view of every trader and maker
 * equals the engine's own state, rebuilt from the node's journal by the engine's replay tools: every position that is
 * not flat (and no other), every limit (short selling, default and per-instrument position limits), the standing.
 * The node's late-joiner refresh is set to 50 s, so nothing but the stream's updates can make the view right: a
 * reader that dropped the positions an update does not name would stay wrong. The seed (38 unless
 * {@code -Dringex.it.seed=N} gives another) is printed.
 */
class RiskStreamContractIT
{
    private static final long[] ACCOUNTS = {1001, 1002, 1003, 1004};

    @Test
    void theDashboardHoldsTheEnginesAccountsAfterEveryRoundOfRandomTrading() throws Exception
    {
        final String given = System.getProperty("ringex.it.seed");
        final long seed = given == null ? 38 : Long.parseLong(given);
        System.out.println("RiskStreamContractIT seed " + seed + " (-Dringex.it.seed=" + seed + " replays it)");
        final Path engineData = Files.createTempDirectory("ringex-risk-contract-it-");
        final ConfigurableApplicationContext service = RiskDashboardBrowserIT.startService(
            "/dev/shm/ringex-risk-contract-it-" + UUID.randomUUID(), engineData);
        try (RealEngine engine = new RealEngine(service.getBean(AeronConnection.class).aeronDirectoryName(),
            engineData, TimeUnit.SECONDS.toNanos(10)))
        {
            engine.start();
            final RiskReadModel model = service.getBean(RiskReadModel.class);
            final SplittableRandom random = new SplittableRandom(seed);
            int positionsCompared = 0;
            for (int round = 1; round <= 40; round++)
            {
                engine.randomTrades(random, 6);
                for (final long accountId : ACCOUNTS)
                {
                    final RealEngine.EngineAccount expected = engine.engineAccount(accountId);
                    final String what = "round " + round + ": the dashboard shows account " + accountId +
                        " as the engine holds it: " + expected;
                    Await.until(what, Duration.ofSeconds(10), () -> shown(model, accountId).equals(expected(expected)),
                        null, () -> "the dashboard shows " + shown(model, accountId));
                    positionsCompared += expected.positions().size();
                }
            }
            assertTrue(positionsCompared > 100, "positions compared: " + positionsCompared);
            assertTrue(engine.engineAccount(1004).positions().size() >= 2, "a trader with several positions: " +
                engine.engineAccount(1004));
        }
        finally
        {
            service.close();
        }
    }

    /** The engine's account as the dashboard's views must show it. */
    private static String expected(final RealEngine.EngineAccount a)
    {
        return describe(a.positions(), a.creditLimit(), a.defaultPositionLimit(), a.allowShort(), a.ownLimits(),
            a.status() == Account.STATUS_SUSPENDED ? "SUSPENDED" : a.status() == Account.STATUS_CLOSED ? "CLOSED" :
            "ACTIVE");
    }

    private static String shown(final RiskReadModel model, final long accountId)
    {
        final Views.AccountDetail detail = model.account(accountId);
        if (detail == null || !detail.limits().known())
        {
            return "not known";
        }
        final SortedMap<Integer, Long> positions = new TreeMap<>();
        for (final Views.PositionView p : detail.positions())
        {
            positions.put(p.instrumentId(), p.position());
        }
        final SortedMap<Integer, Long> own = new TreeMap<>();
        for (final Views.PositionLimitView p : detail.limits().positionLimits())
        {
            own.put(p.instrumentId(), p.positionLimit());
        }
        return describe(positions, FixedPoint.parse(detail.limits().creditLimit(), FixedPoint.MONEY_SCALE),
            detail.limits().defaultPositionLimit(), detail.limits().allowShort(), own, detail.summary().status()) +
            (detail.summary().positionsComplete() ? "" : " (incomplete)");
    }

    private static String describe(
        final SortedMap<Integer, Long> positions,
        final long creditUnits,
        final long defaultPositionLimit,
        final boolean allowShort,
        final SortedMap<Integer, Long> own,
        final String status)
    {
        return "positions " + positions + " credit " + creditUnits + " default limit " + defaultPositionLimit +
            " short " + allowShort + " own limits " + own + " " + status;
    }
}
