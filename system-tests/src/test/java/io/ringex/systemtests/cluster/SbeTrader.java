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
import io.ringex.protocol.codecs.LogoutDecoder;
import io.ringex.protocol.codecs.Side;
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
    private static final int HEARTBEAT_MS = 5000;

    private final String user;
    private final long account;
    private final ExchangeClient client;
    private final OrderLedger ledger;
    private final String prefix;
    private long next = 1;
    private String loggedOutBecause;
    private long notOffered;
    private long loggedOutNs;

    SbeTrader(final Aeron aeron, final String gatewayChannel, final String user, final long account,
        final int responseStream)
    {
        this.user = user;
        this.account = account;
        this.ledger = new OrderLedger(user);
        this.prefix = user.substring(0, 1).toUpperCase() + Long.toString(System.nanoTime() % 100_000, 36);
        this.client = ExchangeClient.openChannels(aeron, gatewayChannel, ClusterVenue.CLIENT_STREAM,
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
        // 5 s (the gateway's timeout is three of them): the drill's thread, which alone polls the client, blocks for
        // seconds in what it does to the venue (network changes, starting members), as a trading program would not.
        client.logon(user, user, false, HEARTBEAT_MS);
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
        // An order the client could not offer (its publication back-pressured or not connected) was never sent.
        final String id = prefix + "-" + next++;
        if (client.order().account(account).clientOrderId(id).instrument(INSTRUMENT).side(Side.BUY)
            .limit(price).quantity(1).send() > 0)
        {
            ledger.sent(id);
        }
        else
        {
            notOffered++;
        }
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
        final String orig = ledger.oldestOpen();
        if (null != orig)
        {
            final String id = prefix + "-" + next++;
            if (client.cancel(account, id, orig, 0, INSTRUMENT) > 0)
            {
                ledger.cancelSent(id, orig);
            }
            else
            {
                notOffered++;
            }
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
     * @return orders and cancels the client could not offer to the gateway (not sent, not in the ledger).
     */
    long notOffered()
    {
        return notOffered;
    }

    /**
     * @return messages of another session the client ignored.
     */
    long foreignSessionMessages()
    {
        return client.foreignSessionMessages();
    }

    /**
     * @return how the session ended, if the gateway ended it (the reason and text of its Logout), else null.
     */
    String loggedOutBecause()
    {
        return loggedOutBecause;
    }

    /**
     * @return when the gateway ended the session (System.nanoTime), meaningful with {@link #loggedOutBecause()}.
     */
    long loggedOutNs()
    {
        return loggedOutNs;
    }

    public void onLogonResponse(final LogonResponseDecoder response)
    {
    }

    public void onLogout(final LogoutDecoder logout)
    {
        loggedOutBecause = logout.reason() + " \"" + logout.text() + "\"";
        loggedOutNs = System.nanoTime();
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
