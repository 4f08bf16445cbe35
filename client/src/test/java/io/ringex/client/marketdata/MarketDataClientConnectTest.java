package io.ringex.client.marketdata;

import java.util.concurrent.TimeUnit;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.exceptions.TimeoutException;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.SnapshotRequestDecoder;
import io.ringex.testing.Await;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link MarketDataClient#connect(MarketDataClient.Context)}, {@link MarketDataClient#asyncConnect} and
 * {@link MarketDataClient#open} against a real embedded media driver: with nothing there, with a feed but no recovery
 * service, and with both (the test plays the engine's feed publication and the service's request subscription). What
 * the client then does with the feed is {@link MarketDataClientTest}'s.
 */
class MarketDataClientConnectTest
{
    private static final String IPC = "aeron:ipc";
    private static final int FEED = 31;
    private static final int RESPONSE = 32;
    private static final int REQUESTS = 33;

    private MediaDriver driver;
    private Aeron aeron;
    private ExclusivePublication feed;
    private Subscription requests;
    private MarketDataClient client;

    @BeforeEach
    void setUp()
    {
        driver = MediaDriver.launchEmbedded(new MediaDriver.Context().threadingMode(ThreadingMode.SHARED)
            .dirDeleteOnStart(true).dirDeleteOnShutdown(true));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(client, feed, requests, aeron, driver);
    }

    private MarketDataClient.Context context()
    {
        return new MarketDataClient.Context()
            .aeron(aeron)
            .feedChannel(IPC)
            .feedStreamId(FEED)
            .responseChannel(IPC)
            .responseStreamId(RESPONSE)
            .requestChannel(IPC)
            .requestStreamId(REQUESTS)
            .listener(new MarketDataListener()
            {
            });
    }

    @Test
    void connectAgainstNothingFailsAfterItsTimeoutNamingTheFeed()
    {
        final TimeoutException ex = assertThrows(TimeoutException.class,
            () -> MarketDataClient.connect(context().connectTimeoutNs(TimeUnit.MILLISECONDS.toNanos(300))));
        assertTrue(ex.getMessage().contains("no market-data feed on aeron:ipc stream 31 within 300 ms"),
            ex::getMessage);
    }

    @Test
    void aFeedWithoutItsRecoveryServiceTimesOutNamingTheRequestChannel()
    {
        feed = aeron.addExclusivePublication(IPC, FEED);
        final TimeoutException ex = assertThrows(TimeoutException.class,
            () -> MarketDataClient.connect(context().connectTimeoutNs(TimeUnit.MILLISECONDS.toNanos(300))));
        assertTrue(ex.getMessage().contains("no market-data recovery service at aeron:ipc stream 33 within 300 ms"),
            ex::getMessage);
    }

    @Test
    void connectReturnsAClientWhoseSnapshotRequestReachesTheService()
    {
        feed = aeron.addExclusivePublication(IPC, FEED);
        requests = aeron.addSubscription(IPC, REQUESTS);
        client = MarketDataClient.connect(context());
        assertTrue(client.isConnected());
        client.subscribe(7);
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final SnapshotRequestDecoder request = new SnapshotRequestDecoder();
        final int[] instrument = new int[1];
        Await.until("the snapshot request at the service", () -> instrument[0] != 0, () ->
        {
            client.poll();
            requests.poll((buffer, offset, length, h) ->
            {
                header.wrap(buffer, offset);
                assertEquals(SnapshotRequestDecoder.TEMPLATE_ID, header.templateId());
                instrument[0] = request.wrapAndApplyHeader(buffer, offset, header).instrumentId();
            }, 10);
        });
        assertEquals(7, instrument[0]);
    }

    @Test
    void asyncConnectStepsFromTheFeedToTheRecoveryService()
    {
        final MarketDataClient.AsyncConnect connecting = MarketDataClient.asyncConnect(context());
        assertNull(connecting.poll());
        assertEquals(MarketDataClient.AsyncConnect.State.AWAIT_FEED, connecting.state());
        feed = aeron.addExclusivePublication(IPC, FEED);
        Await.until("the feed", () -> MarketDataClient.AsyncConnect.State.AWAIT_RECOVERY_SERVICE ==
            connecting.state(), () -> assertNull(connecting.poll()));
        requests = aeron.addSubscription(IPC, REQUESTS);
        final MarketDataClient[] connected = new MarketDataClient[1];
        Await.until("the connected client", () -> null != (connected[0] = connecting.poll()));
        client = connected[0];
        assertEquals(MarketDataClient.AsyncConnect.State.DONE, connecting.state());
        assertThrows(IllegalStateException.class, connecting::poll, "a finished connection is done with");
    }

    @Test
    void aTimedOutConnectionIsClosedAndAContextServesOneClient()
    {
        final MarketDataClient.Context ctx = context().connectTimeoutNs(TimeUnit.MILLISECONDS.toNanos(100));
        final MarketDataClient.AsyncConnect connecting = MarketDataClient.asyncConnect(ctx);
        assertThrows(TimeoutException.class, () -> Await.until("the timeout", () -> null != connecting.poll()));
        assertEquals(MarketDataClient.AsyncConnect.State.CLOSED, connecting.state());
        assertThrows(IllegalStateException.class, () -> MarketDataClient.asyncConnect(ctx),
            "a context serves one client");
    }

    @Test
    void openReturnsAtOnceAndTheClientConnectsWhenTheEngineComes()
    {
        client = MarketDataClient.open(context());
        assertFalse(client.isConnected());
        feed = aeron.addExclusivePublication(IPC, FEED);
        requests = aeron.addSubscription(IPC, REQUESTS);
        Await.until("the client connected", client::isConnected, client::poll);
    }
}
