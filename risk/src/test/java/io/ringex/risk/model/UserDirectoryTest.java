package io.ringex.risk.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.ringex.risk.aeron.EngineEventHandler;
import io.ringex.risk.audit.AdminAudit;
import io.ringex.risk.synthetic.EventEncoders;
import tools.jackson.databind.json.JsonMapper;

/**
 * The user directory fed the engine's egress events (synthetic UserDefinitions and UserDirectoryEnds) through the
 * agent's handler: the answer to this service's request replaces the list, broadcasts update it and never go
 * backwards, other gateways' answers and superseded requests are ignored, and a credential is never kept.
 */
class UserDirectoryTest
{
    private static final int ME = 65535;
    private static final long TIMEOUT_NS = 5_000_000_000L;
    private static final String HASH = "pbkdf2-sha256:20000:c2FsdHNhbHRzYWx0c2FsdA==:aGFzaGhhc2hoYXNoaGFzaA==";

    private final RiskReadModel model = new RiskReadModel(4, 1_000_000_000L, System::nanoTime);
    private final UserDirectory users = new UserDirectory(ME, TIMEOUT_NS);
    private final EngineEventHandler handler = new EngineEventHandler(0, model, (a, b, c, d, e) -> { }, users,
        new AdminAudit(4, id -> null, id -> -1));
    private final EventEncoders events = new EventEncoders();

    private void feed(final int length)
    {
        handler.onFragment(new UnsafeBuffer(events.buffer(), 0, length), 0, length, null);
    }

    private List<String> names()
    {
        return users.users().users().stream().map(Views.UserView::username).toList();
    }

    @Test
    void theAnswerToThisServicesRequestReplacesTheListWhole()
    {
        feed(events.userDefinition(0, 0, "early", true, new long[] {1}, "", HASH, 3));
        assertEquals(List.of("early"), names(), "a broadcast before any directory is applied");
        assertFalse(users.users().loaded());

        users.requested(0, 500, 0);
        feed(events.userDefinition(ME, 500, "bob", true, new long[] {1003}, "BOB", HASH, 7));
        feed(events.userDefinition(7, 500, "mallory", true, new long[] {1}, "", HASH, 7));
        feed(events.userDefinition(ME, 499, "stale", true, new long[] {1}, "", HASH, 7));
        feed(events.userDefinition(ME, 500, "alice", false, new long[] {1003, 1004}, "", "", 7));
        assertEquals(List.of("early"), names(), "nothing shows before the end of the answer");
        feed(events.userDirectoryEnd(7, 500, 1, 7));
        feed(events.userDirectoryEnd(ME, 499, 1, 7));
        assertFalse(users.users().loaded(), "another gateway's end, or an older request's, ends nothing");
        feed(events.userDirectoryEnd(ME, 500, 2, 7));

        assertTrue(users.users().loaded());
        assertEquals(List.of("alice", "bob"), names(), "the answer whole, by name; the others' answers ignored");
        final Views.UserView alice = users.user("alice");
        assertFalse(alice.enabled());
        assertEquals(List.of(1003L, 1004L), alice.accounts());
        assertFalse(alice.passwordSet());
        final Views.UserView bob = users.user("bob");
        assertTrue(bob.passwordSet());
        assertEquals("BOB", bob.fixSenderCompId());
        assertTrue(bob.fixCancelOnDisconnect());
        assertEquals(100, bob.throttleMessagesPerSecond());
        assertEquals(5_000, bob.cancelOnDisconnectGraceMs());
    }

    @Test
    void broadcastsUpdateOneUserAndNeverGoBackwards()
    {
        users.requested(0, 1, 0);
        feed(events.userDirectoryEnd(ME, 1, 0, 4));
        final long before = users.changeCount();
        feed(events.userDefinition(0, 0, "carol", true, new long[] {1}, "", "", 10));
        feed(events.userDefinition(0, 0, "carol", false, new long[] {2}, "", HASH, 12));
        feed(events.userDefinition(0, 0, "carol", true, new long[] {3}, "", "", 11));
        final Views.UserView carol = users.user("carol");
        assertFalse(carol.enabled());
        assertEquals(List.of(2L), carol.accounts());
        assertEquals(12, carol.commandSequence());
        assertTrue(users.changeCount() > before);
    }

    @Test
    void aCredentialHashIsNeverKept() throws Exception
    {
        feed(events.userDefinition(0, 0, "dave", true, new long[] {1}, "", HASH, 1));
        final String json = JsonMapper.builder().build().writeValueAsString(users.users());
        assertFalse(json.contains("c2FsdHNhbHRzYWx0c2FsdA"), json);
        assertTrue(json.contains("\"passwordSet\":true"), json);
    }

    @Test
    void aRequestIsNeededForANewNodeAnExplicitRefreshOrALateAnswer()
    {
        assertTrue(users.requestNeeded(0, 0), "never asked");
        users.requested(0, 1, 0);
        assertFalse(users.requestNeeded(0, TIMEOUT_NS - 1), "asked, not late yet");
        assertTrue(users.requestNeeded(0, TIMEOUT_NS), "late");
        assertTrue(users.requestNeeded(1, 1), "another node followed");
        users.requested(0, 1, TIMEOUT_NS);
        assertFalse(users.requestNeeded(0, 2 * TIMEOUT_NS), "asked again: it waits twice as long");
        assertTrue(users.requestNeeded(0, 3 * TIMEOUT_NS));
        feed(events.userDirectoryEnd(ME, 1, 0, 2));
        assertFalse(users.requestNeeded(0, 10 * TIMEOUT_NS), "answered: not asked again");
        users.invalidate();
        assertTrue(users.requestNeeded(0, 10 * TIMEOUT_NS), "its egress came back: it may have restarted");
        users.requested(0, 2, 0);
        assertFalse(users.users().loaded(), "a new request pending: the list is the previous answer's");
        feed(events.userDirectoryEnd(ME, 2, 0, 2));
        assertTrue(users.users().loaded());
    }

    @Test
    void anAnswerFromANodeNotAskedIsIgnored()
    {
        final RiskReadModel cluster = new RiskReadModel(List.of("members[0]", "members[1]", "members[2]"), 4,
            1_000_000_000L, System::nanoTime);
        final UserDirectory directory = new UserDirectory(ME, TIMEOUT_NS);
        final EngineEventHandler follower = new EngineEventHandler(2, cluster, (a, b, c, d, e) -> { }, directory,
            new AdminAudit(4, id -> null, id -> -1));
        directory.requested(2, 9, 0);
        final int length = events.userDefinition(0, 0, "erin", true, new long[] {1}, "", "", 1);
        follower.onFragment(new UnsafeBuffer(events.buffer(), 0, length), 0, length, null);
        assertEquals(List.of(), directory.users().users(), "a node that is not followed is not listened to");
    }
}
