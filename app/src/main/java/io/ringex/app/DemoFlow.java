package io.ringex.app;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import io.aeron.Aeron;
import io.aeron.exceptions.TimeoutException;
import io.ringex.client.ExchangeClient;
import io.ringex.client.ExchangeListener;
import io.ringex.client.LogonRefusedException;
import io.ringex.protocol.codecs.BusinessRejectDecoder;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.LogonResponseDecoder;
import io.ringex.protocol.codecs.MassCancelScope;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import org.agrona.concurrent.Agent;

/**
 * A synthetic market for the demo, through the real client library and gateway: two market makers quote a few
 * levels around a reference price that drifts, and two takers cross them now and then with IOC orders. It runs as
 * one agent on its own thread, at a human pace (a few orders a second per participant), so the dashboard moves.
 * <p>
 * Thread safety: the agent's thread only.
 */
final class DemoFlow implements Agent
{
    private static final long QUOTE_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(400);
    private static final long TAKE_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(700);
    private static final int LEVELS = 3;

    private final List<Participant> makers = new ArrayList<>();
    private final List<Participant> takers = new ArrayList<>();
    private final long[] reference = new long[DemoData.INSTRUMENTS.size()];
    private final SplittableRandom random = new SplittableRandom(42);
    private long nextQuoteNs;
    private long nextTakeNs;
    private long nextClientOrderId = System.currentTimeMillis() * 100;

    /** One logged-on client. */
    private static final class Participant implements ExchangeListener
    {
        final DemoData.Account account;
        private final Aeron aeron;
        private final String gatewayChannel;
        private final int gatewayStream;
        private final String responseChannel;
        private final int responseStream;
        private ExchangeClient.AsyncConnect connecting;
        ExchangeClient client;
        long fills;

        Participant(final Aeron aeron, final String gatewayChannel, final int gatewayStream,
            final String responseChannel, final int responseStream, final DemoData.Account account)
        {
            this.account = account;
            this.aeron = aeron;
            this.gatewayChannel = gatewayChannel;
            this.gatewayStream = gatewayStream;
            this.responseChannel = responseChannel;
            this.responseStream = responseStream;
            this.connecting = connect();
        }

        private ExchangeClient.AsyncConnect connect()
        {
            return ExchangeClient.asyncConnect(new ExchangeClient.Context().aeron(aeron)
                .gatewayChannel(gatewayChannel).gatewayStreamId(gatewayStream)
                .responseChannel(responseChannel).responseStreamId(responseStream)
                .username(account.user()).password(account.password()).cancelOnDisconnect(true)
                .heartbeatIntervalNs(TimeUnit.SECONDS.toNanos(1)).listener(this));
        }

        public void onLogonResponse(final LogonResponseDecoder response)
        {
        }

        public void onExecutionReport(final ExecutionReportDecoder report)
        {
            if (report.lastQuantity() > 0)
            {
                fills++;
            }
        }

        public void onCancelReject(final CancelRejectDecoder reject)
        {
        }

        public void onBusinessReject(final BusinessRejectDecoder reject)
        {
        }

        /** @return true once logged on; until then a step of the logon, begun again if the gateway refused it. */
        boolean ready()
        {
            if (null == client)
            {
                try
                {
                    client = connecting.poll();
                }
                catch (final LogonRefusedException | TimeoutException ex)
                {
                    // not up yet, or its users not loaded yet (ENGINE_BUSY): the demo waits for the venue
                    connecting = connect();
                }
            }
            return null != client;
        }

        int poll()
        {
            return null == client ? 0 : client.poll();
        }

        void close()
        {
            if (null == client)
            {
                connecting.close();
            }
            else
            {
                client.close();
            }
        }
    }

    DemoFlow(final Aeron aeron, final String gatewayChannel, final int gatewayStream)
    {
        for (final DemoData.Account account : DemoData.ACCOUNTS)
        {
            final String responseChannel = "aeron:udp?endpoint=localhost:" + SbeLoadTransport.freePort();
            final Participant participant = new Participant(aeron, gatewayChannel, gatewayStream, responseChannel,
                3000 + (int)account.id(), account);
            if (account.role().equals("market maker"))
            {
                makers.add(participant);
            }
            else if (account.role().equals("trader"))
            {
                takers.add(participant);
            }
        }
        for (int i = 0; i < reference.length; i++)
        {
            reference[i] = DemoData.INSTRUMENTS.get(i).referencePrice();
        }
    }

    public int doWork()
    {
        int work = 0;
        boolean ready = true;
        for (final Participant p : makers)
        {
            work += p.poll();
            ready &= p.ready();
        }
        for (final Participant p : takers)
        {
            work += p.poll();
            ready &= p.ready();
        }
        if (!ready)
        {
            return work;
        }

        final long now = System.nanoTime();
        if (now >= nextQuoteNs)
        {
            nextQuoteNs = now + QUOTE_INTERVAL_NS;
            quote();
            work++;
        }
        if (now >= nextTakeNs)
        {
            nextTakeNs = now + TAKE_INTERVAL_NS + random.nextLong(TAKE_INTERVAL_NS);
            take();
            work++;
        }
        return work;
    }

    private void quote()
    {
        for (int i = 0; i < reference.length; i++)
        {
            final DemoData.Instrument instrument = DemoData.INSTRUMENTS.get(i);
            final long base = instrument.referencePrice();
            // A bounded random walk: at most 5% from the instrument's reference, well inside its band.
            final long maxMove = base / 20;
            final long drift = (random.nextInt(3) - 1) * instrument.tick() * (1 + random.nextInt(3));
            reference[i] = Math.max(base - maxMove, Math.min(base + maxMove, reference[i] + drift));
            final long mid = reference[i] - reference[i] % instrument.tick();

            final Participant maker = makers.get(random.nextInt(makers.size()));
            maker.client.massCancel(maker.account.id(), Long.toString(nextClientOrderId++),
                MassCancelScope.INSTRUMENT, instrument.id());
            for (int level = 1; level <= LEVELS; level++)
            {
                final long offset = instrument.tick() * (2L * level + random.nextInt(2));
                final long size = instrument.lot() * (1 + random.nextInt(20)) * level;
                maker.client.order().account(maker.account.id()).clientOrderId(nextClientOrderId++)
                    .instrument(instrument.id()).buy()
                    .limit(mid - offset).quantity(size).send();
                maker.client.order().account(maker.account.id()).clientOrderId(nextClientOrderId++)
                    .instrument(instrument.id()).sell()
                    .limit(mid + offset).quantity(size).send();
            }
        }
    }

    private void take()
    {
        final int i = random.nextInt(reference.length);
        final DemoData.Instrument instrument = DemoData.INSTRUMENTS.get(i);
        final Participant taker = takers.get(random.nextInt(takers.size()));
        final boolean buy = random.nextBoolean();
        final long through = instrument.tick() * 4;
        final long price = buy ? reference[i] + through : reference[i] - through;
        taker.client.order().account(taker.account.id()).clientOrderId(nextClientOrderId++).instrument(instrument.id())
            .side(buy ? Side.BUY : Side.SELL).timeInForce(TimeInForce.IOC)
            .limit(price - price % instrument.tick()).quantity(instrument.lot() * (1 + random.nextInt(10))).send();
    }

    public String roleName()
    {
        return "demo-flow";
    }

    public void onClose()
    {
        for (final Participant p : makers)
        {
            p.close();
        }
        for (final Participant p : takers)
        {
            p.close();
        }
    }
}
