package io.ringex.app.admin;

import java.io.StringReader;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;

import io.ringex.client.CommandEncoder;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.SetMarketMakerProtectionDecoder;
import io.ringex.protocol.codecs.UpsertUserDecoder;
import io.ringex.protocol.codecs.UserRole;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@code apply} sends for a file's market-maker protection: each group the venue does not hold as the file says
 * it, as a SetMarketMakerProtection in the wire's units; nothing for a group it holds already (setting it again would
 * clear its counters and lift a freeze); a group only the venue holds is listed, not removed.
 */
final class ReferenceDataPlanTest
{
    private static final String FILE = String.join("\n",
        "version: 1",
        "instruments:",
        "  - {id: 1, symbol: RGX-USD, priceScale: 2, tick: 0.01, lot: 1, referencePrice: 100, bandType: bps,",
        "     band: 100}",
        "  - {id: 2, symbol: LMX-USD, priceScale: 2, tick: 0.01, lot: 1, referencePrice: 50, bandType: bps, band: 100}",
        "accounts:",
        "  - id: 1001",
        "    limits: {maxOrderQuantity: 10, maxOrderNotional: 100, creditLimit: 0, positionLimit: 10, " +
            "maxOpenOrders: 5}",
        "    marketMakerProtection:",
        "      - {group: 1, instruments: [LMX-USD, RGX-USD], intervalMs: 250, fillLimit: 3, notionalLimit: 1.5}",
        "");

    @Test
    void aNewAccountsProtectionIsSetAfterItsLimits() throws Exception
    {
        final ReferenceDataPlan plan = ReferenceDataPlan.compute(parse(FILE), new VenueState(), "onboarding");
        final List<ReferenceDataPlan.Step> steps = plan.steps();
        assertEquals(List.of("open account 1001: self-trade prevention cancel-newest",
            "set limits of account 1001: maxOrderQuantity 10, maxOrderNotional 100, creditLimit 0, positionLimit 10, " +
            "maxOpenOrders 5, allowShort false",
            "set market-maker protection of account 1001 group 1: instruments [1, 2], interval 250 ms, fillLimit 3, " +
            "notionalLimit 1.5, frozen until reset"),
            steps.stream().map(ReferenceDataPlan.Step::description).filter((d) -> d.contains("1001")).toList());

        final CommandEncoder commands = new CommandEncoder();
        final int length = steps.get(steps.size() - 1).command().encode(commands, 42);
        final MessageHeaderDecoder header = new MessageHeaderDecoder().wrap(commands.buffer(), 0);
        assertEquals(SetMarketMakerProtectionDecoder.TEMPLATE_ID, header.templateId());
        final SetMarketMakerProtectionDecoder sent = new SetMarketMakerProtectionDecoder().wrapAndApplyHeader(
            commands.buffer(), 0, header);
        assertEquals(42, sent.requestId());
        assertEquals(1001, sent.accountId());
        assertEquals(1, sent.mmpGroupId());
        assertEquals(250_000_000L, sent.intervalNs());
        assertEquals(3, sent.fillLimit());
        assertEquals(0, sent.quantityLimit());
        assertEquals(150_000_000L, sent.notionalLimit());
        assertEquals(0, sent.freezeNs());
        assertEquals(BooleanType.FALSE, sent.cancelOrders());
        final List<Integer> instruments = new java.util.ArrayList<>();
        sent.instruments().forEach((i) -> instruments.add(i.instrumentId()));
        assertEquals(List.of(1, 2), instruments);
        assertEquals("ringex", sent.operatorName());
        assertEquals("onboarding", sent.reason());
        assertEquals(MessageHeaderDecoder.ENCODED_LENGTH + sent.encodedLength(), length);
    }

