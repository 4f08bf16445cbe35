package io.ringex.risk.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.ringex.protocol.codecs.Side;
import io.ringex.risk.RiskServiceApplication;
import io.ringex.risk.aeron.AeronConnection;

/**
 * The dashboard in a real browser (Debian chromium driven by playwright-core, risk/src/test/browser/dashboard.mjs):
 * log in, see an account's exposure change after a trade, hit its kill switch, see the engine reject its next order,
 * and leave screenshots in {@code risk/target/browser-shots} ({@code -Dringex.browser.shots=<dir>} to choose, e.g.
 * docs/img to refresh the documentation's).
 * <p>
 * The engine is the real engine node ({@link RealEngine}) on the service's embedded media driver, every stream on
 * IPC. The kill switch is the dashboard's own KillSwitch command; the test checks the engine's side of the story on
 * its egress stream: the account's market order before the kill switch FILLs, the one after it is REJECTED with
 * ACCOUNT_KILLED. Skipped (not failed) when chromium or node is missing, or with {@code -DskipBrowserIT=true}.
 */
class RiskDashboardBrowserIT
{
    private static final long TIMEOUT_S = 180;

    /** The engine's answers to the script's requests, in order: "TRADE FILL NONE 1", "ORDER REJECTED ...". */
    private final List<String> verdicts = new CopyOnWriteArrayList<>();

    /**
     * The engine the dashboard watches: the engine node on the service's media driver.
     *
     * @param service       the running risk service (its embedded media driver is the one to use).
     * @param dataDirectory where the node's journal and snapshots go: the service's audit page reads them.
     * @return the engine, started, with its venue installed.
     */
    static EngineUnderTest startEngine(final ConfigurableApplicationContext service, final Path dataDirectory)
    {
        final EngineUnderTest engine = new RealEngine(service.getBean(AeronConnection.class).aeronDirectoryName(),
            dataDirectory);
        try
        {
            engine.start();
            return engine;
        }
        catch (final RuntimeException ex)
        {
            engine.close();
            throw ex;
        }
    }

