package io.ringex.systemtests;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.aeron.Aeron;
import io.aeron.CommonContext;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.ringex.client.ExchangeClient;
import io.ringex.client.ExchangeListener;
import io.ringex.protocol.codecs.BusinessRejectDecoder;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.LogonResponseDecoder;
import io.ringex.protocol.codecs.Side;
import io.ringex.testing.Await;
import io.ringex.testing.ChildProcess;
import io.ringex.testing.ChildProcesses;
import io.ringex.testing.FreePorts;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Application;
import quickfix.DefaultMessageFactory;
import quickfix.MemoryStoreFactory;
import quickfix.Message;
import quickfix.ScreenLogFactory;
import quickfix.Session;
import quickfix.SessionID;
import quickfix.SessionSettings;
import quickfix.SocketInitiator;
import quickfix.field.ClOrdID;
import quickfix.field.ExecType;
import quickfix.field.MsgType;
import quickfix.field.OrdType;
import quickfix.field.OrderQty;
import quickfix.field.Password;
import quickfix.field.Price;
import quickfix.field.Symbol;
import quickfix.field.TransactTime;
import quickfix.field.Username;
import quickfix.fix44.NewOrderSingle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The all-in-one as a newcomer runs it: {@code ./ringex demo} in a child process, from the project directory, as the
 * README says. Orders go in over SBE (the client library) and FIX (QuickFIX/J, an initiator we did not write), fills
 * come back, the dashboard's API shows the positions; then the venue is restarted on the same data directory and the
 * state must have survived.
 */
class AllInOneIT
{
    private static final Path PROJECT = DemoVenue.PROJECT;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @RegisterExtension
    final ChildProcesses children = new ChildProcesses();

    @TempDir
    Path data;

    @TempDir
    Path logs;

    @Test
    void ordersOverSbeAndFixFillTheDashboardShowsThemAndARestartAfterAKillKeepsThem() throws Exception
    {
        final int httpPort = FreePorts.tcp();
        final int fixPort = FreePorts.tcp();
        final int sbePort = FreePorts.tcpAndUdp();
        final List<String> args = List.of("--data=" + data, "--server.port=" + httpPort, "--fix-port=" + fixPort,
            "--sbe-port=" + sbePort);

        try (ChildProcess venue = DemoVenue.start(children, logs.resolve("venue-1.log"), args))
        {
            assertTrue(venue.hasLine((l) -> l.contains("state: new venue")), venue::tail);
            // The engine takes admin commands signed with a key only: a new data directory is given one, and says so.
            assertTrue(venue.hasLine((l) -> l.contains("admin key:   1 operator in") &&
                l.contains("(generated now: a new data directory)")), venue::tail);
            assertTrue(Files.isRegularFile(data.resolve("admin.keys")), "the venue's admin keys");
            assertTheBannersApiKeyReadsTheInstrumentsOverRest(venue);

            final MediaDriver driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
                .aeronDirectoryName(CommonContext.generateRandomDirName())
                .threadingMode(ThreadingMode.SHARED).dirDeleteOnStart(true).dirDeleteOnShutdown(true));
            try (Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
                SbeUser maker = new SbeUser(aeron, sbePort, "maker1", "maker1");
                SbeUser trader = new SbeUser(aeron, sbePort, "trader1", "trader1");
                FixUser fix = new FixUser(fixPort, "fixtrader", "fixtrader"))
            {
                // SBE: the maker offers 8 at 101.00, the trader lifts 5 of it.
                maker.limitOrder(1001, 1, Side.SELL, 10_100, 8);
                await(() -> maker.reports.contains("1:NEW"), "maker's offer accepted", maker.reports);
                trader.limitOrder(1003, 2, Side.BUY, 10_100, 5);
                await(() -> trader.reports.contains("2:FILL"), "trader filled over SBE", trader.reports);

                // FIX: the FIX trader takes the remaining 3 at 101.00.
                final NewOrderSingle order = new NewOrderSingle(new ClOrdID("F1"), new quickfix.field.Side(
                    quickfix.field.Side.BUY), new TransactTime(LocalDateTime.now()), new OrdType(OrdType.LIMIT));
                order.set(new Symbol("RGX-USD"));
                order.set(new OrderQty(3));
                order.set(new Price(101.00));
                order.setString(quickfix.field.Account.FIELD, "1005");
                assertTrue(fix.session().send(order));
                await(() -> fix.fills.contains("F1"), "FIX trader filled", fix.received);
                await(() -> maker.reports.contains("1:FILL"), "maker's offer filled", maker.reports);
            }
            finally
            {
                CloseHelper.quietClose(driver);
            }

            await(() -> positionOf(httpPort, 1003).contains("\"position\":5,"), "dashboard shows trader1 long 5",
                List.of(positionOf(httpPort, 1003)));
            await(() -> positionOf(httpPort, 1005).contains("\"position\":3,"), "dashboard shows the FIX trader long 3",
                List.of(positionOf(httpPort, 1005)));
            // A crash, not a stop: the restart must not wait for the dead process's archive and Artio liveness files.
            venue.kill();
        }

