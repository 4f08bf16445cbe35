package io.ringex.app;

import java.util.ArrayList;
import java.util.List;

import io.aeron.Aeron;
import io.ringex.risk.RiskServiceApplication;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.CompositeAgent;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextClosedEvent;

/**
 * The all-in-one venue: {@code java -jar app/target/ringex.jar [--demo-flow] [--data=DIR]} (or {@code ./ringex demo}).
 * Starts the venue (media driver, engine, gateway) first, then the risk dashboard on it, prints where to connect,
 * and closes the venue after the dashboard when the JVM is asked to stop.
 */
public final class RingexApplication
{
    private RingexApplication()
    {
    }

    /**
     * @param args the all-in-one's options ({@link VenueSettings}) and Spring Boot's.
     */
    public static void main(final String[] args)
    {
        final VenueSettings settings = VenueSettings.parse(args);
        final Venue venue = Venue.start(settings);

        // The dashboard reads the engine's streams on the venue's own media driver, over IPC.
        System.setProperty("ringex.risk.aeron.dir", venue.aeronDirectoryName());
        System.setProperty("ringex.risk.aeron.embedded-driver", "false");
        System.setProperty("ringex.risk.streams.ingress-channel", Venue.IPC);
        System.setProperty("ringex.risk.streams.risk-channel", Venue.IPC);
        System.setProperty("ringex.risk.streams.market-data-channel", Venue.IPC);
        System.setProperty("ringex.risk.streams.control-channel", Venue.IPC);
        System.setProperty("ringex.risk.streams.control-stream-id", Integer.toString(Venue.CONTROL_STREAM));
        // The audit page replays the venue's own journal, read-only, on the risk service's worker thread.
        System.setProperty("ringex.risk.audit.journal-dir", settings.dataDirectory().resolve("journal").toString());
        System.setProperty("ringex.risk.audit.snapshot-dir",
            settings.dataDirectory().resolve("snapshots").toString());

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
            context = spring.run(springArgs(args));
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietClose(demoFlow);
            venue.close();
            throw ex;
        }
        Banner.print(settings, venue, context);
    }

    private static AgentRunner startDemoFlow(final Venue venue)
    {
        final Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(venue.aeronDirectoryName()));
        final DemoFlow flow = new DemoFlow(aeron, "aeron:udp?endpoint=localhost:" + venue.settings().sbePort(),
            Venue.CLIENT_STREAM);
        final AgentRunner runner = new AgentRunner(new BackoffIdleStrategy(), Throwable::printStackTrace, null,
            new CompositeAgent(flow, new Agent()
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

    private static String[] springArgs(final String[] args)
    {
        final List<String> springArgs = new ArrayList<>();
        for (final String arg : args)
        {
            if (!arg.equals("--demo-flow") && !arg.startsWith("--data=") && !arg.startsWith("--fix-port=") &&
                !arg.startsWith("--sbe-port="))
            {
                springArgs.add(arg);
            }
        }
        return springArgs.toArray(new String[0]);
    }
}
