package io.ringex.common.aeron;

import io.aeron.Aeron;
import io.aeron.archive.Archive;
import io.aeron.archive.ArchivingMediaDriver;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.exceptions.DriverTimeoutException;
import org.agrona.CloseHelper;
import org.agrona.ErrorHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * How every Ringex process reaches Aeron: an optional embedded media driver (with an Aeron Archive beside it when the
 * process needs one, as the gateway's FIX store does) and an Aeron client, both with an error handler that logs and
 * counts. Aeron's default client handler exits the JVM when the driver stops answering; a Ringex process may share its
 * JVM with others (the all-in-one venue, tests), so a driver timeout here is logged and the process's agents see
 * their publications close, as they do for any other loss.
 * <p>
 * Thread safety: launch and close on one thread; {@link #aeron()} is Aeron's thread-safe client.
 */
public final class AeronBootstrap implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(AeronBootstrap.class);

    private final String name;
    private final AtomicLong errors = new AtomicLong();
    private final ErrorHandler errorHandler;
    private final RepeatedErrorLog repeated = new RepeatedErrorLog(LOG::error);
    private MediaDriver driver;
    private ArchivingMediaDriver archivingDriver;
    private Aeron aeron;

    private AeronBootstrap(final String name, final ErrorHandler delegate)
    {
        this.name = name;
        this.errorHandler = (throwable) ->
        {
            errors.incrementAndGet();
            if (throwable instanceof DriverTimeoutException)
            {
                LOG.error("{}: the media driver stopped answering; the process keeps running without it", name,
                    throwable);
            }
            else
            {
                repeated.error(System.nanoTime(), name + ": Aeron error", throwable);
            }
            if (null != delegate)
            {
                delegate.onError(throwable);
            }
        };
    }

    /**
     * Connect to a media driver already running in {@code aeronDirectoryName} (or Aeron's default directory).
     *
     * @param name               the process, for logs.
     * @param aeronDirectoryName the driver's directory, or null for Aeron's default.
     * @param driverTimeoutMs    how long the driver may stay silent; 0 for Aeron's default.
     * @param errorHandler       also told of each error (after it is logged and counted), or null.
     * @return the connected client's bootstrap.
     */
    public static AeronBootstrap connect(
        final String name, final String aeronDirectoryName, final long driverTimeoutMs, final ErrorHandler errorHandler)
    {
        final AeronBootstrap bootstrap = new AeronBootstrap(name, errorHandler);
        bootstrap.connect(aeronDirectoryName, driverTimeoutMs);
        return bootstrap;
    }

    /**
     * Launch a media driver in this process (SHARED threading, directory deleted on start and on close), optionally
     * with an Aeron Archive, and connect to it.
     *
     * @param name               the process, for logs.
     * @param aeronDirectoryName the driver's directory, or null for Aeron's default.
     * @param driverSettings     more driver settings (term lengths...), or null.
     * @param archive            an archive to launch beside the driver, or null.
     * @param errorHandler       also told of each error, or null.
     * @return the bootstrap, driver launched and client connected.
     */
    public static AeronBootstrap launchEmbedded(
        final String name,
        final String aeronDirectoryName,
        final Consumer<MediaDriver.Context> driverSettings,
        final Archive.Context archive,
        final ErrorHandler errorHandler)
    {
        final AeronBootstrap bootstrap = new AeronBootstrap(name, errorHandler);
        final MediaDriver.Context driverContext = new MediaDriver.Context()
            .threadingMode(ThreadingMode.SHARED)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .errorHandler(bootstrap.errorHandler);
        if (null != aeronDirectoryName)
        {
            driverContext.aeronDirectoryName(aeronDirectoryName);
        }
        if (null != driverSettings)
        {
            driverSettings.accept(driverContext);
        }
        try
        {
            if (null == archive)
            {
                bootstrap.driver = MediaDriver.launchEmbedded(driverContext);
                bootstrap.connect(bootstrap.driver.aeronDirectoryName(), 0);
            }
            else
            {
                archive.errorHandler(bootstrap.errorHandler).aeronDirectoryName(driverContext.aeronDirectoryName());
                bootstrap.archivingDriver = ArchivingMediaDriver.launch(driverContext, archive);
                bootstrap.connect(driverContext.aeronDirectoryName(), 0);
            }
        }
        catch (final RuntimeException ex)
        {
            bootstrap.close();
            throw ex;
        }
        return bootstrap;
    }

    private void connect(final String aeronDirectoryName, final long driverTimeoutMs)
    {
        final Aeron.Context context = new Aeron.Context().errorHandler(errorHandler).clientName(name);
        if (null != aeronDirectoryName)
        {
            context.aeronDirectoryName(aeronDirectoryName);
        }
        if (driverTimeoutMs > 0)
        {
            context.driverTimeoutMs(driverTimeoutMs);
        }
        aeron = Aeron.connect(context);
    }

    /**
     * @return the client.
     */
    public Aeron aeron()
    {
        return aeron;
    }

    /**
     * @return the driver's directory.
     */
    public String aeronDirectoryName()
    {
        return aeron.context().aeronDirectoryName();
    }

    /**
     * @return the error handler every agent of the process should use: it logs and counts.
     */
    public ErrorHandler errorHandler()
    {
        return errorHandler;
    }

    /**
     * @return errors seen since launch.
     */
    public long errorCount()
    {
        return errors.get();
    }

    /**
     * @return whether this process runs the media driver.
     */
    public boolean isDriverEmbedded()
    {
        return null != driver || null != archivingDriver;
    }

    /**
     * Close the client, then any driver (and archive) this process launched.
     */
    public void close()
    {
        CloseHelper.closeAll(aeron, archivingDriver, driver);
    }
}