        try (ChildProcess venue = DemoVenue.start(children, logs.resolve("venue-2.log"), args))
        {
            assertTrue(venue.hasLine((l) -> l.contains("state: RECOVERED")), venue::tail);
            // The banner and the engine's log say what was recovered in the same words, with the same numbers.
            final String banner = venue.lines().stream().filter((l) -> l.contains("state: RECOVERED from "))
                .findFirst().orElseThrow();
            final String recovered = banner.substring(banner.indexOf(": the journal to sequence ") + 2);
            assertTrue(recovered.matches("the journal to sequence \\d+ \\(.*\\), next sequence \\d+"), banner);
            assertTrue(venue.hasLine((l) -> l.contains("up: recovered " + recovered)),
                () -> "the engine's log line with " + recovered + ": " + venue.tail());
            assertTrue(venue.hasLine((l) -> l.contains("admin key:   1 operator in") && !l.contains("generated")),
                venue::tail);

            // The operator's tool, next to the venue, signs with the venue's key with no option, and is answered.
            final ChildProcess admin = children.start(ChildProcess.builder("./ringex admin account deposit")
                .command(List.of(PROJECT.resolve("ringex").toString(), "admin", "account", "deposit"))
                .args("--id", "1003", "--amount", "1", "--operator", "it-operator", "--data", data.toString())
                .directory(PROJECT).log(logs.resolve("admin.log")));
            assertEquals(0, admin.awaitExit(TIMEOUT), admin::tail);
            assertTrue(admin.hasLine((l) -> l.contains("done: deposit 1 to account 1003")), admin::tail);
            await(() -> positionOf(httpPort, 1003).contains("\"position\":5,") &&
                positionOf(httpPort, 1005).contains("\"position\":3,") &&
                positionOf(httpPort, 1001).contains("\"position\":-8,"), "positions after the restart",
                List.of(positionOf(httpPort, 1001)));

            // The recovered venue takes load from the README's load generator (its own JVM and client driver), at
            // half the default per-session throttle.
            final Path timeline = data.resolve("timeline.csv");
            final ChildProcess loadgen = children.start(ChildProcess.builder("loadgen (./ringex loadgen)")
                .command(List.of(PROJECT.resolve("ringex").toString(), "loadgen"))
                .args("--transport", "sbe", "--sbe-port", String.valueOf(sbePort), "--rate", "1000", "--duration", "1",
                "--warmup", "1", "--accounts", "2", "--timeline", timeline.toString())
                .directory(PROJECT).log(logs.resolve("loadgen.log")));
            assertEquals(0, loadgen.awaitExit(TIMEOUT), loadgen::tail);
            assertTrue(loadgen.hasLine((l) -> l.contains("RESULT rate=1000 sent=1000 answered=1000 rejects=0")),
                loadgen::tail);
            assertEquals(101, Files.readAllLines(timeline).size(), "header and 100 rows of 10 ms");

            // Above the throttle (4,000/s on one session, whose throttle is 1,000/s): the generator says so, and how
            // to raise it, rather than printing the latency of the few orders that got through.
            final Process throttled = new ProcessBuilder(PROJECT.resolve("ringex").toString(), "loadgen",
                "--transport", "sbe", "--sbe-port", String.valueOf(sbePort), "--rate", "4000", "--duration", "1",
                "--accounts", "1", "--orders", "ioc")
                .directory(PROJECT.toFile()).redirectErrorStream(true).start();
            final String throttledOut = new String(throttled.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(throttled.waitFor(60, TimeUnit.SECONDS) && throttled.exitValue() == 0, throttledOut);
            assertTrue(throttledOut.contains("THROTTLED: the venue refused "), throttledOut);
            assertTrue(throttledOut.contains("./ringex demo --ringex.gateway.throttle.messages.per.second=10000"),
                throttledOut);
        }
    }

