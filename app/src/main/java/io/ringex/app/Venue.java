package io.ringex.app;

import java.nio.file.Path;

import io.aeron.Aeron;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.ringex.engine.node.AdminClient;
import io.ringex.engine.node.EngineContext;
import io.ringex.engine.node.EngineNode;
import org.agrona.CloseHelper;

/**
 * The all-in-one's non-Spring half: an embedded media driver, the engine node (journal in the data directory,
 * replication off) and the gateway, all on IPC inside one JVM. On a fresh data directory it installs the demo data;
 * on a used one the engine recovers the previous state from the journal and snapshots, and says how much.
 * <p>
 * Thread safety: start and close from one thread.
 */
final class Venue implements AutoCloseable
{
    static final String IPC = "aeron:ipc";
    static final int INGRESS_STREAM = 1001;
    static final int EGRESS_STREAM = 1002;
    static final int MARKET_DATA_STREAM = 1003;
    static final int RISK_STREAM = 1004;
    static final int CONTROL_STREAM = 1020;

    private final VenueSettings settings;
    private MediaDriver driver;
    private EngineNode engine;
    private boolean fresh;

    private Venue(final VenueSettings settings)
    {
        this.settings = settings;
    }

    static Venue start(final VenueSettings settings)
    {
        final Venue venue = new Venue(settings);
        try
        {
            venue.launch();
            return venue;
        }
        catch (final RuntimeException ex)
        {
            venue.close();
            throw ex;
        }
    }

    private void launch()
    {
        final Path data = settings.dataDirectory();
        driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
            .threadingMode(ThreadingMode.SHARED)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .ipcTermBufferLength(8 * 1024 * 1024)
            .publicationTermBufferLength(4 * 1024 * 1024));

        engine = EngineNode.launch(new EngineContext()
            .aeronDirectoryName(driver.aeronDirectoryName())
            .ingressChannel(IPC)
            .ingressStreamId(INGRESS_STREAM)
            .outboundChannel(IPC)
            .egressStreamId(EGRESS_STREAM)
            .marketDataStreamId(MARKET_DATA_STREAM)
            .riskStreamId(RISK_STREAM)
            .journalDirectory(data.resolve("journal"))
            .snapshotDirectory(data.resolve("snapshots"))
            .replicationMode(EngineContext.ReplicationMode.OFF)
            .snapshotEveryCommands(200_000));

        fresh = engine.journaledSequence() == 0;
        if (fresh)
        {
            try (Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
                AdminClient admin = new AdminClient(aeron, IPC, INGRESS_STREAM, IPC, RISK_STREAM))
            {
                DemoData.install(admin);
            }
        }
    }

    String aeronDirectoryName()
    {
        return driver.aeronDirectoryName();
    }

    EngineNode engine()
    {
        return engine;
    }

    boolean isFresh()
    {
        return fresh;
    }

    public void close()
    {
        CloseHelper.quietClose(engine);
        CloseHelper.quietClose(driver);
    }
}
