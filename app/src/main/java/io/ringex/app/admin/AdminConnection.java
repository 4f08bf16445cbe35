package io.ringex.app.admin;

import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.aeron.Aeron;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.exceptions.AeronException;
import io.ringex.app.Venue;
import io.ringex.client.AdminClient;
import io.ringex.client.AdminKey;
import io.ringex.client.AdminKeys;
import io.ringex.common.config.CommandLineOptions;
import org.agrona.CloseHelper;

/**
 * The admin tool's link to an engine: an Aeron client on a running media driver (the all-in-one's by default) or on one
 * of its own, the {@link AdminClient} on the engine's ingress and risk stream, and a {@link VenueReader}
 * (docs/operations.md, "{@code ./ringex admin}").
 * <p>
 * Its options ({@link #OPTIONS}, {@link #SWITCHES}) default to an all-in-one started from the same directory; changes
 * are signed with an admin key from {@code --key-file}, while reading the venue needs none.
 * <p>
 * Thread safety: one thread.
 */
final class AdminConnection implements AutoCloseable
{
    /** The connection options that take a value. */
    static final Set<String> OPTIONS = Set.of("--aeron-dir", "--data", "--ingress", "--ingress-stream", "--outbound",
        "--egress-stream", "--risk-stream", "--timeout-ms", "--key-file", "--key");
    /** The admin keys file the all-in-one writes in its data directory. */
    public static final String KEY_FILE_NAME = "admin.keys";
    /** The connection options that take none. */
    static final Set<String> SWITCHES = Set.of("--embedded-driver");

    private final MediaDriver driver;
    private final Aeron aeron;
    private final AdminClient admin;
    private final VenueReader reader;

    private AdminConnection(final MediaDriver driver, final Aeron aeron, final AdminClient admin,
        final VenueReader reader)
    {
        this.driver = driver;
        this.aeron = aeron;
        this.admin = admin;
        this.reader = reader;
    }

    /**
     * @param options the command line.
     * @return the settings, checked.
     * @throws CommandLineOptions.UsageException naming a bad option.
     */
    static Settings settings(final CommandLineOptions options)
    {
        if (options.has("--embedded-driver") && (options.has("--aeron-dir") || options.has("--data")))
        {
            throw new CommandLineOptions.UsageException("--embedded-driver: not with --aeron-dir or --data");
        }
        if (options.has("--aeron-dir") && options.has("--data"))
        {
            throw new CommandLineOptions.UsageException("--data: not with --aeron-dir");
        }
        final String aeronDir = options.has("--embedded-driver") ? null : options.string("--aeron-dir",
            Venue.aeronDirectoryFor(Path.of(options.string("--data", "data"))));
        final String aeronDirFrom = options.has("--aeron-dir") ? "the directory --aeron-dir names" :
            "the all-in-one's media driver for data directory " +
            Path.of(options.string("--data", "data")).toAbsolutePath().normalize() +
            (options.has("--data") ? ", from --data" : ", the default ./data");
        final boolean keyFileGiven = options.has("--key-file");
        final Path keyFile = keyFileGiven ? Path.of(options.string("--key-file", "")) :
            Path.of(options.string("--data", "data")).resolve(KEY_FILE_NAME);
        return new Settings(aeronDir,
            options.string("--ingress", Venue.IPC),
            options.intValue("--ingress-stream", Venue.INGRESS_STREAM, 1),
            options.string("--outbound", Venue.IPC),
            options.intValue("--egress-stream", Venue.EGRESS_STREAM, 1),
            options.intValue("--risk-stream", Venue.RISK_STREAM, 1),
            TimeUnit.MILLISECONDS.toNanos(options.longValue("--timeout-ms", 30_000, 1)),
            keyFile, keyFileGiven, options.string("--key", ""), aeronDirFrom, options.string("--reason", ""));
    }

    /**
     * What the tool says when it finds no venue: where it looked, why that directory, and the two options that point
     * it elsewhere.
     *
     * @param settings where it looked.
     * @param found    what it found there.
     * @return the message.
     */
    static String noVenue(final Settings settings, final String found)
    {
        return "no venue found: " + found + " at " + settings.aeronDir() + " (" + settings.aeronDirFrom() +
            "). A venue started on another data directory: --data DIR (that data directory); an engine with a media " +
            "driver of its own: --aeron-dir DIR (that driver's directory)";
    }