    /**
     * A hostile or broken FIX client: orders at 20,000/s into a venue just started (throttle raised), far faster than
     * it can answer them on 2 cores. The venue must go on answering everyone else (an SBE client beside it gets every
     * order answered, none refused as ENGINE_BUSY), and the same FIX users must be able to log on and trade again
     * right after. (Before the gateway kept a FIX session's back-pressured reports in its own store, one such client
     * stalled the engine's egress, and with it every client.)
     */
    /** The banner's REST address and generated key, used as a client would: a signed GET of the instruments. */
    private static void assertTheBannersApiKeyReadsTheInstrumentsOverRest(final ChildProcess venue) throws Exception
    {
        final String rest = venue.lines().stream().filter(l -> l.startsWith(" REST:")).findFirst().orElseThrow();
        final String key = venue.lines().stream().filter(l -> l.startsWith(" API key:")).findFirst().orElseThrow();
        final String url = rest.split("\\s+")[2];
        final String[] words = key.trim().split("\\s+");
        final String keyId = words[2];
        final byte[] secret = java.util.Base64.getDecoder().decode(words[4]);
        final String timestamp = Long.toString(System.currentTimeMillis());
        final javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        mac.init(new javax.crypto.spec.SecretKeySpec(secret, "HmacSHA256"));
        final String signature = java.util.HexFormat.of().formatHex(mac.doFinal(
            (timestamp + "GET/api/v1/instruments").getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        final java.net.http.HttpResponse<String> answer = java.net.http.HttpClient.newHttpClient().send(
            java.net.http.HttpRequest.newBuilder(java.net.URI.create(url + "/instruments"))
                .header("X-RINGEX-KEY", keyId).header("X-RINGEX-TIMESTAMP", timestamp)
                .header("X-RINGEX-SIGNATURE", signature).build(),
            java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(200, answer.statusCode(), answer.body());
        assertTrue(answer.body().contains("\"symbol\""), answer.body());
    }

    @Test
    void aFixClientFloodingTheVenueHoldsUpNobodyElseAndItsUsersTradeAgainAfter() throws Exception
    {
        final int fixPort = FreePorts.tcp();
        final int sbePort = FreePorts.tcpAndUdp();
        final int httpPort = FreePorts.tcp();
        final List<String> args = List.of("--data=" + data, "--server.port=" + httpPort, "--fix-port=" + fixPort,
            "--sbe-port=" + sbePort, "--ringex.gateway.throttle.messages.per.second=1000000");

        try (ChildProcess venue = DemoVenue.start(children, logs.resolve("venue.log"), args))
        {
            final ChildProcess flood = children.start(loadgen("flood", "--transport", "fix", "--fix-port",
                String.valueOf(fixPort), "--rate", "20000", "--duration", "8", "--warmup", "2"));
            // once the engine has 5,000 of its orders: the venue is falling behind it by then
            await(() -> commandsTaken(httpPort) >= 5_000, "the flood under way", List.of(get(httpPort, "/api/engine")));
            final ChildProcess sbe = children.start(loadgen("sbe", "--transport", "sbe", "--sbe-port",
                String.valueOf(sbePort), "--rate", "1000", "--duration", "8", "--warmup", "1"));
            assertEquals(0, sbe.awaitExit(TIMEOUT), sbe::tail);
            assertTrue(sbe.hasLine((l) -> l.contains("RESULT rate=1000 sent=8000 answered=8000 rejects=0")),
                sbe::tail);
            flood.awaitExit(TIMEOUT);

            final ChildProcess again = children.start(loadgen("fix-again", "--transport", "fix", "--fix-port",
                String.valueOf(fixPort), "--rate", "500", "--duration", "2", "--warmup", "1"));
            assertEquals(0, again.awaitExit(TIMEOUT), again::tail);
            assertTrue(again.hasLine((l) -> l.contains("RESULT rate=500 sent=1000 answered=1000 rejects=0")),
                again::tail);
        }
    }

    private ChildProcess.Builder loadgen(final String name, final String... args)
    {
        return ChildProcess.builder("loadgen " + name).command(List.of(PROJECT.resolve("ringex").toString(),
            "loadgen")).args(args).directory(PROJECT).log(logs.resolve("loadgen-" + name + ".log"));
    }

    @Test
    void aBadOptionOrKeyStopsTheAllInOneAndTheLoadGeneratorBeforeAnythingStartsWithOneLineNamingIt()
    {
        final String dataOption = "--data=" + data;
        assertRefused(List.of("demo", dataOption, "--fix-port=98x0"), "",
            "ringex demo: --fix-port: must be a port, 1..65535 (was '98x0')");
        assertRefused(List.of("demo", dataOption, "--fix-prot=9880"), "",
            "ringex demo: --fix-prot: unknown option of ringex demo (did you mean --fix-port?)");
        assertRefused(List.of("demo", dataOption), "-Dringex.gateway.heartbeat.interval.ms=1000",
            "ringex demo: ERROR - ringex.gateway.heartbeat.interval.ms: unknown key (did you mean " +
            "ringex.gateway.heartbeat.interval?)");
        assertRefused(List.of("demo", dataOption), "-Dringex.engine.input.ring.capacity=16kb",
            "ringex demo: ERROR - ringex.engine.input.ring.capacity: must be a size");
        assertRefused(List.of("demo", dataOption, "--ringex.risk.live.push-intervall=1s"), "",
            "ringex demo: Failed to bind properties under 'ringex.risk' to io.ringex.risk.config.RiskProperties: " +
            "The elements [ringex.risk.live.push-intervall] were left unbound.");
        assertRefused(List.of("loadgen", "--rate", "fast"), "", "ringex loadgen: --rate: must be an integer " +
            "(was 'fast')");
        assertFalse(Files.exists(data.resolve("journal")), "no venue started");
    }

    /** {@code ./ringex <args>} with the JVM options exits 2, printing a line that starts with the expected one. */
    private void assertRefused(final List<String> args, final String javaOptions, final String expected)
    {
        final ChildProcess process = children.start(ChildProcess.builder("./ringex " + args.get(0))
            .command(List.of(PROJECT.resolve("ringex").toString())).args(args)
            .environment("RINGEX_JAVA_OPTS", javaOptions)
            .directory(PROJECT).log(logs.resolve("refused-" + children.started().size() + ".log")));
        assertEquals(2, process.awaitExit(TIMEOUT), process::tail);
        assertTrue(process.hasLine((line) -> line.startsWith(expected)), () -> args + " " + javaOptions + ":\n" +
            process.tail());
    }

    private static String positionOf(final int httpPort, final long account)
    {
        return get(httpPort, "/api/accounts/" + account);
    }

    /** @return the engine's ingress sequence on the dashboard's API, or -1 while it does not show one. */
    private static long commandsTaken(final int httpPort)
    {
        final Matcher ingress = Pattern.compile("\"ingress\":(\\d+)").matcher(get(httpPort, "/api/engine"));
        return ingress.find() ? Long.parseLong(ingress.group(1)) : -1;
    }

    private static String get(final int httpPort, final String path)
    {
        try
        {
            final HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder()
                .uri(URI.create("http://localhost:" + httpPort + path))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                    "viewer:viewer".getBytes(StandardCharsets.US_ASCII)))
                .timeout(Duration.ofSeconds(5))
                .build(), HttpResponse.BodyHandlers.ofString());
            return response.statusCode() + " " + response.body();
        }
        catch (final IOException ex)
        {
            return ex.toString();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return ex.toString();
        }
    }

