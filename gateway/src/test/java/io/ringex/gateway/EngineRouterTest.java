package io.ringex.gateway;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.ControlledFragmentHandler.Action;
import io.ringex.protocol.SessionIds;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.MassCancelDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.protocol.codecs.SessionStatusDecoder;
import io.ringex.protocol.codecs.UserDirectoryRequestDecoder;
import io.ringex.testing.Await;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link EngineRouter} against two scripted engine nodes on IPC streams of a real media driver: which node commands
 * go to as the nodes' EngineStatus changes, and which of their client-bound events reach the agent (a new primary
 * re-publishing a window, a superseded primary's late events, another gateway's events).
 */
class EngineRouterTest
{
    private static final String IPC = "aeron:ipc";
    private static final int GATEWAY_ID = 7;
    private static final long OURS = SessionIds.sessionId(GATEWAY_ID, 1);
    private static final long THEIRS = SessionIds.sessionId(GATEWAY_ID + 1, 1);

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[512]);
    private final List<String> delivered = new ArrayList<>();
    private final ExecutionReportDecoder report = new ExecutionReportDecoder();
    private MediaDriver driver;
    private Aeron aeron;
    private EngineRouter router;
    private long nowNs;
    private final Map<Integer, Integer> directoryRequests = new HashMap<>();

    @BeforeEach
    void setUp()
    {
        driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
            .threadingMode(ThreadingMode.SHARED)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .ipcTermBufferLength(64 * 1024));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(router, aeron, driver);
    }

    private GatewayContext twoEngines()
    {
        return new GatewayContext()
            .gatewayId(GATEWAY_ID)
            .aeronDirectoryName(driver.aeronDirectoryName())
            .engineIngressChannel(IPC).engineIngressStreamId(1001)
            .engineEgressChannel(IPC).engineEgressStreamId(1002)
            .marketDataChannel(IPC).marketDataStreamId(1003)
            .engineStatusStreamId(1004)
            .engineStatusTimeoutNs(TimeUnit.SECONDS.toNanos(60))
            .addEngine(new EngineEndpoint(IPC, 1101, IPC, 1102, IPC, 1103, IPC, IPC, 1104))
            .fixEnabled(false)
            .conclude();
    }

    private Action record(final int templateId, final org.agrona.DirectBuffer b, final int offset, final int length,
        final long sessionId)
    {
        report.wrapAndApplyHeader(b, offset, new MessageHeaderDecoder());
        delivered.add(report.commandSequence() + "@" + report.epoch());
        return Action.CONTINUE;
    }

    @Test
    void followsTheHighestEpochsPrimaryAndDeliversEachEventOnce()
    {
        router = new EngineRouter(twoEngines(), aeron, "test ", this::record, (user, disabled, change) -> { });
        final Subscription ingressA = aeron.addSubscription(IPC, 1001);
        final Subscription ingressB = aeron.addSubscription(IPC, 1101);
        final Publication egressA = aeron.addPublication(IPC, 1002);
        final Publication statusA = aeron.addPublication(IPC, 1004);
        final Publication egressB = aeron.addPublication(IPC, 1102);
        final Publication statusB = aeron.addPublication(IPC, 1104);
        pollUntil("engine streams connected", () -> egressA.isConnected() && statusA.isConnected() &&
            egressB.isConnected() && statusB.isConnected());

        // No status yet: no primary, commands refused.
        assertEquals(EngineIngress.NO_PRIMARY, router.ingress().offer(buffer, 0, 16));

        status(statusA, NodeRole.PRIMARY, 1, 1, 0);
        status(statusB, NodeRole.STANDBY, 1, 0, 0);
        pollUntil("node A followed", () -> router.primary() == 0);
        pollUntil("a command reaches A", () -> ingressA.isConnected() && router.ingress().offer(buffer, 0, 16) > 0);
        final List<Integer> atA = new ArrayList<>();
        pollUntil("A receives it", () -> received(ingressA, atA) && atA.size() == 1);
        router.ingress().sessionStatus(OURS, 100, false);
        pollUntil("A receives a SessionStatus", () -> received(ingressA, atA) && atA.size() == 2);
        assertEquals(SessionStatusDecoder.TEMPLATE_ID, atA.get(1));

        report(egressA, OURS, 1, 1);
        report(egressA, OURS, 2, 1);
        report(egressA, OURS, 2, 1);
        report(egressA, THEIRS, 3, 1);
        pollUntil("A's events", () -> delivered.size() == 3);

        // B is promoted (its NewEpoch is command 5); A died after publishing command 3 (another gateway's), before its
        // own command 4.
        status(statusB, NodeRole.PRIMARY, 2, 5, 5);
        pollUntil("node B followed", () -> router.primary() == 1);
        pollUntil("a command reaches B", () -> ingressB.isConnected() && router.ingress().offer(buffer, 0, 16) > 0);
        // What A took since shortly before it was last heard from may be lost with it: B gets that first, then the
        // command.
        final List<Integer> templates = new ArrayList<>();
        pollUntil("B receives them", () -> received(ingressB, templates) && templates.size() == 2);
        assertEquals(SessionStatusDecoder.TEMPLATE_ID, templates.get(0));
        pollUntil("B is asked for the users", () -> received(ingressB, templates) &&
            directoryRequests.containsKey(ingressB.streamId()));
        atA.clear();
        received(ingressA, atA);
        assertEquals(List.of(), atA, "nothing more to the superseded node");

        // B re-publishes its window (2, 2, 3, 4) stamped with its epoch and goes on (6). A's late events, of epoch 1,
        // are dropped.
        report(egressB, OURS, 2, 2);
        report(egressB, OURS, 2, 2);
        report(egressB, THEIRS, 3, 2);
        report(egressB, OURS, 4, 2);
        pollUntil("B's first new event", () -> delivered.size() == 4);
        report(egressA, OURS, 5, 1);
        report(egressB, OURS, 6, 2);
        pollUntil("B's next event", () -> delivered.size() == 5);
        report(egressA, OURS, 7, 1);
        for (int i = 0; i < 100; i++)
        {
            router.poll(++nowNs);
        }
        assertEquals(List.of("1@1", "2@1", "2@1", "4@2", "6@2"), delivered);
        assertTrue(router.epoch() >= 2);
    }

    @Test
    void aNewPrimaryLackingTheOldOnesLastCommandsHasTheAcksOfItsNewCommandsDelivered()
    {
        router = new EngineRouter(twoEngines(), aeron, "test ", this::record, (user, disabled, change) -> { });
        final Publication egressA = aeron.addPublication(IPC, 1002);
        final Publication statusA = aeron.addPublication(IPC, 1004);
        final Publication egressB = aeron.addPublication(IPC, 1102);
        final Publication statusB = aeron.addPublication(IPC, 1104);
        pollUntil("engine streams connected", () -> egressA.isConnected() && statusA.isConnected() &&
            egressB.isConnected() && statusB.isConnected());
        status(statusA, NodeRole.PRIMARY, 1, 1, 0);
        status(statusB, NodeRole.STANDBY, 1, 0, 0);
        pollUntil("node A followed", () -> router.primary() == 0);
        for (long sequence = 1; sequence <= 5; sequence++)
        {
            report(egressA, OURS, sequence, 1);
        }
        pollUntil("A's events", () -> delivered.size() == 5);

        // A dies; B had journaled only 1..3 (ASYNC), so its NewEpoch is 4 and the new orders it acknowledges are
        // commands 5 and 6: 5 is a number A used for another command. B's events come before its status.
        report(egressB, OURS, 2, 2);
        report(egressB, OURS, 3, 2);
        report(egressB, OURS, 5, 2);
        report(egressB, OURS, 6, 2);
        for (int i = 0; i < 100; i++)
        {
            router.poll(++nowNs);
        }
        assertEquals(5, delivered.size(), "held until B's status says where its epoch starts: " + delivered);

        status(statusB, NodeRole.PRIMARY, 2, 4, 6);
        pollUntil("B's new acks", () -> delivered.size() == 7);
        for (int i = 0; i < 100; i++)
        {
            router.poll(++nowNs);
        }
        assertEquals(List.of("1@1", "2@1", "3@1", "4@1", "5@1", "5@2", "6@2"), delivered);
    }

    @Test
    void aGatewayThatDeliveredNothingDoesNotRedeliverTheWindowFromBeforeItJoined()
    {
        router = new EngineRouter(twoEngines(), aeron, "test ", this::record, (user, disabled, change) -> { });
        final Publication egressB = aeron.addPublication(IPC, 1102);
        final Publication statusA = aeron.addPublication(IPC, 1004);
        final Publication statusB = aeron.addPublication(IPC, 1104);
        pollUntil("engine streams connected", () -> statusA.isConnected() && egressB.isConnected() &&
            statusB.isConnected());
        // Joins while A has taken in 10 commands; A dies before any event reaches this gateway.
        status(statusA, NodeRole.PRIMARY, 1, 1, 10);
        pollUntil("node A followed", () -> router.primary() == 0);
        status(statusB, NodeRole.PRIMARY, 2, 13, 13);
        pollUntil("node B followed", () -> router.primary() == 1);

        // B re-sends 9..12: 9 and 10 were before this gateway existed; 11 and 12 may be its own that A never reported.
        for (long sequence = 9; sequence <= 12; sequence++)
        {
            report(egressB, OURS, sequence, 2);
        }
        report(egressB, OURS, 14, 2);
        pollUntil("B's new event", () -> delivered.contains("14@2"));
        assertEquals(List.of("11@2", "12@2", "14@2"), delivered);
    }

    @Test
    void aCancelOnDisconnectIsNotResentAfterItsSessionLoggedOnAgain()
    {
        router = new EngineRouter(twoEngines(), aeron, "test ", this::record, (user, disabled, change) -> { });
        final Subscription ingressA = aeron.addSubscription(IPC, 1001);
        final Subscription ingressB = aeron.addSubscription(IPC, 1101);
        final Publication statusA = aeron.addPublication(IPC, 1004);
        final Publication statusB = aeron.addPublication(IPC, 1104);
        pollUntil("status streams connected", () -> statusA.isConnected() && statusB.isConnected());
        status(statusA, NodeRole.PRIMARY, 1, 1, 0);
        status(statusB, NodeRole.STANDBY, 1, 0, 0);
        pollUntil("node A followed", () -> router.primary() == 0);
        pollUntil("A's ingress connected", () -> ingressA.isConnected() && router.ingress().offer(buffer, 0, 16) > 0);

        // OURS disconnects (cancel-on-disconnect) and logs on again; OTHER disconnects for good. Then OURS orders.
        final long other = SessionIds.sessionId(GATEWAY_ID, 2);
        router.ingress().sessionStatus(OURS, 100, true);
        router.ingress().cancelOnDisconnect(OURS, 100);
        router.ingress().sessionStatus(OURS, 100, false);
        router.ingress().cancelOnDisconnect(other, 100);
        router.ingress().sessionStatus(other, 100, false);
        router.ingress().sessionStatus(OURS, 100, true);
        assertEquals(0, router.ingress().pendingControlCount());
        pollUntil("an order reaches A", () -> router.ingress().offer(buffer, 0, 16) > 0);

        status(statusB, NodeRole.PRIMARY, 2, 5, 5);
        pollUntil("node B followed", () -> router.primary() == 1);
        pollUntil("B's ingress connected", () -> ingressB.isConnected() && router.ingress().offer(buffer, 0, 16) > 0);
        final List<String> received = new ArrayList<>();
        final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
        final SessionStatusDecoder sessionStatus = new SessionStatusDecoder();
        final MassCancelDecoder massCancel = new MassCancelDecoder();
        pollUntil("B receives the re-sent control messages and the order", () ->
        {
            ingressB.poll((b, o, l, h) ->
            {
                headerDecoder.wrap(b, o);
                if (headerDecoder.templateId() == SessionStatusDecoder.TEMPLATE_ID)
                {
                    sessionStatus.wrapAndApplyHeader(b, o, headerDecoder);
                    received.add((sessionStatus.loggedOn() == BooleanType.TRUE ? "on " : "off ") +
                        SessionIds.sessionNumber(sessionStatus.sessionId()));
                }
                else if (headerDecoder.templateId() == MassCancelDecoder.TEMPLATE_ID)
                {
                    massCancel.wrapAndApplyHeader(b, o, headerDecoder);
                    received.add("cod " + SessionIds.sessionNumber(massCancel.sessionId()));
                }
                else
                {
                    received.add("command");
                }
            }, 10);
            return received.contains("command");
        });
        assertEquals(List.of("on 1", "cod 2", "off 2", "on 1", "command"), received);
    }

    @Test
    void aLogoffWithAGraceCarriesItAndIsNotResentAfterItsSessionLoggedOnAgain()
    {
        router = new EngineRouter(twoEngines(), aeron, "test ", this::record, (user, disabled, change) -> { });
        final Subscription ingressA = aeron.addSubscription(IPC, 1001);
        final Subscription ingressB = aeron.addSubscription(IPC, 1101);
        final Publication statusA = aeron.addPublication(IPC, 1004);
        final Publication statusB = aeron.addPublication(IPC, 1104);
        pollUntil("status streams connected", () -> statusA.isConnected() && statusB.isConnected());
        status(statusA, NodeRole.PRIMARY, 1, 1, 0);
        status(statusB, NodeRole.STANDBY, 1, 0, 0);
        pollUntil("node A followed", () -> router.primary() == 0);
        pollUntil("A's ingress connected", () -> ingressA.isConnected() && router.ingress().offer(buffer, 0, 16) > 0);

        // OURS goes without a grace (cancelled at once), comes back, goes with a grace and is back within it; OTHER
        // goes with a grace for good. Then OURS orders.
        final long other = SessionIds.sessionId(GATEWAY_ID, 2);
        router.ingress().sessionStatus(OURS, 100, true);
        router.ingress().cancelOnDisconnect(OURS, 100);
        router.ingress().sessionStatus(OURS, 100, false);
        router.ingress().sessionStatus(OURS, 100, true);
        router.ingress().sessionStatus(OURS, 100, false, 5_000);
        router.ingress().sessionStatus(OURS, 100, true, 5_000);
        router.ingress().sessionStatus(other, 100, false, 7_000);
        pollUntil("an order reaches A", () -> router.ingress().offer(buffer, 0, 16) > 0);
        final List<String> atA = new ArrayList<>();
        pollUntil("A receives the control messages and the order", () -> controlMessages(ingressA, atA) &&
            atA.contains("off 2 grace 7000") && atA.lastIndexOf("command") > atA.indexOf("off 2 grace 7000"));
        // A logoff without a grace carries none (the cancel-on-disconnect before it shares the encoding buffer), and
        // a logon carries none whatever it is given.
        assertEquals(List.of("command", "on 1", "cod 1", "off 1", "on 1", "off 1 grace 5000", "on 1",
            "off 2 grace 7000", "command"), atA);

        status(statusB, NodeRole.PRIMARY, 2, 5, 5);
        pollUntil("node B followed", () -> router.primary() == 1);
        pollUntil("B's ingress connected", () -> ingressB.isConnected() && router.ingress().offer(buffer, 0, 16) > 0);
        final List<String> atB = new ArrayList<>();
        pollUntil("B receives the re-sent control messages and the order", () -> controlMessages(ingressB, atB) &&
            atB.contains("command"));
        // OURS logged on again after each logoff: neither is re-sent, or the grace's timer would cancel what OURS
        // entered since. OTHER's logoff is, with its grace.
        assertEquals(List.of("on 1", "on 1", "on 1", "off 2 grace 7000", "command"), atB);
        assertEquals(3, router.ingress().controlSuperseded());
    }

    private static boolean controlMessages(final Subscription ingress, final List<String> received)
    {
        final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
        final SessionStatusDecoder sessionStatus = new SessionStatusDecoder();
        final MassCancelDecoder massCancel = new MassCancelDecoder();
        ingress.poll((b, o, l, h) ->
        {
            headerDecoder.wrap(b, o);
            if (headerDecoder.templateId() == SessionStatusDecoder.TEMPLATE_ID)
            {
                sessionStatus.wrapAndApplyHeader(b, o, headerDecoder);
                final int graceMs = sessionStatus.cancelOnDisconnectGraceMs();
                received.add((sessionStatus.loggedOn() == BooleanType.TRUE ? "on " : "off ") +
                    SessionIds.sessionNumber(sessionStatus.sessionId()) + (graceMs == 0 ? "" : " grace " + graceMs));
            }
            else if (headerDecoder.templateId() == MassCancelDecoder.TEMPLATE_ID)
            {
                massCancel.wrapAndApplyHeader(b, o, headerDecoder);
                received.add("cod " + SessionIds.sessionNumber(massCancel.sessionId()));
            }
            else if (headerDecoder.templateId() != UserDirectoryRequestDecoder.TEMPLATE_ID)
            {
                // The gateway's own directory requests come when they come: left out.
                received.add("command");
            }
        }, 10);
        return true;
    }

    @Test
    void aSingleEngineIsUsedWithoutStatus()
    {
        router = new EngineRouter(new GatewayContext()
            .gatewayId(GATEWAY_ID)
            .aeronDirectoryName(driver.aeronDirectoryName())
            .engineIngressChannel(IPC).engineIngressStreamId(1001)
            .engineEgressChannel(IPC).engineEgressStreamId(1002)
            .fixEnabled(false)
            .conclude(), aeron, "test ", this::record, (user, disabled, change) -> { });
        final Subscription ingress = aeron.addSubscription(IPC, 1001);
        pollUntil("a command reaches the engine", () -> ingress.isConnected() &&
            router.ingress().offer(buffer, 0, 16) > 0);
        assertEquals(0, router.primary());
    }

    /**
     * Poll an engine's ingress: each command's template into the list; the gateway's user directory requests (one
     * each time it follows a node) are counted apart.
     */
    private boolean received(final Subscription ingress, final List<Integer> templates)
    {
        ingress.poll((b, o, l, h) ->
        {
            final int templateId = b.getShort(o + 2, MessageHeaderDecoder.BYTE_ORDER) & 0xFFFF;
            if (templateId == UserDirectoryRequestDecoder.TEMPLATE_ID)
            {
                directoryRequests.merge(ingress.streamId(), 1, Integer::sum);
            }
            else
            {
                templates.add(templateId);
            }
        }, 10);
        return true;
    }

    private void pollUntil(final String what, final BooleanSupplier condition)
    {
        Await.until(what, Duration.ofSeconds(10), condition, () -> router.poll(++nowNs),
            () -> "delivered " + delivered);
    }

    private void status(
        final Publication publication, final NodeRole role, final long epoch, final long epochStartSequence,
        final long ingressSequence)
    {
        offer(publication, ScriptedEngineMessages.status(
            buffer, publication.streamId(), role, epoch, epochStartSequence, ingressSequence));
    }

    private void report(final Publication publication, final long sessionId, final long sequence, final long epoch)
    {
        offer(publication, ScriptedEngineMessages.newReport(buffer, sessionId, "C" + sequence, sequence, epoch));
    }

    private void offer(final Publication publication, final int length)
    {
        pollUntil("offered", () -> publication.offer(buffer, 0, length) > 0);
    }
}
