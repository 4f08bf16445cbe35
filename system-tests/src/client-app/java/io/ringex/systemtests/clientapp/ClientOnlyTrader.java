package io.ringex.systemtests.clientapp;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.aeron.Aeron;
import io.ringex.client.ExchangeClient;
import io.ringex.client.ExchangeListener;
import io.ringex.protocol.codecs.BusinessRejectDecoder;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.LogonResponseDecoder;
import io.ringex.protocol.codecs.TimeInForce;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

/**
 * A trading program as a user of the client module writes it, compiled and run against {@code ringex-client} and its
 * runtime dependencies alone (the protocol, the Aeron client, Agrona): two users log on to a gateway, one rests an
 * offer, the other lifts part of it, and both see the fill. Prints one line per step; exits 0 when every step came,
 * 1 (saying what it was waiting for and what it saw) when one did not within the deadline.
 * <p>
 * Arguments: {@code <aeron dir> <gateway channel> <gateway stream> <maker response port> <trader response port>};
 * the users are the demo venue's {@code maker1} and {@code trader1}, trading instrument 1.
 */
public final class ClientOnlyTrader
{
    private static final long DEADLINE_NS = TimeUnit.SECONDS.toNanos(60);
    private static final int RESPONSE_STREAM = 3001;
    private static final int INSTRUMENT = 1;
    private static final long PRICE = 10_250;
    private static final long OFFERED = 7;
    private static final long LIFTED = 4;

    private final IdleStrategy idle = new BackoffIdleStrategy();
    private final List<ExchangeClient> clients = new ArrayList<>();

    private ClientOnlyTrader()
    {
    }

    /**
     * @param args see the class's Javadoc.
     */
    public static void main(final String[] args)
    {
        if (args.length != 5)
        {
            System.out.println("usage: ClientOnlyTrader <aeron dir> <gateway channel> <gateway stream> " +
                "<maker response port> <trader response port>");
            System.exit(2);
        }
        try (Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(args[0])))
        {
            new ClientOnlyTrader().trade(aeron, args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]),
                Integer.parseInt(args[4]));
            System.out.println("DONE");
        }
        catch (final RuntimeException ex)
        {
            // IllegalStateException from a wait below; LogonRefusedException or Aeron's TimeoutException from connect
            System.out.println("FAILED " + ex.getMessage());
            System.exit(1);
        }
    }

    private void trade(
        final Aeron aeron, final String gateway, final int stream, final int makerPort, final int traderPort)
    {
        final Reports maker = new Reports();
        final Reports trader = new Reports();
        final ExchangeClient makerClient = logon(aeron, gateway, stream, makerPort, "maker1", maker);
        final ExchangeClient traderClient = logon(aeron, gateway, stream, traderPort, "trader1", trader);

        send("maker1's offer", () -> makerClient.order().account(makerClient.accountId()).clientOrderId("offer-1")
            .instrument(INSTRUMENT).sell()
            .limit(PRICE).quantity(OFFERED).send() > 0);
        await("maker1's offer resting", () -> maker.has("offer-1 NEW"), maker);
        System.out.println("RESTING offer-1 SELL " + OFFERED + " @ " + PRICE + " account " + makerClient.accountId());

        send("trader1's bid", () -> traderClient.order().account(traderClient.accountId()).clientOrderId("bid-1")
            .instrument(INSTRUMENT).buy().timeInForce(TimeInForce.IOC).limit(PRICE)
            .quantity(LIFTED).send() > 0);
        await("trader1's fill", () -> trader.has("bid-1 FILL"), trader);
        await("maker1's partial fill", () -> maker.has("offer-1 PARTIAL_FILL"), maker);
        System.out.println(trader.line("bid-1 FILL"));
        System.out.println(maker.line("offer-1 PARTIAL_FILL"));

        for (final ExchangeClient client : clients)
        {
            send("logout", () -> client.logout() > 0);
            client.close();
        }
    }

    private ExchangeClient logon(
        final Aeron aeron,
        final String gateway,
        final int stream,
        final int responsePort,
        final String user,
        final Reports reports)
    {
        final ExchangeClient client = ExchangeClient.connect(new ExchangeClient.Context()
            .aeron(aeron)
            .gatewayChannel(gateway)
            .gatewayStreamId(stream)
            .responseChannel("aeron:udp?endpoint=localhost:" + responsePort)
            .responseStreamId(RESPONSE_STREAM)
            .username(user)
            .password(user)
            .heartbeatIntervalNs(TimeUnit.SECONDS.toNanos(1))
            .connectTimeoutNs(DEADLINE_NS)
            .idleStrategy(idle)
            .listener(reports));
        clients.add(client);
        System.out.println("LOGGED ON " + user + " account " + client.accountId());
        return client;
    }

    /** Offer until the publication takes it, polling every client meanwhile (their heartbeats go out in poll). */
    private void send(final String what, final BooleanSupplier sent)
    {
        await(what + " sent", sent, null);
    }

    private void await(final String what, final BooleanSupplier condition, final Reports seen)
    {
        final long deadlineNs = System.nanoTime() + DEADLINE_NS;
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new IllegalStateException(
                    "timed out waiting for " + what + (null == seen ? "" : "; saw " + seen));
            }
            int work = 0;
            for (final ExchangeClient client : clients)
            {
                work += client.poll();
            }
            idle.idle(work);
        }
    }

    /** One user's execution reports, as "clientOrderId EXEC_TYPE lastQuantity @ lastPrice leaves N". */
    private static final class Reports implements ExchangeListener
    {
        private final List<String> lines = new ArrayList<>();

        boolean has(final String prefix)
        {
            return null != line(prefix);
        }

        String line(final String prefix)
        {
            for (final String line : lines)
            {
                if (line.startsWith(prefix + " "))
                {
                    return line;
                }
            }
            return null;
        }

        public void onLogonResponse(final LogonResponseDecoder response)
        {
        }

        public void onExecutionReport(final ExecutionReportDecoder report)
        {
            lines.add(report.clientOrderId() + " " + report.execType() + " " + report.lastQuantity() + " @ " +
                report.lastPrice() + " leaves " + report.leavesQuantity());
        }

        public void onCancelReject(final CancelRejectDecoder reject)
        {
            lines.add("cancel-reject " + reject.rejectReason());
        }

        public void onBusinessReject(final BusinessRejectDecoder reject)
        {
            lines.add("business-reject " + reject.rejectReason());
        }

        public String toString()
        {
            return lines.toString();
        }
    }
}
