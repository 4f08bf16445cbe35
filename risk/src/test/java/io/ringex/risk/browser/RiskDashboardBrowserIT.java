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
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.ringex.engine.risk.Account;
import io.ringex.protocol.CredentialHash;
import io.ringex.protocol.codecs.Side;
import io.ringex.risk.RiskServiceApplication;
import io.ringex.risk.aeron.AeronConnection;
import io.ringex.risk.cluster.EngineCluster;
import io.ringex.testing.Await;

/**
 * The dashboard in a real browser (Debian chromium driven by playwright-core, risk/src/test/browser/dashboard.mjs),
 * as a risk officer, a viewer and an admin would use it, at 1,400 and 800 pixels wide:
 * <ul>
 * <li>an account's exposure changes after a trade; account 1004's positions equal the engine's after rounds of seeded
 *     random trading, and stay equal, read every 0.7 s, while its orders in one instrument churn (each update names
 *     that position alone);</li>
 * <li>the limits form shows every limit the engine holds; changing only the credit limit asks to confirm exactly that
 *     change and leaves the engine's other limits (short selling, default and per-instrument limits) as they were;</li>
 * <li>the kill switch (with a reason) and the engine's rejection of the account's next order; a suspended account
 *     shows as suspended in the list and the detail; a dashboard login lock lifted from the Console;</li>
 * <li>the operator console (refused to officer and viewer, 403), an instrument, account, deposit and user added by
 *     the admin, the admin log, the Audit's trails with money and prices as decimals and order ids that open
 *     trails;</li>
 * <li>with the engine stopped, the page says what it shows is stale and since when;</li>
 * <li>with a three-member engine cluster ({@link EngineCluster}), a viewer's engine view lists the members, marks the
 *     leader the nodes name, shows each member's term, committed and processed sequences and lag behind the commit,
 *     read-only; the leader closed, it follows the member the cluster elects and marks the lost one stale, with no
 *     promotion anywhere ({@code cluster.mjs});</li>
 * <li>at both widths nothing is cut or off-screen (the page, the status and log-out, numbers in the tables).</li>
 * </ul>
 * Screenshots go to {@code risk/target/browser-shots} ({@code -Dringex.browser.shots=<dir>} to choose, e.g. docs/img
 * to refresh the documentation's).
 * <p>
 * The engine is the real engine node ({@link RealEngine}) on the service's embedded media driver, every stream on
 * IPC. What the engine did is checked on the engine's side: its ExecutionReports on the egress stream (the account's
 * market order before the kill switch FILLs, the one after it is REJECTED with ACCOUNT_KILLED), and its state rebuilt
 * from its journal (positions, limits, standing). Skipped (not failed) when chromium or node is missing, or with
 * {@code -DskipBrowserIT=true}.
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
    static RealEngine startEngine(final ConfigurableApplicationContext service, final Path dataDirectory)
    {
        final RealEngine engine = new RealEngine(service.getBean(AeronConnection.class).aeronDirectoryName(),
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
        props.put("ringex.risk.actions.admin-key-file",
            io.ringex.engine.node.NodeTestSupport.writeAdminKeys(dataDirectory).toString());
        props.put("ringex.risk.audit.journal-dir", dataDirectory.resolve("journal"));
        props.put("ringex.risk.audit.snapshot-dir", dataDirectory.resolve("snapshots"));
        props.put("ringex.risk.security.api-keys-file", dataDirectory.resolve("api-keys"));
        // as command-line arguments: they must win over application.yml
        final String[] args = props.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue())
            .toArray(String[]::new);
        return new SpringApplicationBuilder(RiskServiceApplication.class).profiles("demo").run(args);
    }

    @Test
    void officerSeesExposureKillsAnAccountAndTheEngineRejectsItsNextOrder() throws Exception
    {
        final Path harness = harness("dashboard.mjs");
        final Path shots = shots();
        final Path engineData = Files.createTempDirectory("ringex-risk-it-engine-");
        final ConfigurableApplicationContext service =
            startService("/dev/shm/ringex-risk-it-" + UUID.randomUUID(), engineData);
        try (RealEngine engine = startEngine(service, engineData))
        {
            final ProcessBuilder pb = new ProcessBuilder("node", "dashboard.mjs")
                .directory(harness.toFile())
                .redirectErrorStream(true);
            pb.environment().put("BASE_URL", "http://localhost:" +
                service.getEnvironment().getProperty("local.server.port") + "/");
            pb.environment().put("SHOT_DIR", shots.toString());
            pb.environment().put("CHROMIUM", chromium());
            // RealEngine's trader with a position near the amber band and liquidity to buy from
            pb.environment().put("ACCOUNT", "1003");
            pb.environment().put("USER_DATA_DIR",
                Files.createTempDirectory("ringex-chromium-").toString());
            final Process browser = pb.start();
            final Thread driver = new Thread(() -> drive(browser, engine, engineData.resolve("api-keys"), verdicts),
                "browser-test-driver");
            driver.start();
            if (!browser.waitFor(TIMEOUT_S, TimeUnit.SECONDS))
            {
                browser.destroyForcibly();
                throw new AssertionError("browser test did not finish in " + TIMEOUT_S + " s");
            }
            driver.join(5000);
            assertEquals(0, browser.exitValue(), "browser test failed: see its output above");
            // the engine's own answers on its egress stream, as a gateway sees them
            assertEquals(List.of("TRADE FILL NONE 1", "LIMITS KEPT", "ORDER REJECTED ACCOUNT_KILLED 0",
                "INSTRUMENT NEW NONE", "USER PASSWORD_MATCHES",
                "APIKEY SECRET_MATCHES 1 rk-trader7-trading trader7 read,trade 10.0.0.0/8,203.0.113.7",
                "STANDING SUSPENDED"), verdicts,
                "ExecutionReports for account 1003's market BUY of 1 before and after the dashboard's kill switch; " +
                "account 1004's limits after the officer changed only its credit limit; a resting bid on the " +
                "instrument the admin added; the user the admin created, with the password typed, in the engine's " +
                "directory; the API key the admin created, in the keys file with the secret shown; account 2001 " +
                "suspended from the console");
        }
        finally
        {
            service.close();
        }
    }

    @Test
    void aViewerSeesTheClusterMembersAndTheDashboardFollowsTheLeaderTheClusterElects() throws Exception
    {
        final Path harness = harness("cluster.mjs");
        final Path shots = shots();
        final Path data = Files.createTempDirectory("ringex-risk-it-cluster-");
        final Map<String, Object> props = new LinkedHashMap<>();
        props.put("server.port", 0);
        props.put("ringex.risk.aeron.embedded-driver", true);
        props.put("ringex.risk.aeron.dir", "/dev/shm/ringex-risk-it-" + UUID.randomUUID());
        props.put("ringex.risk.engine.status-timeout", "1s");
        final EngineCluster cluster = new EngineCluster();
        props.putAll(cluster.serviceKeys());
        final String[] args = props.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue())
            .toArray(String[]::new);
        final ConfigurableApplicationContext service =
            new SpringApplicationBuilder(RiskServiceApplication.class).profiles("demo").run(args);
        try (cluster)
        {
            cluster.start(data);
            final ProcessBuilder pb = new ProcessBuilder("node", "cluster.mjs")
                .directory(harness.toFile())
                .redirectErrorStream(true);
            pb.environment().put("BASE_URL", "http://localhost:" +
                service.getEnvironment().getProperty("local.server.port") + "/");
            pb.environment().put("SHOT_DIR", shots.toString());
            pb.environment().put("CHROMIUM", chromium());
            pb.environment().put("USER_DATA_DIR", Files.createTempDirectory("ringex-chromium-").toString());
            final Process browser = pb.start();
            final Thread driver = new Thread(() -> driveCluster(browser, cluster), "browser-test-driver");
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

    /**
     * Echo cluster.mjs's output and answer its requests from the engine nodes themselves: which member leads (its
     * node's own role), close it, wait for the cluster to elect another.
     */
    private static void driveCluster(final Process browser, final EngineCluster cluster)
    {
        try (BufferedReader out = new BufferedReader(
            new InputStreamReader(browser.getInputStream(), StandardCharsets.UTF_8));
            Writer in = new OutputStreamWriter(browser.getOutputStream(), StandardCharsets.UTF_8))
        {
            String line;
            while ((line = out.readLine()) != null)
            {
                System.out.println("[browser] " + line);
                if (!line.startsWith("REQUEST "))
                {
                    continue;
                }
                final String[] parts = line.split(" ");
                String answer;
                try
                {
                    switch (parts[1])
                    {
                        case "LEADER":
                            Await.until("a member leading", Duration.ofSeconds(30), () -> cluster.leader() >= 0, null);
                            answer = "OK " + (cluster.leader() + 1);
                            break;
                        case "STOP_LEADER":
                        {
                            final int leader = cluster.leader();
                            cluster.stop(leader);
                            answer = "OK " + (leader + 1);
                            break;
                        }
                        case "LEADER_NOT":
                        {
                            final int lost = Integer.parseInt(parts[2]) - 1;
                            Await.until("another member leading", Duration.ofSeconds(30),
                                () -> cluster.leader() >= 0 && cluster.leader() != lost, null);
                            answer = "OK " + (cluster.leader() + 1);
                            break;
                        }
                        default:
                            answer = "FAILED unknown request " + line;
                            break;
                    }
                }
                catch (final AssertionError | RuntimeException ex)
                {
                    answer = "FAILED " + ex.getMessage();
                }
                System.out.println("[engine] " + line.substring("REQUEST ".length()) + ": " + answer);
                in.write(answer + "\n");
                in.flush();
            }
        }
        catch (final IOException ex)
        {
            System.out.println("[browser] driver stopped: " + ex);
        }
    }

    /**
     * The node harness with the script copied in; skips the test (not fails) without chromium or node.
     *
     * @param script the script under src/test/browser.
     * @return the harness directory.
     */
    private static Path harness(final String script) throws IOException
    {
        assumeFalse(Boolean.getBoolean("skipBrowserIT"), "skipped with -DskipBrowserIT=true");
        assumeTrue(new File(chromium()).canExecute(), "no chromium at " + chromium() +
            " (apt-get install -y chromium): browser IT skipped");
        assumeTrue(run(new File("."), "node", "--version") == 0, "no node on PATH: browser IT skipped");

        final Path module = module();
        final Path harness = module.resolve("target/browser-node");
        final Path sources = module.resolve("src/test/browser");
        if (!Files.isDirectory(harness.resolve("node_modules/playwright-core")))
        {
            assumeTrue(run(sources.toFile(), "bash", "install.sh") == 0,
                "npm install playwright-core failed: browser IT skipped");
        }
        Files.copy(sources.resolve(script), harness.resolve(script), StandardCopyOption.REPLACE_EXISTING);
        return harness;
    }

    private static Path module()
    {
        return Path.of(System.getProperty("ringex.test.module.dir", ".")).toAbsolutePath();
    }

    private static String chromium()
    {
        return System.getenv().getOrDefault("CHROMIUM", "/usr/bin/chromium");
    }

    private static Path shots() throws IOException
    {
        final Path shots = Path.of(System.getProperty("ringex.browser.shots",
            module().resolve("target/browser-shots").toString())).toAbsolutePath().normalize();
        Files.createDirectories(shots);
        return shots;
    }

    /**
     * Echo the script's output and answer its requests for engine activity, each checked on the engine's side: TRADE
     * must fill, ORDER (after the kill switch) must be rejected ACCOUNT_KILLED, INSTRUMENT (after the admin added it)
     * must take a resting order, USER (after the admin created it) must be in the engine's user directory with a
     * credential that verifies the password typed in the page; APIKEY (after the admin created one) must be in the
     * gateways' API keys file with the secret the page showed. The script hears OK only when the engine (or the file)
     * said so.
     */
    private static void drive(
        final Process browser, final RealEngine engine, final Path apiKeys, final List<String> verdicts)
    {
        final SplittableRandom random = new SplittableRandom(38);
        try (BufferedReader out = new BufferedReader(
            new InputStreamReader(browser.getInputStream(), StandardCharsets.UTF_8));
            Writer in = new OutputStreamWriter(browser.getOutputStream(), StandardCharsets.UTF_8))
        {
            String line;
            while ((line = out.readLine()) != null)
            {
                // a test password, but a password: not echoed into the build log
                final String shown = line.replaceAll("^(REQUEST (USER|APIKEY) \\S+) .*", "$1 ****");
                System.out.println("[browser] " + shown);
                if (line.startsWith("REQUEST "))
                {
                    final String[] parts = line.split(" ");
                    String said;
                    final boolean expected;
                    String answer = "";
                    switch (parts[1])
                    {
                        case "RANDOM":
                        {
                            // seeded random trading by the traders: the page must follow it
                            engine.randomTrades(random, Integer.parseInt(parts[2]));
                            said = null;
                            expected = true;
                            break;
                        }
                        case "POSITIONS":
                        {
                            // the account's positions as the engine holds them (its journal replayed)
                            final RealEngine.EngineAccount account = engine.engineAccount(Long.parseLong(parts[2]));
                            final StringBuilder listed = new StringBuilder();
                            account.positions().forEach((id, net) -> listed.append(listed.length() == 0 ? "" : ",")
                                .append(id).append('=').append(net));
                            answer = " " + listed;
                            said = null;
                            expected = true;
                            break;
                        }
                        case "CHURN":
                        {
                            engine.churn(parts[2].equals("on"));
                            said = null;
                            expected = true;
                            break;
                        }
                        case "LIMITS_KEPT":
                        {
                            // the officer changed account 1004's credit limit only: everything else as RealEngine
                            // set it (long only, default 40, LMX-USD 400, EUR-USD 200,000)
                            final RealEngine.EngineAccount account = engine.engineAccount(1004);
                            final boolean kept = account.creditLimit() == Long.parseLong(parts[2]) &&
                                !account.allowShort() && account.defaultPositionLimit() == 40 &&
                                account.ownLimits().equals(new TreeMap<>(Map.of(2, 400L, 3, 200_000L))) &&
                                account.maxOrderQuantity() == 100_000 && account.maxOpenOrders() == 20;
                            said = "LIMITS " + (kept ? "KEPT" : "CHANGED " + account);
                            expected = kept;
                            break;
                        }
                        case "STANDING":
                        {
                            final byte status = engine.engineAccount(Long.parseLong(parts[2])).status();
                            said = "STANDING " + (status == Account.STATUS_SUSPENDED ? "SUSPENDED" : status);
                            expected = said.equals("STANDING " + parts[3]);
                            break;
                        }
                        case "STOP_ENGINE":
                        {
                            // the venue goes down: the page must show what it holds as stale
                            engine.stopNode();
                            said = null;
                            expected = true;
                            break;
                        }
                        case "TRADE":
                        case "ORDER":
                        {
                            // TRADE: an order that trades (exposure moves); ORDER: the next order after the kill
                            // switch
                            final EngineUnderTest.Verdict verdict =
                                engine.submitOrder(Long.parseLong(parts[2]), 1, Side.BUY, 1);
                            said = parts[1] + " " + verdict.execType() + " " + verdict.rejectReason() + " " +
                                verdict.filledQuantity();
                            expected = parts[1].equals("TRADE") ?
                                verdict.execType().equals("FILL") && verdict.filledQuantity() == 1 :
                                verdict.execType().equals("REJECTED") &&
                                verdict.rejectReason().equals("ACCOUNT_KILLED");
                            break;
                        }
                        case "INSTRUMENT":
                        {
                            // a bid of 1 at 49.00 for trader 1004: the engine knows the instrument and rests it
                            final EngineUnderTest.Verdict verdict =
                                engine.restLimit(1004, Integer.parseInt(parts[2]), Side.BUY, 4_900, 1);
                            said = "INSTRUMENT " + verdict.execType() + " " + verdict.rejectReason();
                            expected = verdict.execType().equals("NEW");
                            break;
                        }
                        case "USER":
                        {
                            final String hash = engine.credentialOf(parts[2]);
                            said = "USER " + (hash == null ? "UNKNOWN" : hash.isEmpty() ? "NO_PASSWORD" :
                                CredentialHash.verify(parts[3].toCharArray(), hash) ? "PASSWORD_MATCHES" :
                                "PASSWORD_DIFFERS");
                            expected = said.equals("USER PASSWORD_MATCHES");
                            break;
                        }
                        case "APIKEY":
                        {
                            final io.ringex.common.apikey.ApiKey key =
                                io.ringex.common.apikey.ApiKeys.load(apiKeys).byId(parts[2]);
                            said = "APIKEY " + (null == key ? "UNKNOWN" : java.util.Arrays.equals(key.secret(),
                                java.util.Base64.getDecoder().decode(parts[3])) ? "SECRET_MATCHES " + key :
                                "SECRET_DIFFERS");
                            expected = said.startsWith("APIKEY SECRET_MATCHES");
                            break;
                        }
                        default:
                            said = "UNKNOWN_REQUEST " + line;
                            expected = false;
                            break;
                    }
                    if (said != null)
                    {
                        verdicts.add(said);
                    }
                    System.out.println("[engine] " + shown.substring("REQUEST ".length()) + ": " +
                        (said == null ? "done" + answer : said));
                    in.write(expected ? "OK" + answer + "\n" : "FAILED " + said + "\n");
                    in.flush();
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            System.out.println("[browser] driver stopped: " + ex);
        }
    }

    private static int run(final File dir, final String... command)
    {
        try
        {
            // never inheritIO: a child that reads the fork's stdin (npm does) eats the commands the build sends the
            // test JVM on it, and the build then fails the whole fork as "std/in stream corrupted"
            final Process p = new ProcessBuilder(command).directory(dir)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true)
                .start();
            try (BufferedReader out = new BufferedReader(
                new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)))
            {
                out.lines().forEach(line -> System.out.println("[" + command[0] + "] " + line));
            }
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