    /**
     * The admin key the settings name: from the file given, or the data directory's when there is one there.
     *
     * @param settings the settings.
     * @return the key, or null when no file was given and the default one does not exist (changes then fail).
     * @throws CommandLineOptions.UsageException naming the option when the file cannot be read or holds no such key.
     */
    static AdminKey key(final Settings settings)
    {
        if (!settings.keyFileGiven() && !java.nio.file.Files.exists(settings.keyFile()))
        {
            return null;
        }
        try
        {
            return AdminKeys.load(settings.keyFile()).select(settings.keyName());
        }
        catch (final IllegalArgumentException ex)
        {
            throw new CommandLineOptions.UsageException("--key-file/--key: " + ex.getMessage());
        }
    }

    /**
     * Where the engine is.
     *
     * @param aeronDir      a running media driver's directory, or null to launch one.
     * @param ingress       the engine's ingress channel.
     * @param ingressStream its stream.
     * @param outbound      the engine's outbound channel, subscriber side.
     * @param egressStream  its egress stream.
     * @param riskStream    its risk stream.
     * @param timeoutNs     how long to wait for the engine.
     * @param keyFile       the admin keys file holding the key changes are signed with.
     * @param keyFileGiven  whether it was named (else the data directory's, if there).
     * @param keyName       the key's name in it; empty: its first.
     * @param aeronDirFrom  how {@code aeronDir} was chosen, for people: named by {@code --aeron-dir}, or the
     *                      all-in-one's for a data directory.
     * @param reason        the command's {@code --reason} (empty if none): every change it sends carries it.
     */
    record Settings(
        String aeronDir,
        String ingress,
        int ingressStream,
        String outbound,
        int egressStream,
        int riskStream,
        long timeoutNs,
        Path keyFile,
        boolean keyFileGiven,
        String keyName,
        String aeronDirFrom,
        String reason)
    {
    }

    /**
     * @param settings where the engine is.
     * @param operator the operator the commands name.
     * @return the link.
     * @throws IllegalStateException if the media driver is not there.
     */
    static AdminConnection open(final Settings settings, final String operator)
    {
        MediaDriver driver = null;
        Aeron aeron = null;
        AdminClient admin = null;
        try
        {
            String aeronDir = settings.aeronDir();
            if (null == aeronDir)
            {
                driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
                    .threadingMode(ThreadingMode.SHARED)
                    .dirDeleteOnStart(true)
                    .dirDeleteOnShutdown(true));
                aeronDir = driver.aeronDirectoryName();
            }
            else if (!new java.io.File(aeronDir, "cnc.dat").exists())
            {
                throw new IllegalStateException(noVenue(settings, "no media driver"));
            }
            try
            {
                aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDir));
            }
            catch (final AeronException ex)
            {
                // The files of a driver that stopped (a venue shut down or killed): nothing answers there.
                throw new IllegalStateException(noVenue(settings, "a media driver's files but no driver running (" +
                    ex.getMessage() + ")"), ex);
            }
            admin = new AdminClient(aeron, settings.ingress(), settings.ingressStream(), settings.outbound(),
                settings.riskStream(), key(settings)).timeoutNs(settings.timeoutNs());
            if (null != operator)
            {
                admin.commands().operator(operator);
            }
            // The changes that take no reason of their own (AddInstrument, SetLimits, SetTradingStatus, ...) carry it.
            admin.commands().reason(settings.reason());
            final VenueReader reader = new VenueReader(aeron, admin, settings.outbound(), settings.egressStream(),
                settings.riskStream(), settings.timeoutNs());
            return new AdminConnection(driver, aeron, admin, reader);
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietCloseAll(admin, aeron, driver);
            throw ex;
        }
    }

    /**
     * @return the engine's admin link.
     */
    AdminClient admin()
    {
        return admin;
    }

    /**
     * @return what the venue holds, read from its streams.
     */
    VenueReader reader()
    {
        return reader;
    }

    public void close()
    {
        CloseHelper.quietCloseAll(reader, admin, aeron, driver);
    }
}
