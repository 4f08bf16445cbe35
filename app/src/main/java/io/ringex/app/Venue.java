package io.ringex.app;

import io.ringex.common.apikey.ApiKey;
import io.ringex.common.apikey.ApiKeysFile;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.aeron.Aeron;
import io.aeron.archive.ArchivingMediaDriver;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.ringex.app.admin.ReferenceData;
import io.ringex.app.admin.ReferenceDataPlan;
import io.ringex.client.AdminClient;
import io.ringex.client.AdminKey;
import io.ringex.client.AdminKeys;
import io.ringex.engine.node.EngineContext;
import io.ringex.engine.node.EngineNode;
import io.ringex.gateway.Gateway;
import io.ringex.gateway.GatewayContext;
import org.agrona.CloseHelper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The all-in-one's non-Spring half: one embedded media driver (with the Aeron Archive Artio needs), the engine node
 * (journal in the data directory, replication off) and the gateway (SBE on UDP, FIX on TCP), talking over IPC.
 * On a fresh data directory it applies the demo's reference-data file ({@link DemoData});
 * on a used one the engine recovers the previous state from the journal and snapshots, and says how much.
 * <p>
 * Admin commands: the engine takes them signed with the keys of the data directory's {@code admin.keys}; a data
 * directory without one is given one with a key of its own ({@code 1 operator}, owner-readable only), which the demo
 * data, the dashboard and {@code ./ringex admin} then sign with (each with the file's first key).
 * <p>
 * Thread safety: start and close from one thread.
 */
public final class Venue implements AutoCloseable
{
    /** The channel of every stream inside the all-in-one. */
    public static final String IPC = "aeron:ipc";
    /** The engine's ingress stream. */
    public static final int INGRESS_STREAM = 1001;
    /** The engine's egress stream (to gateways). */
    public static final int EGRESS_STREAM = 1002;
    static final int MARKET_DATA_STREAM = 1003;
    /** The engine's risk stream (risk updates, admin responses, definitions, status). */
    public static final int RISK_STREAM = 1004;

    private final VenueSettings settings;
    static final String FIX_COMP_ID = "RINGEX";
    /** The operator the demo data's commands name in the journal. */
    static final String DEMO_OPERATOR = "ringex-demo";
    static final int CLIENT_STREAM = 2001;
    private static final Logger LOG = LoggerFactory.getLogger(Venue.class);
    private static final long USERS_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);

    /** The admin keys file in the data directory. */
    static final String ADMIN_KEYS_FILE = "admin.keys";
    /** The name of the key a new data directory's file is written with. */
    static final String GENERATED_KEY_NAME = "operator";
    /** The data directory's web API keys file. */
    static final String API_KEYS_FILE = "api-keys";

    private final GatewayContext gatewayContext;
    private final EngineContext engineContext;
    private final Path adminKeysFile;
    private boolean adminKeysGenerated;
    private final Path apiKeysFile;
    private ApiKey generatedApiKey;
    private ArchivingMediaDriver driver;
    private EngineNode engine;
    private Gateway gateway;
    private boolean fresh;

    private Venue(final VenueSettings settings)
    {
        this.settings = settings;
        final Path data = settings.dataDirectory();
        adminKeysFile = data.resolve(ADMIN_KEYS_FILE);
        apiKeysFile = data.resolve(API_KEYS_FILE);
        gatewayContext = gatewayContext(data);
        engineContext = new EngineContext()
            .aeronDirectoryName(gatewayContext.aeronDirectoryName())
            .ingressChannel(IPC)
            .ingressStreamId(INGRESS_STREAM)
            .outboundChannel(IPC)
            .egressStreamId(EGRESS_STREAM)
            .marketDataStreamId(MARKET_DATA_STREAM)
            .riskStreamId(RISK_STREAM)
            .marketDataRequestChannel(IPC)
            .journalDirectory(data.resolve("journal"))
            .snapshotDirectory(data.resolve("snapshots"))
            .replicationMode(EngineContext.ReplicationMode.OFF)
            .snapshotEveryCommands(200_000);
    }

    /**
     * Build and check the engine's and the gateway's configuration from the settings and the {@code ringex.engine.*}
     * and {@code ringex.gateway.*} system properties; nothing is started.
     *
     * @param settings the command line.
     * @return the venue, to be started.
     * @throws io.aeron.exceptions.ConfigurationException naming a key whose value does not parse or is out of range.
     */
    static Venue configure(final VenueSettings settings)
    {
        final Venue venue = new Venue(settings);
        try
        {
            venue.ensureApiKeys();
            venue.engineContext.conclude();
            venue.gatewayContext.conclude();
            return venue;
        }
        catch (final RuntimeException ex)
        {
            venue.close();
            throw ex;
        }
    }

    /**
     * A data directory without an admin keys file is given one, with one new key: the engine refuses every admin
     * command without one, and the venue's own senders need one to sign with.
     */
    private void ensureAdminKeys()
    {
        if (!java.nio.file.Files.exists(adminKeysFile))
        {
            try
            {
                java.nio.file.Files.createDirectories(adminKeysFile.toAbsolutePath().getParent());
            }
            catch (final java.io.IOException ex)
            {
                throw new java.io.UncheckedIOException(ex);
            }
            AdminKeys.generate(GENERATED_KEY_NAME).writeTo(adminKeysFile);
            adminKeysGenerated = true;
        }
    }

    /**
     * A data directory without a web API keys file is given one, with a key that may trade as the first demo user:
     * its secret is shown once, in the banner.
     */
    private void ensureApiKeys()
    {
        if (!java.nio.file.Files.exists(apiKeysFile))
        {
            try
            {
                java.nio.file.Files.createDirectories(apiKeysFile.toAbsolutePath().getParent());
            }
            catch (final java.io.IOException ex)
            {
                throw new java.io.UncheckedIOException(ex);
            }
            final String user = DemoData.ACCOUNTS.get(0).user();
            generatedApiKey = ApiKeysFile.create(apiKeysFile, "rk-demo-" + user, user, true);
        }
    }

    /**
     * Start the media driver, the engine (installing the demo data on a fresh data directory) and the gateway.
     */
    void start()
    {
        try
        {
            launch();
        }
        catch (final RuntimeException ex)
        {
            close();
            throw ex;
        }
    }

    private void launch()
    {
        ensureAdminKeys();
        try
        {
            engineContext.adminKeys(AdminKeys.load(adminKeysFile));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalStateException("the venue's admin keys: " + ex.getMessage(), ex); // names the line only
        }
        final MediaDriver.Context driverContext = new MediaDriver.Context()
            .aeronDirectoryName(gatewayContext.aeronDirectoryName())
            .threadingMode(ThreadingMode.SHARED)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .ipcTermBufferLength(8 * 1024 * 1024)
            .publicationTermBufferLength(4 * 1024 * 1024);
        driver = ArchivingMediaDriver.launch(driverContext, Gateway.fixArchive(gatewayContext));
        engine = EngineNode.launch(engineContext);

        fresh = engine.journaledSequence() == 0;
        if (fresh)
        {
            try (Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDirectoryName()));
                AdminClient admin = new AdminClient(aeron, IPC, INGRESS_STREAM, IPC, RISK_STREAM, adminKey()))
            {
                admin.commands().operator(DEMO_OPERATOR);
                ReferenceDataPlan.install(admin, DemoData.FILE, "demo reference data " + DemoData.RESOURCE);
            }
        }
        // The gateway offers the users configured on it (ringex.gateway.user.*) signed with the venue's key.
        gatewayContext.adminKey(adminKey());
        gateway = Gateway.launch(gatewayContext, (ex) -> LOG.error("gateway agent failed", ex));
        awaitUsers();
    }

    /**
     * The venue is ready when its gateway lets users log on: it has the engine's users (in milliseconds over IPC).
     */
    private void awaitUsers()
    {
        final long deadlineNs = System.nanoTime() + USERS_TIMEOUT_NS;
        while (!gatewayContext.users().loaded())
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new IllegalStateException("the gateway did not receive the users from the engine within " +
                    TimeUnit.NANOSECONDS.toSeconds(USERS_TIMEOUT_NS) + " s");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }

    private GatewayContext gatewayContext(final Path data)
    {
        final GatewayContext ctx = new GatewayContext()
            .gatewayId(1)
            .aeronDirectoryName(aeronDirectoryFor(data))
            .embeddedDriver(false)
            .clientChannel("aeron:udp?endpoint=localhost:" + settings.sbePort())
            .clientStreamId(CLIENT_STREAM)
            .engineIngressChannel(IPC)
            .engineIngressStreamId(INGRESS_STREAM)
            .engineEgressChannel(IPC)
            .engineEgressStreamId(EGRESS_STREAM)
            .marketDataChannel(IPC)
            .marketDataStreamId(MARKET_DATA_STREAM)
            .marketDataRequestChannel(IPC)
            .marketDataRecoveryChannel(IPC)
            .fixEnabled(true)
            .fixPort(settings.fixPort())
            .fixCompId(FIX_COMP_ID)
            .fixLogDir(data.resolve("fix").toString())
            .webEnabled(true)
            .webHost("localhost")
            .webPort(settings.webPort())
            .webApiKeysFile(data.resolve(API_KEYS_FILE).toString())
            .archiveDir(data.resolve("archive").toString());
        // No users of its own: the engine holds them (the demo file's, installed on a fresh venue).
        for (final ReferenceData.Instrument instrument : DemoData.FILE.instruments())
        {
            ctx.addInstrument(instrument.id(), instrument.symbol(), instrument.priceScale());
        }
        return ctx;
    }

    /**
     * The venue's Aeron directory: named after its data directory, so a restart after a crash reuses (and, with
     * dirDeleteOnStart, clears) the dead process's log buffers instead of leaving them in memory, and two venues
     * on one host do not meet.
     *
     * @param data the data directory.
     * @return the Aeron directory name.
     */
    public static String aeronDirectoryFor(final Path data)
    {
        final String key = data.toAbsolutePath().normalize().toString();
        return io.aeron.CommonContext.getAeronDirectoryName() + "-ringex-" + Integer.toHexString(key.hashCode());
    }

    String aeronDirectoryName()
    {
        return driver.mediaDriver().aeronDirectoryName();
    }

    VenueSettings settings()
    {
        return settings;
    }

    /** @return the data directory's web API keys file. */
    Path apiKeysFile()
    {
        return apiKeysFile;
    }

    /** @return the web API key made for a new data directory (its secret to show once), or null. */
    ApiKey generatedApiKey()
    {
        return generatedApiKey;
    }

    /** @return the port the REST and WebSocket front end took. */
    int webPort()
    {
        return gateway.webPort();
    }

    /** @return the data directory's admin keys file. */
    Path adminKeysFile()
    {
        return adminKeysFile;
    }

    /** @return whether this start wrote it (a data directory that had none). */
    boolean adminKeysGenerated()
    {
        return adminKeysGenerated;
    }

    /** @return the key the venue's own senders sign with: the file's first (read when the venue started). */
    AdminKey adminKey()
    {
        return engineContext.adminKeys().keys().get(0);
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
        // The gateway closes its context; one never launched still has its logon checker's thread to stop.
        CloseHelper.quietClose(null == gateway ? gatewayContext : gateway);
        CloseHelper.quietClose(engine);
        CloseHelper.quietClose(driver);
    }
}
