package io.ringex.risk.actions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.ringex.protocol.CredentialHash;
import io.ringex.protocol.codecs.AccountStatus;
import io.ringex.protocol.codecs.AddAccountDecoder;
import io.ringex.protocol.codecs.AddInstrumentDecoder;
import io.ringex.protocol.codecs.AdjustBalanceDecoder;
import io.ringex.protocol.codecs.AdminStatus;
import io.ringex.protocol.codecs.AmendInstrumentDecoder;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.DelistInstrumentDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.SetAccountStatusDecoder;
import io.ringex.protocol.codecs.SetUserCredentialDecoder;
import io.ringex.protocol.codecs.TradingStatus;
import io.ringex.protocol.codecs.UpsertUserDecoder;
import io.ringex.risk.aeron.AdminCommandSink;
import io.ringex.risk.aeron.EngineEventHandler;
import io.ringex.risk.aeron.OfferOutcome;
import io.ringex.risk.config.RiskProperties;
import io.ringex.risk.model.RiskReadModel;
import io.ringex.risk.model.UserDirectory;
import io.ringex.risk.synthetic.EventEncoders;

/**
 * The console's commands as they leave the service: each decoded back off the ingress with the generated decoders
 * (operator, reason and every field), the password as a hash that verifies it, and the requests the engine would
 * refuse refused here with nothing sent.
 */
class ConsoleActionsTest
{
    private static final int GATEWAY = 65535;
    private static final String PASSWORD = "correct horse 9";

    private final List<UnsafeBuffer> sent = new ArrayList<>();
    private OfferOutcome outcome = OfferOutcome.SENT;
    private final AdminCommandSink sink = new AdminCommandSink()
    {
        @Override
        public OfferOutcome offerIngress(final DirectBuffer buffer, final int offset, final int length)
        {
            final UnsafeBuffer copy = new UnsafeBuffer(new byte[length]);
            copy.putBytes(0, buffer, offset, length);
            sent.add(copy);
            return outcome;
        }
    };
    private final RiskReadModel model = new RiskReadModel(4, 1_000_000_000L, System::nanoTime);
    private final UserDirectory users = new UserDirectory(GATEWAY, 1_000_000_000L);
    private final EngineEventHandler handler = new EngineEventHandler(0, model, (a, b, c, d, e) -> { }, users,
        new io.ringex.risk.audit.AdminAudit(10, id -> null, id -> -1));
    private final EventEncoders events = new EventEncoders();
    private final ActionService actions = new ActionService(sink, model,
        Clock.systemUTC(), 10_000, 50);
    private final ConsoleActions console = new ConsoleActions(actions, model, users,
        new RiskProperties.Users(GATEWAY, Duration.ofSeconds(5), 1000, 8));

    private void feed(final int length)
    {
        handler.onFragment(new UnsafeBuffer(events.buffer(), 0, length), 0, length, null);
    }

    private static MessageHeaderDecoder header(final UnsafeBuffer message)
    {
        return new MessageHeaderDecoder().wrap(message, 0);
    }

    /** The directory as the engine answers this service: loaded, with the given users. */
    private void directory(final String... usernames)
    {
        users.requested(0, 77, 0);
        long sequence = 1;
        for (final String name : usernames)
        {
            feed(events.userDefinition(GATEWAY, 77, name, true, new long[] {1003, 1004}, "FIX-" + name,
                "pbkdf2-sha256:1000:c2FsdA==:aGFzaA==", sequence++));
        }
        feed(events.userDirectoryEnd(GATEWAY, 77, usernames.length, sequence));
    }

    @Test
    void addInstrumentReadsPricesAtItsScaleAndNamesTheOperator()
    {
        final ActionView view = console.addInstrument(new ConsoleRequests.AddInstrument(4, "NEW-USD", 2, "0.05",
            10, "50.00", "BASIS_POINTS", 1000, "listing approved"), "admin");
        assertEquals("ADD_INSTRUMENT", view.action());
        assertEquals("listing approved", view.reason());
        assertEquals("admin", view.requestedBy());
        final MessageHeaderDecoder h = header(sent.get(0));
        assertEquals(AddInstrumentDecoder.TEMPLATE_ID, h.templateId());
        final AddInstrumentDecoder d = new AddInstrumentDecoder().wrapAndApplyHeader(sent.get(0), 0, h);
        assertEquals(view.requestId(), d.requestId());
        assertEquals(4, d.instrumentId());
        assertEquals("NEW-USD", d.symbol());
        assertEquals(2, d.priceScale());
        assertEquals(5, d.tickSize());
        assertEquals(10, d.lotSize());
        assertEquals(5000, d.referencePrice());
        assertEquals(PriceBandType.BASIS_POINTS, d.priceBandType());
        assertEquals(1000, d.priceBand());
    }

