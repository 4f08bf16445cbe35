package io.ringex.risk.actions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.ringex.protocol.codecs.AdminStatus;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.KillSwitchDecoder;
import io.ringex.protocol.codecs.KillSwitchScope;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.SetLimitsDecoder;
import io.ringex.protocol.codecs.SetTradingStatusDecoder;
import io.ringex.protocol.codecs.TradingStatus;
import io.ringex.protocol.codecs.UnlockLogonsDecoder;
import io.ringex.risk.aeron.AdminCommandSink;
import io.ringex.risk.aeron.OfferOutcome;
import io.ringex.risk.model.RiskReadModel;

class ActionServiceTest
{
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
    private final MutableClock clock = new MutableClock();
    private final RiskReadModel model = new RiskReadModel(4, 1, System::nanoTime);
    private final ActionService actions = new ActionService(sink, model, clock, 10_000, 3);

    @Test
    void unlockLogonsCarriesTheOperatorAndTheReasonAndRefusesWhatTheEngineWould()
    {
        final ActionView view = actions.unlockLogons(
            new ActionRequests.UnlockLogons("alice", "10.0.0.7", "called the desk"), "admin");
        assertEquals("PENDING", view.status());
        final MessageHeaderDecoder header = new MessageHeaderDecoder().wrap(sent.get(0), 0);
        assertEquals(UnlockLogonsDecoder.TEMPLATE_ID, header.templateId());
        final UnlockLogonsDecoder d = new UnlockLogonsDecoder().wrapAndApplyHeader(sent.get(0), 0, header);
        assertEquals(view.requestId(), d.requestId());
        assertEquals("alice", d.username());
        assertEquals("10.0.0.7", d.address());
        assertEquals("admin", d.operatorName());
        assertEquals("called the desk", d.reason());

        assertThrows(IllegalArgumentException.class,
            () -> actions.unlockLogons(new ActionRequests.UnlockLogons("", null, "nothing named"), "admin"));
        assertThrows(IllegalArgumentException.class,
            () -> actions.unlockLogons(new ActionRequests.UnlockLogons("ali ce", null, ""), "admin"));
        assertThrows(IllegalArgumentException.class,
            () -> actions.unlockLogons(new ActionRequests.UnlockLogons("alice", null, "x".repeat(65)), "admin"));
        assertThrows(IllegalArgumentException.class,
            () -> actions.unlockLogons(new ActionRequests.UnlockLogons("alice", null, null), "admin"),
            "a reason is required");
        assertEquals(1, sent.size(), "refusals send nothing");
    }

    @Test
    void setLimitsIsEncodedExactlyAndCorrelatedByRequestId()
    {
        final ActionView view = actions.setLimits(new ActionRequests.SetLimits(7, 100, "250000.5", "0.00000001",
            40, 20, true, List.of(new ActionRequests.PositionLimit(3, 5000)), "credit review"), "officer");
        assertEquals("PENDING", view.status());
        assertEquals("credit review", view.reason(), "the admin log shows it");
        assertEquals(1, sent.size());

        final MessageHeaderDecoder header = new MessageHeaderDecoder().wrap(sent.get(0), 0);
        assertEquals(SetLimitsDecoder.TEMPLATE_ID, header.templateId());
        final SetLimitsDecoder d = new SetLimitsDecoder().wrapAndApplyHeader(sent.get(0), 0, header);
        assertEquals(view.requestId(), d.requestId());
        assertEquals(7, d.accountId());
        assertEquals(25_000_050_000_000L, d.maxOrderNotional());
        assertEquals(1, d.creditLimit());
        assertEquals(BooleanType.TRUE, d.allowShort());
        final SetLimitsDecoder.PositionLimitsDecoder limits = d.positionLimits();
        assertEquals(1, limits.count());
        limits.next();
        assertEquals(3, limits.instrumentId());
        assertEquals(5000, limits.positionLimit());

        actions.onAdminResponse(view.requestId() + 1000, 32, AdminStatus.ACCEPTED, RejectReason.NONE, 1);
        assertEquals("PENDING", actions.find(view.requestId()).status(), "someone else's response");
        actions.onAdminResponse(view.requestId(), 32, AdminStatus.REJECTED, RejectReason.UNKNOWN_ACCOUNT, 12);
        final ActionView answered = actions.find(view.requestId());
        assertEquals("REJECTED", answered.status());
        assertEquals("UNKNOWN_ACCOUNT", answered.rejectReason());
        assertEquals(12, answered.commandSequence());
    }

