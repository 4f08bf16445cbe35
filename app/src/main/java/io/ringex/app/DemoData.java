package io.ringex.app;

import java.util.List;

import io.ringex.client.AdminClient;
import io.ringex.client.CommandEncoder;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.SelfTradePrevention;

/**
 * The demo venue's static data: instruments, accounts, limits and deposits, sent to the engine as admin commands on
 * its first start (so they are journaled and replayed like everything else), and the demo users of the gateway and
 * the dashboard, documented in the README.
 */
final class DemoData
{
    /** A demo instrument. */
    record Instrument(int id, String symbol, int priceScale, long tick, long lot, long referencePrice, long bandBps)
    {
    }

    /** A demo account and the user who trades it. */
    record Account(long id, String user, String password, String role, long depositUnits)
    {
    }

    static final List<Instrument> INSTRUMENTS = List.of(
        new Instrument(1, "RGX-USD", 2, 1, 1, 10_000, 1_000),
        new Instrument(2, "LMX-USD", 2, 5, 10, 5_000, 1_000),
        new Instrument(3, "EUR-USD", 4, 1, 1_000, 11_650, 200));

    static final List<Account> ACCOUNTS = List.of(
        new Account(1001, "maker1", "maker1", "market maker", 5_000_000),
        new Account(1002, "maker2", "maker2", "market maker", 5_000_000),
        new Account(1003, "trader1", "trader1", "trader", 1_000_000),
        new Account(1004, "trader2", "trader2", "trader", 1_000_000),
        new Account(1005, "fixtrader", "fixtrader", "FIX trader", 1_000_000));

    private DemoData()
    {
    }

    /**
     * Send the static data through the given admin channel.
     *
     * @param admin where commands go; answers are awaited.
     */
    static void install(final AdminClient admin)
    {
        final CommandEncoder commands = admin.commands();
        long requestId = 1;
        for (final Instrument i : INSTRUMENTS)
        {
            admin.send(commands.addInstrument(requestId++, i.id(), i.symbol(), i.priceScale(), i.tick(), i.lot(),
                i.referencePrice(), PriceBandType.BASIS_POINTS, i.bandBps()));
        }
        for (final Account a : ACCOUNTS)
        {
            final long deposit = a.depositUnits() * FixedPoint.powerOfTen(FixedPoint.MONEY_SCALE);
            admin.send(commands.addAccount(requestId++, a.id(), SelfTradePrevention.CANCEL_NEWEST));
            admin.send(commands.setLimits(requestId++, a.id(), 100_000, deposit / 2, deposit / 10, 200_000, 500,
                true, new int[0], new long[0]));
            admin.send(commands.adjustBalance(requestId++, a.id(), deposit));
        }
        admin.awaitResponses(requestId - 1);
    }
}