    private static void await(final BooleanSupplier condition, final String what, final List<?> context)
    {
        Await.until(what, TIMEOUT, condition, null, () -> context);
    }

    /** An SBE client of the gateway; reports as "clientOrderId:EXEC_TYPE". */
    private static final class SbeUser implements ExchangeListener, AutoCloseable
    {
        final ExchangeClient client;
        final List<String> reports = new CopyOnWriteArrayList<>();
        private final org.agrona.concurrent.AgentRunner poller;

        SbeUser(final Aeron aeron, final int sbePort, final String user, final String password)
        {
            client = ExchangeClient.openSharedChannels(aeron, "aeron:udp?endpoint=localhost:" + sbePort, 2001,
                "aeron:udp?endpoint=localhost:" + FreePorts.udp(), 7000 + user.hashCode() % 1000, this);
            await(client::isConnected, user + " connected to the gateway", reports);
            // Connected is not yet sendable: the driver raises the publication's limit a duty cycle after it
            // connects, and an offer in between is refused as back-pressured. Send until one is taken.
            await(() -> client.logon(user, password, false, 1000) > 0, user + "'s logon sent", reports);
            await(() ->
            {
                client.poll();
                return client.isLoggedOn();
            }, user + " logged on", reports);
            poller = client.startPolling(new org.agrona.concurrent.BackoffIdleStrategy());
        }

