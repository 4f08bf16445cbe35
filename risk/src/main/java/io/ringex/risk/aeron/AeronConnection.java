package io.ringex.risk.aeron;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.ringex.client.AdminCommandSigner;
import io.ringex.client.AdminKey;
import io.ringex.client.AdminKeys;
import io.ringex.protocol.MessageCatalog;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import org.agrona.concurrent.UnsafeBuffer;
import io.ringex.risk.config.EngineEndpoints;
import io.ringex.risk.audit.AdminAudit;
import io.ringex.risk.config.RiskProperties;
import io.ringex.protocol.PrimarySelector;
import io.ringex.risk.model.RiskReadModel;
import io.ringex.risk.model.UserDirectory;

/**
 * Owns the Aeron side of the service (driver, client, each engine node's streams, {@link EngineEndpoints}, and the
 * polling thread), as a Spring {@link SmartLifecycle}. Admin commands go signed with the service's admin key to the
 * node the read model follows ({@link RiskReadModel#followedEngine()}); without either nothing is sent ({@link
 * OfferOutcome#NO_ADMIN_KEY}, {@link OfferOutcome#NO_PRIMARY}).
 * <p>
 * Thread safety: start and stop are synchronized; offers run on HTTP threads, one signed command at a time.
 */
public final class AeronConnection implements SmartLifecycle, AdminCommandSink
{
    private static final Logger LOG = LoggerFactory.getLogger(AeronConnection.class);

    private final RiskProperties properties;
    private final List<EngineEndpoints> engines;
    private final RiskReadModel model;
    private final AdminResponseListener adminResponses;
    private final UserDirectory users;
    private final AdminAudit audit;
    private final ErrorHandler errorHandler;
    private final UnsafeBuffer signed = new UnsafeBuffer(new byte[AdminCommandSigner.signedLength(4096)]);
    private AdminCommandSigner signer;
    private volatile boolean running;
    private MediaDriver driver;
    private Aeron aeron;
    private volatile Publication[] ingress;
    private AgentRunner runner;
    private volatile EngineEventHandler[] handlers;

    /**
     * @param properties     driver and action settings.
     * @param engines        the engine nodes, validated ({@link EngineEndpoints#of(RiskProperties)}).
     * @param model          the read model the agent feeds; it knows as many nodes as {@code engines} lists.
     * @param adminResponses who correlates admin responses.
     * @param users          the user directory, learnt from the followed node's egress.
     * @param audit          the admin log of answered admin commands.
     */
    public AeronConnection(
        final RiskProperties properties,
        final List<EngineEndpoints> engines,
        final RiskReadModel model,
        final AdminResponseListener adminResponses,
        final UserDirectory users,
        final AdminAudit audit)
    {
        this.properties = properties;
        this.engines = List.copyOf(engines);
        this.model = model;
        this.adminResponses = adminResponses;
        this.users = users;
        this.audit = audit;
        this.errorHandler = t -> LOG.error("Aeron error", t);
    }

    @Override
    public synchronized void start()
    {
        signer = signer(properties.actions());
        final RiskProperties.Aeron config = properties.aeron();
        String dir = config.dir();
        if (config.embeddedDriver())
        {
            final MediaDriver.Context driverContext = new MediaDriver.Context()
                .threadingMode(ThreadingMode.SHARED)
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true)
                .errorHandler(errorHandler);
            if (!dir.isEmpty())
            {
                driverContext.aeronDirectoryName(dir);
            }
            driver = MediaDriver.launchEmbedded(driverContext);
            dir = driver.aeronDirectoryName();
            LOG.info("Embedded media driver in {}", dir);
        }

        final Aeron.Context context = new Aeron.Context()
            .errorHandler(errorHandler)
            .driverTimeoutMs(config.driverTimeout().toMillis());
        if (!dir.isEmpty())
        {
            context.aeronDirectoryName(dir);
        }
        try
        {
            aeron = Aeron.connect(context);
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietClose(driver);
            throw new IllegalStateException("No Aeron media driver in " + context.aeronDirectoryName() +
                ": start one, or set ringex.risk.aeron.embedded-driver=true", ex);
        }