    /**
     * The risk service with an embedded media driver, every stream on IPC, and the demo users.
     *
     * @param aeronDir      media driver directory to create.
     * @param dataDirectory the engine node's data directory: the audit page replays its journal, read-only, while
     *                      the node writes it.
     * @return the running service, on any free HTTP port.
     */
    static ConfigurableApplicationContext startService(final String aeronDir, final Path dataDirectory)
    {
        final Map<String, Object> props = new LinkedHashMap<>();
        props.put("server.port", 0);
        props.put("ringex.risk.aeron.embedded-driver", true);
        props.put("ringex.risk.aeron.dir", aeronDir);
        props.put("ringex.risk.streams.ingress-channel", RealEngine.IPC);
        props.put("ringex.risk.streams.ingress-stream-id", RealEngine.INGRESS_STREAM);
        props.put("ringex.risk.streams.risk-channel", RealEngine.IPC);
        props.put("ringex.risk.streams.risk-stream-id", RealEngine.RISK_STREAM);
        props.put("ringex.risk.streams.market-data-channel", RealEngine.IPC);
        props.put("ringex.risk.streams.market-data-stream-id", RealEngine.MARKET_DATA_STREAM);
        props.put("ringex.risk.streams.control-channel", RealEngine.IPC);
        props.put("ringex.risk.audit.journal-dir", dataDirectory.resolve("journal"));
        props.put("ringex.risk.audit.snapshot-dir", dataDirectory.resolve("snapshots"));
        // as command-line arguments: they must win over application.yml
        final String[] args = props.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue())
            .toArray(String[]::new);
        return new SpringApplicationBuilder(RiskServiceApplication.class).profiles("demo").run(args);
    }

    @Test
    void officerSeesExposureKillsAnAccountAndTheEngineRejectsItsNextOrder() throws Exception
    {
        assumeFalse(Boolean.getBoolean("skipBrowserIT"), "skipped with -DskipBrowserIT=true");
        final String chromium = System.getenv().getOrDefault("CHROMIUM", "/usr/bin/chromium");
        assumeTrue(new File(chromium).canExecute(), "no chromium at " + chromium +
            " (apt-get install -y chromium): browser IT skipped");
        assumeTrue(run(new File("."), "node", "--version") == 0, "no node on PATH: browser IT skipped");

        final Path module = Path.of(System.getProperty("ringex.test.module.dir", ".")).toAbsolutePath();
        final Path harness = module.resolve("target/browser-node");
        final Path sources = module.resolve("src/test/browser");
        if (!Files.isDirectory(harness.resolve("node_modules/playwright-core")))
        {
            assumeTrue(run(sources.toFile(), "bash", "install.sh") == 0,
                "npm install playwright-core failed: browser IT skipped");
        }
        Files.copy(sources.resolve("dashboard.mjs"), harness.resolve("dashboard.mjs"),
            StandardCopyOption.REPLACE_EXISTING);
        final Path shots = Path.of(System.getProperty("ringex.browser.shots",
            module.resolve("target/browser-shots").toString())).toAbsolutePath().normalize();
        Files.createDirectories(shots);

        final Path engineData = Files.createTempDirectory("ringex-risk-it-engine-");
        final ConfigurableApplicationContext service =
            startService("/dev/shm/ringex-risk-it-" + UUID.randomUUID(), engineData);
        try (EngineUnderTest engine = startEngine(service, engineData))
        {
            final ProcessBuilder pb = new ProcessBuilder("node", "dashboard.mjs")
                .directory(harness.toFile())
                .redirectErrorStream(true);
            pb.environment().put("BASE_URL", "http://localhost:" +
                service.getEnvironment().getProperty("local.server.port") + "/");
            pb.environment().put("SHOT_DIR", shots.toString());
            pb.environment().put("CHROMIUM", chromium);
            // RealEngine's trader with a position near the amber band and liquidity to buy from
            pb.environment().put("ACCOUNT", "1003");
            pb.environment().put("USER_DATA_DIR",
                Files.createTempDirectory("ringex-chromium-").toString());
            final Process browser = pb.start();
            final Thread driver = new Thread(() -> drive(browser, engine, verdicts), "browser-test-driver");
            driver.start();
            if (!browser.waitFor(TIMEOUT_S, TimeUnit.SECONDS))
            {
                browser.destroyForcibly();
                throw new AssertionError("browser test did not finish in " + TIMEOUT_S + " s");
            }
            driver.join(5000);
            assertEquals(0, browser.exitValue(), "browser test failed: see its output above");
            // the engine's own answers on its egress stream, as a gateway sees them
            assertEquals(List.of("TRADE FILL NONE 1", "ORDER REJECTED ACCOUNT_KILLED 0"), verdicts,
                "ExecutionReports for account 1003's market BUY of 1 before and after the dashboard's kill switch");
        }
        finally
        {
            service.close();
        }
    }

    /**
     * Echo the script's output and answer its requests for engine activity: TRADE must fill, ORDER (after the kill
     * switch) must be rejected ACCOUNT_KILLED; the script hears OK only when the engine said so.
     */
    private static void drive(final Process browser, final EngineUnderTest engine,
        final List<String> verdicts)
    {
        try (BufferedReader out = new BufferedReader(
            new InputStreamReader(browser.getInputStream(), StandardCharsets.UTF_8));
            Writer in = new OutputStreamWriter(browser.getOutputStream(), StandardCharsets.UTF_8))
        {
            String line;
            while ((line = out.readLine()) != null)
            {
                System.out.println("[browser] " + line);
                if (line.startsWith("REQUEST "))
                {
                    final String[] parts = line.split(" ");
                    final long accountId = Long.parseLong(parts[2]);
                    // TRADE: an order that trades (exposure moves); ORDER: the next order after the kill switch
                    final EngineUnderTest.Verdict verdict = engine.submitOrder(accountId, 1, Side.BUY, 1);
                    final String said = parts[1] + " " + verdict.execType() + " " + verdict.rejectReason() + " " +
                        verdict.filledQuantity();
                    verdicts.add(said);
                    System.out.println("[engine] account " + accountId + " market BUY 1: " + said);
                    final boolean expected = parts[1].equals("TRADE") ?
                        verdict.execType().equals("FILL") && verdict.filledQuantity() == 1 :
                        verdict.execType().equals("REJECTED") && verdict.rejectReason().equals("ACCOUNT_KILLED");
                    in.write(expected ? "OK\n" : "FAILED " + said + "\n");
                    in.flush();
                }
            }
        }
        catch (final IOException ex)
        {
            System.out.println("[browser] driver stopped: " + ex);
        }
    }

    private static int run(final File dir, final String... command)
    {
        try
        {
            final Process p = new ProcessBuilder(command).directory(dir).inheritIO().start();
            return p.waitFor(300, TimeUnit.SECONDS) ? p.exitValue() : -1;
        }
        catch (final IOException ex)
        {
            return -1;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
