package io.ringex.client;

import io.aeron.logbuffer.Header;
import io.aeron.protocol.DataHeaderFlyweight;
import io.ringex.protocol.codecs.BusinessRejectDecoder;
import io.ringex.protocol.codecs.BusinessRejectEncoder;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.CancelRejectEncoder;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.ExecutionReportEncoder;
import io.ringex.protocol.codecs.HeartbeatEncoder;
import io.ringex.protocol.codecs.LogonResponseDecoder;
import io.ringex.protocol.codecs.LogonResponseEncoder;
import io.ringex.protocol.codecs.LogonStatus;
import io.ringex.protocol.codecs.LogoutDecoder;
import io.ringex.protocol.codecs.LogoutEncoder;
import io.ringex.protocol.codecs.MassCancelReportDecoder;
import io.ringex.protocol.codecs.MassCancelReportEncoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.OrderStatus;
import io.ringex.protocol.codecs.OrderStatusReportDecoder;
import io.ringex.protocol.codecs.OrderStatusReportEncoder;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.TradeBustedDecoder;
import io.ringex.protocol.codecs.TradeBustedEncoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the client takes from its response channel: a session message (Logout, ExecutionReport, reject, report,
 * heartbeat) carrying another session's id is not this session's, whoever sent it to this channel (another client's
 * session answered at an endpoint the gateway took for that client's): it is ignored and counted, and the session
 * stays logged on. So is one carrying its id on another publication than the one its LogonResponse came on.
 */
class SessionEventsTest
{
    private static final long OWN = (7L << 32) | 11;
    private static final long OTHER = (7L << 32) | 12;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1024]);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final List<String> heard = new ArrayList<>();
    private final SessionEvents events = new SessionEvents(new ExchangeListener()
    {
        public void onLogonResponse(final LogonResponseDecoder response)
        {
            heard.add("LogonResponse " + response.sessionId());
        }

        public void onExecutionReport(final ExecutionReportDecoder report)
        {
            heard.add("ExecutionReport " + report.sessionId());
        }

        public void onCancelReject(final CancelRejectDecoder reject)
        {
            heard.add("CancelReject " + reject.sessionId());
        }

        public void onBusinessReject(final BusinessRejectDecoder reject)
        {
            heard.add("BusinessReject " + reject.sessionId());
        }

        public void onLogout(final LogoutDecoder logout)
        {
            heard.add("Logout " + logout.sessionId());
        }

        public void onHeartbeat(final long timestampNs)
        {
            heard.add("Heartbeat");
        }

        public void onOrderStatusReport(final OrderStatusReportDecoder report)
        {
            heard.add("OrderStatusReport " + report.sessionId());
        }

        public void onMassCancelReport(final MassCancelReportDecoder report)
        {
            heard.add("MassCancelReport " + report.sessionId());
        }

        public void onTradeBusted(final TradeBustedDecoder bust)
        {
            heard.add("TradeBusted " + bust.tradeId());
        }
    });

    @Test
    void anotherSessionsMessagesAreIgnoredAndTheSessionStaysLoggedOn()
    {
        logOn();
        deliver(logout(OTHER));
        deliver(executionReport(OTHER));
        deliver(cancelReject(OTHER));
        deliver(businessReject(OTHER));
        deliver(heartbeat(OTHER));
        deliver(orderStatusReport(OTHER));
        deliver(massCancelReport(OTHER));
        deliver(tradeBusted());
        assertTrue(events.isLoggedOn(), "another session's Logout does not log this one out");
        assertEquals(List.of("LogonResponse " + OWN), heard);

        deliver(executionReport(OWN));
        deliver(heartbeat(OWN));
        assertEquals(List.of("LogonResponse " + OWN, "ExecutionReport " + OWN, "Heartbeat"), heard);
        deliver(logout(OWN));
        assertFalse(events.isLoggedOn());
        assertEquals("Logout " + OWN, heard.get(heard.size() - 1));
    }

    @Test
    void beforeALogonIsAcceptedNoSessionMessageIsTaken()
    {
        deliver(executionReport(OTHER));
        deliver(logout(0));
        assertEquals(List.of(), heard);
    }

    @Test
    void aDropCopySessionTakesOtherSessionsReportsAndBustsButNotTheirLogouts()
    {
        events.dropCopies(true);
        logOn();
        deliver(executionReport(OTHER));
        deliver(tradeBusted());
        deliver(logout(OTHER));
        assertTrue(events.isLoggedOn());
        assertEquals(List.of("LogonResponse " + OWN, "ExecutionReport " + OTHER, "TradeBusted 5"), heard);
        assertEquals(1, events.foreignSessionMessages());
    }

    /**
     * A message carrying this session's id, on another publication to this channel (anyone who can reach the
     * client's endpoint can publish there, and session ids are not secret): not the gateway's answer to this session.
     */
    @Test
    void thisSessionsIdOnAnotherPublicationIsNotThisSession()
    {
        final Header gateway = imageHeader(7001);
        final Header other = imageHeader(7002);
        events.expectLogonResponse(42);
        events.onFragment(buffer, 0, logonResponse(), gateway);
        events.onFragment(buffer, 0, logout(OWN), other);
        events.onFragment(buffer, 0, executionReport(OWN), other);
        assertTrue(events.isLoggedOn());
        assertEquals(List.of("LogonResponse " + OWN), heard);
        assertEquals(2, events.foreignSessionMessages());

        events.onFragment(buffer, 0, executionReport(OWN), gateway);
        events.onFragment(buffer, 0, logout(OWN), gateway);
        assertFalse(events.isLoggedOn());
        assertEquals(List.of("LogonResponse " + OWN, "ExecutionReport " + OWN, "Logout " + OWN), heard);
    }

    @Test
    void foreignMessagesAreCounted()
    {
        logOn();
        deliver(logout(OTHER));
        deliver(executionReport(OTHER));
        assertEquals(2, events.foreignSessionMessages());
    }

    private void logOn()
    {
        events.expectLogonResponse(42);
        deliver(logonResponse());
        assertTrue(events.isLoggedOn());
    }

    private int logonResponse()
    {
        return MessageHeaderEncoder.ENCODED_LENGTH + new LogonResponseEncoder()
            .wrapAndApplyHeader(buffer, 0, header).sessionId(OWN).status(LogonStatus.ACCEPTED)
            .rejectReason(RejectReason.NONE).heartbeatIntervalMs(1000).accountId(100).epoch(1).logonRequestId(42)
            .text("").encodedLength();
    }

    /** The Aeron header of a fragment that came on the image of the given publication session. */
    private static Header imageHeader(final int imageSessionId)
    {
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[DataHeaderFlyweight.HEADER_LENGTH]);
        new DataHeaderFlyweight(frame).sessionId(imageSessionId);
        return new Header(0, 16).buffer(frame).offset(0);
    }

    private void deliver(final int length)
    {
        events.onFragment(buffer, 0, length, null);
    }

    private int logout(final long sessionId)
    {
        return MessageHeaderEncoder.ENCODED_LENGTH + new LogoutEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sessionId(sessionId).reason(RejectReason.NONE).text("").encodedLength();
    }

    private int executionReport(final long sessionId)
    {
        return MessageHeaderEncoder.ENCODED_LENGTH + new ExecutionReportEncoder().wrapAndApplyHeader(buffer, 0, header)
            .epoch(1).sessionId(sessionId).accountId(200).instrumentId(1).orderId(9).clientOrderId("X1")
            .execType(ExecType.NEW).orderStatus(OrderStatus.NEW).encodedLength();
    }

    private int cancelReject(final long sessionId)
    {
        return MessageHeaderEncoder.ENCODED_LENGTH + new CancelRejectEncoder().wrapAndApplyHeader(buffer, 0, header)
            .epoch(1).sessionId(sessionId).accountId(200).encodedLength();
    }

    private int businessReject(final long sessionId)
    {
        return MessageHeaderEncoder.ENCODED_LENGTH + new BusinessRejectEncoder().wrapAndApplyHeader(buffer, 0, header)
            .epoch(1).sessionId(sessionId).refTemplateId(10).rejectReason(RejectReason.THROTTLED).text("")
            .encodedLength();
    }

    private int heartbeat(final long sessionId)
    {
        return MessageHeaderEncoder.ENCODED_LENGTH + new HeartbeatEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sessionId(sessionId).timestampNs(1).encodedLength();
    }

    private int orderStatusReport(final long sessionId)
    {
        return MessageHeaderEncoder.ENCODED_LENGTH + new OrderStatusReportEncoder()
            .wrapAndApplyHeader(buffer, 0, header).epoch(1).sessionId(sessionId).statusRequestId("S1")
            .rejectReason(RejectReason.NONE).encodedLength();
    }

    private int massCancelReport(final long sessionId)
    {
        return MessageHeaderEncoder.ENCODED_LENGTH + new MassCancelReportEncoder()
            .wrapAndApplyHeader(buffer, 0, header).epoch(1).sessionId(sessionId).clientRequestId("M1")
            .encodedLength();
    }

    private int tradeBusted()
    {
        return MessageHeaderEncoder.ENCODED_LENGTH + new TradeBustedEncoder().wrapAndApplyHeader(buffer, 0, header)
            .instrumentId(1).tradeId(5).operatorName("op").reason("test").encodedLength();
    }
}