        /** A GTC limit order on instrument 1, sent once the publication takes it. */
        void limitOrder(final long account, final long clientOrderId, final Side side, final long price,
            final long quantity)
        {
            await(() -> client.order().account(account).clientOrderId(clientOrderId).instrument(1).side(side)
                .limit(price).quantity(quantity)
                .send() > 0, "order " + clientOrderId + " sent", reports);
        }

        public void onExecutionReport(final ExecutionReportDecoder report)
        {
            reports.add(report.clientOrderId() + ":" + report.execType());
        }

        public void onLogonResponse(final LogonResponseDecoder response)
        {
        }

        public void onCancelReject(final CancelRejectDecoder reject)
        {
            reports.add("cancel-reject:" + reject.rejectReason());
        }

        public void onBusinessReject(final BusinessRejectDecoder reject)
        {
            reports.add("business-reject:" + reject.rejectReason());
        }

        public void close()
        {
            CloseHelper.quietClose(poller);
            CloseHelper.quietClose(client);
        }
    }

    /** A QuickFIX/J initiator session for one user. */
    private static final class FixUser implements Application, AutoCloseable
    {
        final List<String> fills = new CopyOnWriteArrayList<>();
        final List<String> received = new CopyOnWriteArrayList<>();
        private final SocketInitiator initiator;
        private final SessionID id;
        private final String user;
        private final String password;

        FixUser(final int port, final String user, final String password) throws Exception
        {
            this.user = user;
            this.password = password;
            final SessionSettings settings = new SessionSettings();
            settings.setString("ConnectionType", "initiator");
            settings.setString("SocketConnectHost", "localhost");
            settings.setLong("SocketConnectPort", port);
            settings.setLong("HeartBtInt", 30);
            settings.setString("ResetOnLogon", "Y");
            settings.setString("UseDataDictionary", "Y");
            settings.setString("DataDictionary", "FIX44.xml");
            settings.setString("StartTime", "00:00:00");
            settings.setString("EndTime", "00:00:00");
            settings.setLong("ReconnectInterval", 1);
            id = new SessionID("FIX.4.4", user.toUpperCase(), "RINGEX");
            settings.setString(id, "BeginString", "FIX.4.4");
            initiator = new SocketInitiator(this, new MemoryStoreFactory(), settings,
                new ScreenLogFactory(false, false, false, false), new DefaultMessageFactory());
            initiator.start();
            await(() -> Session.lookupSession(id) != null && Session.lookupSession(id).isLoggedOn(),
                user + " logged on over FIX", received);
        }

        Session session()
        {
            return Session.lookupSession(id);
        }

        public void fromApp(final Message message, final SessionID sessionId) throws quickfix.FieldNotFound
        {
            received.add(message.toString());
            if (MsgType.EXECUTION_REPORT.equals(message.getHeader().getString(MsgType.FIELD)) &&
                message.getChar(ExecType.FIELD) == ExecType.TRADE)
            {
                fills.add(message.getString(ClOrdID.FIELD));
            }
        }

        public void toAdmin(final Message message, final SessionID sessionId)
        {
            try
            {
                if (MsgType.LOGON.equals(message.getHeader().getString(MsgType.FIELD)))
                {
                    message.setField(new Username(user));
                    message.setField(new Password(password));
                }
            }
            catch (final quickfix.FieldNotFound ignore)
            {
                // every message has a type
            }
        }

        public void fromAdmin(final Message message, final SessionID sessionId)
        {
            received.add(message.toString());
        }

        public void onCreate(final SessionID sessionId)
        {
        }

        public void onLogon(final SessionID sessionId)
        {
        }

        public void onLogout(final SessionID sessionId)
        {
        }

        public void toApp(final Message message, final SessionID sessionId)
        {
        }

        public void close()
        {
            initiator.stop(true);
        }
    }
}
