package io.ringex.app;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.Properties;

import io.aeron.Aeron;
import io.aeron.exceptions.ConfigurationException;
import io.ringex.common.config.CommandLineOptions.UsageException;
import io.ringex.risk.RiskServiceApplication;
import io.ringex.risk.config.RiskKeys;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.CompositeAgent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.core.env.SimpleCommandLinePropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * The all-in-one venue: {@code java -jar app/target/ringex.jar [--demo-flow] [--data=DIR]} (or {@code ./ringex demo}).
 * Reads its options ({@link VenueSettings}) and keys ({@link VenueKeys}, and the dashboard's through
 * {@link RiskKeys}) strictly: anything it would not act on stops it before anything starts, with one line naming
 * the option or key and exit status 2. Then it starts the venue (media driver, engine, gateway), then the risk
 * dashboard on it, prints where to connect, and closes the venue after the dashboard when the JVM is asked to stop.
 */
public final class RingexApplication
{
    /** The exit status of options or keys the all-in-one refuses. */
    static final int CONFIGURATION_ERROR_STATUS = 2;
    private static final Logger LOG = LoggerFactory.getLogger(RingexApplication.class);

    /** The dashboard's keys the venue sets, so that it reads the venue's own streams over IPC. */
    static final Set<String> RISK_KEYS_SET_BY_THE_VENUE = riskKeysSetByTheVenue("", Path.of("")).keySet();

    private RingexApplication()
    {
    }

    /**
     * @param args the all-in-one's options ({@link VenueSettings}) and Spring Boot's.
     */
    public static void main(final String[] args)
    {
        final VenueSettings settings;
        final Venue venue;
        try
        {
            settings = configure(args);
            venue = Venue.configure(settings);
        }
        catch (final UsageException | ConfigurationException ex)
        {
            System.err.println("ringex demo: " + ex.getMessage());
            System.exit(CONFIGURATION_ERROR_STATUS);
            return;
        }
        catch (final BindException ex)
        {
            System.err.println("ringex demo: " + bindingMessage(ex));
            System.exit(CONFIGURATION_ERROR_STATUS);
            return;
        }
        venue.start();

        // The dashboard reads the engine's streams on the venue's own media driver, over IPC.
        riskKeysSetByTheVenue(venue.aeronDirectoryName(), settings.dataDirectory()).forEach(System::setProperty);

        final AgentRunner demoFlow = settings.demoFlow() ? startDemoFlow(venue) : null;
        final SpringApplication spring = new SpringApplication(RiskServiceApplication.class);
        spring.setAdditionalProfiles("demo");
        spring.addListeners((ContextClosedEvent event) ->
        {
            CloseHelper.quietClose(demoFlow);
            venue.close();
        });
        final ConfigurableApplicationContext context;
        try
        {
            context = spring.run(settings.springArgs().toArray(new String[0]));
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietClose(demoFlow);
            venue.close();
            throw ex;
        }
        Banner.print(settings, venue, context);
    }

    /**
     * What {@link #main} does before it builds the venue: read the options, set the {@code --ringex.*} ones as
     * system properties, refuse keys the venue does not take, and bind the dashboard's keys from the system
     * properties, the environment and the command line.
     *
     * @param args the command line.
     * @return the settings.
     * @throws UsageException         naming an option that is not one or is malformed.
     * @throws ConfigurationException naming a key the venue does not take.
     * @throws BindException          naming a {@code ringex.risk.*} key that binds to nothing or does not convert.
     */
    static VenueSettings configure(final String[] args)
    {
        final VenueSettings settings = VenueSettings.parse(args);
        final Properties keys = new Properties();
        keys.putAll(System.getProperties());
        keys.putAll(settings.ringexKeys());
        final SimpleCommandLinePropertySource springArgs =
            new SimpleCommandLinePropertySource(settings.springArgs().toArray(new String[0]));
        for (final String name : springArgs.getPropertyNames())
        {
            if (name.startsWith(VenueKeys.RISK_PREFIX))
            {
                keys.setProperty(name, String.valueOf(springArgs.getProperty(name)));
            }
        }
        VenueKeys.check(keys);
        settings.ringexKeys().forEach(System::setProperty);
        final StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(springArgs);
        RiskKeys.check(environment);
        return settings;
    }

    /**
     * The dashboard's keys the venue sets: it reads the venue's own streams over IPC, and its audit page replays the
     * venue's own journal, read-only, on the risk service's worker thread.
     */
    static Map<String, String> riskKeysSetByTheVenue(final String aeronDirectory, final Path dataDirectory)
    {
        final Map<String, String> keys = new LinkedHashMap<>();
        keys.put("ringex.risk.aeron.dir", aeronDirectory);
        keys.put("ringex.risk.aeron.embedded-driver", "false");
        keys.put("ringex.risk.streams.ingress-channel", Venue.IPC);
        keys.put("ringex.risk.streams.risk-channel", Venue.IPC);
        keys.put("ringex.risk.streams.market-data-channel", Venue.IPC);
        keys.put("ringex.risk.audit.journal-dir", dataDirectory.resolve("journal").toString());
        // the dashboard signs its admin commands with the data directory's first admin key, as the venue does
        keys.put("ringex.risk.actions.admin-key-file", dataDirectory.resolve(Venue.ADMIN_KEYS_FILE).toString());
        keys.put("ringex.risk.audit.snapshot-dir", dataDirectory.resolve("snapshots").toString());
        // the console manages the API keys of the venue's own gateway
        keys.put("ringex.risk.security.api-keys-file", dataDirectory.resolve(Venue.API_KEYS_FILE).toString());
        return Collections.unmodifiableMap(keys);
    }

    /** One line: Spring's message, which names the key, and what is wrong with it. */
    static String bindingMessage(final BindException ex)
    {
        Throwable cause = ex;
        while (null != cause.getCause())
        {
            cause = cause.getCause();
        }
        return ex.getMessage() + (cause == ex ? "" : ": " + cause.getMessage());
    }

    private static AgentRunner startDemoFlow(final Venue venue)
    {
        final Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(venue.aeronDirectoryName()));
        final DemoFlow flow = new DemoFlow(aeron, "aeron:udp?endpoint=localhost:" + venue.settings().sbePort(),
            Venue.CLIENT_STREAM);
        final AgentRunner runner = new AgentRunner(new BackoffIdleStrategy(),
            (ex) -> LOG.error("demo flow failed", ex), null, new CompositeAgent(flow, new Agent()
            {
                public int doWork()
                {
                    return 0;
                }

                public String roleName()
                {
                    return "demo-flow-client";
                }

                public void onClose()
                {
                    aeron.close();
                }
            }));
        AgentRunner.startOnThread(runner);
        return runner;
    }
}