    @Test
    void instrumentRequestsTheEngineWouldRefuseAreRefusedHere()
    {
        final String[][] refused = {
            {"0", "NEW-USD", "2", "0.05", "10", "50.00", "BASIS_POINTS", "1000", "r", "instrumentId"},
            {"4", "NEW USD", "2", "0.05", "10", "50.00", "BASIS_POINTS", "1000", "r", "symbol"},
            {"4", "A-VERY-LONG-SYMBOL", "2", "0.05", "10", "50.00", "BASIS_POINTS", "1000", "r", "symbol"},
            {"4", "NEW-USD", "9", "0.05", "10", "50.00", "BASIS_POINTS", "1000", "r", "priceScale"},
            {"4", "NEW-USD", "2", "0.005", "10", "50.00", "BASIS_POINTS", "1000", "r", "tickSize"},
            {"4", "NEW-USD", "2", "0", "10", "50.00", "BASIS_POINTS", "1000", "r", "tickSize"},
            {"4", "NEW-USD", "2", "0.05", "0", "50.00", "BASIS_POINTS", "1000", "r", "lotSize"},
            {"4", "NEW-USD", "2", "0.05", "10", "50.01", "BASIS_POINTS", "1000", "r", "multiple of tickSize"},
            {"4", "NEW-USD", "2", "0.05", "10", "50.00", "PERCENT", "1000", "r", "priceBandType"},
            {"4", "NEW-USD", "2", "0.05", "10", "50.00", "TICKS", "0", "r", "priceBand"},
            {"4", "NEW-USD", "2", "0.05", "10", "50.00", "TICKS", "10", "", "reason"},
            {"4", "NEW-USD", "2", "0.05", "10", "50.00", "TICKS", "10", "x".repeat(65), "reason"},
            {"4", "NEW-USD", "2", "0.05", "10", "50.00", "TICKS", "10", "tab\there", "reason"},
        };
        for (final String[] r : refused)
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> console.addInstrument(new ConsoleRequests.AddInstrument(Integer.parseInt(r[0]), r[1],
                Integer.parseInt(r[2]), r[3], Long.parseLong(r[4]), r[5], r[6], Long.parseLong(r[7]), r[8]), "admin"),
                String.join(",", r));
            assertTrue(ex.getMessage().contains(r[9]), ex.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> console.addInstrument(new ConsoleRequests.AddInstrument(4,
            "NEW-USD", 2, "0.05", 10, "50.00", "TICKS", 10, "ok"), "an admin"), "an operator name with a space");
        assertEquals(List.of(), sent, "nothing sent");
    }

    @Test
    void amendNeedsTheInstrumentsScaleAndDelistNamesTheReason()
    {
        final ActionRefusedException unknown = assertThrows(ActionRefusedException.class, () ->
            console.amendInstrument(new ConsoleRequests.AmendInstrument(1, "BTC-USD", "0.5", 1, "64250.50",
            "TICKS", 100, "wider tick"), "admin"));
        assertEquals("UNKNOWN_INSTRUMENT", unknown.code());

        feed(events.instrumentDefinition(1, "BTC-USD", 2, 50, 1, 6_425_000, TradingStatus.OPEN, 1));
        console.amendInstrument(new ConsoleRequests.AmendInstrument(1, "XBT-USD", "1.00", 2, "64250.00", "TICKS",
            100, "wider tick"), "admin");
        final AmendInstrumentDecoder amend = new AmendInstrumentDecoder().wrapAndApplyHeader(sent.get(0), 0,
            header(sent.get(0)));
        assertEquals(1, amend.instrumentId());
        assertEquals("XBT-USD", amend.symbol());
        assertEquals(100, amend.tickSize());
        assertEquals(2, amend.lotSize());
        assertEquals(6_425_000, amend.referencePrice());
        assertEquals(PriceBandType.TICKS, amend.priceBandType());
        assertEquals(100, amend.priceBand());
        assertEquals("admin", amend.operatorName());
        assertEquals("wider tick", amend.reason());

        console.delistInstrument(new ConsoleRequests.DelistInstrument(1, "issuer default"), "admin");
        final DelistInstrumentDecoder delist = new DelistInstrumentDecoder().wrapAndApplyHeader(sent.get(1), 0,
            header(sent.get(1)));
        assertEquals(1, delist.instrumentId());
        assertEquals("admin", delist.operatorName());
        assertEquals("issuer default", delist.reason());
    }

    @Test
    void accountsAreOpenedTheirStandingSetAndMoneyMovedExactly()
    {
        console.openAccount(new ConsoleRequests.OpenAccount(2001, "CANCEL_OLDEST", "new client"), "admin");
        final AddAccountDecoder open = new AddAccountDecoder().wrapAndApplyHeader(sent.get(0), 0, header(sent.get(0)));
        assertEquals(2001, open.accountId());
        assertEquals(SelfTradePrevention.CANCEL_OLDEST, open.selfTradePrevention());

        console.accountStatus(new ConsoleRequests.AccountStatus(2001, "SUSPENDED", "KYC review"), "admin");
        final SetAccountStatusDecoder standing = new SetAccountStatusDecoder().wrapAndApplyHeader(sent.get(1), 0,
            header(sent.get(1)));
        assertEquals(2001, standing.accountId());
        assertEquals(AccountStatus.SUSPENDED, standing.status());
        assertEquals("admin", standing.operatorName());
        assertEquals("KYC review", standing.reason());

        final ActionView deposit = console.transfer(new ConsoleRequests.Transfer(2001, "25000.12345678", "WIRE-42",
            "initial funding"), true, "admin");
        assertEquals("DEPOSIT", deposit.action());
        assertEquals("account 2001: 25,000.12345678 USD, ref WIRE-42", deposit.target(), "money for people, exact");
        final AdjustBalanceDecoder in = new AdjustBalanceDecoder().wrapAndApplyHeader(sent.get(2), 0,
            header(sent.get(2)));
        assertEquals(2001, in.accountId());
        assertEquals(2_500_012_345_678L, in.amount());
        assertEquals("WIRE-42", in.reference());
        assertEquals("admin", in.operatorName());
        assertEquals("initial funding", in.reason());

        final ActionView withdrawal = console.transfer(new ConsoleRequests.Transfer(2001, "0.5", "PAYOUT 7",
            "client asked"), false, "admin");
        assertEquals("account 2001: 0.50 USD, ref PAYOUT 7", withdrawal.target());
        final AdjustBalanceDecoder out = new AdjustBalanceDecoder().wrapAndApplyHeader(sent.get(3), 0,
            header(sent.get(3)));
        assertEquals(-50_000_000L, out.amount(), "a withdrawal is a negative adjustment");

        final ConsoleRequests.Transfer[] refused = {
            new ConsoleRequests.Transfer(2001, "-5", "W", "r"),
            new ConsoleRequests.Transfer(2001, "0", "W", "r"),
            new ConsoleRequests.Transfer(2001, "1.123456789", "W", "r"),
            new ConsoleRequests.Transfer(2001, "1e3", "W", "r"),
            new ConsoleRequests.Transfer(2001, "5", "", "r"),
            new ConsoleRequests.Transfer(2001, "5", "W".repeat(65), "r"),
            new ConsoleRequests.Transfer(0, "5", "W", "r"),
        };
        for (final ConsoleRequests.Transfer t : refused)
        {
            assertThrows(IllegalArgumentException.class, () -> console.transfer(t, true, "admin"), t.toString());
        }
        assertThrows(IllegalArgumentException.class, () -> console.accountStatus(
            new ConsoleRequests.AccountStatus(2001, "FROZEN", "r"), "admin"));
        assertThrows(IllegalArgumentException.class, () -> console.openAccount(
            new ConsoleRequests.OpenAccount(2002, "NONE", "r"), "admin"));
        assertEquals(4, sent.size(), "refusals send nothing");
    }

    @Test
    void aNewUserIsUpsertedThenGivenTheHashOfItsPasswordNeverThePassword()
    {
        directory("alice");
        final List<ActionView> views = console.createUser(new ConsoleRequests.CreateUser("trader7", PASSWORD,
            List.of(2001L, 1003L), "T7", true, 50, true, "onboarding"), "admin");
        assertEquals(List.of("UPSERT_USER", "SET_PASSWORD"), views.stream().map(ActionView::action).toList());
        assertEquals(2, sent.size());

        final UpsertUserDecoder upsert = new UpsertUserDecoder().wrapAndApplyHeader(sent.get(0), 0,
            header(sent.get(0)));
        assertEquals(views.get(0).requestId(), upsert.requestId());
        assertEquals(BooleanType.TRUE, upsert.enabled());
        assertEquals(BooleanType.TRUE, upsert.fixCancelOnDisconnect());
        assertEquals(50, upsert.throttleMessagesPerSecond());
        final List<Long> accounts = new ArrayList<>();
        for (final UpsertUserDecoder.AccountsDecoder a : upsert.accounts())
        {
            accounts.add(a.accountId());
        }
        assertEquals(List.of(2001L, 1003L), accounts, "the default first");
        assertEquals("trader7", upsert.username());
        assertEquals("T7", upsert.fixSenderCompId());
        assertEquals("admin", upsert.operatorName());
        assertEquals("onboarding", upsert.reason());

        final SetUserCredentialDecoder credential = new SetUserCredentialDecoder().wrapAndApplyHeader(sent.get(1), 0,
            header(sent.get(1)));
        assertEquals(views.get(1).requestId(), credential.requestId());
        assertEquals("trader7", credential.username());
        final String hash = credential.credentialHash();
        assertTrue(hash.startsWith("pbkdf2-sha256:1000:"), hash);
        assertTrue(CredentialHash.verify(PASSWORD.toCharArray(), hash), "the hash verifies the password");
        assertFalse(CredentialHash.verify("wrong password".toCharArray(), hash));
        assertEquals("admin", credential.operatorName());
        for (final UnsafeBuffer message : sent)
        {
            final byte[] bytes = new byte[message.capacity()];
            message.getBytes(0, bytes);
            assertFalse(new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1).contains(PASSWORD),
                "the password itself is never sent");
        }
        assertFalse(views.toString().contains(PASSWORD));
    }

    @Test
    void aUserIsNotCreatedOverAnotherOrBeforeTheDirectoryIsKnown()
    {
        final ActionRefusedException early = assertThrows(ActionRefusedException.class, () -> console.createUser(
            new ConsoleRequests.CreateUser("bob", PASSWORD, List.of(1003L), "", false, 0, true, "r"), "admin"));
        assertEquals("DIRECTORY_NOT_LOADED", early.code());
        directory("bob");
        final ActionRefusedException exists = assertThrows(ActionRefusedException.class, () -> console.createUser(
            new ConsoleRequests.CreateUser("bob", PASSWORD, List.of(1003L), "", false, 0, true, "r"), "admin"));
        assertEquals("USER_EXISTS", exists.code());

        final ConsoleRequests.CreateUser[] refused = {
            new ConsoleRequests.CreateUser("carol", "short", List.of(1003L), "", false, 0, true, "r"),
            new ConsoleRequests.CreateUser("carol", "x".repeat(129), List.of(1003L), "", false, 0, true, "r"),
            new ConsoleRequests.CreateUser("carol", "line\nbreak!", List.of(1003L), "", false, 0, true, "r"),
            new ConsoleRequests.CreateUser("carol", null, List.of(1003L), "", false, 0, true, "r"),
            new ConsoleRequests.CreateUser("ca rol", PASSWORD, List.of(1003L), "", false, 0, true, "r"),
            new ConsoleRequests.CreateUser("carol", PASSWORD, List.of(), "", false, 0, true, "r"),
            new ConsoleRequests.CreateUser("carol", PASSWORD, List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L), "", false,
                0, true, "r"),
            new ConsoleRequests.CreateUser("carol", PASSWORD, List.of(1003L, 1003L), "", false, 0, true, "r"),
            new ConsoleRequests.CreateUser("carol", PASSWORD, List.of(0L), "", false, 0, true, "r"),
            new ConsoleRequests.CreateUser("carol", PASSWORD, List.of(1003L), "C ID", false, 0, true, "r"),
            new ConsoleRequests.CreateUser("carol", PASSWORD, List.of(1003L), "", false, -1, true, "r"),
            new ConsoleRequests.CreateUser("carol", PASSWORD, List.of(1003L), "", false, 1_000_001, true, "r"),
        };
        for (final ConsoleRequests.CreateUser r : refused)
        {
            final IllegalArgumentException ex =
                assertThrows(IllegalArgumentException.class, () -> console.createUser(r, "admin"), r.toString());
            assertFalse(ex.getMessage().contains(PASSWORD));
        }
        assertEquals(List.of(), sent, "nothing sent");
    }

    @Test
    void changingOneSettingOfAUserKeepsItsOthersAsTheDirectoryHoldsThem()
    {
        events.userRole(io.ringex.protocol.codecs.UserRole.DROP_COPY);
        directory("alice");
        console.userEnabled(new ConsoleRequests.UserEnabled("alice", false, "left the firm"), "admin");
        final UpsertUserDecoder disable = new UpsertUserDecoder().wrapAndApplyHeader(sent.get(0), 0,
            header(sent.get(0)));
        assertEquals(BooleanType.FALSE, disable.enabled());
        assertEquals(BooleanType.TRUE, disable.fixCancelOnDisconnect(), "kept");
        assertEquals(100, disable.throttleMessagesPerSecond(), "kept");
        assertEquals(5_000, disable.cancelOnDisconnectGraceMs(), "kept: the cancel-on-disconnect grace");
        assertEquals(io.ringex.protocol.codecs.UserRole.DROP_COPY, disable.role(), "kept: a drop copy stays one");
        final List<Long> kept = new ArrayList<>();
        for (final UpsertUserDecoder.AccountsDecoder a : disable.accounts())
        {
            kept.add(a.accountId());
        }
        assertEquals(List.of(1003L, 1004L), kept, "kept");
        assertEquals("alice", disable.username());
        assertEquals("FIX-alice", disable.fixSenderCompId(), "kept");

        console.userAccounts(new ConsoleRequests.UserAccounts("alice", List.of(1004L), "desk moved"), "admin");
        final UpsertUserDecoder grant = new UpsertUserDecoder().wrapAndApplyHeader(sent.get(1), 0,
            header(sent.get(1)));
        assertEquals(BooleanType.TRUE, grant.enabled(), "as the directory holds it: the disable is not answered");
        assertEquals(io.ringex.protocol.codecs.UserRole.DROP_COPY, grant.role(), "kept");
        final UpsertUserDecoder.AccountsDecoder accounts = grant.accounts();
        assertEquals(1, accounts.count());
        assertEquals(1004L, accounts.next().accountId());

        console.setPassword(new ConsoleRequests.SetPassword("alice", PASSWORD, "reset at her request"), "admin");
        final SetUserCredentialDecoder reset = new SetUserCredentialDecoder().wrapAndApplyHeader(sent.get(2), 0,
            header(sent.get(2)));
        assertEquals("alice", reset.username());
        assertTrue(CredentialHash.verify(PASSWORD.toCharArray(), reset.credentialHash()));

        final ActionRefusedException unknown = assertThrows(ActionRefusedException.class, () ->
            console.userEnabled(new ConsoleRequests.UserEnabled("nobody", true, "r"), "admin"));
        assertEquals("UNKNOWN_USER", unknown.code());
    }

    @Test
    void theEnginesAnswerSettlesAConsoleActionAndNothingIsRecordedWhenItCannotBeSent()
    {
        final ActionView view = console.delistInstrument(new ConsoleRequests.DelistInstrument(9, "r"), "admin");
        actions.onAdminResponse(view.requestId(), DelistInstrumentDecoder.TEMPLATE_ID, AdminStatus.REJECTED,
            RejectReason.UNKNOWN_INSTRUMENT, 5);
        final ActionView answered = actions.find(view.requestId());
        assertEquals("REJECTED", answered.status());
        assertEquals("UNKNOWN_INSTRUMENT", answered.rejectReason());
        assertEquals("r", answered.reason(), "the reason stays with the action");

        outcome = OfferOutcome.NOT_CONNECTED;
        final int before = actions.recent().size();
        final ActionUnavailableException ex = assertThrows(ActionUnavailableException.class, () ->
            console.openAccount(new ConsoleRequests.OpenAccount(3, "CANCEL_NEWEST", "r"), "admin"));
        assertEquals(OfferOutcome.NOT_CONNECTED, ex.outcome());
        assertEquals(before, actions.recent().size());
        assertNotEquals(0, view.requestId());
    }
}
