package io.ringex.engine.node;

import io.aeron.Aeron;
import io.ringex.client.AdminClient;
import io.ringex.client.CommandEncoder;
import io.ringex.protocol.codecs.SelfTradePrevention;
import org.agrona.CloseHelper;

/**
 * The operator of a test venue: an {@link AdminClient} on a running node, signing with the tests' admin key
 * ({@link NodeTestSupport#ADMIN_KEYS}), that sends the commands installing instruments and accounts and waits for
 * each to be answered ACCEPTED, failing on anything else. Each command waits for its own answer, so a gateway or a
 * risk service already following the node, with admin requests of its own, does not get in the way.
 * <p>
 * Thread safety: one thread.
 */
public final class TestOperator implements AutoCloseable
{
    private final Aeron aeron;
    private final AdminClient admin;
    private long requestId;

    /**
     * @param aeronDirectoryName the media driver the node runs on.
     * @param ingressChannel     the node's ingress.
     * @param ingressStreamId    its stream.
     * @param riskChannel        where to subscribe to the node's risk stream (its admin responses).
     * @param riskStreamId       its stream.
     */
    public TestOperator(
        final String aeronDirectoryName,
        final String ingressChannel,
        final int ingressStreamId,
        final String riskChannel,
        final int riskStreamId)
    {
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDirectoryName));
        try
        {
            admin = new AdminClient(aeron, ingressChannel, ingressStreamId, riskChannel, riskStreamId,
                NodeTestSupport.ADMIN_KEYS.keys().get(0));
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietClose(aeron);
            throw ex;
        }
    }

    /**
     * @return the encoder for a command of the test's own ({@link #accepted}).
     */
    public CommandEncoder commands()
    {
        return admin.commands();
    }

    /**
     * @return the next request id of this operator's commands (1 for its first).
     */
    public long nextRequestId()
    {
        return ++requestId;
    }

    /**
     * Send the command {@link #commands()} last encoded and wait for the node to accept it.
     *
     * @param length the command's length.
     * @return the node's answer.
     * @throws IllegalStateException if the node refuses it or does not answer.
     */
    public AdminClient.Answer accepted(final int length)
    {
        final AdminClient.Answer answer = admin.request(length);
        if (!answer.accepted())
        {
            throw new IllegalStateException("engine rejected admin request " + answer.requestId() + ": " +
                answer.reason());
        }
        return answer;
    }

    /**
     * AddAccount (self-trade prevention cancel-newest), the account's SetLimits, then AdjustBalance by the deposit.
     *
     * @param accountId the account.
     * @param limits    its SetLimits, as the test encodes them.
     * @param deposit   its opening balance, money scale.
     */
    public void openAccount(final long accountId, final Limits limits, final long deposit)
    {
        accepted(commands().addAccount(nextRequestId(), accountId, SelfTradePrevention.CANCEL_NEWEST));
        accepted(limits.encode(commands(), nextRequestId(), accountId));
        accepted(commands().adjustBalance(nextRequestId(), accountId, deposit));
    }

    public void close()
    {
        CloseHelper.quietCloseAll(admin, aeron);
    }

    /**
     * An account's SetLimits, encoded by the test ({@link CommandEncoder#setLimits}).
     */
    @FunctionalInterface
    public interface Limits
    {
        /**
         * @param commands  the encoder.
         * @param requestId the command's request id.
         * @param accountId the account.
         * @return the command's length.
         */
        int encode(CommandEncoder commands, long requestId, long accountId);
    }
}
