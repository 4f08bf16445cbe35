package io.ringex.gateway.fix;

import io.ringex.gateway.SessionNumbers;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.Test;
import uk.co.real_logic.artio.Reply;
import uk.co.real_logic.artio.messages.SessionReplyStatus;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FixOfflineSessionsTest
{
    private static final long ARTIO_ID = 7;
    private static final int SESSION = SessionNumbers.fix(ARTIO_ID);
    private static final long RETRY_NS = 1_000_000_000L;

    private final CountersManager counters =
        new CountersManager(new UnsafeBuffer(new byte[64 * 1024]), new UnsafeBuffer(new byte[16 * 1024]));
    private final AtomicCounter dropped = counters.newCounter("dropped");
    private final AtomicCounter held = counters.newCounter("held");
    private final List<Long> requests = new ArrayList<>();
    private final List<Integer> delivered = new ArrayList<>();
    private final List<String> log = new ArrayList<>();
    private final UnsafeBuffer message = new UnsafeBuffer(new byte[2048]);
    private FakeReply reply = new FakeReply();
    private boolean libraryCanAsk = true;
    private boolean haveSession;
    private int backPressureOnce = -1;
    private long nowNs = 1_000;

    private final FixOfflineSessions offline = new FixOfflineSessions(
        this::request, this::deliver, dropped, held, 4096, RETRY_NS, "gw ", log::add);

    private Reply<SessionReplyStatus> request(final long artioSessionId)
    {
        if (!libraryCanAsk)
        {
            return null;
        }
        requests.add(artioSessionId);
        return reply;
    }

    private int deliver(final int sessionNumber, final DirectBuffer buffer, final int offset, final int length)
    {
        assertEquals(SESSION, sessionNumber);
        if (!haveSession)
        {
            return FixOfflineSessions.Delivery.NO_SESSION;
        }
        final int value = buffer.getInt(offset);
        if (value == backPressureOnce)
        {
            backPressureOnce = -1;
            return FixOfflineSessions.Delivery.RETRY;
        }
        delivered.add(value);
        return FixOfflineSessions.Delivery.DELIVERED;
    }

    private void hold(final int value, final int length)
    {
        message.putInt(0, value);
        offline.hold(SESSION, message, 0, length, nowNs);
    }

    private void pollTimes(final int times)
    {
        for (int i = 0; i < times; i++)
        {
            offline.poll(nowNs);
        }
    }

    @Test
    void heldReportsGoOutInOrderOnceTheSessionIsAcquired()
    {
        assertFalse(offline.isHolding(SESSION));
        hold(1, 64);
        hold(2, 64);
        assertTrue(offline.isHolding(SESSION));
        pollTimes(3);
        assertEquals(List.of(ARTIO_ID), requests, "asked once, while the reply is outstanding");
        hold(3, 64);
        assertEquals(3, held.get());

        haveSession = true;
        reply.complete(SessionReplyStatus.OK);
        pollTimes(1);
        assertEquals(List.of(1, 2, 3), delivered);
        assertFalse(offline.isHolding(SESSION));
        assertEquals(0, held.get());
        assertEquals(0, dropped.get());
        assertTrue(log.isEmpty(), log.toString());
    }

    @Test
    void backPressureKeepsTheRestHeldInOrder()
    {
        haveSession = true;
        backPressureOnce = 2;
        hold(1, 64);
        hold(2, 64);
        hold(3, 64);
        pollTimes(1);
        assertEquals(List.of(1), delivered);
        assertTrue(offline.isHolding(SESSION));
        pollTimes(1);
        assertEquals(List.of(1, 2, 3), delivered);
        assertTrue(requests.isEmpty(), "the session was there: nothing to ask for");
    }

    @Test
    void reportsBeyondTheBoundAreCountedAndTheSessionNamedOnce()
    {
        for (int i = 0; i < 6; i++)
        {
            hold(i, 1000);
        }
        assertEquals(4, held.get(), "4096 bytes hold four reports of 1000 (+8 header each)");
        assertEquals(2, dropped.get());
        assertEquals(1, log.size(), log.toString());
        assertTrue(log.get(0).contains("FIX session " + ARTIO_ID), log.get(0));

        haveSession = true;
        pollTimes(1);
        assertEquals(List.of(0, 1, 2, 3), delivered);
        assertEquals(2, log.size());
    }

    @Test
    void anUnknownSessionDropsWhatWasHeldAndSaysSo()
    {
        hold(1, 64);
        hold(2, 64);
        pollTimes(1);
        reply.complete(SessionReplyStatus.UNKNOWN_SESSION);
        pollTimes(1);
        assertEquals(2, dropped.get());
        assertEquals(0, held.get());
        assertFalse(offline.isHolding(SESSION));
        assertEquals(1, log.size());
        assertTrue(log.get(0).contains("FIX session " + ARTIO_ID) && log.get(0).contains("UNKNOWN_SESSION"),
            log.get(0));

        // Later reports for it are dropped at once, counted, without asking Artio again each time...
        final int requestsBefore = requests.size();
        hold(3, 64);
        pollTimes(3);
        assertEquals(3, dropped.get());
        assertFalse(offline.isHolding(SESSION));
        assertEquals(requestsBefore, requests.size());
        // ...until the session shows up (it logged on): then they are held and delivered again.
        offline.known(SESSION);
        hold(4, 64);
        assertTrue(offline.isHolding(SESSION));
    }

    @Test
    void whatIsStillHeldWhenTheGatewayClosesIsCountedAndLogged()
    {
        hold(1, 64);
        hold(2, 64);
        offline.close();
        assertEquals(2, dropped.get());
        assertEquals(0, held.get());
        assertTrue(log.get(0).contains("dropping 2 report(s)") && log.get(0).contains("closed"), log.toString());
    }

    @Test
    void refusalsAreAskedAgainAfterAWhileThenGivenUp()
    {
        hold(1, 64);
        for (int i = 0; i < FixOfflineSessions.MAX_REQUESTS; i++)
        {
            pollTimes(1);
            assertEquals(i + 1, requests.size());
            reply.complete(SessionReplyStatus.SESSION_NOT_LOGGED_IN);
            reply = new FakeReply();
            pollTimes(2);
            assertEquals(i + 1, requests.size(), "not before the retry interval");
            nowNs += RETRY_NS;
        }
        assertEquals(1, dropped.get());
        assertFalse(offline.isHolding(SESSION));
        assertTrue(log.get(0).contains("SESSION_NOT_LOGGED_IN"), log.toString());
    }

    @Test
    void aLibraryThatCannotAskYetIsWaitedFor()
    {
        libraryCanAsk = false;
        hold(1, 64);
        pollTimes(10);
        assertTrue(offline.isHolding(SESSION));
        libraryCanAsk = true;
        pollTimes(1);
        assertEquals(List.of(ARTIO_ID), requests);
        assertEquals(0, dropped.get());
    }

    /** Artio's reply, completed by the test. */
    private static final class FakeReply implements Reply<SessionReplyStatus>
    {
        private State state = State.EXECUTING;
        private SessionReplyStatus result;

        void complete(final SessionReplyStatus status)
        {
            result = status;
            state = State.COMPLETED;
        }

        public Throwable error()
        {
            return null;
        }

        public SessionReplyStatus resultIfPresent()
        {
            return result;
        }

        public State state()
        {
            return state;
        }
    }
}
