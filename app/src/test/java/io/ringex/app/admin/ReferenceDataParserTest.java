package io.ringex.app.admin;

import java.io.StringReader;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.List;

import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.UserRole;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReferenceDataParserTest
{
    private static final String HASH =
        "pbkdf2-sha256:20000:p5IkaAFMDSlNGr0YrfUZaw==:uT6+q7cd+d68T7rawHOPcOU4mDA6VYszpYham8b8lS4=";

    /** A valid file; each test below breaks one thing in it. Line numbers are what the messages must name. */
    private static final String VALID = String.join("\n",
        "version: 1",                            // 1
        "instruments:",                          // 2
        "  - id: 1",                             // 3
        "    symbol: RGX-USD",                   // 4
        "    priceScale: 2",                     // 5
        "    tick: 0.05",                        // 6
        "    lot: 10",                           // 7
        "    referencePrice: 100.00",            // 8
        "    bandType: bps",                     // 9
        "    band: 1000",                        // 10
        "accounts:",                             // 11
        "  - id: 1001",                          // 12
        "    selfTradePrevention: cancel-both",  // 13
        "    balance: 1000.5",                   // 14
        "    limits:",                           // 15
        "      maxOrderQuantity: 500",           // 16
        "      maxOrderNotional: 25000.25",      // 17
        "      creditLimit: 0",                  // 18
        "      positionLimit: 1_000",            // 19
        "      maxOpenOrders: 50",               // 20
        "      allowShort: false",               // 21
        "      instrumentPositionLimits: {RGX-USD: 20}", // 22
        "users:",                                // 23
        "  - username: alice",                   // 24
        "    credential: " + HASH,               // 25
        "    accounts: [1001]",                  // 26
        "    fixSenderCompId: ALICE",            // 27
        "    cancelOnDisconnect: true",          // 28
        "    throttle: 200",                     // 29
        "schedule:",                             // 30
        "  timeZone: Europe/London",             // 31
        "  days: [MON, TUE, WED, THU, FRI]",     // 32
        "  open: 08:00",                         // 33
        "  close: \"16:30\"",                    // 34
        "  endOfDay: \"16:35\"",                 // 35
        "");

    @Test
    void aValidFileIsReadInTheWiresUnits() throws Exception
    {
        final ReferenceData data = parse(VALID);

        final ReferenceData.Instrument instrument = data.instruments().get(0);
        assertEquals(new ReferenceData.Instrument(1, "RGX-USD", 2, 5, 10, 10_000, PriceBandType.BASIS_POINTS, 1000, 3),
            instrument);
        final ReferenceData.Account account = data.accounts().get(0);
        assertEquals(1001, account.id());
        assertEquals(SelfTradePrevention.CANCEL_BOTH, account.stp());
        assertEquals(1000_50_000_000L, account.openingBalance());
        assertEquals(new ReferenceData.Limits(500, 25000_25_000_000L, 0, 1000, 50, false,
            new java.util.TreeMap<>(java.util.Map.of(1, 20L))), account.limits());
        assertEquals(new ReferenceData.User("alice", HASH, List.of(1001L), "ALICE", true, 0, 200, true,
            UserRole.TRADER, 24), data.users().get(0));
        assertEquals(DayOfWeek.MONDAY, data.schedule().days().iterator().next());
        assertEquals(LocalTime.of(8, 0), data.schedule().open());
        assertEquals(LocalTime.of(16, 35), data.schedule().endOfDay());
    }

    @Test
    void optionalKeysTakeTheirDefaults() throws Exception
    {
        final ReferenceData data = parse(VALID
            .replace("    selfTradePrevention: cancel-both\n", "")
            .replace("    balance: 1000.5\n", "")
            .replace("      allowShort: false\n", "")
            .replace("    fixSenderCompId: ALICE\n", "")
            .replace("    cancelOnDisconnect: true\n", "")
            .replace("    throttle: 200\n", "")
            .replace("    credential: " + HASH + "\n", "")
            .replaceAll("(?s)schedule:.*", ""));

        assertEquals(SelfTradePrevention.CANCEL_NEWEST, data.accounts().get(0).stp());
        assertEquals(0, data.accounts().get(0).openingBalance());
        assertEquals(new ReferenceData.User("alice", null, List.of(1001L), "", false, 0, 0, true, UserRole.TRADER,
            21), data.users().get(0));
        assertNull(data.schedule());
    }

    @Test
    void aUsersRoleIsTraderDropCopyOrClearing() throws Exception
    {
        final String withRole = VALID.replace("    throttle: 200\n", "    throttle: 200\n    role: drop-copy\n");
        assertEquals(UserRole.DROP_COPY, parse(withRole).users().get(0).role());
        assertEquals(UserRole.DROP_COPY, parse(withRole.replace("drop-copy", "drop_copy")).users().get(0).role(),
            "the alias, as the command line takes it too");
        assertEquals(UserRole.CLEARING, parse(withRole.replace("drop-copy", "clearing")).users().get(0).role());
        assertEquals(UserRole.TRADER, parse(withRole.replace("drop-copy", "trader")).users().get(0).role());
        assertProblem(withRole.replace("drop-copy", "auditor"),
            "test.yml:30: users[1].role: must be trader, drop-copy (or drop_copy) or clearing, not 'auditor'");
        assertProblem(withRole.replace("drop-copy", "null_val"),
            "test.yml:30: users[1].role: must be trader, drop-copy (or drop_copy) or clearing, not 'null_val'");
    }

    @Test
    void aUsersCancelOnDisconnectGraceIsZeroToTenMinutes() throws Exception
    {
        final String withGrace = VALID.replace("    throttle: 200\n",
            "    throttle: 200\n    cancelOnDisconnectGraceMs: 5_000\n");
        assertEquals(5_000, parse(withGrace).users().get(0).codGraceMs());
        assertEquals(600_000, parse(withGrace.replace("5_000", "600000")).users().get(0).codGraceMs());
        assertEquals(0, parse(withGrace.replace("5_000", "0")).users().get(0).codGraceMs());
        assertProblem(withGrace.replace("5_000", "600001"),
            "test.yml:30: users[1].cancelOnDisconnectGraceMs: 600001 is out of range (0 to 600000)");
        assertProblem(withGrace.replace("5_000", "-1"),
            "test.yml:30: users[1].cancelOnDisconnectGraceMs: -1 is out of range (0 to 600000)");
        assertProblem(withGrace.replace("5_000", "5s"),
            "test.yml:30: users[1].cancelOnDisconnectGraceMs: must be a whole number, not '5s'");
        assertProblem(withGrace.replace("cancelOnDisconnectGraceMs", "cancelOnDisconnectGrace"),
            "test.yml:30: users[1].cancelOnDisconnectGrace: ");
    }

    /** VALID with a second instrument and market-maker protection for account 1001 (lines 23 on). */
    private static final String PROTECTED = VALID
        .replace("accounts:\n", "  - id: 2\n    symbol: LMX-USD\n    priceScale: 2\n    tick: 0.05\n    lot: 10\n" +
            "    referencePrice: 50.00\n    bandType: bps\n    band: 1000\naccounts:\n")
        .replace("      instrumentPositionLimits: {RGX-USD: 20}\n", String.join("\n",
            "      instrumentPositionLimits: {RGX-USD: 20}",  // 30
            "    marketMakerProtection:",                    // 31
            "      - group: 7",                              // 32
            "        instruments: [RGX-USD, LMX-USD]",       // 33
            "        intervalMs: 1_000",                     // 34
            "        fillLimit: 20",                         // 35
            "        quantityLimit: 500",                    // 36
            "        notionalLimit: 25000.5",                // 37
            "        freezeMs: 5000",                        // 38
            "        cancelOrders: true",                    // 39
            ""));

    @Test
    void marketMakerProtectionIsReadPerGroupInTheWiresUnits() throws Exception
    {
        final ReferenceData.Account account = parse(PROTECTED).accounts().get(0);
        assertEquals(List.of(new ReferenceData.Protection(7, new java.util.TreeSet<>(List.of(1, 2)), 1000, 20, 500,
            25000_50_000_000L, 5000, true, 32)), account.protection());

        final ReferenceData.Protection defaults = parse(PROTECTED.replace("        quantityLimit: 500\n", "")
            .replace("        notionalLimit: 25000.5\n", "").replace("        freezeMs: 5000\n", "")
            .replace("        cancelOrders: true\n", "")).accounts().get(0).protection().get(0);
        assertEquals(new ReferenceData.Protection(7, new java.util.TreeSet<>(List.of(1, 2)), 1000, 20, 0, 0, 0, false,
            32), defaults);
        assertEquals(List.of(), parse(VALID).accounts().get(0).protection());
    }

    @Test
    void marketMakerProtectionIsCheckedByTheEnginesRules()
    {
        assertProblem(PROTECTED.replace("group: 7", "group: 0"),
            "test.yml:32: accounts[1].marketMakerProtection[1].group: 0 is out of range (1 to 65535)");
        assertProblem(PROTECTED.replace("[RGX-USD, LMX-USD]", "[RGX-USD, BTC-USD]"),
            "test.yml:33: accounts[1].marketMakerProtection[1].instruments[2]: unknown instrument");
        assertProblem(PROTECTED.replace("[RGX-USD, LMX-USD]", "[RGX-USD, RGX-USD]"),
            "test.yml:33: accounts[1].marketMakerProtection[1].instruments[2]: RGX-USD is listed twice");
        assertProblem(PROTECTED.replace("[RGX-USD, LMX-USD]", "[]"),
            "test.yml:33: accounts[1].marketMakerProtection[1].instruments: must be a list of 1 to 64 symbols");
        assertProblem(PROTECTED.replace("        instruments: [RGX-USD, LMX-USD]\n", ""),
            "test.yml:32: accounts[1].marketMakerProtection[1].instruments: missing (required)");
        assertProblem(PROTECTED.replace("intervalMs: 1_000", "intervalMs: 0"),
            "test.yml:34: accounts[1].marketMakerProtection[1].intervalMs: 0 is out of range (1 to 86400000)");
        assertProblem(PROTECTED.replace("fillLimit: 20", "fillLimit: 10001"),
            "test.yml:35: accounts[1].marketMakerProtection[1].fillLimit: 10001 is out of range (1 to 10000)");
        assertProblem(PROTECTED.replace("        fillLimit: 20\n", ""),
            "test.yml:32: accounts[1].marketMakerProtection[1].fillLimit: missing (required)");
        assertProblem(PROTECTED.replace("notionalLimit: 25000.5", "notionalLimit: -1"),
            "test.yml:37: accounts[1].marketMakerProtection[1].notionalLimit: -1 must be zero or more");
        assertProblem(PROTECTED.replace("freezeMs: 5000", "freezeMs: 86400001"),
            "test.yml:38: accounts[1].marketMakerProtection[1].freezeMs: 86400001 is out of range (0 to 86400000)");
        assertProblem(PROTECTED.replace("cancelOrders: true", "cancelOrders: yes"),
            "test.yml:39: accounts[1].marketMakerProtection[1].cancelOrders: must be true or false, not 'yes'");
        assertProblem(PROTECTED.replace("freezeMs: 5000", "freezeSeconds: 5"),
            "test.yml:38: accounts[1].marketMakerProtection[1].freezeSeconds: unknown key 'freezeSeconds'");

        final String twoGroups = PROTECTED.replace("        cancelOrders: true\n", "        cancelOrders: true\n" +
            "      - group: 8\n        instruments: [LMX-USD]\n        intervalMs: 1000\n        fillLimit: 5\n");
        assertProblem(twoGroups,
            "test.yml:41: accounts[1].marketMakerProtection[2].instruments: instrument 2 is in the account's group 7");
        assertProblem(twoGroups.replace("group: 8", "group: 7"),
            "test.yml:40: accounts[1].marketMakerProtection[2].group: group 7 is given twice for the account");
    }

    @Test
    void aDuplicateInstrumentIdOrSymbolNamesBothLines()
    {
        final String second = "  - id: 1\n    symbol: LMX-USD\n    priceScale: 2\n    tick: 0.05\n    lot: 10\n" +
            "    referencePrice: 100.00\n    bandType: ticks\n    band: 50\naccounts:";
        assertProblem(VALID.replaceFirst("accounts:", second),
            "test.yml:11: id: duplicate instrument id 1 (first on line 3)");
        assertProblem(VALID.replaceFirst("accounts:", second.replace("id: 1\n", "id: 2\n")
            .replace("LMX-USD", "RGX-USD")),
            "test.yml:11: symbol: duplicate instrument symbol RGX-USD (first on line 3)");
    }

    @Test
    void aDuplicateAccountUserOrCompIdIsRefused()
    {
        final String account = "  - id: 1001\n    limits: {maxOrderQuantity: 1, maxOrderNotional: 1, creditLimit: 0," +
            " positionLimit: 1, maxOpenOrders: 1}\nusers:";
        assertProblem(VALID.replaceFirst("users:", account),
            "test.yml:23: id: duplicate account id 1001 (first on line 12)");
        final String user = "\n  - username: alice\n    accounts: [1001]\nschedule:";
        assertProblem(VALID.replaceFirst("\nschedule:", user),
            "test.yml:30: username: duplicate user username alice (first on line 24)");
        final String sameCompId = "\n  - username: bob\n    accounts: [1001]\n    fixSenderCompId: ALICE\nschedule:";
        assertProblem(VALID.replaceFirst("\nschedule:", sameCompId),
            "test.yml:30: fixSenderCompId: duplicate user fixSenderCompId ALICE (first on line 24)");
    }

    @Test
    void aBandThatIsNotAWholeNumberOfTicksIsRefused()
    {
        // 1001 bps of 100.00 is 10.01, not a multiple of 0.05
        assertProblem(VALID.replace("band: 1000", "band: 1001"), "test.yml:10: instruments[1].band: 1001 bps of " +
            "100.00 is not a whole number of ticks of 0.05 (the band's edges must be prices that trade)");
        // a band narrower than a tick
        assertProblem(VALID.replace("band: 1000", "band: 1"), "test.yml:10: instruments[1].band: 1 bps of 100.00 " +
            "is not a whole number of ticks of 0.05");
        assertProblem(VALID.replace("band: 1000", "band: 0"),
            "test.yml:10: instruments[1].band: 0 is out of range (1 to ");
        assertProblem(VALID.replace("bandType: bps", "bandType: percent"),
            "test.yml:9: instruments[1].bandType: must be bps or ticks, not 'percent'");
    }

    @Test
    void aReferencePriceOffTheTickOrAPriceBeyondTheScaleIsRefused()
    {
        assertProblem(VALID.replace("referencePrice: 100.00", "referencePrice: 100.01"),
            "test.yml:8: instruments[1].referencePrice: 100.01 is not a multiple of the tick 0.05");
        assertProblem(VALID.replace("tick: 0.05", "tick: 0.005"),
            "test.yml:6: instruments[1].tick: '0.005' is not a price with at most 2 decimal places");
        assertProblem(VALID.replace("tick: 0.05", "tick: 0"), "test.yml:6: instruments[1].tick: 0 must be more " +
            "than zero");
        assertProblem(VALID.replace("priceScale: 2", "priceScale: 9"),
            "test.yml:5: instruments[1].priceScale: 9 is out of range (0 to 8)");
    }

    @Test
    void aLotOfZeroIsRefused()
    {
        assertProblem(VALID.replace("lot: 10", "lot: 0"), "test.yml:7: instruments[1].lot: 0 is out of range (1 to ");
        assertProblem(VALID.replace("lot: 10", "lot: ten"), "test.yml:7: instruments[1].lot: must be a whole number, " +
            "not 'ten'");
    }

    @Test
    void aUserGrantedAnUnknownAccountIsRefused()
    {
        assertProblem(VALID.replace("accounts: [1001]", "accounts: [1001, 9999]"),
            "test.yml:26: users[1].accounts[2]: unknown account 9999: not in the file's accounts");
        assertProblem(VALID.replace("accounts: [1001]", "accounts: [1001, 1001]"),
            "test.yml:26: users[1].accounts[2]: account 1001 is listed twice");
        assertProblem(VALID.replace("accounts: [1001]", "accounts: []"),
            "test.yml:26: users[1].accounts: must be a list of 1 to 8 account ids, the default first");
        assertProblem(VALID.replace("{RGX-USD: 20}", "{EUR-USD: 20}"), "test.yml:22: " +
            "accounts[1].limits.instrumentPositionLimits.EUR-USD: unknown instrument: no instrument of the file has " +
            "the symbol 'EUR-USD'");
    }

    @Test
    void aMalformedFileNamesTheLine()
    {
        assertProblem(VALID.replace("    lot: 10", "    lot: [10"), "test.yml:8: not valid YAML: ");
        assertProblem(VALID.replace("  - id: 1001", "  - id: 1001\n   bad indentation: 1"), "test.yml:13: not " +
            "valid YAML: ");
        assertProblem("", "test.yml:1: the file is empty");
        assertProblem("- 1\n- 2\n", "test.yml:1: (top level): must be a mapping of keys to values");
    }

    @Test
    void anUnknownKeyIsNamedWithItsLine()
    {
        assertProblem(VALID.replace("    lot: 10", "    lot: 10\n    lotSize: 10"), "test.yml:8: " +
            "instruments[1].lotSize: unknown key 'lotSize' (instruments[1] takes band, bandType, id, lot, " +
            "priceScale, referencePrice, symbol, tick)");
        assertProblem(VALID.replace("version: 1", "version: 1\nvenue: demo"), "test.yml:2: venue: unknown key " +
            "'venue' (the top level takes accounts, instruments, schedule, users, version)");
        assertProblem(VALID.replace("      allowShort: false", "      allowShorts: false"), "test.yml:21: " +
            "accounts[1].limits.allowShorts: unknown key 'allowShorts'");
    }

    @Test
    void aKeyGivenTwiceIsRefusedNotOverwritten()
    {
        assertProblem(VALID.replace("    lot: 10", "    lot: 10\n    lot: 100"),
            "test.yml:8: instruments[1].lot: given twice (first on line 7)");
    }

    @Test
    void aMissingKeyIsNamed()
    {
        assertProblem(VALID.replace("    symbol: RGX-USD\n", ""), "test.yml:3: instruments[1].symbol: missing");
        assertProblem(VALID.replace("    accounts: [1001]\n", ""), "test.yml:24: users[1].accounts: missing");
    }

    @Test
    void valuesAreTakenStrictly()
    {
        assertProblem(VALID.replace("allowShort: false", "allowShort: no"),
            "test.yml:21: accounts[1].limits.allowShort: must be true or false, not 'no'");
        assertProblem(VALID.replace("cancel-both", "cancel_both"), "test.yml:13: accounts[1].selfTradePrevention: " +
            "must be one of cancel-newest, cancel-oldest, cancel-both, decrement-and-cancel, not 'cancel_both'");
        assertProblem(VALID.replace("balance: 1000.5", "balance: -5"),
            "test.yml:14: accounts[1].balance: -5 must be zero or more");
        assertProblem(VALID.replace("balance: 1000.5", "balance: 0.000000001"),
            "test.yml:14: accounts[1].balance: '0.000000001' is not an amount with at most 8 decimal places");
        assertProblem(VALID.replace("symbol: RGX-USD", "symbol: RGX USD"),
            "test.yml:4: instruments[1].symbol: 'RGX USD' must be 1 to 16 printable ASCII characters without spaces");
        assertProblem(VALID.replace("throttle: 200", "throttle: 2000000"),
            "test.yml:29: users[1].throttle: 2000000 is out of range (0 to 1000000)");
        assertProblem(VALID.replace("version: 1", "version: 2"),
            "test.yml:1: version: this Ringex reads version 1, not 2");
    }

    @Test
    void aPasswordWhereAHashBelongsIsRefused()
    {
        assertProblem(VALID.replace(HASH, "secret"), "test.yml:25: users[1].credential: is not a credential hash");
    }

    @Test
    void theScheduleIsChecked()
    {
        assertProblem(VALID.replace("Europe/London", "Mars/Olympus"),
            "test.yml:31: schedule.timeZone: unknown time zone 'Mars/Olympus'");
        assertProblem(VALID.replace("[MON, TUE", "[MON, MON, TUE"),
            "test.yml:32: schedule.days: MON is listed twice");
        assertProblem(VALID.replace("[MON, TUE", "[MONDAY, TUE"),
            "test.yml:32: schedule.days: 'MONDAY' is not a day");
        assertProblem(VALID.replace("\"16:30\"", "\"07:30\""),
            "test.yml:34: schedule.close: the close 07:30 is not after the open 08:00");
        assertProblem(VALID.replace("\"16:35\"", "\"16:00\""),
            "test.yml:35: schedule.endOfDay: the end of day 16:00 is before the close 16:30");
        assertProblem(VALID.replace("\"16:35\"", "\"4pm\""), "test.yml:35: schedule.endOfDay: '4pm' is not a time");
        assertProblem(VALID.replace("  open: 08:00", "  preOpen: \"08:10\"\n  open: 08:00"),
            "test.yml:33: schedule.preOpen: the pre-open 08:10 is not before the open 08:00");
        assertProblem(VALID.replace("  endOfDay: \"16:35\"", "  endOfDay: \"16:35\"\n  holidays: [2026-12-25, " +
            "2026-12-25]"), "test.yml:36: schedule.holidays: 2026-12-25 is listed twice");
        assertProblem(VALID.replace("  endOfDay: \"16:35\"", "  endOfDay: \"16:35\"\n  holidays: [Christmas]"),
            "test.yml:36: schedule.holidays: 'Christmas' is not a date YYYY-MM-DD");
        assertProblem(VALID.replace("  endOfDay: \"16:35\"", "  endOfDay: \"16:35\"\n  holidays: [" +
            "2026-01-01, 2026-01-02, 2026-01-03, 2026-01-04, 2026-01-05, 2026-01-06, 2026-01-07, 2026-01-08, " +
            "2026-01-09, 2026-01-10, 2026-01-11, 2026-01-12, 2026-01-13]"),
            "test.yml:36: schedule.holidays: at most 12 dates");
    }

    @Test
    void aScheduleReadsAsTheEngineHoldsIt() throws ReferenceDataException
    {
        final ReferenceData data = parse(VALID.replace("  open: 08:00", "  preOpen: \"07:50\"\n  open: 08:00")
            .replace("  endOfDay: \"16:35\"", "  endOfDay: \"16:35\"\n  holidays: [2026-12-28, 2026-12-25]"));
        assertEquals(new VenueState.Schedule(0b11111, 470, 480, 990, 995,
            List.of((int)LocalDate.of(2026, 12, 25).toEpochDay(), (int)LocalDate.of(2026, 12, 28).toEpochDay()),
            "Europe/London"), data.schedule().asVenue());
    }

    @Test
    void everyProblemIsReportedNotJustTheFirst()
    {
        final ReferenceDataException ex = assertThrows(ReferenceDataException.class, () -> parse(VALID
            .replace("lot: 10", "lot: 0").replace("throttle: 200", "throttle: -1").replace("open: 08:00", "open: x")));
        assertEquals(3, ex.problems().size(), ex.getMessage());
    }

    private static ReferenceData parse(final String text) throws ReferenceDataException
    {
        return ReferenceDataParser.parse("test.yml", new StringReader(text));
    }

    private static void assertProblem(final String text, final String expected)
    {
        final ReferenceDataException ex = assertThrows(ReferenceDataException.class, () -> parse(text));
        assertTrue(ex.problems().stream().anyMatch((p) -> p.startsWith(expected)),
            "expected a problem starting with\n  " + expected + "\nbut got\n  " + String.join("\n  ", ex.problems()));
    }
}
