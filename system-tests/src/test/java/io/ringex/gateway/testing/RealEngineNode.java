package io.ringex.gateway.testing;

import java.util.ArrayList;
import java.util.List;

import io.ringex.engine.node.TestNode;
import io.ringex.engine.node.TestOperator;
import io.ringex.journal.Journal;
import io.ringex.journal.JournalReader;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.codecs.CancelOrderDecoder;
import io.ringex.protocol.codecs.MassCancelDecoder;
import io.ringex.protocol.codecs.MassQuoteDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.NewOrderDecoder;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.QuoteCancelDecoder;
import io.ringex.protocol.codecs.ReplaceOrderDecoder;
import io.ringex.protocol.codecs.SessionStatusDecoder;
import io.ringex.protocol.codecs.TradingStatus;

/**
 * The real engine node behind {@link EngineUnderTest}: the gateway's tests run against the actual pipeline (ring,
 * journal, business-logic processor, publishers) on the test's media driver. The instruments of
 * {@link EngineStreams} are added at reference price 100 with a 50% band, tick 0.01, lot 1; the test users' accounts
 * get generous limits and funds, with short selling allowed. The command log is read back from the node's journal,
 * in the same words the stand-in uses, so tests can check what the gateway sent.
 */
public final class RealEngineNode implements EngineUnderTest
{
    private static final long[] ACCOUNTS = { TestUsers.ALICE_ACCOUNT, TestUsers.ALICE_SECOND_ACCOUNT,
        TestUsers.BOB_ACCOUNT, TestUsers.CAROL_ACCOUNT };

    private final TestNode node;
    private final EngineStreams streams;
    private final String outboundSubscriberChannel;
    private final int riskStreamId;
    private long adminRequestId = 1_000;

    private RealEngineNode(final EngineStreams streams, final String outboundSubscriberChannel,
        final String marketDataRequestChannel)
    {
        final int riskStreamId = streams.marketDataStreamId() + 1000;
        node = TestNode.launch((ctx) -> ctx
            .marketDataRequestChannel(marketDataRequestChannel)
            .aeronDirectoryName(streams.aeronDirectoryName())
            .ingressChannel(streams.ingressChannel())
            .ingressStreamId(streams.ingressStreamId())
            .outboundChannel(streams.egressChannel())
            .egressStreamId(streams.egressStreamId())
            .marketDataStreamId(streams.marketDataStreamId())
            .riskStreamId(riskStreamId)
            .inputRingCapacity(4096)
            .outputRingCapacity(4096)
            .statusIntervalNs(200_000_000L));

        this.streams = streams;
        this.outboundSubscriberChannel = outboundSubscriberChannel;
        this.riskStreamId = riskStreamId;
        try
        {
            setUpMarket(streams.aeronDirectoryName(), streams.ingressChannel(), streams.ingressStreamId(),
                outboundSubscriberChannel, riskStreamId, streams.instruments());
        }
        catch (final RuntimeException ex)
        {
            node.close();
            throw ex;
        }
    }

    /**
     * Define the instruments and the test users' accounts on a running primary, and wait for its answers.
     *
     * @param aeronDirectoryName the media driver.
     * @param ingressChannel     the primary's ingress.
     * @param ingressStreamId    its stream.
     * @param riskChannel        where to subscribe to its risk stream (admin responses).
     * @param riskStreamId       its risk stream.
     * @param instruments        to define.
     */
    public static void setUpMarket(
        final String aeronDirectoryName,
        final String ingressChannel,
        final int ingressStreamId,
        final String riskChannel,
        final int riskStreamId,
        final EngineStreams.TestInstrument... instruments)
    {
        // Each command waits for its own answer: a gateway already following this node offers its configured users
        // meanwhile, and the engine refuses those whose accounts do not exist yet; that refusal is the gateway's, not
        // this set-up's.
        try (TestOperator operator = new TestOperator(aeronDirectoryName, ingressChannel, ingressStreamId,
            riskChannel, riskStreamId))
        {
            for (final EngineStreams.TestInstrument instrument : instruments)
            {
                operator.accepted(operator.commands().addInstrument(operator.nextRequestId(),
                    instrument.instrumentId(), instrument.symbol(), instrument.priceScale(), 1, 1,
                    100 * FixedPoint.powerOfTen(instrument.priceScale()), PriceBandType.BASIS_POINTS, 5_000));
            }
            final long funds = 1_000_000_000L * FixedPoint.powerOfTen(FixedPoint.MONEY_SCALE);
            for (final long account : ACCOUNTS)
            {
                operator.openAccount(account, (commands, requestId, accountId) -> commands.setLimits(requestId,
                    accountId, 1_000_000, funds, funds, 1_000_000, 10_000, true, new int[0], new long[0]), funds);
            }
        }
    }

    /**
     * Change an instrument's trading status (halt, resume, a call phase) as the operator would, and wait for the
     * engine's answer.
     *
     * @param instrumentId the instrument.
     * @param status       its new status.
     */
    public void setTradingStatus(final int instrumentId, final TradingStatus status)
    {
        try (TestOperator operator = operator())
        {
            operator.accepted(operator.commands().setTradingStatus(++adminRequestId, instrumentId, status));
        }
    }

    /**
     * Give an account no limits, as a newly opened one has (all 0, none set), as the operator would, and wait for the
     * engine's answer.
     *
     * @param accountId the account.
     */
    public void clearLimits(final long accountId)
    {
        try (TestOperator operator = operator())
        {
            operator.accepted(operator.commands().setLimits(++adminRequestId, accountId, 0, 0, 0, 0, 0, false,
                new int[0], new long[0]));
        }
    }

