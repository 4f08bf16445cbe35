package io.ringex.risk.synthetic;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.aeron.Aeron;
import io.ringex.risk.RiskServiceApplication;
import io.ringex.risk.aeron.AeronConnection;

/**
 * The risk service fed by the STAND-IN {@link SyntheticEngine}, in one JVM over one embedded media driver (IPC), with
 * the demo users. For looking at the dashboard and for the browser test; not a way to run the venue.
 * <p>
 * {@code risk/src/test/browser/demo.sh [port]} runs it (default port 8080).
 */
public final class DemoMain
{
    private DemoMain()
    {
    }

    /**
     * Start the risk service with an embedded media driver, every stream on IPC, and the demo users.
     *
     * @param port     HTTP port, 0 for any.
     * @param aeronDir media driver directory to create.
     * @return the running service.
     */
    public static ConfigurableApplicationContext startService(final int port, final String aeronDir)
    {
        final Map<String, Object> props = new LinkedHashMap<>();
        props.put("server.port", port);
        props.put("ringex.risk.aeron.embedded-driver", true);
        props.put("ringex.risk.aeron.dir", aeronDir);
        props.put("ringex.risk.streams.ingress-channel", "aeron:ipc");
        props.put("ringex.risk.streams.risk-channel", "aeron:ipc");
        props.put("ringex.risk.streams.market-data-channel", "aeron:ipc");
        props.put("ringex.risk.streams.control-channel", "aeron:ipc");
        // as command-line arguments: they must win over application.yml
        final String[] args = props.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue())
            .toArray(String[]::new);
        return new SpringApplicationBuilder(RiskServiceApplication.class).profiles("demo").run(args);
    }

    /**
     * Start the synthetic engine on the service's media driver.
     *
     * @param service      the running service.
     * @param tradeEveryMs mean time between background trades, 0 for none.
     * @return the engine, started; closing it closes its Aeron client.
     */
    public static SyntheticEngine startSyntheticEngine(
        final ConfigurableApplicationContext service,
        final long tradeEveryMs)
    {
        final String dir = service.getBean(AeronConnection.class).aeronDirectoryName();
        final Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(dir));
        final SyntheticEngine engine = new SyntheticEngine(aeron, EngineStreams.ipc(), 42, tradeEveryMs, aeron);
        engine.start();
        return engine;
    }

    /**
     * @param service the running service.
     * @return the HTTP port it listens on.
     */
    public static int port(final ConfigurableApplicationContext service)
    {
        return Integer.parseInt(service.getEnvironment().getProperty("local.server.port", "0"));
    }

    /**
     * @param args optional HTTP port.
     */
    public static void main(final String[] args)
    {
        final int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
        final ConfigurableApplicationContext service =
            startService(port, "/dev/shm/ringex-risk-demo-" + ProcessHandle.current().pid());
        final SyntheticEngine engine = startSyntheticEngine(service, 80);
        Runtime.getRuntime().addShutdownHook(new Thread(() ->
        {
            engine.close();
            service.close();
        }));
        System.out.println("Risk dashboard (synthetic engine) on http://localhost:" + port(service) +
            "/  users viewer/viewer, officer/officer");
    }
}
