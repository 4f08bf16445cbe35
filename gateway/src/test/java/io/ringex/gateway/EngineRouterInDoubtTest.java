package io.ringex.gateway;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.ControlledFragmentHandler.Action;
import io.ringex.client.CommandEncoder;
import io.ringex.protocol.PrimarySelector;
import io.ringex.protocol.SessionIds;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.GatewayBarrierDecoder;
import io.ringex.protocol.codecs.GatewayBarrierReachedEncoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewOrderDecoder;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.UserDirectoryRequestDecoder;
import io.ringex.testing.Await;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link EngineRouter}'s commands in doubt, against two scripted engine nodes on IPC streams of a real media driver:
 * node A takes three orders, answers the first and dies; node B is promoted. If B's re-sent window reaches back to
 * just after the last command of A's the router saw answered, the two unanswered orders cannot be in B unanswered, so
 * they are re-submitted to B after the barrier, before anything newer; if the window does not reach back that far,
 * each is answered by the gateway itself, OUTCOME_UNKNOWN, and nothing is re-submitted. A single node that restarts
 * is a new era of the same node: what it had not answered is settled the same way, from where its journal ends. And
 * orders lost on their way into a primary that stays the same are asked about with a barrier and re-submitted once.
 */
class EngineRouterInDoubtTest
{
    private static final String IPC = "aeron:ipc";
    private static final int GATEWAY_ID = 7;
    private static final long OURS = SessionIds.sessionId(GATEWAY_ID, 1);
    private static final long THEIRS = SessionIds.sessionId(GATEWAY_ID + 1, 1);
    private static final long STATUS_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[512]);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final CommandEncoder commands = new CommandEncoder();
    private final List<String> delivered = new ArrayList<>();
    private MediaDriver driver;
    private Aeron aeron;
    private EngineRouter router;
    private Subscription ingressA;
    private Subscription ingressB;
    private Publication egressA;
    private Publication statusA;
    private Publication egressB;
    private Publication statusB;
    private long nowNs;

    @BeforeEach
    void setUp()
    {
        driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
            .threadingMode(ThreadingMode.SHARED)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .ipcTermBufferLength(64 * 1024));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
        router = newRouter(true);
        ingressA = aeron.addSubscription(IPC, 1001);
        ingressB = aeron.addSubscription(IPC, 1101);
        egressA = aeron.addPublication(IPC, 1002);
        statusA = aeron.addPublication(IPC, 1004);
        egressB = aeron.addPublication(IPC, 1102);
        statusB = aeron.addPublication(IPC, 1104);
        pollUntil("engine streams connected", () -> egressA.isConnected() && statusA.isConnected() &&
            egressB.isConnected() && statusB.isConnected());
    }

    private EngineRouter newRouter(final boolean pair)
    {
        final GatewayContext ctx = new GatewayContext()
            .gatewayId(GATEWAY_ID)
            .aeronDirectoryName(driver.aeronDirectoryName())
            .engineIngressChannel(IPC).engineIngressStreamId(1001)
            .engineEgressChannel(IPC).engineEgressStreamId(1002)
            .marketDataChannel(IPC).marketDataStreamId(1003)
            .engineStatusStreamId(1004)
            .engineStatusTimeoutNs(STATUS_TIMEOUT_NS)
            .fixEnabled(false);
        if (pair)
        {
            ctx.addEngine(new EngineEndpoint(IPC, 1101, IPC, 1102, IPC, 1103, IPC, IPC, 1104));
        }
        return new EngineRouter(ctx.conclude(), aeron, "test ", this::record, (user, disabled, change) -> { });
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(router, aeron, driver);
    }

    @Test
    void ordersInDoubtAreResubmittedWhenTheNewPrimarysWindowCoversThem()
    {
        aTakesThreeOrdersAndAnswersOne();

        // B holds A's commands up to 4 (its NewEpoch is 5) and re-sends its window from command 4 on: just after 3,
        // the last of A's the router saw. So orders 2 and 3, unanswered, are not in B.
        status(statusB, NodeRole.PRIMARY, 2, 5);
        pollUntil("node B followed", () -> router.primary() == 1);
        report(egressB, THEIRS, "9", 4, 2);
        final long token = awaitBarrier(ingressB);
        assertEquals(Publication.BACK_PRESSURED, offerOrder(4), "new orders wait while the doubts are settled");
        barrierReached(egressB, 2, token, 6);

        assertEquals(List.of("NewOrder 2", "NewOrder 3"), received(ingressB, 2), "re-submitted, in order");
        pollUntil("order 4 goes once they have", () -> offerOrder(4) > 0);
        assertEquals(List.of("NewOrder 4"), received(ingressB, 1));
        assertEquals(List.of("1 NEW"), delivered, "the gateway answered nothing itself");
        assertFalse(router.isSettlingDoubts());
        assertEquals(3, router.inFlight().size(), "2, 3 and 4 await B's answers");
    }

    @Test
    void ordersInDoubtAreAnsweredOutcomeUnknownWhenTheWindowMayHaveLostTheirReports()
    {
        aTakesThreeOrdersAndAnswersOne();

        // B holds A's commands up to 11 and its window starts at 8: the reports of 4..7 may have been lost, and 2 or
        // 3 may be among those commands. Re-sending could execute them twice.
        status(statusB, NodeRole.PRIMARY, 2, 12);
        pollUntil("node B followed", () -> router.primary() == 1);
        report(egressB, THEIRS, "9", 8, 2);
        barrierReached(egressB, 2, awaitBarrier(ingressB), 13);

        pollUntil("both answered", () -> delivered.size() == 3);
        assertEquals("1 NEW", delivered.get(0));
        assertTrue(delivered.get(1).startsWith("2 REJECTED OUTCOME_UNKNOWN seq -"), delivered.get(1));
        assertTrue(delivered.get(2).startsWith("3 REJECTED OUTCOME_UNKNOWN seq -"), delivered.get(2));
        assertEquals(0, router.inFlight().size());
        pollUntil("a new order goes to B", () -> offerOrder(4) > 0);
        assertEquals(List.of("NewOrder 4"), received(ingressB, 1), "nothing was re-submitted");
    }

    @Test
    void aSingleNodeThatRestartsHoldingNothingUnseenGetsTheOrdersItLostAgain()
    {
        singleNodeTakesThreeOrdersAndAnswersOne();

        // It restarts from its journal, which ends at 3, the last command whose events the router saw: orders 2 and 3
        // never reached it.
        status(statusA, NodeRole.PRIMARY, 1, 4);
        final long token = awaitBarrier(ingressA);
        assertEquals(Publication.BACK_PRESSURED, offerOrder(4), "new orders wait while the doubts are settled");
        barrierReached(egressA, 1, token, 4);

        assertEquals(List.of("NewOrder 2", "NewOrder 3"), received(ingressA, 2), "re-submitted, in order");
        pollUntil("order 4 goes once they have", () -> offerOrder(4) > 0);
        assertEquals(List.of("NewOrder 4"), received(ingressA, 1));
        assertEquals(List.of("1 NEW"), delivered, "the gateway answered nothing itself");
    }

    @Test
    void aSingleNodeThatRestartsHoldingMoreThanTheRouterSawAnswersTheRestOutcomeUnknown()
    {
        singleNodeTakesThreeOrdersAndAnswersOne();

        // Its journal ends at 7: the reports of 4..7 died with the process, and 2 or 3 may be among those commands.
        status(statusA, NodeRole.PRIMARY, 1, 8);
        barrierReached(egressA, 1, awaitBarrier(ingressA), 8);

        pollUntil("both answered", () -> delivered.size() == 3);
        assertTrue(delivered.get(1).startsWith("2 REJECTED OUTCOME_UNKNOWN seq -"), delivered.get(1));
        assertTrue(delivered.get(2).startsWith("3 REJECTED OUTCOME_UNKNOWN seq -"), delivered.get(2));
        assertEquals(0, router.inFlight().size());
    }

    @Test
    void ordersLostOnTheirWayIntoAnUnchangedPrimaryAreAskedAboutAndReSubmittedOnce()
    {
        singleNodeTakesThreeOrdersAndAnswersOne();

        // Orders 2 and 3 never reach the node's state, which stays PRIMARY in the same era: after twice the status
        // timeout the router asks it with a barrier, and what is unanswered when the barrier is reached goes again.
        stillPrimaryAfter(2 * STATUS_TIMEOUT_NS + 1);
        final long token = awaitBarrier(ingressA);
        assertEquals(Publication.BACK_PRESSURED, offerOrder(4), "new orders wait while the doubts are settled");
        barrierReached(egressA, 1, token, 4);
        assertEquals(List.of("NewOrder 2", "NewOrder 3"), received(ingressA, 2), "re-submitted, in order");
        pollUntil("order 4 goes once they have", () -> offerOrder(4) > 0);
        assertEquals(List.of("NewOrder 4"), received(ingressA, 1));
        report(egressA, OURS, "2", 5, 1);
        report(egressA, OURS, "4", 6, 1);
        pollUntil("orders 2 and 4 answered", () -> delivered.size() == 3 && router.inFlight().size() == 1);

        // Order 3 is lost again: asked about a second time, it is answered by the gateway, not sent a third time.
        stillPrimaryAfter(2 * STATUS_TIMEOUT_NS + 1);
        barrierReached(egressA, 1, awaitBarrier(ingressA), 7);
        pollUntil("order 3 answered", () -> delivered.size() == 4);
        assertEquals(List.of("1 NEW", "2 NEW", "4 NEW"), delivered.subList(0, 3));
        assertTrue(delivered.get(3).startsWith("3 REJECTED OUTCOME_UNKNOWN seq -"), delivered.get(3));
        assertEquals(0, router.inFlight().size());
        pollUntil("a new order goes", () -> offerOrder(5) > 0);
        assertEquals(List.of("NewOrder 5"), received(ingressA, 1), "order 3 was not sent again");
    }

    @Test
    void aNewPrimaryWhileTheOldOneIsAskedAboutUnansweredOrdersSettlesThemAsAnyChangeOfPrimaryWould()
    {
        aTakesThreeOrdersAndAnswersOne();

        // A, still primary, is asked about orders 2 and 3 and dies before it answers; B takes over, its window from
        // command 4 on, just after the last of A's the router saw: 2 and 3 are not in B, and go to B.
        stillPrimaryAfter(2 * STATUS_TIMEOUT_NS + 1);
        awaitBarrier(ingressA);
        status(statusB, NodeRole.PRIMARY, 2, 5);
        pollUntil("node B followed", () -> router.primary() == 1);
        report(egressB, THEIRS, "9", 4, 2);
        barrierReached(egressB, 2, awaitBarrier(ingressB), 6);
        assertEquals(List.of("NewOrder 2", "NewOrder 3"), received(ingressB, 2), "re-submitted, in order");
        assertEquals(List.of("1 NEW"), delivered, "the gateway answered nothing itself");
    }

    @Test
    void aPrimaryThatAnsweredEverythingIsAskedAboutNothing()
    {
        singleNodeTakesThreeOrdersAndAnswersOne();
        report(egressA, OURS, "2", 4, 1);
        report(egressA, OURS, "3", 5, 1);
        pollUntil("orders 2 and 3 answered", () -> delivered.size() == 3 && router.inFlight().size() == 0);

        stillPrimaryAfter(2 * STATUS_TIMEOUT_NS + 1);
        pollUntil("a new order goes at once", () -> offerOrder(4) > 0);
        assertEquals(List.of("NewOrder 4"), received(ingressA, 1), "no barrier: nothing was unanswered");
        assertFalse(router.isSettlingDoubts());
    }

    @Test
    void aSingleNodeWhoseStatusFallsSilentGetsNoOrdersUntilItIsBack()
    {
        router.close();
        router = newRouter(false);
        pollUntil("a stand-in with no status still takes orders", () -> offerOrder(1) > 0);
        status(statusA, NodeRole.PRIMARY, 1, 1);
        pollUntil("node followed by its status", router::followsStatus);

        nowNs += STATUS_TIMEOUT_NS + 1;
        pollUntil("node lost", () -> router.primary() == PrimarySelector.NONE);
        assertEquals(EngineIngress.NO_PRIMARY, offerOrder(2), "refused at once, not sent into the void");

        status(statusA, NodeRole.PRIMARY, 1, 1);
        pollUntil("node back", () -> router.primary() == 0);
        pollUntil("orders go again", () -> offerOrder(2) > 0);
        assertEquals(List.of("NewOrder 1", "NewOrder 2"), received(ingressA, 2));
    }

    private void singleNodeTakesThreeOrdersAndAnswersOne()
    {
        router.close();
        router = newRouter(false);
        status(statusA, NodeRole.PRIMARY, 1, 1);
        pollUntil("the node followed by its status", router::followsStatus);
        pollUntil("order 1 reaches it", () -> ingressA.isConnected() && offerOrder(1) > 0);
        pollUntil("order 2", () -> offerOrder(2) > 0);
        pollUntil("order 3", () -> offerOrder(3) > 0);
        assertEquals(3, received(ingressA, 3).size());
        report(egressA, OURS, "1", 2, 1);
        report(egressA, THEIRS, "8", 3, 1);
        pollUntil("order 1 answered", () -> delivered.size() == 1 && router.inFlight().size() == 2);
    }

    /**
     * The router's clock moves on by {@code ms}, and the single node's status says it is still PRIMARY in its era.
     */
    private void stillPrimaryAfter(final long ns)
    {
        nowNs += ns;
        status(statusA, NodeRole.PRIMARY, 1, 1);
        pollUntil("the node still followed", () -> router.primary() == 0);
    }

    private void aTakesThreeOrdersAndAnswersOne()
    {
        status(statusA, NodeRole.PRIMARY, 1, 1);
        status(statusB, NodeRole.STANDBY, 1, 0);
        pollUntil("node A followed", () -> router.primary() == 0);
        pollUntil("order 1 reaches A", () -> ingressA.isConnected() && offerOrder(1) > 0);
        pollUntil("orders 2 and 3 reach A", () -> offerOrder(2) > 0);
        pollUntil("order 3", () -> offerOrder(3) > 0);
        assertEquals(3, received(ingressA, 3).size());
        report(egressA, OURS, "1", 2, 1);
        report(egressA, THEIRS, "8", 3, 1);
        pollUntil("order 1 answered", () -> delivered.size() == 1 && router.inFlight().size() == 2);
    }

    private long offerOrder(final long clientOrderId)
    {
        final int length = commands.limit(OURS, 100, clientOrderId, 1, Side.BUY, 100, 1);
        return router.ingress().offer(commands.buffer(), 0, length);
    }

    private long awaitBarrier(final Subscription ingress)
    {
        final long[] token = { 0 };
        pollUntil("a barrier reaches the new primary", () ->
        {
            ingress.poll((b, o, l, h) ->
            {
                headerDecoder.wrap(b, o);
                if (headerDecoder.templateId() == UserDirectoryRequestDecoder.TEMPLATE_ID)
                {
                    return;
                }
                assertEquals(GatewayBarrierDecoder.TEMPLATE_ID, headerDecoder.templateId(), "the barrier first");
                final GatewayBarrierDecoder barrier = new GatewayBarrierDecoder().wrapAndApplyHeader(b, o,
                    headerDecoder);
                assertEquals(SessionIds.sessionId(GATEWAY_ID, 0), barrier.sessionId());
                token[0] = barrier.token();
            }, 1);
            return token[0] != 0;
        });
        return token[0];
    }

    private void barrierReached(
        final Publication egress, final long epoch, final long token, final long commandSequence)
    {
        final GatewayBarrierReachedEncoder encoder = new GatewayBarrierReachedEncoder()
            .wrapAndApplyHeader(buffer, 0, header)
            .epoch(epoch)
            .sessionId(SessionIds.sessionId(GATEWAY_ID, 0))
            .token(token)
            .commandSequence(commandSequence);
        offer(egress, MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength());
    }

    private List<String> received(final Subscription ingress, final int count)
    {
        final List<String> messages = new ArrayList<>();
        final NewOrderDecoder order = new NewOrderDecoder();
        pollUntil(count + " messages received", () ->
        {
            ingress.poll((b, o, l, h) ->
            {
                headerDecoder.wrap(b, o);
                if (headerDecoder.templateId() == UserDirectoryRequestDecoder.TEMPLATE_ID)
                {
                    // The router asks each node it follows for the users: not part of what is settled here.
                    return;
                }
                if (headerDecoder.templateId() == NewOrderDecoder.TEMPLATE_ID)
                {
                    messages.add("NewOrder " + order.wrapAndApplyHeader(b, o, headerDecoder).clientOrderId());
                }
                else
                {
                    messages.add("template " + headerDecoder.templateId());
                }
            }, 1);
            return messages.size() >= count;
        });
        return messages;
    }

    private Action record(final int templateId, final DirectBuffer b, final int offset, final int length,
        final long sessionId)
    {
        headerDecoder.wrap(b, offset);
        if (templateId == ExecutionReportDecoder.TEMPLATE_ID)
        {
            final ExecutionReportDecoder report = new ExecutionReportDecoder().wrapAndApplyHeader(b, offset,
                headerDecoder);
            delivered.add(report.clientOrderId() + " " + report.execType() +
                (report.rejectReason() == RejectReason.NONE ? "" :
                " " + report.rejectReason() + " seq " + report.commandSequence()));
        }
        else if (templateId == CancelRejectDecoder.TEMPLATE_ID)
        {
            final CancelRejectDecoder reject = new CancelRejectDecoder().wrapAndApplyHeader(b, offset, headerDecoder);
            delivered.add(reject.clientOrderId() + " CANCEL_REJECT " + reject.rejectReason());
        }
        return Action.CONTINUE;
    }

    private void pollUntil(final String what, final BooleanSupplier condition)
    {
        Await.until(what, Duration.ofSeconds(10), condition, () -> router.poll(++nowNs),
            () -> "delivered " + delivered);
    }

    private void status(final Publication publication, final NodeRole role, final long epoch, final long epochStart)
    {
        offer(publication, ScriptedEngineMessages.status(
            buffer, publication.streamId(), role, epoch, epochStart, epochStart));
    }

    private void report(
        final Publication publication, final long sessionId, final String clientOrderId, final long sequence,
        final long epoch)
    {
        offer(publication, ScriptedEngineMessages.newReport(buffer, sessionId, clientOrderId, sequence, epoch));
    }

    private void offer(final Publication publication, final int length)
    {
        pollUntil("offered", () -> publication.offer(buffer, 0, length) > 0);
    }
}
