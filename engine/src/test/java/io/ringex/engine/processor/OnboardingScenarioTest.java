package io.ringex.engine.processor;

import io.ringex.client.CommandEncoder;
import io.ringex.protocol.codecs.AccountStatus;
import io.ringex.protocol.codecs.AdminStatus;
import io.ringex.protocol.codecs.CancelReason;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import io.ringex.protocol.codecs.TradingStatus;
import io.ringex.protocol.codecs.UpsertUserEncoder;
import io.ringex.protocol.codecs.UserRole;
import org.agrona.ExpandableArrayBuffer;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.ToIntFunction;

import static io.ringex.engine.processor.Harness.INSTRUMENT;
import static io.ringex.engine.processor.Harness.SESSION;
import static io.ringex.engine.processor.Harness.only;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Running a venue from the operator's commands, as engine state: users (add, change, disable, credential, the
 * directory a gateway asks for), instruments (amend, delist), accounts (suspend, reactivate, close, deposits and
 * withdrawals with a reference). Each rule has its reject reason; nothing refused changes the state hash; a snapshot
 * restores users and standings.
 */
final class OnboardingScenarioTest
{
    private static final long MONEY = 100_000_000L;
    private static final String HASH = "pbkdf2-sha256:1000:c2FsdA==:aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g=";

    private final Harness h = Harness.standard();

    private Harness.Admin admin(final ToIntFunction<CommandEncoder> command)
    {
        return only(h.send(command.applyAsInt(h.encoder)), Harness.Admin.class).get(0);
    }

    private RejectReason refused(final ToIntFunction<CommandEncoder> command)
    {
        final long hash = h.processor.stateHash();
        final Harness.Admin answer = admin(command);
        assertEquals(AdminStatus.REJECTED, answer.status());
        assertEquals(hash, h.processor.stateHash(), "a refused command changed the state");
        return answer.reason();
    }

    private Harness.Er order(final long account, final long clientOrderId, final Side side, final long price)
    {
        return only(h.send(h.encoder.limit(SESSION, account, clientOrderId, INSTRUMENT, side, price, 10)),
            Harness.Er.class).get(0);
    }

    @Test
    void usersAreEngineStateAndEveryChangeIsToldToTheGateways()
    {
        final List<Object> added = h.send(h.encoder.upsertUser(1, "alice", true, new long[]{ 1, 2 }, "ALICE", false,
            0, "onboarding"));
        assertEquals(AdminStatus.ACCEPTED, only(added, Harness.Admin.class).get(0).status());
        final Harness.UserDef alice = only(added, Harness.UserDef.class).get(0);
        assertEquals(0, alice.gatewayId(), "a change goes to every gateway");
        assertEquals(List.of(1L, 2L), alice.accounts());
        assertEquals("", alice.credentialHash());

        final Harness.UserDef withCredential = only(h.send(h.encoder.setUserCredential(2, "alice", HASH, "reset")),
            Harness.UserDef.class).get(0);
        assertEquals(HASH, withCredential.credentialHash());

        final Harness.UserDef disabled = only(h.send(h.encoder.upsertUser(3, "alice", false, new long[]{ 1 }, "ALICE",
            false, 0, "left the firm")), Harness.UserDef.class).get(0);
        assertFalse(disabled.enabled());
        assertEquals(HASH, disabled.credentialHash(), "the credential stays");

        h.send(h.encoder.upsertUser(4, "bob", true, new long[]{ 3 }, "", false, 500, ""));
        final long hash = h.processor.stateHash();
        final List<Object> directory = h.send(h.encoder.userDirectoryRequest(7, 99));
        assertEquals(List.of("alice", "bob"), only(directory, Harness.UserDef.class).stream()
            .map(Harness.UserDef::username).toList());
        assertTrue(only(directory, Harness.UserDef.class).stream().allMatch(u -> u.gatewayId() == 7 &&
            u.requestId() == 99), "the answer is addressed to the gateway that asked");
        assertEquals(new Harness.DirectoryEnd(7, 99, 2), only(directory, Harness.DirectoryEnd.class).get(0));
        assertEquals(hash, h.processor.stateHash(), "a directory request changes nothing");
    }

