package io.ringex.risk.aeron;

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
import io.aeron.ReservedValueSupplier;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.ringex.protocol.SessionIds;
import io.ringex.risk.config.RiskProperties;
import io.ringex.risk.model.RiskReadModel;

/**
 * Owns the Aeron side of the service: an optional embedded media driver, the client, the engine's risk and
 * market-data subscriptions, the ingress and control publications, and the agent thread that polls. Started and
 * stopped by Spring as a {@link SmartLifecycle}; after start nothing here involves Spring.
 * <p>
 * Admin commands carry no sessionId field in schema v1; the admin source id {@code SessionIds.sessionId(0, n)} is
 * stamped in each frame's reserved value so that the engine can read it from the Aeron header.
 */
public final class AeronConnection implements SmartLifecycle, AdminCommandSink
{
    private static final Logger LOG = LoggerFactory.getLogger(AeronConnection.class);

    private final RiskProperties properties;
    private final RiskReadModel model;
    private final AdminResponseListener adminResponses;
    private final ErrorHandler errorHandler;
    private final long adminSessionId;
    private final ReservedValueSupplier adminSource;
    private volatile boolean running;
    private MediaDriver driver;
    private Aeron aeron;
    private volatile Publication ingress;
    private volatile Publication control;
    private AgentRunner runner;
    private EngineEventHandler handler;

    /**
     * @param properties     channels, streams and driver settings.
     * @param model          the read model the agent feeds.
     * @param adminResponses who correlates admin responses.
     */
    public AeronConnection(
        final RiskProperties properties,
        final RiskReadModel model,
        final AdminResponseListener adminResponses)
    {
        this.properties = properties;
        this.model = model;
        this.adminResponses = adminResponses;
        this.errorHandler = t -> LOG.error("Aeron error", t);
        this.adminSessionId = SessionIds.sessionId(
            SessionIds.ADMIN_GATEWAY_ID, properties.actions().adminSessionNumber());
        this.adminSource = (termBuffer, termOffset, frameLength) -> adminSessionId;
    }

    @Override
    public synchronized void start()
    {
        final RiskProperties.Aeron config = properties.aeron();
        final RiskProperties.Streams streams = properties.streams();
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

        final Subscription risk = aeron.addSubscription(streams.riskChannel(), streams.riskStreamId());
        final Subscription marketData = aeron.addSubscription(
            streams.marketDataChannel(), streams.marketDataStreamId());
        ingress = aeron.addPublication(streams.ingressChannel(), streams.ingressStreamId());
        control = aeron.addPublication(streams.controlChannel(), streams.controlStreamId());
        handler = new EngineEventHandler(model, adminResponses);
        final EngineStreamsAgent agent = new EngineStreamsAgent(risk, marketData, ingress, handler, model);
        runner = new AgentRunner(new SleepingMillisIdleStrategy(1), errorHandler, null, agent);
        AgentRunner.startOnThread(runner);
        running = true;
        LOG.info("Reading risk {} stream {} and market data {} stream {}; admin commands to {} stream {} as {}",
            streams.riskChannel(), streams.riskStreamId(), streams.marketDataChannel(),
            streams.marketDataStreamId(), streams.ingressChannel(), streams.ingressStreamId(), adminSessionId);
    }

    @Override
    public synchronized void stop()
    {
        running = false;
        CloseHelper.quietCloseAll(runner, aeron, driver);
        ingress = null;
        control = null;
    }

    @Override
    public boolean isRunning()
    {
        return running;
    }

    @Override
    public OfferOutcome offerIngress(final DirectBuffer buffer, final int offset, final int length)
    {
        return PublicationOffers.offer(ingress, buffer, offset, length, adminSource, offerTimeoutNs());
    }

    @Override
    public OfferOutcome offerControl(final DirectBuffer buffer, final int offset, final int length)
    {
        return PublicationOffers.offer(control, buffer, offset, length, adminSource, offerTimeoutNs());
    }

    /** @return the directory of the media driver in use, for tests and the all-in-one. */
    public String aeronDirectoryName()
    {
        return aeron == null ? null : aeron.context().aeronDirectoryName();
    }

    /** @return events decoded so far, or 0 before start. */
    public long decodedCount()
    {
        final EngineEventHandler h = handler;
        return h == null ? 0 : h.decodedCount();
    }

    private long offerTimeoutNs()
    {
        return TimeUnit.MILLISECONDS.toNanos(properties.actions().offerTimeout().toMillis());
    }
}