    @Test
    void killSwitchAndTradingStatusCarryTheirScope()
    {
        final ActionView kill = actions.killSwitch(
            new ActionRequests.KillSwitch("VENUE", 99, true, "market dislocation"), "officer");
        final KillSwitchDecoder k = new KillSwitchDecoder().wrapAndApplyHeader(
            sent.get(0), 0, new MessageHeaderDecoder());
        assertEquals(KillSwitchScope.VENUE, k.scope());
        assertEquals(0, k.accountId(), "a venue kill names no account");
        assertEquals(BooleanType.TRUE, k.active());
        assertEquals("the venue on", kill.target());
        assertEquals("market dislocation", kill.reason());

        final ActionView halt = actions.tradingStatus(
            new ActionRequests.TradingStatus(3, "HALTED", null, "news pending"), "officer");
        assertEquals("#3 (instrument 3) to HALTED", halt.target(), "the symbol once the instrument is known");
        final SetTradingStatusDecoder s = new SetTradingStatusDecoder().wrapAndApplyHeader(
            sent.get(1), 0, new MessageHeaderDecoder());
        assertEquals(3, s.instrumentId());
        assertEquals(TradingStatus.HALTED, s.status());
        assertEquals(0, s.phaseDurationNs(), "no duration: until the next change");
        assertTrue(s.requestId() > k.requestId(), "request ids increase");

        final ActionView auction = actions.tradingStatus(new ActionRequests.TradingStatus(3, "PRE_OPEN",
            300_000_000_000L, "opening auction"), "officer");
        assertEquals("#3 (instrument 3) to PRE_OPEN for 300 s", auction.target());
        final SetTradingStatusDecoder timed = new SetTradingStatusDecoder().wrapAndApplyHeader(
            sent.get(2), 0, new MessageHeaderDecoder());
        assertEquals(TradingStatus.PRE_OPEN, timed.status());
        assertEquals(300_000_000_000L, timed.phaseDurationNs());
    }