    @Test
    void aGroupTheVenueHoldsAsTheFileSaysIsLeftAloneAndADifferentOneIsSet() throws Exception
    {
        final VenueState venue = venueWithAccount();
        final VenueState.Protection same = new VenueState.Protection(1, new TreeSet<>(List.of(1, 2)), 250_000_000L,
            3, 0, 150_000_000L, 0, false);
        venue.protection.put(1001L, new TreeMap<>(java.util.Map.of(1, same)));
        assertEquals(List.of(), ReferenceDataPlan.compute(parse(FILE), venue, "").steps().stream()
            .map(ReferenceDataPlan.Step::description).filter((d) -> d.contains("protection")).toList());

        venue.protection.put(1001L, new TreeMap<>(java.util.Map.of(1, new VenueState.Protection(1,
            new TreeSet<>(List.of(1)), 250_000_000L, 3, 0, 150_000_000L, 0, false),
            9, new VenueState.Protection(9, new TreeSet<>(List.of(7)), 1_000_000L, 1, 0, 0, 0, false))));
        final ReferenceDataPlan plan = ReferenceDataPlan.compute(parse(FILE), venue, "");
        assertEquals(List.of("change market-maker protection of account 1001 group 1: instruments [1, 2], interval " +
            "250 ms, fillLimit 3, notionalLimit 1.5, frozen until reset"), plan.steps().stream()
            .map(ReferenceDataPlan.Step::description).filter((d) -> d.contains("protection")).toList());
        assertTrue(plan.extras().contains("market-maker protection of account 1001 group 9"), plan.extras().toString());
    }

    @Test
    void aUsersCancelOnDisconnectGraceIsSentAndADifferentOneChangesTheUser() throws Exception
    {
        final String withUser = FILE + String.join("\n",
            "users:",
            "  - {username: maker1, accounts: [1001], cancelOnDisconnectGraceMs: 3000}",
            "");
        final ReferenceDataPlan added = ReferenceDataPlan.compute(parse(withUser), venueWithAccount(), "");
        final ReferenceDataPlan.Step add = added.steps().get(added.steps().size() - 1);
        assertEquals("add user maker1: accounts [1001], no FIX, cancel-on-disconnect grace 3000 ms, no credential",
            add.description());
        assertEquals(3000, upsertUserGraceMs(add));

        final VenueState venue = venueWithAccount();
        venue.users.put("maker1", new VenueState.User("maker1", true, List.of(1001L), "", false, 0, 0, "",
            UserRole.TRADER));
        final List<ReferenceDataPlan.Step> changed = ReferenceDataPlan.compute(parse(withUser), venue, "").steps()
            .stream().filter((s) -> s.description().contains("maker1")).toList();
        assertEquals(List.of("change user maker1: cancelOnDisconnectGraceMs 0 -> 3000"),
            changed.stream().map(ReferenceDataPlan.Step::description).toList());
        assertEquals(3000, upsertUserGraceMs(changed.get(0)));

        venue.users.put("maker1", new VenueState.User("maker1", true, List.of(1001L), "", false, 3000, 0, "",
            UserRole.TRADER));
        assertTrue(ReferenceDataPlan.compute(parse(withUser), venue, "").steps().stream()
            .noneMatch((s) -> s.description().contains("maker1")), "the venue holds the grace the file says");
    }

    private static int upsertUserGraceMs(final ReferenceDataPlan.Step step)
    {
        final CommandEncoder commands = new CommandEncoder();
        step.command().encode(commands, 7);
        final MessageHeaderDecoder header = new MessageHeaderDecoder().wrap(commands.buffer(), 0);
        assertEquals(UpsertUserDecoder.TEMPLATE_ID, header.templateId());
        return new UpsertUserDecoder().wrapAndApplyHeader(commands.buffer(), 0, header).cancelOnDisconnectGraceMs();
    }

    private static VenueState venueWithAccount()
    {
        final VenueState venue = new VenueState();
        venue.instruments.put(1, new VenueState.Instrument(1, "RGX-USD", 2, 1, 1, 10_000,
            io.ringex.protocol.codecs.PriceBandType.BASIS_POINTS, 100, io.ringex.protocol.codecs.TradingStatus.OPEN));
        venue.instruments.put(2, new VenueState.Instrument(2, "LMX-USD", 2, 1, 1, 5_000,
            io.ringex.protocol.codecs.PriceBandType.BASIS_POINTS, 100, io.ringex.protocol.codecs.TradingStatus.OPEN));
        venue.accounts.put(1001L, new VenueState.Account(1001, 0, 0, 0, 10, 100_00_000_000L, 0, 5, false,
            new TreeMap<>(), new TreeMap<>(), null, true));
        return venue;
    }

    private static ReferenceData parse(final String text) throws ReferenceDataException
    {
        return ReferenceDataParser.parse("test.yml", new StringReader(text));
    }
}
