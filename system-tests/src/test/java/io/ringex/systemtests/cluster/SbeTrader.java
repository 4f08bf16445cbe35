package io.ringex.systemtests.cluster;

import java.time.Duration;

import io.aeron.Aeron;
import io.ringex.client.ExchangeClient;
import io.ringex.client.ExchangeListener;
import io.ringex.protocol.codecs.BusinessRejectDecoder;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.LogonResponseDecoder;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import io.ringex.testing.Await;
import io.ringex.testing.FreePorts;

/**
 * A trader on the gateway's SBE side ({@link ExchangeClient}) that rests buy orders below the market on the drill's
 * instrument (so none trades), cancels its oldest when it holds enough, and keeps an {@link OrderLedger}.
 * <p>
 * The test's thread.
 */
final class SbeTrader implements ExchangeListener, AutoCloseable
{
    static final int INSTRUMENT = 1;

    private final String user;
    private final long account;
    private final ExchangeClient client;
    private final OrderLedger ledger;
    private final String prefix;
    private long next = 1;

    SbeTrader(final Aeron aeron, final String gatewayChannel, final String user, final long account,
        final int responseStream)
    {
        this.user = user;
        this.account = account;
        this.ledger = new OrderLedger(user);
        this.prefix = user.substring(0, 1).toUpperCase() + Long.toString(System.nanoTime() % 100_000, 36);
        this.client = ExchangeClient.connect(aeron, gatewayChannel, ClusterVenue.CLIENT_STREAM,
            "aeron:udp?endpoint=localhost:" + FreePorts.udp(), responseStream, this);
    }

    /**
     * @param others polled while waiting (the other clients, whose sessions must keep heartbeating).
     */
    void logOn(final Runnable others)
    {
        Await.until(user + "'s publication to the gateway connected", Duration.ofSeconds(30), client::isConnected,
            () ->
            {
                client.poll();
                others.run();
            });
        client.logon(user, user, false, 1000);
        Await.until(user + " logged on", Duration.ofSeconds(30), client::isLoggedOn, () ->
        {
            client.poll();
            others.run();
        });
    }

    boolean isLoggedOn()
    {
        return client.isLoggedOn();
    }

    /**
     * Send one resting buy (95.00 to 98.99, below the market) and, past {@code maxOpen} open orders, cancel the oldest.
     *
     * @param price    its price, in ticks of 0.01.
     * @param maxOpen  how many open orders to keep at most.
     */
    void trade(final long price, final int maxOpen)
    {
        final String id = prefix + "-" + next++;
        ledger.sent(id);
        client.newOrder(account, id, INSTRUMENT, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, price, 1);
        if (ledger.openCount() > maxOpen)
        {
            cancelOldest();
        }
    }

    /**
     * Cancel every order believed open.
     */
    void cancelAll()
    {
        while (ledger.openCount() > 0)
        {
            cancelOldest();
            client.poll();
        }
    }

    private void cancelOldest()
    {
        final String orig = ledger.takeOldestOpen();
        if (null != orig)
        {
            final String id = prefix + "-" + next++;
            ledger.cancelSent(id, orig);
            client.cancel(account, id, orig, 0, INSTRUMENT);
        }
    }

    int poll()
    {
        return client.poll();
    }

    OrderLedger ledger()
    {
        return ledger;
    }

    /**
     * @return messages of another session the client ignored.
     */
    long foreignSessionMessages()
    {
        return client.foreignSessionMessages();
    }

    public void onLogonResponse(final LogonResponseDecoder response)
    {
    }

    public void onExecutionReport(final ExecutionReportDecoder report)
    {
        final ExecType type = report.execType();
        final String id = report.clientOrderId();
        if (type == ExecType.NEW)
        {
            ledger.acknowledged(id);
        }
        else if (type == ExecType.REJECTED)
        {
            ledger.rejected(id, report.rejectReason().name());
        }
        else if (type == ExecType.CANCELED)
        {
            ledger.cancelAnswered(id, "CANCELED");
        }
    }

    public void onCancelReject(final CancelRejectDecoder reject)
    {
        ledger.cancelAnswered(reject.clientOrderId(), reject.rejectReason().name());
    }

    public void onBusinessReject(final BusinessRejectDecoder reject)
    {
        final String id = reject.refClientOrderId();
        ledger.rejected(id, reject.rejectReason().name());
        ledger.cancelAnswered(id, reject.rejectReason().name());
    }

    public void close()
    {
        client.close();
    }
}