    @Test
    void aUsersRoleIsStateToldToTheGatewaysAndChangesTheHash()
    {
        final Harness.UserDef trader = only(h.send(h.encoder.upsertUser(1, "alice", true, new long[]{ 1 }, "ALICE",
            false, 0, "")), Harness.UserDef.class).get(0);
        assertEquals(UserRole.TRADER, trader.role(), "the role defaults to TRADER");
        final long traderHash = h.processor.stateHash();

        final Harness.UserDef dropCopy = only(h.send(h.encoder.upsertUser(2, "alice", true, new long[]{ 1, 2 },
            "ALICE", false, 0, UserRole.DROP_COPY, "back office")), Harness.UserDef.class).get(0);
        assertEquals(UserRole.DROP_COPY, dropCopy.role());
        assertEquals(List.of(1L, 2L), dropCopy.accounts(), "a drop copy sees the accounts of its group");
        assertTrue(traderHash != h.processor.stateHash(), "the role is part of the state");

        final Harness.UserDef clearing = only(h.send(h.encoder.upsertUser(3, "clear", true, new long[]{ 3 }, "CLR",
            false, 0, UserRole.CLEARING, "")), Harness.UserDef.class).get(0);
        assertEquals(UserRole.CLEARING, clearing.role());
        assertEquals(UserRole.CLEARING, h.processor.state().users.user("clear").role());
    }

    @Test
    void aDropCopyUserNeedsAnAccountAndAKnownRole()
    {
        assertEquals(RejectReason.INVALID_ARGUMENT,
            refused(e -> e.upsertUser(1, "copy", true, new long[0], "", false, 0, UserRole.DROP_COPY, "")),
            "a drop copy of no account sees nothing");
        assertEquals(RejectReason.UNKNOWN_ACCOUNT,
            refused(e -> e.upsertUser(2, "copy", true, new long[]{ 99 }, "", false, 0, UserRole.DROP_COPY, "")));
        assertEquals(RejectReason.INVALID_ARGUMENT, refused(e ->
        {
            final int length = e.upsertUser(3, "copy", true, new long[]{ 1 }, "", false, 0, UserRole.CLEARING, "");
            e.buffer().putByte(8 + UpsertUserEncoder.roleEncodingOffset(), (byte)3);
            return length;
        }), "a role this engine does not know");
        assertEquals(RejectReason.INVALID_ARGUMENT, refused(e ->
        {
            final int length = e.upsertUser(4, "copy", true, new long[]{ 1 }, "", false, 0, UserRole.CLEARING, "");
            e.buffer().putByte(8 + UpsertUserEncoder.roleEncodingOffset(), (byte)255);
            return length;
        }), "no role at all");
        assertEquals(null, h.processor.state().users.user("copy"));
    }

    @Test
    void everyBadUserCommandIsRefusedWithItsReason()
    {
        h.send(h.encoder.upsertUser(1, "alice", true, new long[]{ 1 }, "ALICE", false, 0, ""));
        assertEquals(RejectReason.UNKNOWN_ACCOUNT,
            refused(e -> e.upsertUser(2, "bob", true, new long[]{ 1, 99 }, "", false, 0, "")));
        assertEquals(RejectReason.DUPLICATE_ID,
            refused(e -> e.upsertUser(3, "bob", true, new long[]{ 2 }, "ALICE", false, 0, "")));
        assertEquals(RejectReason.INVALID_ARGUMENT,
            refused(e -> e.upsertUser(4, "bo b", true, new long[]{ 2 }, "", false, 0, "")));
        assertEquals(RejectReason.INVALID_ARGUMENT,
            refused(e -> e.upsertUser(5, "bob", true, new long[0], "", false, 0, "")));
        assertEquals(RejectReason.INVALID_ARGUMENT,
            refused(e -> e.upsertUser(6, "bob", true, new long[]{ 1, 2, 3, 1, 2, 3, 1, 2, 3 }, "", false, 0, "")));
        assertEquals(RejectReason.INVALID_ARGUMENT,
            refused(e -> e.upsertUser(7, "bob", true, new long[]{ 2, 2 }, "", false, 0, "")));
        assertEquals(RejectReason.INVALID_ARGUMENT,
            refused(e -> e.upsertUser(8, "bob", true, new long[]{ 2 }, "", false, -1, "")));
        assertEquals(RejectReason.UNKNOWN_USER, refused(e -> e.setUserCredential(9, "carol", HASH, "")));
        assertEquals(RejectReason.INVALID_ARGUMENT, refused(e -> e.setUserCredential(10, "alice", "secret", "")));
        assertEquals(RejectReason.INVALID_ARGUMENT,
            refused(e -> e.operator("").upsertUser(11, "bob", true, new long[]{ 2 }, "", false, 0, "")));
        h.encoder.operator("ringex");
        assertEquals(RejectReason.INVALID_ARGUMENT,
            refused(e -> e.upsertUser(12, "bob", true, new long[]{ 2 }, "", false, 0, "line\nbreak")));
    }