        final int count = engines.size();
        final Subscription[] risk = new Subscription[count];
        final Subscription[] marketData = new Subscription[count];
        final Subscription[] egress = new Subscription[count];
        final Publication[] ingressPublications = new Publication[count];
        final EngineEventHandler[] eventHandlers = new EngineEventHandler[count];
        for (int i = 0; i < count; i++)
        {
            final EngineEndpoints e = engines.get(i);
            risk[i] = aeron.addSubscription(e.riskChannel(), e.riskStreamId());
            marketData[i] = aeron.addSubscription(e.marketDataChannel(), e.marketDataStreamId());
            egress[i] = aeron.addSubscription(e.egressChannel(), e.egressStreamId());
            ingressPublications[i] = aeron.addPublication(e.ingressChannel(), e.ingressStreamId());
            eventHandlers[i] = new EngineEventHandler(i, model, adminResponses, users, audit);
            LOG.info("Engine {} ({}): risk {} stream {}, market data {} stream {}, user directory from egress {} " +
                "stream {}, admin commands to {} stream {} signed with {}", i, e.name(), e.riskChannel(),
                e.riskStreamId(), e.marketDataChannel(), e.marketDataStreamId(), e.egressChannel(), e.egressStreamId(),
                e.ingressChannel(), e.ingressStreamId(),
                null == signer ? "no key (actions refused)" : "admin key " + signer.key());
        }
        ingress = ingressPublications;
        handlers = eventHandlers;
        final EngineStreamsAgent agent = new EngineStreamsAgent(risk, marketData, egress, ingressPublications,
            eventHandlers, model, users);
        runner = new AgentRunner(new SleepingMillisIdleStrategy(1), errorHandler, null, agent);
        AgentRunner.startOnThread(runner);
        running = true;
    }

    @Override
    public synchronized void stop()
    {
        running = false;
        CloseHelper.quietCloseAll(runner, aeron, driver);
        ingress = null;
    }

    @Override
    public boolean isRunning()
    {
        return running;
    }

    @Override
    public OfferOutcome offerIngress(final DirectBuffer buffer, final int offset, final int length)
    {
        final Publication[] publications = ingress;
        if (publications == null)
        {
            return OfferOutcome.NOT_STARTED;
        }
        final int engine = model.followedEngine();
        if (engine == PrimarySelector.NONE)
        {
            return OfferOutcome.NO_PRIMARY;
        }
        final int templateId = buffer.getShort(offset + MessageHeaderDecoder.templateIdEncodingOffset(),
            MessageHeaderDecoder.BYTE_ORDER) & 0xFFFF;
        if (!MessageCatalog.isOperatorCommand(templateId))
        {
            return PublicationOffers.offer(publications[engine], buffer, offset, length, null, offerTimeoutNs());
        }
        synchronized (signed)
        {
            if (null == signer)
            {
                return OfferOutcome.NO_ADMIN_KEY;
            }
            // Signed as late as possible: the engine refuses a command signed too far from its own clock.
            final int signedLength = signer.sign(buffer, offset, length, signed, 0);
            return PublicationOffers.offer(publications[engine], signed, 0, signedLength, null, offerTimeoutNs());
        }
    }

    /**
     * The service's signer, from its configured key; null without one.
     *
     * @param actions the actions' settings.
     * @return the signer, or null.
     * @throws IllegalStateException naming the key when the file cannot be read or holds no such key.
     */
    static AdminCommandSigner signer(final RiskProperties.Actions actions)
    {
        if (actions.adminKeyFile().isEmpty())
        {
            LOG.warn("No admin key (ringex.risk.actions.admin-key-file): every action is refused, nothing is sent " +
                "to the engine");
            return null;
        }
        try
        {
            final AdminKey key = AdminKeys.load(java.nio.file.Path.of(actions.adminKeyFile()))
                .select(actions.adminKey());
            return new AdminCommandSigner(key);
        }
        catch (final IllegalArgumentException ex)
        {
            // The message names the file and the line or the key, never a secret.
            throw new IllegalStateException("ringex.risk.actions.admin-key-file / admin-key: " + ex.getMessage(), ex);
        }
    }

    /** @return the directory of the media driver in use, for tests and the all-in-one. */
    public String aeronDirectoryName()
    {
        return aeron == null ? null : aeron.context().aeronDirectoryName();
    }

    /** @return events decoded so far from every node, or 0 before start. */
    public long decodedCount()
    {
        final EngineEventHandler[] h = handlers;
        long count = 0;
        for (int i = 0; h != null && i < h.length; i++)
        {
            count += h[i].decodedCount();
        }
        return count;
    }

    private long offerTimeoutNs()
    {
        return TimeUnit.MILLISECONDS.toNanos(properties.actions().offerTimeout().toMillis());
    }
}
