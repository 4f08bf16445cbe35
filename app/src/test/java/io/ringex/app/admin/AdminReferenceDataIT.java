package io.ringex.app.admin;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.ringex.client.AdminKeys;
import io.ringex.app.admin.AdminTestVenue.Result;
import io.ringex.engine.replay.AuditTrail;
import io.ringex.engine.replay.Replayer;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static io.ringex.app.admin.AdminTestVenue.expect;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./ringex admin} learns a running venue's instruments and accounts by asking its engine (ReferenceDataRequest,
 * signed with the tool's admin key), not by waiting for the engine's periodic refresh: against a real engine node
 * whose status interval (and so its refresh) is an hour, a whole onboarding (an instrument, an account opened with its
 * limits and funded, a trader, trading halted and resumed by symbol) and {@code status} are answered; a tool whose key
 * the engine does not hold gets no answer to its request and, with no refresh either, says so. Every change of the
 * onboarding is journaled with the operator and reason the tool was given ({@code journal audit --admin}).
 */
class AdminReferenceDataIT
{
    @TempDir
    Path data;

    private AdminTestVenue testVenue;

    @BeforeEach
    void startAnEmptyVenueThatRefreshesHourly()
    {
        // No refresh within the test: whatever the tool learns of instruments and accounts, it asked for.
        testVenue = new AdminTestVenue(data.resolve("admin.keys"), TimeUnit.HOURS.toNanos(1));
    }

    @AfterEach
    void stop()
    {
        CloseHelper.quietClose(testVenue);
    }

    @Test
    void anOnboardingAndStatusAreAnsweredWithoutARefreshAndEachChangeIsJournaledWithItsOperator() throws Exception
    {
        final String[] change = { "--operator", "ops1", "--reason", "new desk" };
        expect(0, "done: add instrument 7 NEW-USD", admin(change, "instrument", "add", "--id", "7", "--symbol",
            "NEW-USD", "--price-scale", "2", "--tick", "0.01", "--lot", "1", "--reference-price", "50.00",
            "--band-type", "bps", "--band", "500"));
        expect(0, "done: set limits of account 3001", admin(change, "account", "open", "--id", "3001",
            "--max-order-quantity", "1000", "--max-order-notional", "100000", "--credit-limit", "0",
            "--position-limit", "1000", "--max-open-orders", "10"));
        expect(0, "done: deposit 50000 to account 3001", admin(change, "account", "deposit", "--id", "3001",
            "--amount", "50000"));
        expect(0, "done: set the credential of user dana", adminWithInput("s3cret-pw\n", change, "user", "add",
            "--username", "dana", "--accounts", "3001", "--fix-sender-comp-id", "DANA"));
        // By symbol: the tool must know the venue's instruments.
        expect(0, "done: ", admin(change, "trading", "halt", "--symbol", "NEW-USD"));
        expect(0, "done: ", admin(change, "trading", "resume", "--symbol", "NEW-USD"));

        final Result status = admin(new String[0], "status");
        expect(0, "instruments (1):\n  7 NEW-USD scale 2 tick 0.01 lot 1 reference 50.00 band 500 bps OPEN\n",
            status);
        assertTrue(status.out().contains("  3001 balance 50000 reserved 0 maxOrderQuantity 1000 maxOrderNotional " +
            "100000 creditLimit 0 openOrders 0/10 ACTIVE"), status.toString());
        assertTrue(status.out().contains("  dana enabled accounts [3001] FIX DANA role trader"), status.toString());

        // A key the engine does not hold: the request is refused unanswered, and no refresh comes either.
        final Path stranger = data.resolve("stranger.keys");
        AdminKeys.generate("stranger").writeTo(stranger);
        final Result unknownKey = admin(new String[0], "status", "--key-file", stranger.toString(),
            "--timeout-ms", "1500");
        expect(1, "no answer to the reference-data request and no refresh of the instruments and accounts",
            unknownKey);

        testVenue.engine().node().close();
        final AuditTrail.Result trail;
        try (Replayer replayer = Replayer.open(testVenue.engine().journalDirectory(), null))
        {
            trail = new AuditTrail().run(replayer, AuditTrail.Query.admin());
        }
        final List<String> changes = new ArrayList<>();
        for (final AuditTrail.Entry entry : trail.entries())
        {
            if (entry.command().equals("ReferenceDataRequest"))
            {
                continue; // a read: no operator to name
            }
            changes.add(entry.command());
            assertTrue(entry.commandText().contains("operatorName='ops1'") &&
                entry.commandText().contains("reason='new desk'"), entry.commandText());
            assertEquals(1, entry.sourceId() & 0xFFFF_FFFFL, "signed with key 1: " + entry);
        }
        assertEquals(List.of("AddInstrument", "AddAccount", "SetLimits", "AdjustBalance", "UpsertUser",
            "SetUserCredential", "SetTradingStatus", "SetTradingStatus"), changes);
    }

    private Result admin(final String[] change, final String... args)
    {
        return adminWithInput("", change, args);
    }

    private Result adminWithInput(final String input, final String[] change, final String... args)
    {
        final List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of(change));
        if (!all.contains("--timeout-ms"))
        {
            all.add("--timeout-ms");
            all.add("20000");
        }
        return testVenue.admin(input, all);
    }
}