    @Test
    void anInstrumentsPricingChangesOnlyWithAnEmptyBookItsSymbolAnyTime()
    {
        final Harness.Er resting = order(1, 1, Side.BUY, 9_995);
        assertEquals(ExecType.NEW, resting.execType());
        assertEquals(AdminStatus.ACCEPTED, admin(e -> e.amendInstrument(1, INSTRUMENT, "ACME2", 5, 10, 10_000,
            PriceBandType.TICKS, 1000, "rename")).status());
        assertEquals(RejectReason.INSTRUMENT_HAS_ORDERS, refused(e -> e.amendInstrument(2, INSTRUMENT, "ACME2", 10, 10,
            10_000, PriceBandType.TICKS, 500, "")));
        h.send(h.encoder.cancel(SESSION, 1, 2, 1, resting.orderId(), INSTRUMENT));

        final List<Object> amended = h.send(h.encoder.amendInstrument(3, INSTRUMENT, "ACME2", 10, 10, 10_000,
            PriceBandType.TICKS, 500, "new tick"));
        assertEquals(AdminStatus.ACCEPTED, only(amended, Harness.Admin.class).get(0).status());
        assertEquals(RejectReason.INVALID_TICK, order(1, 3, Side.BUY, 9_995).rejectReason());
        assertEquals(ExecType.NEW, order(1, 4, Side.BUY, 9_990).execType());
        assertEquals(RejectReason.INVALID_ARGUMENT, refused(e -> e.amendInstrument(4, INSTRUMENT, "ACME2", 0, 10,
            10_000, PriceBandType.TICKS, 500, "")));
        assertEquals(RejectReason.UNKNOWN_INSTRUMENT, refused(e -> e.amendInstrument(5, 77, "X", 5, 10, 10_000,
            PriceBandType.TICKS, 500, "")));
    }

    @Test
    void aDelistedInstrumentCancelsItsOrdersRefusesNewOnesAndKeepsItsHistory()
    {
        order(1, 1, Side.SELL, 10_000);
        order(2, 2, Side.BUY, 10_000);
        final Harness.Er resting = order(1, 3, Side.SELL, 10_100);
        final List<Object> delisted = h.send(h.encoder.delistInstrument(1, INSTRUMENT, "issuer gone"));
        final Harness.Er cancel = only(delisted, Harness.Er.class).get(0);
        assertEquals(resting.orderId(), cancel.orderId());
        assertEquals(CancelReason.INSTRUMENT_DELISTED, cancel.cancelReason());
        assertEquals(TradingStatus.DELISTED, only(delisted, Harness.Definition.class).get(0).status());
        assertEquals(RejectReason.INSTRUMENT_DELISTED, order(1, 4, Side.SELL, 10_000).rejectReason());
        assertEquals(RejectReason.INSTRUMENT_DELISTED, refused(e -> e.delistInstrument(2, INSTRUMENT, "")));
        assertEquals(RejectReason.INSTRUMENT_DELISTED, refused(e -> e.amendInstrument(3, INSTRUMENT, "ACME", 5, 10,
            10_000, PriceBandType.TICKS, 1000, "")));
        assertEquals(10, h.processor.state().account(2).position(INSTRUMENT).position(), "positions are kept");
    }

