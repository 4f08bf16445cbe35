package io.ringex.app.admin;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.ringex.client.CommandEncoder;
import io.ringex.client.AdminKeys;
import io.ringex.app.admin.AdminTestVenue.Result;
import io.ringex.protocol.CredentialHash;
import io.ringex.testing.Await;
import io.ringex.testing.ChildProcess;
import io.ringex.testing.ChildProcesses;
import io.ringex.protocol.SessionIds;
import io.ringex.protocol.codecs.AccountStatus;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TradingStatus;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static io.ringex.app.admin.AdminTestVenue.expect;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./ringex admin} against a real engine node that starts empty (its own media driver, IPC streams, a journal in
 * a temporary directory), run in-process through {@link AdminCli#run} as the launcher runs it, and once through the
 * launcher script itself: the demo file applied, the venue then holding exactly it, a second apply changing nothing,
 * and each verb once, refusals included, with its exit code and message.
 */
class AdminCliIT
{
    private static final Path PROJECT = Path.of(System.getProperty("ringex.project.dir", "..")).toAbsolutePath();
    private static final Path DEMO = PROJECT.resolve("app/src/main/resources/reference-data/demo.yml");
    private static final String IPC = AdminTestVenue.IPC;

    @RegisterExtension
    final ChildProcesses children = new ChildProcesses();

    @TempDir
    Path data;

    private AdminTestVenue testVenue;
    private Aeron aeron;

    @BeforeEach
    void startAnEmptyVenue()
    {
        // a refresh every 5 intervals: the admin tool waits for one before it compares
        testVenue = new AdminTestVenue(data.resolve("admin.keys"), TimeUnit.MILLISECONDS.toNanos(50));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(testVenue.aeronDirectoryName()));
    }

    @AfterEach
    void stop()
    {
        CloseHelper.quietCloseAll(aeron, testVenue);
    }

    @Test
    void applyMakesAnEmptyVenueHoldExactlyTheFileAndASecondApplyChangesNothing() throws Exception
    {
        final ReferenceData file = ReferenceDataParser.parse(DEMO);

        final Result dryRun = admin("apply", DEMO.toString(), "--dry-run");
        assertEquals(0, dryRun.code(), dryRun.toString());
        assertTrue(dryRun.out().contains("  add instrument 1 RGX-USD: scale 2, tick 0.01, lot 1, reference 100.00, " +
            "band 1000 bps\n"), dryRun.out());
        assertTrue(dryRun.out().contains("  deposit 5000000 to account 1001 (opening balance)\n"), dryRun.out());
        assertTrue(dryRun.out().contains("  set the credential of user fixtrader\n"), dryRun.out());
        assertTrue(dryRun.out().contains("28 changes (dry run: nothing sent)"), dryRun.out());
        assertTrue(read().isEmpty(), "a dry run sends nothing");

        final Result apply = admin("apply", DEMO.toString(), "--operator", "ops1", "--reason", "onboarding");
        assertEquals(0, apply.code(), apply.toString());
        assertTrue(apply.out().contains("done: open account 1005: self-trade prevention cancel-newest\n"), apply.out());
        assertTrue(apply.out().endsWith("28 changes applied\n"), apply.out());

        final VenueState venue = read();
        assertEquals(file.instruments().size(), venue.instruments.size());
        for (final ReferenceData.Instrument want : file.instruments())
        {
            assertEquals(new VenueState.Instrument(want.id(), want.symbol(), want.priceScale(), want.tickSize(),
                want.lotSize(), want.referencePrice(), want.bandType(), want.band(), TradingStatus.OPEN),
                venue.instruments.get(want.id()));
        }
        assertEquals(file.accounts().size(), venue.accounts.size());
        for (final ReferenceData.Account want : file.accounts())
        {
            final VenueState.Account have = venue.accounts.get(want.id());
            assertEquals(want.openingBalance(), have.balance(), "balance of " + want.id());
            assertEquals(want.limits().maxOrderQuantity(), have.maxOrderQuantity());
            assertEquals(want.limits().maxOrderNotional(), have.maxOrderNotional());
            assertEquals(want.limits().creditLimit(), have.creditLimit());
            assertEquals(want.limits().maxOpenOrders(), have.maxOpenOrders());
        }
        assertEquals(file.users().size(), venue.users.size());
        for (final ReferenceData.User want : file.users())
        {
            assertEquals(new VenueState.User(want.username(), want.enabled(), want.accounts(), want.fixSenderCompId(),
                want.cancelOnDisconnect(), want.codGraceMs(), want.throttle(), want.credential(), want.role()),
                venue.users.get(want.username()));
        }
        assertTrue(CredentialHash.verify("maker1", venue.users.get("maker1").credential()));

        final Result again = admin("apply", DEMO.toString(), "--operator", "ops1");
        assertEquals(0, again.code(), again.toString());
        assertTrue(again.out().contains("\nnothing to change\n"), again.out());
        assertFalse(again.out().contains("done:"), again.out());

        final Result status = admin("status");
        assertEquals(0, status.code(), status.toString());
        assertTrue(status.out().contains("instruments (3):\n  1 RGX-USD scale 2 tick 0.01 lot 1 reference 100.00 " +
            "band 1000 bps OPEN\n"), status.out());
        assertTrue(status.out().contains("  1001 balance 5000000 reserved 0 maxOrderQuantity 100000 maxOrderNotional " +
            "2500000 creditLimit 500000 openOrders 0/500 ACTIVE positionLimit 200000 allowShort true stp " +
            "cancel-newest\n"), status.out());
        assertTrue(status.out().contains("  maker1 enabled accounts [1001] FIX MAKER1 role trader credential set\n"),
            status.out());

        // The launcher, in its own JVM, on the same venue.
        final ChildProcess launched = children.start(ChildProcess.builder("./ringex admin status")
            .command(List.of(PROJECT.resolve("ringex").toString(), "admin", "status"))
            .args("--aeron-dir", testVenue.aeronDirectoryName())
            .directory(PROJECT).log(data.resolve("ringex-admin-status.log")));
        assertEquals(0, launched.awaitExit(Duration.ofSeconds(60)), launched::tail);
        assertTrue(launched.hasLine((line) -> line.contains("users (5):")), launched::tail);
    }

    @Test
    void aChangeNeedsAnAdminKeyTheEngineHoldsAndReadingNeedsNone() throws Exception
    {
        final long refused = testVenue.engine().node().counter("ingress-admin-refused");
        final long journaled = testVenue.engine().node().journaledSequence();

        // a key file the engine does not know: the engine refuses, unanswered; the tool says why it may be
        final Path stranger = data.resolve("stranger.keys");
        AdminKeys.generate("ops-desk").writeTo(stranger);
        final Result unknown = admin("account", "open", "--id", "7001", "--operator", "ops1", "--key-file",
            stranger.toString(), "--timeout-ms", "2000");
        assertEquals(1, unknown.code(), unknown.toString());
        assertTrue(unknown.err().contains("no answer from the engine") &&
            unknown.err().contains("ingress-admin-refused"), unknown.toString());
        Await.until("the engine counting it refused",
            () -> testVenue.engine().node().counter("ingress-admin-refused") == refused + 1);
        assertEquals(journaled, testVenue.engine().node().journaledSequence(), "nothing journaled");

        // no key at all: the tool refuses before sending
        final Result missing = admin("account", "open", "--id", "7001", "--operator", "ops1", "--key-file",
            data.resolve("absent.keys").toString());
        assertEquals(2, missing.code(), missing.toString());
        assertTrue(missing.err().contains("--key-file/--key: " + data.resolve("absent.keys")), missing.toString());
        final Result wrongName = admin("account", "open", "--id", "7001", "--operator", "ops1", "--key", "bob");
        assertEquals(2, wrongName.code(), wrongName.toString());
        assertTrue(wrongName.err().contains("no admin key named bob (the file holds 1 ops-desk)"),
            wrongName.toString());

        // the venue's key: done (reading needs none: ./ringex admin status, below, runs without one)
        expect(0, "done: open account 7001", admin("account", "open", "--id", "7001", "--operator", "ops1"));
        final Result status = admin("status", "--key-file", data.resolve("absent.keys").toString());
        assertEquals(2, status.code(), "a key file named must be there: " + status);
    }

    @Test
    void eachVerbWaitsForTheEnginesAnswerAndARefusalExitsNonZeroWithTheReason() throws Exception
    {
        assertEquals(0, admin("apply", DEMO.toString(), "--operator", "ops1").code());

        // instruments
        expect(0, "done: add instrument 4 BTC-USD (journal sequence ", admin("instrument", "add", "--id", "4",
            "--symbol", "BTC-USD", "--price-scale", "2", "--tick", "0.50", "--lot", "1", "--reference-price",
            "30000", "--band-type", "ticks", "--band", "100", "--operator", "ops1"));
        expect(1, "refused: add instrument 4 BTC-USD: DUPLICATE_ID", admin("instrument", "add", "--id", "4",
            "--symbol", "BTC-USD", "--price-scale", "2", "--tick", "0.50", "--lot", "1", "--reference-price",
            "30000", "--band-type", "ticks", "--band", "100", "--operator", "ops1"));
        expect(0, "done: amend instrument 4", admin("instrument", "amend", "--id", "4", "--symbol", "XBT-USD",
            "--operator", "ops1", "--reason", "renamed"));
        assertEquals("XBT-USD", read().instruments.get(4).symbol());
        expect(0, "done: delist instrument 4", admin("instrument", "delist", "--id", "4", "--operator", "ops1"));
        expect(1, "refused: delist instrument 4: INSTRUMENT_DELISTED", admin("instrument", "delist", "--id", "4",
            "--operator", "ops1"));
        expect(1, "refused: amend instrument 9: no such instrument at the venue", admin("instrument", "amend",
            "--id", "9", "--lot", "5", "--operator", "ops1"));

        // accounts
        expect(0, "done: open account 2001", admin("account", "open", "--id", "2001", "--stp", "cancel-both",
            "--operator", "ops1"));
        expect(0, "done: set limits of account 2001", admin("account", "limits", "--id", "2001",
            "--max-order-quantity", "100", "--max-order-notional", "10000", "--credit-limit", "0",
            "--position-limit", "1000", "--max-open-orders", "10", "--instrument-limits", "1=50", "--operator",
            "ops1"));
        expect(0, "done: set market-maker protection of account 2001 group 1", admin("account", "protection",
            "--id", "2001", "--group", "1", "--instruments", "1", "--interval-ms", "1000", "--fill-limit", "5",
            "--notional-limit", "2500.5", "--freeze-ms", "30000", "--operator", "ops1"));
        expect(1, "refused: set market-maker protection of account 2001 group 2: UNKNOWN_INSTRUMENT",
            admin("account", "protection", "--id", "2001", "--group", "2", "--instruments", "99", "--interval-ms",
            "1000", "--fill-limit", "5", "--operator", "ops1"));
        expect(1, "refused: set market-maker protection of account 2001 group 2: INVALID_ARGUMENT",
            admin("account", "protection", "--id", "2001", "--group", "2", "--instruments", "1", "--interval-ms",
            "1000", "--fill-limit", "0", "--operator", "ops1"));
        expect(2, "--instruments: a list of instrument ids (was '1,x')", admin("account", "protection", "--id",
            "2001", "--group", "2", "--instruments", "1,x", "--interval-ms", "1000", "--fill-limit", "5",
            "--operator", "ops1"));
        expect(0, "done: remove market-maker protection of account 2001 group 1", admin("account", "protection",
            "--id", "2001", "--group", "1", "--interval-ms", "0", "--operator", "ops1"));
        expect(0, "done: deposit 1000 to account 2001", admin("account", "deposit", "--id", "2001", "--amount",
            "1000", "--reference", "wire-1", "--operator", "ops1"));
        expect(1, "refused: withdraw 1500 from account 2001: INSUFFICIENT_CREDIT", admin("account", "withdraw",
            "--id", "2001", "--amount", "1500", "--operator", "ops1"));
        expect(0, "done: withdraw 400 from account 2001", admin("account", "withdraw", "--id", "2001", "--amount",
            "400", "--operator", "ops1"));
        trade(1001, 2001, 1, 10_000, 5);
        await((v) -> v.accounts.get(2001L).positions().getOrDefault(1, 0L) == 5, "account 2001 long 5");
        expect(1, "refused: close account 2001: ACCOUNT_NOT_FLAT", admin("account", "close", "--id", "2001",
            "--operator", "ops1"));
        // what the engine publishes of 2001 (AccountDefinition): every limit, the one of its own, the standing
        final VenueState.Definition limits2001 = read().accounts.get(2001L).definition();
        assertEquals(new VenueState.Definition(AccountStatus.ACTIVE, SelfTradePrevention.CANCEL_BOTH, 1000, false,
            new TreeMap<>(Map.of(1, 50L))), limits2001);
        expect(0, "done: suspend account 1003", admin("account", "suspend", "--id", "1003", "--operator", "ops1",
            "--reason", "kyc review"));
        assertEquals(AccountStatus.SUSPENDED, read().accounts.get(1003L).definition().status());
        assertTrue(admin("status").out().contains("  1003 balance "), "status lists 1003");
        assertTrue(admin("status").out().lines().anyMatch((l) -> l.startsWith("  1003 ") && l.contains(" SUSPENDED ")),
            "status shows 1003 suspended");
        expect(0, "done: reactivate account 1003", admin("account", "reactivate", "--id", "1003", "--operator",
            "ops1"));
        expect(0, "done: close account 1004", admin("account", "close", "--id", "1004", "--operator", "ops1"));
        expect(1, "refused: close account 1004: ACCOUNT_SUSPENDED", admin("account", "close", "--id", "1004",
            "--operator", "ops1"));
        expect(1, "refused: deposit 1 to account 7777: UNKNOWN_ACCOUNT", admin("account", "deposit", "--id", "7777",
            "--amount", "1", "--operator", "ops1"));

        // users: the password from standard input, never an argument
        expect(2, "--cod-grace-ms: the cancel-on-disconnect grace is 0 (none) to 600000 ms (ten minutes) (was " +
            "'600001')", adminWithInput("s3cret\n", "user", "add", "--username", "carol", "--accounts", "2001",
            "--cod-grace-ms", "600001", "--operator", "ops1"));
        expect(2, "--cod-grace-ms: the cancel-on-disconnect grace is 0 (none) to 600000 ms (ten minutes) (was " +
            "'5s')", adminWithInput("s3cret\n", "user", "add", "--username", "carol", "--accounts", "2001",
            "--cod-grace-ms", "5s", "--operator", "ops1"));
        assertNull(read().users.get("carol"), "a refused option sends nothing");
        expect(0, "done: set the credential of user carol", adminWithInput("s3cret\n", "user", "add",
            "--username", "carol", "--accounts", "2001", "--fix-sender-comp-id", "CAROL", "--cancel-on-disconnect",
            "--cod-grace-ms", "5000", "--operator", "ops1"));
        assertTrue(CredentialHash.verify("s3cret", read().users.get("carol").credential()));
        assertEquals(5000, read().users.get("carol").codGraceMs());
        assertTrue(admin("status").out().contains("  carol enabled accounts [2001] FIX CAROL cancel-on-disconnect " +
            "cod-grace 5000 ms role trader credential set\n"), "status shows carol's grace");
        expect(1, "refused: add user carol: the user exists", adminWithInput("x\n", "user", "add", "--username",
            "carol", "--accounts", "2001", "--operator", "ops1"));
        expect(0, "done: set the credential of user carol", adminWithInput("n3w-secret\n", "user", "passwd",
            "--username", "carol", "--operator", "ops1"));
        assertTrue(CredentialHash.verify("n3w-secret", read().users.get("carol").credential()));
        expect(1, "refused: set the credential of user ghost: UNKNOWN_USER", adminWithInput("x\n", "user",
            "passwd", "--username", "ghost", "--operator", "ops1"));
        expect(1, "no password given", adminWithInput("", "user", "passwd", "--username", "carol", "--operator",
            "ops1"));
        expect(0, "done: grant user carol accounts [2001, 1003]", admin("user", "grant", "--username", "carol",
            "--accounts", "1003", "--operator", "ops1"));
        assertEquals(5000, read().users.get("carol").codGraceMs(), "a grant keeps the grace");
        expect(0, "done: user carol cancel-on-disconnect grace 600000 ms", admin("user", "cod-grace", "--username",
            "carol", "--cod-grace-ms", "600000", "--operator", "ops1"));
        assertEquals(600_000, read().users.get("carol").codGraceMs());
        assertTrue(read().users.get("carol").cancelOnDisconnect(), "the rest of carol as it was");
        expect(0, "nothing to change: user carol has a cancel-on-disconnect grace of 600000 ms", admin("user",
            "cod-grace", "--username", "carol", "--cod-grace-ms", "600000", "--operator", "ops1"));
        expect(2, "--cod-grace-ms: the cancel-on-disconnect grace is 0 (none) to 600000 ms (ten minutes) (was '-1')",
            admin("user", "cod-grace", "--username", "carol", "--cod-grace-ms", "-1", "--operator", "ops1"));
        expect(2, "--cod-grace-ms is required", admin("user", "cod-grace", "--username", "carol", "--operator",
            "ops1"));
        expect(1, "refused: cod-grace user ghost: no such user at the venue", admin("user", "cod-grace",
            "--username", "ghost", "--cod-grace-ms", "1000", "--operator", "ops1"));
        expect(1, "refused: grant user carol accounts [2001, 1003, 9999]: UNKNOWN_ACCOUNT", admin("user", "grant",
            "--username", "carol", "--accounts", "9999", "--operator", "ops1"));
        expect(0, "done: disable user carol", admin("user", "disable", "--username", "carol", "--operator", "ops1"));
        assertFalse(read().users.get("carol").enabled());
        expect(0, "nothing to change: user carol is already disabled", admin("user", "disable", "--username",
            "carol", "--operator", "ops1"));
        expect(0, "done: enable user carol", admin("user", "enable", "--username", "carol", "--operator", "ops1"));
        assertEquals(600_000, read().users.get("carol").codGraceMs(), "disabling and enabling keep the grace");
        expect(1, "refused: disable user ghost: no such user at the venue", admin("user", "disable", "--username",
            "ghost", "--operator", "ops1"));

        // usage: strict options, exit 2, naming the option, nothing sent
        expect(2, "--amont: unknown option for account deposit", admin("account", "deposit", "--id", "2001",
            "--amont", "5", "--operator", "ops1"));
        expect(2, "--operator is required", admin("account", "suspend", "--id", "2001"));
        expect(2, "--amount: must be an amount of zero or more", admin("account", "deposit", "--id", "2001",
            "--amount", "ten", "--operator", "ops1"));
        expect(2, "--password: unknown option for user passwd", admin("user", "passwd", "--username", "carol",
            "--password", "x", "--operator", "ops1"));
        expect(2, "--id: given twice", admin("account", "close", "--id", "1", "--id", "2", "--operator", "ops1"));
        expect(2, "account takes one of close, deposit, limits, open, protection, reactivate, suspend, withdraw " +
            "(not 'delete')",
            admin("account", "delete", "--id", "1", "--operator", "ops1"));

        // the file again on the changed venue: what it no longer names is listed and left alone
        final Result again = admin("apply", DEMO.toString(), "--operator", "ops1");
        assertEquals(0, again.code(), again.toString());
        assertTrue(again.out().contains("(not in the file, left as it is: instrument 4 XBT-USD (DELISTED))"),
            again.out());
        assertTrue(again.out().contains("(not in the file, left as it is: account 2001)"), again.out());
        assertTrue(again.out().contains("(not in the file, left as it is: user carol)"), again.out());
        assertTrue(again.out().contains("\nnothing to change\n"), again.out());

        // a file that cannot be applied: stopped before anything is sent
        final Path changedScale = data.resolve("scale.yml");
        Files.writeString(changedScale, Files.readString(DEMO).replaceFirst("priceScale: 2\n    tick: 0.01",
            "priceScale: 3\n    tick: 0.010"));
        expect(1, "cannot apply: instrument 1 RGX-USD: its price scale is 2 at the venue and cannot change",
            admin("apply", changedScale.toString(), "--operator", "ops1"));
        final Path invalid = data.resolve("invalid.yml");
        Files.writeString(invalid, Files.readString(DEMO).replace("lot: 10\n", "lot: 0\n"));
        expect(1, invalid + ":19: instruments[2].lot: 0 is out of range", admin("apply", invalid.toString(),
            "--operator", "ops1"));

        // a limit changed in the file is applied, and only that
        final Path tighter = data.resolve("tighter.yml");
        Files.writeString(tighter, Files.readString(DEMO).replaceFirst("maxOpenOrders: 500", "maxOpenOrders: 50"));
        final Result limits = admin("apply", tighter.toString(), "--operator", "ops1");
        assertEquals(0, limits.code(), limits.toString());
        assertTrue(limits.out().contains("  set limits of account 1001: maxOpenOrders 500 -> 50\n" +
            "  set limits of account 1002: maxOpenOrders 500 -> 50\n"), limits.out());
        assertTrue(limits.out().endsWith("2 changes applied\n"), limits.out());
        assertEquals(50, read().accounts.get(1001L).maxOpenOrders());

        // a trading day: applied once, read back from the engine, and then nothing to change
        final Path withSchedule = data.resolve("schedule.yml");
        Files.writeString(withSchedule, Files.readString(tighter) + "schedule:\n  timeZone: Europe/London\n" +
            "  days: [MON, TUE, WED, THU, FRI]\n  preOpen: \"07:50\"\n  open: \"08:00\"\n  close: \"16:30\"\n" +
            "  endOfDay: \"17:00\"\n  holidays: [2026-12-25, 2026-12-28]\n");
        final Result schedule = admin("apply", withSchedule.toString(), "--operator", "ops1");
        assertEquals(0, schedule.code(), schedule.toString());
        assertTrue(schedule.out().contains("done: set the trading schedule: Europe/London MON TUE WED THU FRI " +
            "pre-open 07:50, open 08:00, close 16:30, end of day 17:00, holidays [2026-12-25, 2026-12-28]"),
            schedule.out());
        assertEquals(0b11111, read().schedule.tradingDays());
        final Result scheduleAgain = admin("apply", withSchedule.toString(), "--operator", "ops1");
        assertTrue(scheduleAgain.out().contains("\nnothing to change\n"), scheduleAgain.out());

        // market-maker protection from the file: set, read back from the engine's events, then nothing to change
        final Path protectedMaker = data.resolve("protection.yml");
        Files.writeString(protectedMaker, Files.readString(withSchedule).replaceFirst("    limits: &maker\n",
            "    marketMakerProtection:\n      - {group: 3, instruments: [RGX-USD, LMX-USD], intervalMs: 500, " +
            "fillLimit: 4, notionalLimit: 1000, freezeMs: 2000}\n    limits: &maker\n"));
        final Result protection = admin("apply", protectedMaker.toString(), "--operator", "ops1");
        assertEquals(0, protection.code(), protection.toString());
        assertTrue(protection.out().contains("done: set market-maker protection of account 1001 group 3: " +
            "instruments [1, 2], interval 500 ms, fillLimit 4, notionalLimit 1000, freeze 2000 ms\n"),
            protection.out());
        assertTrue(protection.out().endsWith("1 changes applied\n"), protection.out());
        assertEquals(500_000_000L, read().protection.get(1001L).get(3).intervalNs());
        final Result protectionAgain = admin("apply", protectedMaker.toString(), "--operator", "ops1");
        assertTrue(protectionAgain.out().contains("\nnothing to change\n"), protectionAgain.out());
    }

    /**
     * {@code trading halt|resume|close|pre-open}: one instrument by symbol, or every listed one with {@code --all}
     * (the delisted left out), each change waiting for the engine's answer; a timed pre-open the engine ends by
     * itself into continuous trading.
     */
    @Test
    void tradingStatusChangesAnInstrumentOrEveryListedOneAndATimedAuctionEndsByItself() throws Exception
    {
        assertEquals(0, admin("apply", DEMO.toString(), "--operator", "ops1").code());
        expect(0, "done: add instrument 4 OLD-USD", admin("instrument", "add", "--id", "4", "--symbol", "OLD-USD",
            "--price-scale", "2", "--tick", "0.01", "--lot", "1", "--reference-price", "10", "--band-type", "bps",
            "--band", "1000", "--operator", "ops1"));
        expect(0, "done: delist instrument 4", admin("instrument", "delist", "--id", "4", "--operator", "ops1"));

        expect(0, "done: halt RGX-USD (instrument 1): HALTED (journal sequence ", admin("trading", "halt",
            "--symbol", "RGX-USD", "--operator", "ops1", "--reason", "news pending"));
        assertEquals(TradingStatus.HALTED, read().instruments.get(1).status());
        expect(0, "done: resume RGX-USD (instrument 1): OPEN", admin("trading", "resume", "--symbol", "RGX-USD",
            "--operator", "ops1"));
        assertEquals(TradingStatus.OPEN, read().instruments.get(1).status());

        final Result all = admin("trading", "halt", "--all", "--operator", "ops1");
        assertEquals(0, all.code(), all.toString());
        assertTrue(all.out().contains("done: halt RGX-USD (instrument 1): HALTED") &&
            all.out().contains("done: halt LMX-USD (instrument 2): HALTED") &&
            all.out().contains("done: halt EUR-USD (instrument 3): HALTED"), all.out());
        assertFalse(all.out().contains("OLD-USD"), "the delisted instrument left out: " + all.out());
        final VenueState halted = read();
        for (final int id : new int[]{ 1, 2, 3 })
        {
            assertEquals(TradingStatus.HALTED, halted.instruments.get(id).status(), "instrument " + id);
        }
        assertEquals(TradingStatus.DELISTED, halted.instruments.get(4).status());

        // A call phase without an end, then a timed one: the engine ends that one by itself, into OPEN.
        expect(0, "done: pre-open LMX-USD (instrument 2): PRE_OPEN (journal", admin("trading", "pre-open",
            "--symbol", "LMX-USD", "--operator", "ops1"));
        assertEquals(TradingStatus.PRE_OPEN, read().instruments.get(2).status());
        final Result auction = admin("trading", "pre-open", "--all", "--auction-seconds", "1", "--operator", "ops1",
            "--reason", "reopening auction");
        assertEquals(0, auction.code(), auction.toString());
        assertTrue(auction.out().contains("done: pre-open LMX-USD (instrument 2): PRE_OPEN for 1 s, then OPEN"),
            auction.out());
        await((v) -> v.instruments.get(1).status() == TradingStatus.OPEN &&
            v.instruments.get(2).status() == TradingStatus.OPEN && v.instruments.get(3).status() == TradingStatus.OPEN,
            "every instrument open after its timed auction");

        expect(0, "done: close EUR-USD (instrument 3): CLOSED", admin("trading", "close", "--symbol", "EUR-USD",
            "--operator", "ops1"));
        assertEquals(TradingStatus.CLOSED, read().instruments.get(3).status());

        // refusals: the tool's (no such symbol) and the engine's (a delisted instrument), exit 1
        expect(1, "refused: halt NOPE-USD: no such instrument at the venue", admin("trading", "halt", "--symbol",
            "NOPE-USD", "--operator", "ops1"));
        expect(1, "refused: resume OLD-USD (instrument 4): OPEN: INSTRUMENT_DELISTED", admin("trading", "resume",
            "--symbol", "OLD-USD", "--operator", "ops1"));
    }

    /**
     * {@code account open} with its limits: the account trades at once. Without them the tool says the account
     * cannot trade yet. A role is shown in {@code status} as it is spelt, and {@code drop_copy} is read for it.
     */
    @Test
    void anAccountOpenedWithItsLimitsTradesAtOnce() throws Exception
    {
        assertEquals(0, admin("apply", DEMO.toString(), "--operator", "ops1").code());
        final Result opened = admin("account", "open", "--id", "3001", "--max-order-quantity", "100",
            "--max-order-notional", "100000", "--credit-limit", "50000", "--position-limit", "1000",
            "--max-open-orders", "10", "--instrument-limits", "2=500", "--operator", "ops1", "--reason", "new client");
        assertEquals(0, opened.code(), opened.toString());
        assertTrue(opened.out().contains("done: open account 3001 (journal sequence ") &&
            opened.out().contains("done: set limits of account 3001 (journal sequence "), opened.out());
        final VenueState.Account account = read().accounts.get(3001L);
        assertEquals(100, account.maxOrderQuantity());
        assertEquals(10, account.maxOpenOrders());
        assertEquals(new TreeMap<>(Map.of(2, 500L)), account.definition().ownPositionLimits());

        trade(1001, 3001, 1, 10_000, 5);
        await((v) -> v.accounts.get(3001L).positions().getOrDefault(1, 0L) == 5, "account 3001 long 5 at once");

        final Result bare = admin("account", "open", "--id", "3002", "--operator", "ops1");
        assertEquals(0, bare.code(), bare.toString());
        assertTrue(bare.out().contains("account 3002 has no limits: every order of it is refused " +
            "MAX_ORDER_QUANTITY until `account limits --id 3002 ...` sets them"), bare.out());
        assertTrue(admin("status").out().lines().anyMatch((l) -> l.startsWith("  3002 ") &&
            l.contains("(no limits set: every order refused)")), "status says 3002 cannot trade");

        expect(0, "done: set the credential of user audit", adminWithInput("audit-pw\n", "user", "add",
            "--username", "audit", "--accounts", "3001", "--role", "drop_copy", "--operator", "ops1"));
        assertTrue(admin("status").out().contains("  audit enabled accounts [3001] no FIX role drop-copy " +
            "credential set\n"), "the role as it is spelt");
        expect(0, "nothing to change: user audit is already drop-copy", admin("user", "role", "--username", "audit",
            "--role", "DROP-COPY", "--operator", "ops1"));
        expect(0, "done: user audit role clearing", admin("user", "role", "--username", "audit", "--role",
            "clearing", "--operator", "ops1"));
    }

    private void trade(final long seller, final long buyer, final int instrument, final long price, final long qty)
    {
        final CommandEncoder commands = new CommandEncoder();
        try (ExclusivePublication ingress = aeron.addExclusivePublication(IPC, 1001))
        {
            // As a gateway would forward them: gateway 1's session 1.
            final long session = SessionIds.sessionId(1, 1);
            offer(ingress, commands, commands.limit(session, seller, 1, instrument, Side.SELL, price, qty));
            offer(ingress, commands, commands.limit(session, buyer, 2, instrument, Side.BUY, price, qty));
        }
    }

    private static void offer(final ExclusivePublication publication, final CommandEncoder commands, final int length)
    {
        Await.until("the ingress to take the order", Duration.ofSeconds(10),
            () -> publication.offer(commands.buffer(), 0, length) >= 0, null);
    }

    private VenueState read()
    {
        try (AdminConnection link = AdminConnection.open(settings(), null))
        {
            return link.reader().read(true);
        }
    }

    private void await(final Predicate<VenueState> condition, final String what)
    {
        try (AdminConnection link = AdminConnection.open(settings(), null))
        {
            final VenueState venue = link.reader().read(true);
            Await.until(what, Duration.ofSeconds(30), () -> condition.test(link.reader().poll()), null,
                () -> venue.accounts);
        }
    }

    private AdminConnection.Settings settings()
    {
        return new AdminConnection.Settings(testVenue.aeronDirectoryName(), IPC, 1001, IPC, 1002, 1004,
            TimeUnit.SECONDS.toNanos(20), data.resolve("admin.keys"), true, "", "the test's", "");
    }

    private Result admin(final String... args)
    {
        return adminWithInput("", args);
    }

    private Result adminWithInput(final String input, final String... args)
    {
        return testVenue.admin(input, List.of(args));
    }
}
