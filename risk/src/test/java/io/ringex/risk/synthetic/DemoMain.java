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
     * @param port        HTTP port, 0 for any.
     * @param aeronDir    media driver directory to create.
     * @param tradeEveryMs mean time between synthetic trades.
     * @return the running service and engine.
     */
    public static Demo start(final int port, final String aeronDir, final long tradeEveryMs)
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
        final ConfigurableApplicationContext context = new SpringApplicationBuilder(RiskServiceApplication.class)
            .profiles("demo")
            .run(args);
        final String dir = context.getBean(AeronConnection.class).aeronDirectoryName();
        final Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(dir));
        final SyntheticEngine engine = new SyntheticEngine(aeron, EngineStreams.ipc(), 42, tradeEveryMs);
        engine.start();
        return new Demo(context, aeron, engine);
    }

    /**
     * @param args optional HTTP port.
     */
    public static void main(final String[] args)
    {
        final int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
        final Demo demo = start(port, "/dev/shm/ringex-risk-demo-" + ProcessHandle.current().pid(), 80);
        Runtime.getRuntime().addShutdownHook(new Thread(demo::close));
        System.out.println("Risk dashboard (synthetic engine) on http://localhost:" + port +
            "/  users viewer/viewer, officer/officer");
    }

    /**
     * A running demo.
     *
     * @param context the Spring context of the risk service.
     * @param aeron   the synthetic engine's Aeron client.
     * @param engine  the synthetic engine.
     */
    public record Demo(ConfigurableApplicationContext context, Aeron aeron, SyntheticEngine engine)
        implements AutoCloseable
    {
        @Override
        public void close()
        {
            engine.close();
            aeron.close();
            context.close();
        }

        /** @return the HTTP port the service listens on. */
        public int port()
        {
            return Integer.parseInt(context.getEnvironment().getProperty("local.server.port", "0"));
        }
    }
}
