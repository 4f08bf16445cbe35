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
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import io.ringex.protocol.codecs.Side;
import io.ringex.risk.synthetic.DemoMain;
import io.ringex.risk.synthetic.EngineUnderTest;

/**
 * The dashboard in a real browser (Debian chromium driven by playwright-core, risk/src/test/browser/dashboard.mjs):
 * log in, see an account's exposure change after a trade, hit its kill switch, see the engine reject its next order,
 * and leave screenshots in {@code risk/target/browser-shots} ({@code -Dringex.browser.shots=<dir>} to choose, e.g.
 * docs/img to refresh the documentation's).
 * <p>
 * The engine here is the STAND-IN {@code SyntheticEngine}: swap {@link #startEngine} for the real engine node (same
 * Aeron directory and channels) once it exists. Skipped (not failed) when chromium or node is missing, or with
 * {@code -DskipBrowserIT=true}.
 */
class RiskDashboardBrowserIT
{
    private static final long TIMEOUT_S = 180;

    /**
     * The engine the dashboard watches. Replace with the real engine node started on {@code aeronDir} with every
     * stream on {@code aeron:ipc} (or point the service's ringex.risk.streams.* at its UDP channels), plus an
     * {@code OrderEntryClient} on its ingress for {@link EngineUnderTest#submitOrder}.
     *
     * @param service the running risk service (its embedded media driver is the one to use).
     * @return the engine, started.
     */
    static EngineUnderTest startEngine(final ConfigurableApplicationContext service)
    {
        return DemoMain.startSyntheticEngine(service, 150);
    }

    @Test
    void officerSeesExposureKillsAnAccountAndTheEngineRejectsItsNextOrder() throws Exception
    {
        assumeFalse(Boolean.getBoolean("skipBrowserIT"), "skipped with -DskipBrowserIT=true");
        final String chromium = System.getenv().getOrDefault("CHROMIUM", "/usr/bin/chromium");
        assumeTrue(new File(chromium).canExecute(), "no chromium at " + chromium +
            " (apt-get install -y chromium): browser IT skipped");
        assumeTrue(run(new File("."), "node", "--version") == 0, "no node on PATH: browser IT skipped");

        final Path module = Path.of(System.getProperty("ringex.risk.project.dir", ".")).toAbsolutePath();
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

        final ConfigurableApplicationContext service =
            DemoMain.startService(0, "/dev/shm/ringex-risk-it-" + UUID.randomUUID());
        try (EngineUnderTest engine = startEngine(service))
        {
            final ProcessBuilder pb = new ProcessBuilder("node", "dashboard.mjs")
                .directory(harness.toFile())
                .redirectErrorStream(true);
            pb.environment().put("BASE_URL", "http://localhost:" + DemoMain.port(service) + "/");
            pb.environment().put("SHOT_DIR", shots.toString());
            pb.environment().put("CHROMIUM", chromium);
            // the synthetic venue's keenest buyer; with the real engine, any account it knows
            pb.environment().put("ACCOUNT", System.getProperty("ringex.browser.account", "1003"));
            pb.environment().put("USER_DATA_DIR",
                Files.createTempDirectory("ringex-chromium-").toString());
            final Process browser = pb.start();
            final Thread driver = new Thread(() -> drive(browser, engine), "browser-test-driver");
            driver.start();
            if (!browser.waitFor(TIMEOUT_S, TimeUnit.SECONDS))
            {
                browser.destroyForcibly();
                throw new AssertionError("browser test did not finish in " + TIMEOUT_S + " s");
            }
            driver.join(5000);
            assertEquals(0, browser.exitValue(), "browser test failed: see its output above");
        }
        finally
        {
            service.close();
        }
    }

    /** Echo the script's output and answer its requests for engine activity. */
    private static void drive(final Process browser, final EngineUnderTest engine)
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
                    final boolean sent = engine.submitOrder(accountId, 1, Side.BUY, 1);
                    in.write(sent ? "OK\n" : "FAILED\n");
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
