package io.ringex.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.aeron.Aeron;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.ringex.client.ExchangeClient;
import io.ringex.client.ExchangeListener;
import io.ringex.client.QuoteEntries;
import io.ringex.protocol.codecs.BusinessRejectDecoder;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.LogonResponseDecoder;
import io.ringex.protocol.codecs.MassQuoteAckDecoder;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.QuoteEntryStatus;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.collections.Long2LongHashMap;

/**
 * The load generator over SBE on Aeron UDP, through {@link ExchangeClient}s on the generator's own media driver.
 */
final class SbeLoadTransport implements LoadGenerator.Transport, ExchangeListener
{
    private static final char QUOTE_ID_PREFIX = 'q';

    private final MediaDriver driver;
    private final AgentInvoker driverInvoker;
    private final AgentInvoker clientInvoker;
    private final Aeron aeron;
    private final String gatewayChannel;
    private final LoadGenerator.Reports reports;
    private final List<ExchangeClient> clients = new ArrayList<>();
    private final byte[] id = new byte[20];
    private final Long2LongHashMap accountIndex = new Long2LongHashMap(-1);
    private final QuoteEntries quoteEntries = new QuoteEntries();
    /** A quote's id: {@link #QUOTE_ID_PREFIX} and its number, so its orders' reports are not read as orders'. */
    private final StringBuilder quoteId = new StringBuilder();

    SbeLoadTransport(final String host, final int port, final LoadGenerator.Reports reports)
    {
        this.reports = reports;
        this.gatewayChannel = "aeron:udp?endpoint=" + host + ":" + port;
        // The client side's driver runs on the generator's own thread (INVOKER): on a machine it shares with the
        // venue, the client takes one thread, not two.
        driver = MediaDriver.launchEmbedded(new MediaDriver.Context().threadingMode(ThreadingMode.INVOKER)
            .dirDeleteOnStart(true).dirDeleteOnShutdown(true).publicationTermBufferLength(4 * 1024 * 1024));
        driverInvoker = driver.sharedAgentInvoker();
        // So does the client's conductor, which invokes the driver itself while it waits for the driver's answers.
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName())
            .useConductorAgentInvoker(true).driverAgentInvoker(driverInvoker));
        clientInvoker = aeron.conductorAgentInvoker();
    }

    public void connect(final List<DemoData.Account> accounts)
    {
        for (final DemoData.Account account : accounts)
        {
            // Polled step by step, not connect(): this Aeron client's conductor and driver run only in poll().
            final ExchangeClient.AsyncConnect connecting = ExchangeClient.asyncConnect(new ExchangeClient.Context()
                .aeron(aeron).gatewayChannel(gatewayChannel).responseChannel("aeron:udp?endpoint=localhost:" +
                freePort()).responseStreamId(5000 + clients.size()).username(account.user())
                .password(account.password()).cancelOnDisconnect(true).heartbeatIntervalNs(TimeUnit.SECONDS.toNanos(1))
                .connectTimeoutNs(TimeUnit.SECONDS.toNanos(20)).listener(this));
            ExchangeClient client;
            while (null == (client = connecting.poll()))
            {
                poll();
                Thread.yield();
            }
            accountIndex.put(account.id(), clients.size());
            clients.add(client);
        }
    }

    public boolean send(final long orderId, final DemoData.Account account, final DemoData.Instrument instrument,
        final boolean buy, final long price, final long quantity, final boolean ioc)
    {
        final ExchangeClient client = clients.get((int)accountIndex.get(account.id()));
        return client.order().account(account.id()).clientOrderId(orderId).instrument(instrument.id())
            .side(buy ? Side.BUY : Side.SELL).orderType(OrderType.LIMIT)
            .timeInForce(ioc ? TimeInForce.IOC : TimeInForce.GTC).price(price).quantity(quantity).send() > 0;
    }

    public boolean sendQuote(final long quoteNumber, final DemoData.Account account,
        final List<DemoData.Instrument> instruments)
    {
        final ExchangeClient client = clients.get((int)accountIndex.get(account.id()));
        quoteEntries.clear();
        for (int i = 0; i < instruments.size(); i++)
        {
            final DemoData.Instrument instrument = instruments.get(i);
            final long away = instrument.tick() * (1 + quoteNumber % 3);
            final long size = instrument.lot() * (1 + quoteNumber % 4);
            quoteEntries.add(i, 1, instrument.id(), instrument.referencePrice() - away, size,
                instrument.referencePrice() + away, size);
        }
        quoteId.setLength(0);
        quoteId.append(QUOTE_ID_PREFIX).append(quoteNumber);
        return client.massQuote(account.id(), quoteId, SelfTradePrevention.ACCOUNT_DEFAULT, quoteEntries) > 0;
    }

    public void onMassQuoteAck(final MassQuoteAckDecoder ack)
    {
        final int length = ack.getQuoteId(id, 0);
        if (length > 1 && id[0] == QUOTE_ID_PREFIX)
        {
            System.arraycopy(id, 1, id, 0, length - 1);
            final long quoteNumber = orderId(length - 1);
            for (final MassQuoteAckDecoder.EntriesDecoder entry : ack.entries())
            {
                if (entry.entryStatus() == QuoteEntryStatus.REJECTED && reports.quoteEntriesRejected++ == 0)
                {
                    reports.firstQuoteEntryRejectReason = entry.rejectReason().name();
                }
            }
            if (ack.rejectReason() != RejectReason.NONE && reports.quoteEntriesRejected++ == 0)
            {
                reports.firstQuoteEntryRejectReason = ack.rejectReason().name();
            }
            reports.onFirstReport(quoteNumber, System.nanoTime());
        }
    }

    public int poll()
    {
        int work = driverInvoker.invoke() + clientInvoker.invoke();
        for (int i = 0; i < clients.size(); i++)
        {
            work += clients.get(i).poll();
        }
        return work;
    }

    public void onExecutionReport(final ExecutionReportDecoder report)
    {
        reports.onFirstReport(orderId(report.getClientOrderId(id, 0)), System.nanoTime());
    }

    /** The generator's order id from the client order id in {@link #id}, or -1 if it is not one of its ids. */
    private long orderId(final int length)
    {
        if (length <= 0 || id[0] < '0' || id[0] > '9')
        {
            return -1;
        }
        long value = 0;
        for (int i = 0; i < length && id[i] >= '0' && id[i] <= '9'; i++)
        {
            value = value * 10 + (id[i] - '0');
        }
        return value;
    }

    public void onLogonResponse(final LogonResponseDecoder response)
    {
    }

    public void onCancelReject(final CancelRejectDecoder reject)
    {
    }

    public void onBusinessReject(final BusinessRejectDecoder reject)
    {
        final long orderId = orderId(reject.getRefClientOrderId(id, 0));
        reports.onReject(orderId, reject.rejectReason() == RejectReason.THROTTLED);
    }

    public void close()
    {
        clients.forEach(CloseHelper::quietClose);
        CloseHelper.quietClose(aeron);
        CloseHelper.quietClose(driver);
    }

    static int freePort()
    {
        try (DatagramSocket socket = new DatagramSocket(0))
        {
            return socket.getLocalPort();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
