package io.ringex.gateway.sbe;

import io.ringex.gateway.testing.SeededRandom;
import io.ringex.gateway.testing.TestUsers;
import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.codecs.BusinessRejectDecoder;
import io.ringex.protocol.codecs.HeartbeatDecoder;
import io.ringex.protocol.codecs.LogonResponseDecoder;
import io.ringex.protocol.codecs.LogonResponseEncoder;
import io.ringex.protocol.codecs.LogonStatus;
import io.ringex.protocol.codecs.LogoutDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.NewOrderDecoder;
import io.ringex.protocol.codecs.RejectReason;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The replies the SBE gateway builds itself, with extreme values in every numeric field (session id, epoch, account,
 * heartbeat interval, timestamps, template ids, reasons): each must be a valid message ({@link MessageValidator})
 * that decodes to the values given, or, where the schema's field is narrower than its source, to the nearest value
 * it can hold (never a truncated other number).
 */
class SbeRepliesTest
{
    private static final int HEADER = MessageHeaderDecoder.ENCODED_LENGTH;

    private final CountersManager counters = new CountersManager(
        new UnsafeBuffer(new byte[64 * 1024]), new UnsafeBuffer(new byte[16 * 1024]));
    private final AtomicCounter rejects = counters.newCounter("rejects");
    private final AtomicCounter dropped = counters.newCounter("dropped");
    private final SbeReplies replies = new SbeReplies(rejects, dropped);
    private final MessageValidator validator = new MessageValidator(1024);
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();

    private ClientSession session(final long sessionId, final long heartbeatIntervalNs)
    {
        final ClientSession session = new ClientSession(1, "aeron:ipc", 3001, null, 0);
        session.user = TestUsers.ALICE;
        session.sessionId = sessionId;
        session.heartbeatIntervalNs = heartbeatIntervalNs;
        session.state = ClientSession.State.AWAITING_CONNECTION;
        return session;
    }

    private UnsafeBuffer valid(final int length)
    {
        final UnsafeBuffer buffer = replies.sendBuffer();
        assertEquals(RejectReason.NONE, validator.validate(buffer, 0, length));
        header.wrap(buffer, 0);
        return buffer;
    }

    @Test
    void everyNumericFieldAtEveryEdge()
    {
        for (final long value : SeededRandom.EDGE_LONGS)
        {
            checkAll(value, value, value, value);
        }
        final SeededRandom random = SeededRandom.forTest("SbeReplies everyNumericFieldAtEveryEdge");
        for (int i = 0; i < 5_000; i++)
        {
            checkAll(random.extremeLong(), random.extremeLong(), random.extremeLong(), random.extremeLong());
        }
    }

    private void checkAll(final long sessionId, final long epoch, final long heartbeatNs, final long nowNs)
    {
        final String what = "session " + sessionId + " epoch " + epoch + " heartbeatNs " + heartbeatNs + " now " +
            nowNs;
        final ClientSession session = session(sessionId, heartbeatNs);

        final UnsafeBuffer logon = valid(replies.encodeLogonResponse(session, epoch));
        final LogonResponseDecoder response = new LogonResponseDecoder().wrap(logon, HEADER, header.blockLength(),
            header.version());
        assertEquals(sessionId, response.sessionId(), what);
        assertEquals(epoch, response.epoch(), what);
        assertEquals(LogonStatus.ACCEPTED, response.status());
        assertEquals(TestUsers.ALICE_ACCOUNT, response.accountId());
        final long expectedMs = Math.min(Math.max(0, TimeUnit.NANOSECONDS.toMillis(heartbeatNs)),
            LogonResponseEncoder.heartbeatIntervalMsMaxValue());
        assertEquals(expectedMs, response.heartbeatIntervalMs(), what);

        session.state = ClientSession.State.REJECTING;
        session.logonRejectReason = RejectReason.INVALID_CREDENTIALS;
        session.logonRejectText = "logon refused";
        final UnsafeBuffer refused = valid(replies.encodeLogonResponse(session, epoch));
        final LogonResponseDecoder refusal = new LogonResponseDecoder().wrap(refused, HEADER, header.blockLength(),
            header.version());
        assertEquals(LogonStatus.REJECTED, refusal.status());
        assertEquals(0, refusal.sessionId());
        assertEquals(RejectReason.INVALID_CREDENTIALS, refusal.rejectReason());

        final UnsafeBuffer heartbeat = valid(replies.encodeHeartbeat(session, nowNs));
        final HeartbeatDecoder beat = new HeartbeatDecoder().wrap(heartbeat, HEADER, header.blockLength(),
            header.version());
        assertEquals(sessionId, beat.sessionId());
        assertEquals(nowNs, beat.timestampNs());

        for (final RejectReason reason : new RejectReason[]{ RejectReason.NONE, RejectReason.NOT_LOGGED_ON })
        {
            final UnsafeBuffer logout = valid(replies.encodeLogout(session, reason));
            final LogoutDecoder bye = new LogoutDecoder().wrap(logout, HEADER, header.blockLength(), header.version());
            assertEquals(sessionId, bye.sessionId());
            assertEquals(reason, bye.reason());
        }

        for (final int refTemplateId : new int[]{ 0, NewOrderDecoder.TEMPLATE_ID, 65_535, 65_536, -1 })
        {
            for (final RejectReason reason : new RejectReason[]{ RejectReason.MALFORMED, RejectReason.STALE_EPOCH })
            {
                final UnsafeBuffer reject = valid(replies.encodeReject(session, refTemplateId, null, 0, reason,
                    null, epoch));
                final BusinessRejectDecoder d = new BusinessRejectDecoder().wrap(reject, HEADER,
                    header.blockLength(), header.version());
                assertEquals(epoch, d.epoch());
                assertEquals(sessionId, d.sessionId());
                assertEquals(refTemplateId & 0xFFFF, d.refTemplateId());
                assertEquals(reason, d.rejectReason());
                assertEquals("", d.refClientOrderId());
                assertEquals(reason.name(), d.text());
            }
        }
    }
}