    @Test
    void renamingAnInstrumentKeepsItsRestingOrdersAndPendingStops()
    {
        final Harness.Er resting = order(1, 1, Side.BUY, 9_995);
        final Harness.Er stop = only(h.send(h.encoder.newOrder(SESSION, 2, 2, INSTRUMENT, Side.BUY,
            OrderType.STOP_LIMIT, TimeInForce.GTC, false, SelfTradePrevention.ACCOUNT_DEFAULT, 10_100, 10, 10_050, 0,
            0, 0)), Harness.Er.class).get(0);
        assertEquals(ExecType.NEW, stop.execType());
        final long hash = h.processor.stateHash();
        assertEquals(AdminStatus.ACCEPTED, admin(e -> e.amendInstrument(1, INSTRUMENT, "ACME2", 5, 10, 10_000,
            PriceBandType.TICKS, 1000, "rename")).status());
        assertTrue(hash != h.processor.stateHash(), "the symbol is state");

        final List<Object> fill = h.send(h.encoder.limit(SESSION, 3, 3, INSTRUMENT, Side.SELL, 9_995, 10));
        assertEquals(resting.orderId(), only(fill, Harness.TradeEv.class).get(0).buyOrderId(),
            "the resting order is still in the renamed instrument's book");
        h.send(h.encoder.limit(SESSION, 3, 4, INSTRUMENT, Side.SELL, 10_050, 10));
        final List<Object> triggered = h.send(h.encoder.limit(SESSION, 1, 5, INSTRUMENT, Side.BUY, 10_050, 10));
        assertTrue(only(triggered, Harness.Er.class).stream().anyMatch(er -> er.orderId() == stop.orderId()),
            "the pending stop is still there and triggers");
    }

    @Test
    void aDelistedInstrumentLeavesItsCallPhaseForGoodAndIsNotRelisted()
    {
        final long start = 1_000_000_000L;
        h.sendAt(start, h.encoder.setTradingStatus(1, INSTRUMENT, TradingStatus.OPENING_AUCTION, 2_000_000_000L));
        order(1, 1, Side.BUY, 10_000);
        h.send(h.encoder.delistInstrument(2, INSTRUMENT, "issuer gone"));
        assertEquals(Long.MAX_VALUE, h.processor.nextDeadlineNs(), "the auction's end is no longer a deadline");
        final List<Object> later = h.sendAt(start + 3_000_000_000L, h.encoder.tick(start + 2_000_000_000L));
        assertEquals(List.of(), only(later, Harness.Definition.class), "the auction's end does not reopen it");
        assertEquals(RejectReason.INSTRUMENT_DELISTED,
            refused(e -> e.setTradingStatus(3, INSTRUMENT, TradingStatus.OPEN)));
    }

    @Test
    void accountsAreSuspendedReactivatedAndClosedOnlyWhenFlat()
    {
        final Harness.Er resting = order(1, 1, Side.BUY, 9_995);
        assertEquals(AdminStatus.ACCEPTED, admin(e -> e.setAccountStatus(1, 1, AccountStatus.SUSPENDED, "review"))
            .status());
        assertEquals(RejectReason.ACCOUNT_SUSPENDED, order(1, 2, Side.BUY, 9_995).rejectReason());
        assertEquals(RejectReason.ACCOUNT_NOT_FLAT,
            refused(e -> e.setAccountStatus(2, 1, AccountStatus.CLOSED, "")));
        assertEquals(ExecType.CANCELED, only(h.send(h.encoder.cancel(SESSION, 1, 3, 1, resting.orderId(), INSTRUMENT)),
            Harness.Er.class).get(0).execType(), "a suspended account may still cancel");
        admin(e -> e.setAccountStatus(3, 1, AccountStatus.ACTIVE, "cleared"));
        assertEquals(ExecType.NEW, order(1, 4, Side.BUY, 9_995).execType());

        admin(e -> e.setAccountStatus(4, 3, AccountStatus.CLOSED, "closed at the client's request"));
        assertEquals(RejectReason.ACCOUNT_SUSPENDED, order(3, 5, Side.BUY, 9_995).rejectReason());
        assertEquals(RejectReason.ACCOUNT_SUSPENDED,
            refused(e -> e.setAccountStatus(5, 3, AccountStatus.ACTIVE, "")), "closed is final");
        assertEquals(RejectReason.UNKNOWN_ACCOUNT, refused(e -> e.setAccountStatus(6, 9, AccountStatus.ACTIVE, "")));
    }

