package io.ringex.app;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.ringex.app.admin.ReferenceData;
import io.ringex.app.admin.ReferenceDataParser;
import io.ringex.protocol.CredentialHash;
import io.ringex.testing.ProjectRoot;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every reference-data file the project ships goes through the admin tool's validator (CI runs this; docker/validate.sh
 * runs the same validator when a build is there), and the demo's file is today's demo venue.
 */
class ShippedReferenceDataTest
{
    private static final Path ROOT = ProjectRoot.find();

    @Test
    void theComposeVenuesFileIsValidAndItsUsersAreThoseOfTheGatewayUsersExample() throws Exception
    {
        final ReferenceData data = ReferenceDataParser.parse(ROOT.resolve("docker/config/reference-data.yml"));
        assertTrue(data.instruments().size() > 0 && data.accounts().size() > 1 && data.users().size() > 1,
            "a venue two users can trade on");
        final String example = Files.readString(ROOT.resolve("docker/config/gateway-users.example.properties"));
        for (final ReferenceData.User user : data.users())
        {
            assertTrue(example.contains("ringex.gateway.user." + user.username() + ".accounts=" +
                user.accounts().get(0)), user.username() + " and its account in the gateway users example");
        }
    }

    @Test
    void theDemosFileIsValidOnDiskAndOnTheClasspath() throws Exception
    {
        final ReferenceData onDisk = ReferenceDataParser.parse(
            ROOT.resolve("app/src/main/resources/reference-data/demo.yml"));
        assertEquals(onDisk.instruments(), DemoData.FILE.instruments());
        assertEquals(onDisk.accounts(), DemoData.FILE.accounts());
        assertNull(DemoData.FILE.schedule(), "the demo trades around the clock: its file has no schedule");
    }

    @Test
    void theDemoVenueIsTheOneTheReadmeDescribes()
    {
        // What DemoData held as code before the file: the same names, prices, bands and deposits.
        assertEquals(List.of(
            new DemoData.Instrument(1, "RGX-USD", 2, 1, 1, 10_000, 1_000),
            new DemoData.Instrument(2, "LMX-USD", 2, 5, 10, 5_000, 1_000),
            new DemoData.Instrument(3, "EUR-USD", 4, 1, 1_000, 11_650, 200)), DemoData.INSTRUMENTS);
        assertEquals(List.of(
            new DemoData.Account(1001, "maker1", "maker1", "market maker", 5_000_000),
            new DemoData.Account(1002, "maker2", "maker2", "market maker", 5_000_000),
            new DemoData.Account(1003, "trader1", "trader1", "trader", 1_000_000),
            new DemoData.Account(1004, "trader2", "trader2", "trader", 1_000_000),
            new DemoData.Account(1005, "fixtrader", "fixtrader", "FIX trader", 1_000_000)), DemoData.ACCOUNTS);
    }

    @Test
    void eachDemoUsersHashIsOfItsDemoPassword()
    {
        for (final DemoData.Account account : DemoData.ACCOUNTS)
        {
            final ReferenceData.User user = DemoData.FILE.users().stream()
                .filter((u) -> u.username().equals(account.user())).findFirst().orElseThrow();
            assertTrue(CredentialHash.verify(account.password(), user.credential()), user.username());
            assertEquals(account.user().toUpperCase(), user.fixSenderCompId());
        }
    }
}