    /**
     * A timed call auction: a duration of 1 ns to 24 h, with a call phase that ends by itself only; the statuses an
     * officer sets, no other.
     */
    @Test
    void aPhaseDurationIsTakenForACallPhaseOnlyAndWithinADay()
    {
        for (final String status : List.of("PRE_OPEN", "OPENING_AUCTION", "CLOSING_AUCTION"))
        {
            actions.tradingStatus(new ActionRequests.TradingStatus(1, status, ActionService.MAX_PHASE_DURATION_NS,
                "r"), "officer");
        }
        assertEquals(3, sent.size());
        final java.util.Map<ActionRequests.TradingStatus, String> refused = new java.util.LinkedHashMap<>();
        refused.put(new ActionRequests.TradingStatus(1, "HALTED", 1_000_000_000L, "r"),
            "phaseDurationNs is for a call phase that ends by itself: status [PRE_OPEN, OPENING_AUCTION, " +
            "CLOSING_AUCTION], not HALTED");
        refused.put(new ActionRequests.TradingStatus(1, "OPEN", 1_000_000_000L, "r"), "not OPEN");
        refused.put(new ActionRequests.TradingStatus(1, "CLOSED", 1L, "r"), "not CLOSED");
        refused.put(new ActionRequests.TradingStatus(1, "PRE_OPEN", 0L, "r"),
            "phaseDurationNs must be 1 to 86400000000000 (24 h) nanoseconds, was 0");
        refused.put(new ActionRequests.TradingStatus(1, "PRE_OPEN", -1L, "r"), "was -1");
        refused.put(new ActionRequests.TradingStatus(1, "PRE_OPEN", ActionService.MAX_PHASE_DURATION_NS + 1, "r"),
            "was 86400000000001");
        refused.put(new ActionRequests.TradingStatus(1, "VOLATILITY_AUCTION", null, "r"),
            "status must be one of [OPEN, HALTED, CLOSED, PRE_OPEN, OPENING_AUCTION, CLOSING_AUCTION]");
        refused.put(new ActionRequests.TradingStatus(1, "DELISTED", null, "r"), "status must be one of");
        refused.put(new ActionRequests.TradingStatus(1, "pre_open", 1L, "r"), "status must be one of");
        refused.forEach((request, message) ->
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> actions.tradingStatus(request, "officer"), request.toString());
            assertTrue(ex.getMessage().contains(message), request + ": " + ex.getMessage());
        });
        assertEquals(3, sent.size(), "nothing sent for a refusal");
    }

    @Test
    void aFailedOfferIsReportedAndNotRecorded()
    {
        outcome = OfferOutcome.NOT_CONNECTED;
        final ActionUnavailableException ex = assertThrows(ActionUnavailableException.class,
            () -> actions.takeSnapshot(null, "officer"));
        assertEquals(OfferOutcome.NOT_CONNECTED, ex.outcome());
        assertTrue(actions.recent().isEmpty());
    }

    @Test
    void badRequestsAreRefusedBeforeAnythingIsSent()
    {
        assertThrows(IllegalArgumentException.class, () -> actions.setLimits(
            new ActionRequests.SetLimits(7, 1, "1.123456789", "0", 1, 1, false, null, "r"), "officer"));
        assertThrows(IllegalArgumentException.class, () -> actions.setLimits(
            new ActionRequests.SetLimits(7, 1, "abc", "0", 1, 1, false, null, "r"), "officer"));
        assertThrows(IllegalArgumentException.class, () -> actions.setLimits(
            new ActionRequests.SetLimits(7, 1, "1", "0", 1, 1, false, null, " "), "officer"), "a reason is required");
        assertThrows(IllegalArgumentException.class, () -> actions.setLimits(
            new ActionRequests.SetLimits(7, 1, "1", "0", 1, 1, false,
                List.of(new ActionRequests.PositionLimit(3, 1), new ActionRequests.PositionLimit(3, 2)), "r"),
            "officer"), "an instrument named twice");
        assertThrows(IllegalArgumentException.class, () -> actions.killSwitch(
            new ActionRequests.KillSwitch("ACCOUNT", 7, true, null), "officer"), "a reason is required");
        assertThrows(IllegalArgumentException.class, () -> actions.killSwitch(
            new ActionRequests.KillSwitch("ACCOUNT", 0, true, "r"), "officer"));
        assertThrows(IllegalArgumentException.class, () -> actions.tradingStatus(
            new ActionRequests.TradingStatus(1, "NULL_VAL", null, "r"), "officer"));
        assertThrows(IllegalArgumentException.class, () -> actions.tradingStatus(
            new ActionRequests.TradingStatus(1, "HALTED", null, "x".repeat(65)), "officer"),
            "a reason of 65 characters");
        assertTrue(sent.isEmpty());
    }

    @Test
    void unansweredActionsTimeOutAndOnlyTheNewestAreKept()
    {
        final ActionView first = actions.takeSnapshot("end of day", "officer");
        clock.advance(10_001);
        assertEquals("TIMED_OUT", actions.find(first.requestId()).status());
        actions.takeSnapshot(null, "officer");
        actions.takeSnapshot(null, "officer");
        final ActionView last = actions.takeSnapshot(null, "officer");
        assertEquals(3, actions.recent().size());
        assertEquals(last.requestId(), actions.recent().get(0).requestId());
        assertNull(actions.find(first.requestId()));
    }

    /** A clock the test moves. */
    static final class MutableClock extends Clock
    {
        private long millis = 1_700_000_000_000L;

        void advance(final long ms)
        {
            millis += ms;
        }

        @Override
        public ZoneOffset getZone()
        {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(final java.time.ZoneId zone)
        {
            return this;
        }

        @Override
        public Instant instant()
        {
            return Instant.ofEpochMilli(millis);
        }

        @Override
        public long millis()
        {
            return millis;
        }
    }
}