    @Test
    void aWithdrawalTakesOnlyTheFreeBalanceAndOldCommandsStillReplay()
    {
        final long balance = h.processor.state().account(1).balance();
        order(1, 1, Side.BUY, 10_000);
        final long reserved = h.processor.state().account(1).reserved();
        assertTrue(reserved > 0);
        assertEquals(RejectReason.INSUFFICIENT_CREDIT,
            refused(e -> e.adjustBalance(1, 1, -(balance - reserved + 1), "WD-1", "client request")));
        assertEquals(AdminStatus.ACCEPTED,
            admin(e -> e.adjustBalance(2, 1, -(balance - reserved), "WD-2", "client request")).status());
        assertEquals(AdminStatus.ACCEPTED, admin(e -> e.adjustBalance(3, 1, 5 * MONEY, "DEP-1", "")).status());
        assertEquals(RejectReason.INVALID_ARGUMENT,
            refused(e -> e.adjustBalance(4, 1, MONEY, "bad\treference", "")));

        // A version-1 AdjustBalance (journaled before audit fields existed) carries no operator and still applies.
        final int length = h.encoder.adjustBalance(5, 2, MONEY, "", "");
        final int v1Length = 8 + io.ringex.protocol.codecs.AdjustBalanceEncoder.BLOCK_LENGTH;
        h.encoder.buffer().putShort(6, (short)1);
        assertTrue(v1Length < length);
        assertEquals(AdminStatus.ACCEPTED, only(h.send(v1Length), Harness.Admin.class).get(0).status());
    }

    @Test
    void aSnapshotRestoresUsersAndStandings()
    {
        h.send(h.encoder.upsertUser(1, "alice", true, new long[]{ 1, 2 }, "ALICE", true, 100, ""));
        h.send(h.encoder.setUserCredential(2, "alice", HASH, ""));
        h.send(h.encoder.upsertUser(5, "audit", true, new long[]{ 2 }, "", false, 0, UserRole.DROP_COPY, ""));
        h.send(h.encoder.setAccountStatus(3, 2, AccountStatus.SUSPENDED, ""));
        h.send(h.encoder.delistInstrument(4, INSTRUMENT, ""));
        final ExpandableArrayBuffer image = new ExpandableArrayBuffer(4096);
        final int length = h.processor.writeSnapshot(image, 0);
        final Harness restored = new Harness();
        restored.processor.restore(image, 0, length);
        assertEquals(h.processor.stateHash(), restored.processor.stateHash());
        final List<Object> directory = restored.send(restored.encoder.userDirectoryRequest(1, 1));
        final Harness.UserDef alice = only(directory, Harness.UserDef.class).get(0);
        assertEquals(new Harness.UserDef(1, 1, "alice", true, List.of(1L, 2L), "ALICE", HASH, UserRole.TRADER), alice);
        final Harness.UserDef copy = only(directory, Harness.UserDef.class).get(1);
        assertEquals(new Harness.UserDef(1, 1, "audit", true, List.of(2L), "", "", UserRole.DROP_COPY), copy);
        assertEquals(RejectReason.ACCOUNT_SUSPENDED, only(restored.send(restored.encoder.limit(SESSION, 2, 9,
            INSTRUMENT, Side.BUY, 10_000, 10)), Harness.Er.class).get(0).rejectReason());
    }
}