    private TestOperator operator()
    {
        return new TestOperator(streams.aeronDirectoryName(), streams.ingressChannel(), streams.ingressStreamId(),
            outboundSubscriberChannel, riskStreamId);
    }

    /**
     * Start a node on the streams.
     *
     * @param streams where it listens and publishes.
     * @return the running node.
     */
    public static RealEngineNode launch(final EngineStreams streams)
    {
        return new RealEngineNode(streams, streams.egressChannel(), TestGateways.IPC);
    }

    /**
     * Start a node whose outbound channel a subscriber names otherwise (a UDP multi-destination-cast publication is
     * joined with an endpoint of the subscriber's own).
     *
     * @param streams                   where it listens and publishes.
     * @param outboundSubscriberChannel how a subscriber names its outbound channel.
     * @return the running node.
     */
    public static RealEngineNode launch(final EngineStreams streams, final String outboundSubscriberChannel)
    {
        return new RealEngineNode(streams, outboundSubscriberChannel, TestGateways.IPC);
    }

    /**
     * {@link #launch(EngineStreams, String)} with its market-data recovery service taking requests on a channel of
     * the test's choosing (IPC otherwise).
     *
     * @param streams                   where it listens and publishes.
     * @param outboundSubscriberChannel how a subscriber names its outbound channel.
     * @param marketDataRequestChannel  where its recovery service takes requests.
     * @return the running node.
     */
    public static RealEngineNode launch(
        final EngineStreams streams, final String outboundSubscriberChannel, final String marketDataRequestChannel)
    {
        return new RealEngineNode(streams, outboundSubscriberChannel, marketDataRequestChannel);
    }

    public List<String> commandLog()
    {
        final List<String> log = new ArrayList<>();
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final NewOrderDecoder newOrder = new NewOrderDecoder();
        final CancelOrderDecoder cancel = new CancelOrderDecoder();
        final ReplaceOrderDecoder replace = new ReplaceOrderDecoder();
        final MassCancelDecoder massCancel = new MassCancelDecoder();
        final SessionStatusDecoder sessionStatus = new SessionStatusDecoder();
        final MassQuoteDecoder massQuote = new MassQuoteDecoder();
        final QuoteCancelDecoder quoteCancel = new QuoteCancelDecoder();
        try (Journal journal = Journal.open(node.journalDirectory(), Journal.Durability.PROCESS);
            JournalReader reader = journal.newReader())
        {
            while (reader.read((sequence, timestampNs, sourceId, templateId, buffer, offset, length) ->
            {
                header.wrap(buffer, offset);
                switch (templateId)
                {
                    case NewOrderDecoder.TEMPLATE_ID -> log.add(line(newOrder.wrapAndApplyHeader(buffer, offset,
                        header)));
                    case CancelOrderDecoder.TEMPLATE_ID ->
                    {
                        cancel.wrapAndApplyHeader(buffer, offset, header);
                        log.add("CancelOrder session=" + cancel.sessionId() + " account=" + cancel.accountId() +
                            " orderId=" + cancel.orderId() + " orig=" + cancel.origClientOrderId());
                    }
                    case ReplaceOrderDecoder.TEMPLATE_ID ->
                    {
                        replace.wrapAndApplyHeader(buffer, offset, header);
                        log.add("ReplaceOrder session=" + replace.sessionId() + " orderId=" + replace.orderId() +
                            " orig=" + replace.origClientOrderId() + " price=" + replace.price() + " qty=" +
                            replace.quantity());
                    }
                    case MassCancelDecoder.TEMPLATE_ID ->
                    {
                        massCancel.wrapAndApplyHeader(buffer, offset, header);
                        log.add("MassCancel session=" + massCancel.sessionId() + " account=" +
                            massCancel.accountId() + " scope=" + massCancel.scope() + " cod=" +
                            massCancel.cancelOnDisconnect());
                    }
                    case SessionStatusDecoder.TEMPLATE_ID ->
                    {
                        sessionStatus.wrapAndApplyHeader(buffer, offset, header);
                        // The grace only when there is one, so a line without reads as it always did.
                        final int graceMs = sessionStatus.cancelOnDisconnectGraceMs();
                        log.add("SessionStatus session=" + sessionStatus.sessionId() + " account=" +
                            sessionStatus.accountId() + " loggedOn=" + sessionStatus.loggedOn() +
                            (graceMs == 0 ? "" : " graceMs=" + graceMs));
                    }
                    case MassQuoteDecoder.TEMPLATE_ID ->
                    {
                        massQuote.wrapAndApplyHeader(buffer, offset, header);
                        log.add("MassQuote session=" + massQuote.sessionId() + " account=" + massQuote.accountId() +
                            " quoteId=" + massQuote.quoteId());
                    }
                    case QuoteCancelDecoder.TEMPLATE_ID ->
                    {
                        quoteCancel.wrapAndApplyHeader(buffer, offset, header);
                        log.add("QuoteCancel session=" + quoteCancel.sessionId() + " account=" +
                            quoteCancel.accountId() + " scope=" + quoteCancel.scope());
                    }
                    default ->
                    {
                        // admin commands of the set-up
                    }
                }
            }, 1024) > 0)
            {
                // whole journal
            }
        }
        return log;
    }

    private static String line(final NewOrderDecoder order)
    {
        return "NewOrder session=" + order.sessionId() + " account=" + order.accountId() + " clOrdId=" +
            order.clientOrderId() + " price=" + order.price() + " qty=" + order.quantity();
    }

    public void close()
    {
        node.close();
    }
}
