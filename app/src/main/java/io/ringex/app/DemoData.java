package io.ringex.app;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.ringex.app.admin.ReferenceData;
import io.ringex.app.admin.ReferenceDataException;
import io.ringex.app.admin.ReferenceDataParser;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.codecs.PriceBandType;

/**
 * The demo venue's reference data: the file {@code reference-data/demo.yml} on the classpath (the same schema and
 * validator as {@code ./ringex admin apply}), which the all-in-one applies to a fresh venue, and the views of it the
 * demo's traders use: the demo flow and the load generator log on as its users with the demo's passwords (each user's
 * name, as the README says; the file holds only their hashes) and trade in the roles below.
 */
final class DemoData
{
    /** Where the file is on the classpath. */
    static final String RESOURCE = "/reference-data/demo.yml";

    /** A demo instrument. */
    record Instrument(int id, String symbol, int priceScale, long tick, long lot, long referencePrice, long bandBps)
    {
    }

    /** A demo account and the user who trades it. */
    record Account(long id, String user, String password, String role, long depositUnits)
    {
    }

    /** How the demo flow and the load generator use each user; a user not named here is a trader. */
    private static final Map<String, String> ROLES = Map.of(
        "maker1", "market maker",
        "maker2", "market maker",
        "fixtrader", "FIX trader");

    /** The file, as read. */
    static final ReferenceData FILE = load();

    static final List<Instrument> INSTRUMENTS = instruments(RESOURCE, FILE);

    static final List<Account> ACCOUNTS = accounts(FILE);

    /**
     * A venue set up from another reference-data file that keeps the demo's users (each user's password its name),
     * such as the load generator's {@code --reference-data}.
     *
     * @param file the file.
     * @return its instruments and its users' accounts.
     * @throws ReferenceDataException if the file does not validate.
     */
    static Venue read(final Path file) throws ReferenceDataException
    {
        final ReferenceData data = ReferenceDataParser.parse(file);
        return new Venue(instruments(file.toString(), data), accounts(data));
    }

    /** A venue's instruments and accounts, as the demo's traders see them. */
    record Venue(List<Instrument> instruments, List<Account> accounts)
    {
        static final Venue DEMO = new Venue(INSTRUMENTS, ACCOUNTS);
    }

    private DemoData()
    {
    }

    private static ReferenceData load()
    {
        try (InputStream in = DemoData.class.getResourceAsStream(RESOURCE))
        {
            if (null == in)
            {
                throw new IllegalStateException(RESOURCE + " is not on the classpath");
            }
            return ReferenceDataParser.parse(RESOURCE, new InputStreamReader(in, StandardCharsets.UTF_8));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        catch (final ReferenceDataException ex)
        {
            throw new IllegalStateException("the demo's reference data is invalid:\n" + ex.getMessage(), ex);
        }
    }

    private static List<Instrument> instruments(final String source, final ReferenceData file)
    {
        final List<Instrument> instruments = new ArrayList<>();
        for (final ReferenceData.Instrument i : file.instruments())
        {
            if (i.bandType() != PriceBandType.BASIS_POINTS)
            {
                throw new IllegalStateException(source + ": the demo flow prices in basis-point bands: " +
                    i.symbol());
            }
            instruments.add(new Instrument(i.id(), i.symbol(), i.priceScale(), i.tickSize(), i.lotSize(),
                i.referencePrice(), i.band()));
        }
        return List.copyOf(instruments);
    }

    private static List<Account> accounts(final ReferenceData file)
    {
        final List<Account> accounts = new ArrayList<>();
        for (final ReferenceData.User user : file.users())
        {
            final long accountId = user.accounts().get(0);
            final ReferenceData.Account account = file.accounts().stream().filter((a) -> a.id() == accountId)
                .findFirst().orElseThrow();
            accounts.add(new Account(accountId, user.username(), user.username(),
                ROLES.getOrDefault(user.username(), "trader"),
                account.openingBalance() / FixedPoint.powerOfTen(FixedPoint.MONEY_SCALE)));
        }
        return List.copyOf(accounts);
    }
}
