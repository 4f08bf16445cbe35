package io.ringex.gateway.web;

import io.ringex.common.apikey.ApiKey;
import io.ringex.common.apikey.ApiKeys;
import io.ringex.common.apikey.ApiKeysFile;
import io.aeron.Aeron;
import io.aeron.driver.MediaDriver;
import io.ringex.client.marketdata.MarketDataBook;
import io.ringex.client.marketdata.MarketDataClient;
import io.ringex.client.marketdata.MarketDataListener;
import io.ringex.gateway.GatewayAgent;
import io.ringex.gateway.GatewayContext;
import io.ringex.gateway.auth.LogonGuard;
import io.ringex.gateway.auth.LogonPolicy;
import io.ringex.gateway.auth.User;
import io.ringex.protocol.CredentialHash;
import io.ringex.testing.Await;
import io.ringex.gateway.testing.EngineStreams;
import io.ringex.gateway.testing.RealEngineNode;
import io.ringex.gateway.testing.TestGateways;
import io.ringex.gateway.testing.TestUsers;
import io.ringex.testing.ProjectRoot;
import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The REST and WebSocket front end against a real engine node and the gateway's one agent: orders placed, filled and
 * cancelled over REST are answered with what the engine said and heard on the user stream; every kind of bad request
 * is refused with its status and reason; and the OpenAPI document served names exactly the routes served.
 */
class WebGatewayIT
{
    private static final String IPC = "aeron:ipc";
    private static final byte[] ALICE_SECRET = secret(1);
    private static final byte[] ALICE_READ_SECRET = secret(2);
    private static final byte[] BOB_SECRET = secret(3);
    private static final byte[] DAVE_SECRET = secret(4);

    private static MediaDriver driver;
    private static Aeron aeron;
    private static RealEngineNode engine;
    private static AgentRunner gateway;
    private static WebServer web;
    private static LogonGuard fixAndSbeGuard;
    private static Path dir;
    private static Path keys;
    private static SignedWebClient alice;
    private static SignedWebClient aliceRead;
    private static SignedWebClient bob;

    @BeforeAll
    static void setUp() throws IOException
    {
        dir = Files.createTempDirectory("ringex-web-it");
        keys = dir.resolve("api-keys");
        Files.createFile(keys, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(keys, "# number key-id user permissions secret\n" +
            ApiKeys.line(new ApiKey(1, "rk-alice-trade", "alice", true, ALICE_SECRET)) + "\n" +
            ApiKeys.line(new ApiKey(2, "rk-alice-read", "alice", false, ALICE_READ_SECRET)) + "\n" +
            ApiKeys.line(new ApiKey(3, "rk-bob-trade", "bob", true, BOB_SECRET)) + "\n" +
            ApiKeys.line(new ApiKey(4, "rk-dave-read", "dave", false, DAVE_SECRET)) + "\n");

        driver = TestGateways.launchDriver(64 * 1024);
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
        engine = RealEngineNode.launch(new EngineStreams(driver.aeronDirectoryName(), IPC, 1001, IPC, 1002, IPC,
            1003, new EngineStreams.TestInstrument(1, "BTC-USD", 2), new EngineStreams.TestInstrument(2, "ETH-USD", 2),
            new EngineStreams.TestInstrument(3, "SOL-USD", 2)));
        final GatewayContext ctx = new GatewayContext()
            .gatewayId(7)
            .aeronDirectoryName(driver.aeronDirectoryName())
            .clientChannel(IPC).clientStreamId(2001)
            .engineIngressChannel(IPC).engineIngressStreamId(1001)
            .engineEgressChannel(IPC).engineEgressStreamId(1002)
            .marketDataChannel(IPC).marketDataStreamId(1003)
            .marketDataRequestChannel(IPC).marketDataRecoveryChannel(IPC)
            .engineStatusChannel(IPC).engineStatusStreamId(2003) // the test engine's risk stream
            .fixEnabled(false)
            .throttleMessagesPerSecond(1_000_000)
            // This test's refusals all come from one address: none of them may lock the good requests out.
            .logonPolicy(new LogonPolicy(1_000, 1_000, 60_000, 900_000, 0, 64, 8, 10_000))
            .addInstrument(1, "BTC-USD", 2)
            .addInstrument(2, "ETH-USD", 2)
            .addInstrument(3, "SOL-USD", 2)
            .addUser(TestUsers.ALICE)
            .addUser(TestUsers.BOB)
            .addUser(new User("dave", CredentialHash.hash("dave-secret".toCharArray(), 1000), new long[]{ 400 },
                null, TestUsers.GATEWAY_COMP_ID, false, false, 0))
            .webEnabled(true)
            .webPort(0)
            .webHost("localhost")
            .webApiKeysFile(keys.toString())
            .webMaxBody(1024)
            // small, so that a client that never reads fills it within a test's traffic
            .webSlowClientBytes(16 * 1024)
            .webAnswerTimeoutNs(TimeUnit.SECONDS.toNanos(10));
        ctx.conclude();
        final GatewayAgent agent = new GatewayAgent(ctx, aeron, SystemNanoClock.INSTANCE);
        web = WebServer.launch(ctx, agent.webAgent());
        fixAndSbeGuard = ctx.logonAuthenticator().guard();
        gateway = new AgentRunner(ctx.idleStrategy(), Throwable::printStackTrace, null, agent);
        AgentRunner.startOnThread(gateway);
        alice = new SignedWebClient(web.port(), "rk-alice-trade", ALICE_SECRET);
        aliceRead = new SignedWebClient(web.port(), "rk-alice-read", ALICE_READ_SECRET);
        bob = new SignedWebClient(web.port(), "rk-bob-trade", BOB_SECRET);
        // Serving once it answers; an order sent before the gateway follows a primary is refused NO_PRIMARY (503), so
        // place() sends it again until the engine answers.
        Await.until("instruments answered", () -> aliceRead.send("GET", "/api/v1/instruments", null).statusCode() ==
            200);
    }

    @AfterAll
    static void tearDown()
    {
        CloseHelper.closeAll(web, gateway, engine, aeron, driver);
    }

    private static byte[] secret(final int seed)
    {
        final byte[] secret = new byte[32];
        for (int i = 0; i < secret.length; i++)
        {
            secret[i] = (byte)(seed * 31 + i * 7);
        }
        return secret;
    }

    private static String order(final String id, final String side, final String price, final String quantity,
        final String tif)
    {
        return "{\"symbol\":\"BTC-USD\",\"side\":\"" + side + "\",\"type\":\"LIMIT\",\"timeInForce\":\"" + tif +
            "\",\"price\":\"" + price + "\",\"quantity\":\"" + quantity + "\",\"clientOrderId\":\"" + id + "\"}";
    }

    /** Placed until the engine answers (a primary is followed once the gateway hears the engine's status). */
    private static HttpResponse<String> place(final SignedWebClient client, final String body)
    {
        final HttpResponse<String>[] answer = new HttpResponse[1];
        Await.until("order answered by the engine", () ->
        {
            answer[0] = client.send("POST", "/api/v1/orders", body);
            return answer[0].statusCode() != 503;
        });
        return answer[0];
    }

    @Test
    void placesFillsAndCancelsOverRestAndHearsItAllOnTheUserStream()
    {
        final SignedWebClient.Stream aliceStream = alice.userStream();
        Await.until("alice's stream subscribed", () -> aliceStream.has("\"type\":\"subscribed\""));

        final HttpResponse<String> placed = place(alice, order("A-REST-1", "BUY", "99.50", "10", "GTC"));
        assertEquals(200, placed.statusCode(), placed.body());
        assertTrue(placed.body().contains("\"execType\":\"NEW\"") &&
            placed.body().contains("\"clientOrderId\":\"A-REST-1\"") && placed.body().contains("\"price\":\"99.50\""),
            placed.body());
        Await.until("the ack on alice's stream",
            () -> aliceStream.has("\"execType\":\"NEW\"", "\"clientOrderId\":\"A-REST-1\""));

        final HttpResponse<String> canceled = alice.send("DELETE", "/api/v1/orders/A-REST-1?symbol=BTC-USD", null);
        assertEquals(200, canceled.statusCode(), canceled.body());
        assertTrue(canceled.body().contains("\"execType\":\"CANCELED\"") &&
            canceled.body().contains("\"origClientOrderId\":\"A-REST-1\""), canceled.body());
        Await.until("the cancel on alice's stream",
            () -> aliceStream.has("\"execType\":\"CANCELED\"", "\"origClientOrderId\":\"A-REST-1\""));

        final HttpResponse<String> resting = place(alice, order("A-REST-2", "BUY", "100.00", "5", "GTC"));
        assertEquals(200, resting.statusCode(), resting.body());
        final HttpResponse<String> hit = place(bob, order("B-REST-1", "SELL", "100.00", "5", "IOC"));
        assertEquals(200, hit.statusCode(), hit.body());
        Await.until("alice's fill on her stream", () -> aliceStream.has("\"execType\":\"FILL\"",
            "\"clientOrderId\":\"A-REST-2\"", "\"lastPrice\":\"100.00\"", "\"lastQuantity\":\"5\""));
        aliceStream.await("her account's balances and positions after the fill", "\"type\":\"account\"",
            "\"accountId\":" + TestUsers.ALICE_ACCOUNT, "\"symbol\":\"BTC-USD\"");
        aliceStream.await("the trading status of every instrument", "\"type\":\"tradingStatus\"",
            "\"symbol\":\"SOL-USD\"");

        final HttpResponse<String> again = alice.send("DELETE", "/api/v1/orders/A-REST-2?symbol=BTC-USD", null);
        assertEquals(422, again.statusCode(), again.body());
        assertTrue(again.body().contains("cancelReject"), again.body());
        aliceStream.socket.abort();
        assertDeclaredInTheAsyncApi("/ws/v1/user", aliceStream);
    }

    @Test
    void enginesRejectionIsTheAnswer()
    {
        // 1,000.00 is outside the instrument's 50% band around 100.
        final HttpResponse<String> rejected = place(alice, order("A-BAND-1", "BUY", "1000.00", "1", "GTC"));
        assertEquals(422, rejected.statusCode(), rejected.body());
        assertTrue(rejected.body().contains("\"execType\":\"REJECTED\"") &&
            rejected.body().contains("PRICE_OUTSIDE_BAND"), rejected.body());

        final HttpResponse<String> notHers = place(alice,
            order("A-ACC-1", "BUY", "99.00", "1", "GTC").replace("}", ",\"account\":200}"));
        assertEquals(422, notHers.statusCode(), notHers.body());
        assertTrue(notHers.body().contains("NOT_AUTHORISED"), notHers.body());
    }

    @Test
    void webAuthenticationFailuresAreNotCountedAgainstFixAndSbeClients()
    {
        final long before = fixAndSbeGuard.failures();
        assertRefused(alice.send(alice.request("GET", "/api/v1/instruments", null).build()), 401, "unsigned");
        assertEquals(before, fixAndSbeGuard.failures());
    }

    @Test
    void badRequestsAreRefusedWithAStatusAndAReason()
    {
        final String good = order("A-BAD-1", "BUY", "99.00", "1", "GTC");
        final HttpResponse<String> unsigned = alice.send(alice.request("POST", "/api/v1/orders", good).build());
        assertRefused(unsigned, 401, "unsigned");

        final HttpRequest signed = alice.signed("POST", "/api/v1/orders", good, System.currentTimeMillis());
        final HttpRequest tampered = alice.request("POST", "/api/v1/orders", good.replace("99.00", "98.00"))
            .headers(headers(signed)).build();
        assertRefused(alice.send(tampered), 401, "bad signature");
        final HttpRequest otherKey = alice.request("POST", "/api/v1/orders", good)
            .header(RequestAuthenticator.KEY_HEADER, "rk-bob-trade")
            .header(RequestAuthenticator.TIMESTAMP_HEADER, signed.headers().firstValue("X-RINGEX-TIMESTAMP").get())
            .header(RequestAuthenticator.SIGNATURE_HEADER, signed.headers().firstValue("X-RINGEX-SIGNATURE").get())
            .build();
        assertRefused(alice.send(otherKey), 401, "bad signature");

        final HttpRequest expired = alice.signed("POST", "/api/v1/orders", good, System.currentTimeMillis() - 60_000);
        assertRefused(alice.send(expired), 401, "receive window");

        final HttpRequest once = alice.signed("GET", "/api/v1/instruments", null, System.currentTimeMillis());
        assertEquals(200, alice.send(once).statusCode());
        assertRefused(alice.send(once), 401, "replayed");

        assertRefused(aliceRead.send("POST", "/api/v1/orders", good), 403, "may read, not trade");
        assertRefused(aliceRead.send("DELETE", "/api/v1/orders/X?symbol=BTC-USD", null), 403, "may read, not trade");

        assertRefused(alice.send("POST", "/api/v1/orders", "{\"symbol\":\"BTC-USD\","), 400, "malformed JSON");
        assertRefused(alice.send("POST", "/api/v1/orders", "[1]"), 400, "malformed JSON");
        assertRefused(alice.send("POST", "/api/v1/orders", good.replace("}", ",\"colour\":\"red\"}")), 400,
            "unknown field \\\"colour\\\"");
        assertRefused(alice.send("POST", "/api/v1/orders", good.replace("\"symbol\":\"BTC-USD\"",
            "\"symbol\":\"BTC-USD\",\"symbol\":\"ETH-USD\"")), 400, "repeated member");
        assertRefused(alice.send("POST", "/api/v1/orders", good.replace("\"99.00\"", "9.9e1")), 400,
            "plain decimal");
        assertRefused(alice.send("POST", "/api/v1/orders", good.replace("\"99.00\"", "\"-99\"")), 400,
            "plain decimal");
        assertRefused(alice.send("POST", "/api/v1/orders", good.replace("\"99.00\"", "\"NaN\"")), 400,
            "plain decimal");
        assertRefused(alice.send("POST", "/api/v1/orders", good.replace("99.00", "99.001")), 400,
            "more decimals than BTC-USD's price scale of 2");
        assertRefused(alice.send("POST", "/api/v1/orders", good.replace("\"1\"", "\"1.5\"")), 400,
            "whole number");
        assertRefused(alice.send("POST", "/api/v1/orders", good.replace("A-BAD-1", "has space")), 400,
            "clientOrderId must be");
        assertRefused(alice.send("POST", "/api/v1/orders", good.replace("BTC-USD", "NOPE")), 400, "unknown symbol");
        assertRefused(alice.send("POST", "/api/v1/orders", good.replace("\"GTC\"", "\"GTX\"")), 400,
            "timeInForce must be");

        final String huge = good.replace("}", ",\"pad\":\"" + "x".repeat(2048) + "\"}");
        assertRefused(alice.send("POST", "/api/v1/orders", huge), 413, "body larger than 1024 bytes");

        assertRefused(alice.send("GET", "/api/v1/nothing", null), 404, "no such route");
        assertRefused(alice.send("PUT", "/api/v1/orders", good), 405, "method not allowed");

        // The venue is still up and the key still good.
        assertEquals(200, alice.send("GET", "/api/v1/instruments", null).statusCode());
    }

    private static String[] headers(final HttpRequest signed)
    {
        return new String[] {
            RequestAuthenticator.KEY_HEADER, signed.headers().firstValue(RequestAuthenticator.KEY_HEADER).get(),
            RequestAuthenticator.TIMESTAMP_HEADER,
            signed.headers().firstValue(RequestAuthenticator.TIMESTAMP_HEADER).get(),
            RequestAuthenticator.SIGNATURE_HEADER,
            signed.headers().firstValue(RequestAuthenticator.SIGNATURE_HEADER).get() };
    }

    private static void assertRefused(final HttpResponse<String> response, final int status, final String reason)
    {
        assertEquals(status, response.statusCode(), response.body());
        assertTrue(response.body().contains("\"status\":" + status) && response.body().contains(reason),
            response.body());
    }

    @Test
    void theServedOpenApiDocumentNamesExactlyTheRoutesServed()
    {
        final HttpResponse<String> document = alice.send(alice.request("GET", "/api/v1/openapi.json", null).build());
        assertEquals(200, document.statusCode());
        final Map<String, Object> paths = TreeJson.object(TreeJson.object(TreeJson.parse(document.body())).get(
            "paths"));
        assertEquals(List.of("/api/v1/openapi.json", "/api/v1/instruments", "/api/v1/accounts", "/api/v1/book",
            "/api/v1/trades",
            "/api/v1/orders", "/api/v1/orders/{clientOrderId}", "/api/v1/asyncapi.json", "/ws/v1/market",
            "/ws/v1/user"), List.copyOf(paths.keySet()));
        for (final Map.Entry<String, Object> path : paths.entrySet())
        {
            final Map<String, Object> operations = TreeJson.object(path.getValue());
            final String concrete = path.getKey().replace("{clientOrderId}", "X-1");
            for (final String method : List.of("GET", "POST", "DELETE", "PUT", "PATCH"))
            {
                final HttpResponse<String> answer = alice.send(alice.request(method, concrete,
                    "POST".equals(method) || "PUT".equals(method) ? "{}" : null).build());
                if (operations.containsKey(method.toLowerCase()))
                {
                    assertNotEquals(404, answer.statusCode(), method + " " + concrete);
                    assertNotEquals(405, answer.statusCode(), method + " " + concrete);
                }
                else
                {
                    assertEquals(405, answer.statusCode(), method + " " + concrete + " is served, not documented");
                }
            }
        }
    }

    @Test
    void anOrderIdIsReadFromThePathDecodedOnceAndADisabledUsersStreamIsRefused()
    {
        // "P%41X" travels as P%2541X: decoded twice it would be "PAX", an order that does not exist.
        final HttpResponse<String> placed = place(alice, order("P%41X", "BUY", "99.00", "1", "GTC"));
        assertEquals(200, placed.statusCode(), placed.body());
        final HttpResponse<String> canceled = alice.send("DELETE", "/api/v1/orders/P%2541X?symbol=BTC-USD", null);
        assertEquals(200, canceled.statusCode(), canceled.body());
        assertTrue(canceled.body().contains("\"origClientOrderId\":\"P%41X\""), canceled.body());

        final SignedWebClient dave = new SignedWebClient(web.port(), "rk-dave-read", DAVE_SECRET);
        final SignedWebClient.Stream stream = dave.userStream();
        Await.until("the disabled user's stream closed", () -> null != stream.closeReason);
        assertTrue(stream.closeReason.contains("disabled"), stream.closeReason);
        assertTrue(!stream.has("\"type\":\"subscribed\""), "a disabled user's stream never subscribes");
    }

    @Test
    void aKeyRevokedWithTheAdminToolIsRefusedAndItsStreamClosedWithoutARestart()
    {
        final ApiKey revokable = ApiKeysFile.create(keys, "rk-alice-revokable", "alice", true);
        final SignedWebClient client = new SignedWebClient(web.port(), revokable.keyId(), revokable.secret());
        Await.until("the new key is taken", () -> client.send("GET", "/api/v1/instruments", null).statusCode() ==
            200);
        final SignedWebClient.Stream stream = client.userStream();
        Await.until("its stream subscribed", () -> stream.has("\"type\":\"subscribed\""));

        ApiKeysFile.revoke(keys, revokable.keyId());
        Await.until("its stream closed", () -> null != stream.closeReason);
        assertTrue(stream.closeReason.contains("API key revoked"), stream.closeReason);
        assertRefused(client.send("GET", "/api/v1/instruments", null), 401, "unknown key or bad signature");
        // The other keys are untouched.
        assertEquals(200, alice.send("GET", "/api/v1/instruments", null).statusCode());
    }

    @Test
    void aKeyNamingItsAddressesIsRefusedFromAnyOtherHoweverWellSigned()
    {
        final ApiKey elsewhere = ApiKeysFile.create(keys, "rk-alice-elsewhere", "alice", true,
            List.of("203.0.113.0/24"));
        final ApiKey here = ApiKeysFile.create(keys, "rk-alice-loopback", "alice", true, List.of("127.0.0.0/8", "::1"));
        final SignedWebClient fromHere = new SignedWebClient(web.port(), here.keyId(), here.secret());
        Await.until("the new keys are taken", () -> fromHere.send("GET", "/api/v1/instruments", null).statusCode() ==
            200);
        final SignedWebClient fromElsewhere = new SignedWebClient(web.port(), elsewhere.keyId(), elsewhere.secret());
        assertRefused(fromElsewhere.send("GET", "/api/v1/instruments", null), 403, "not be used from this address");
        assertRefused(fromElsewhere.send("DELETE", "/api/v1/orders?symbol=BTC-USD", null), 403,
            "not be used from this address");
        final java.util.concurrent.CompletionException refused = org.junit.jupiter.api.Assertions.assertThrows(
            java.util.concurrent.CompletionException.class, fromElsewhere::userStream);
        assertEquals(403, ((java.net.http.WebSocketHandshakeException)refused.getCause()).getResponse().statusCode());
        ApiKeysFile.revoke(keys, elsewhere.keyId());
        ApiKeysFile.revoke(keys, here.keyId());
    }

    @Test
    void aStreamThatAskedForCancelOnDisconnectCancelsItsKeysOrdersWhenTheKeysLastSuchStreamGoes()
    {
        final ApiKey key = ApiKeysFile.create(keys, "rk-alice-cod", "alice", true);
        final SignedWebClient client = new SignedWebClient(web.port(), key.keyId(), key.secret());
        Await.until("the new key is taken", () -> client.send("GET", "/api/v1/instruments", null).statusCode() ==
            200);
        final SignedWebClient.Stream watcher = aliceRead.userStream();
        final SignedWebClient.Stream first = client.userStream();
        final SignedWebClient.Stream second = client.userStream();
        for (final SignedWebClient.Stream stream : List.of(watcher, first, second))
        {
            stream.await("subscribed", "\"type\":\"subscribed\"");
        }
        watcher.await("each of the user's accounts on subscribing", "\"type\":\"account\"",
            "\"accountId\":" + TestUsers.ALICE_SECOND_ACCOUNT);
        first.send("{\"op\":\"cancelOnDisconnect\",\"enabled\":\"yes\"}");
        first.await("a malformed request refused with a reason", "\"type\":\"error\"", "cancelOnDisconnect");
        first.send("{\"op\":");
        first.await("broken JSON refused with a reason", "\"type\":\"error\"", "malformed JSON");
        watcher.send("{\"op\":\"cancelOnDisconnect\",\"enabled\":true}");
        watcher.await("a read key refused", "\"type\":\"error\"", "may read, not trade");
        for (final SignedWebClient.Stream stream : List.of(first, second))
        {
            stream.send("{\"op\":\"cancelOnDisconnect\",\"enabled\":true}");
            stream.await("cancel-on-disconnect on", "\"type\":\"cancelOnDisconnect\"", "\"enabled\":true",
                "\"graceMs\":0");
        }
        final HttpResponse<String> placed = place(client, "{\"symbol\":\"SOL-USD\",\"side\":\"BUY\"," +
            "\"type\":\"LIMIT\",\"timeInForce\":\"GTC\",\"price\":\"95.00\",\"quantity\":\"1\"," +
            "\"clientOrderId\":\"A-COD-1\"}");
        assertEquals(200, placed.statusCode(), placed.body());

        first.socket.abort();
        // time for the gateway to see the first close: the key's other stream still asks, so nothing is cancelled
        java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(500));
        final HttpResponse<String> open = client.send("GET", "/api/v1/orders/A-COD-1", null);
        assertTrue(open.body().contains("\"orderStatus\":\"NEW\""), open.body());
        assertTrue(!watcher.has("\"cancelReason\":\"CANCEL_ON_DISCONNECT\""), "cancelled while a stream asks");

        second.socket.abort();
        watcher.await("the key's order cancelled when its last such stream went", "\"execType\":\"CANCELED\"",
            "A-COD-1", "\"cancelReason\":\"CANCEL_ON_DISCONNECT\"");
        assertEquals("{\"type\":\"openOrders\",\"orders\":[]}",
            client.send("GET", "/api/v1/orders?symbol=SOL-USD", null).body());
        watcher.socket.abort();
        assertDeclaredInTheAsyncApi("/ws/v1/user", watcher, first);
        ApiKeysFile.revoke(keys, key.keyId());
    }

    @Test
    void aMarketStreamClientThatNeverReadsIsClosedAndTheVenueServesOn() throws IOException
    {
        final java.net.Socket socket = new java.net.Socket();
        socket.setReceiveBufferSize(4096);
        socket.setSoTimeout(10_000);
        socket.connect(new java.net.InetSocketAddress("localhost", web.port()));
        final String timestamp = Long.toString(System.currentTimeMillis());
        final String path = WebRequestHandler.MARKET_STREAM;
        final java.io.OutputStream out = socket.getOutputStream();
        out.write(("GET " + path + "?key=rk-alice-read&timestamp=" + timestamp + "&signature=" +
            RequestAuthenticator.sign(ALICE_READ_SECRET, timestamp, "GET", path, new byte[0]) + " HTTP/1.1\r\n" +
            "Host: localhost:" + web.port() + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
            .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        final StringBuilder answer = new StringBuilder();
        while (answer.indexOf("\r\n\r\n") < 0)
        {
            answer.append((char)socket.getInputStream().read());
        }
        assertTrue(answer.toString().startsWith("HTTP/1.1 101"), answer.toString());
        for (final String channel : List.of("book\",\"depth\":100", "bbo", "statistics"))
        {
            out.write(maskedText("{\"op\":\"subscribe\",\"channel\":\"" + channel + "\",\"symbol\":\"BTC-USD\"}"));
        }
        // From here the client never reads: book changes (an order placed, then cancelled) pile up until the gateway
        // closes it. It is seen closed when a frame sent afterwards is answered with a reset.
        boolean closed = false;
        for (int i = 0; i < 10_000 && !closed; i++)
        {
            final String price = java.math.BigDecimal.valueOf(9_500 + i % 400, 2).toPlainString();
            place(alice, order("A-SLOW-" + i, "BUY", price, "1", "GTC"));
            alice.send("DELETE", "/api/v1/orders/A-SLOW-" + i + "?symbol=BTC-USD", null);
            if (i % 50 == 49)
            {
                try
                {
                    out.write(maskedText("{}"));
                    out.flush();
                }
                catch (final IOException ex)
                {
                    closed = true;
                }
            }
        }
        socket.close();
        assertTrue(closed, "a client that never read was still connected after 10,000 orders placed and cancelled");
        final HttpResponse<String> instruments = alice.send("GET", "/api/v1/instruments", null);
        assertEquals(200, instruments.statusCode(), "the venue serves on: " + instruments.body());
    }

    /** A client's text frame: masked, as RFC 6455 requires of clients (a zero mask: the payload as it is). */
    private static byte[] maskedText(final String text)
    {
        final byte[] payload = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        final byte[] frame = new byte[6 + payload.length];
        frame[0] = (byte)0x81;
        frame[1] = (byte)(0x80 | payload.length);
        System.arraycopy(payload, 0, frame, 6, payload.length);
        return frame;
    }

    @Test
    void thePythonExampleRunsAsWrittenAndItsBookIsTheEngines() throws IOException, InterruptedException
    {
        // ETH-USD is this test's alone: bob's orders rest there, alice's come and go through the example.
        for (final String[] resting : new String[][]{
            { "B-ETH-1", "BUY", "97.00", "4" }, { "B-ETH-2", "BUY", "96.50", "6" },
            { "B-ETH-3", "SELL", "102.25", "5" }})
        {
            final HttpResponse<String> placed = place(bob, order(resting[0], resting[1], resting[2], resting[3], "GTC")
                .replace("BTC-USD", "ETH-USD"));
            assertEquals(200, placed.statusCode(), placed.body());
        }
        // Debian's python3 with its requests and websockets packages (.ci/run installs them).
        final Path example = ProjectRoot.find().resolve("docs/examples/rest_client.py");
        final ProcessBuilder builder = new ProcessBuilder("/usr/bin/python3", example.toString(),
            "--url", "http://localhost:" + web.port(), "--symbol", "ETH-USD", "--price", "98.25", "--quantity", "3")
            .redirectErrorStream(true);
        builder.environment().put("RINGEX_KEY", "rk-alice-trade");
        builder.environment().put("RINGEX_SECRET", java.util.Base64.getEncoder().encodeToString(ALICE_SECRET));
        final Process python = builder.start();
        final String output;
        try (java.io.InputStream in = python.getInputStream())
        {
            output = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        assertTrue(python.waitFor(60, TimeUnit.SECONDS), output);
        assertEquals(0, python.exitValue(), output);
        assertTrue(output.contains("user stream: py-") && output.contains("REPLACED") &&
            output.contains("market stream: reconnected") && output.contains("CANCELED") && output.endsWith("ok\n"),
            output);

        // The book the example kept from the market stream, against the engine's own feed read by the SBE client.
        final String line = output.lines().filter(l -> l.startsWith("book: ")).findFirst().orElseThrow();
        final Map<String, Object> book = TreeJson.object(TreeJson.parse(line.substring("book: ".length())));
        assertEquals(List.of(List.of("97.00", "4"), List.of("96.50", "6")), book.get("bids"), line);
        assertEquals(List.of(List.of("102.25", "5")), book.get("asks"), line);
        assertEquals(enginesBook(2, Long.parseLong(book.get("seq").toString())),
            List.of(book.get("bids"), book.get("asks")));
    }

    /** The engine's book of an instrument as its market-data feed gives it, once at the sequence, as [bids, asks]. */
    private static List<Object> enginesBook(final int instrumentId, final long sequence)
    {
        final MarketDataClient feed = MarketDataClient.connect(new MarketDataClient.Context().aeron(aeron)
            .feedChannel(IPC).feedStreamId(1003).responseChannel(IPC).responseStreamId(1099).requestChannel(IPC)
            .requestStreamId(GatewayContext.Configuration.MARKETDATA_REQUEST_STREAM_DEFAULT)
            .listener(new MarketDataListener()
            {
            }));
        try
        {
            feed.subscribe(instrumentId);
            Await.until("the engine's book at seq " + sequence, () ->
            {
                feed.poll();
                final MarketDataBook book = feed.book(instrumentId);
                return null != book && book.mdSequence() >= sequence;
            });
            final MarketDataBook book = feed.book(instrumentId);
            assertEquals(sequence, book.mdSequence(), "the book moved on after the example");
            final List<Object> sides = new java.util.ArrayList<>();
            for (final boolean buy : new boolean[]{ true, false })
            {
                final List<Object> levels = new java.util.ArrayList<>();
                for (int i = 0; i < book.levelCount(buy); i++)
                {
                    levels.add(List.of(java.math.BigDecimal.valueOf(book.levelPrice(buy, i), 2).toPlainString(),
                        Long.toString(book.levelQuantity(buy, i))));
                }
                sides.add(levels);
            }
            return sides;
        }
        finally
        {
            feed.close();
        }
    }

    @Test
    void theOrderTypesTimesInForceAndOptionsOfSbeAndFixAreTakenAndCheckedTheSameWay()
    {
        final String base = "{\"symbol\":\"BTC-USD\",\"side\":\"BUY\",\"quantity\":\"10\",";
        final String iceberg = "\"type\":\"LIMIT\",\"price\":\"90.00\",\"displayQuantity\":\"2\"," +
            "\"minQuantity\":\"1\",\"selfTradePrevention\":\"CANCEL_BOTH\",\"postOnly\":true";
        final String goodTillDate = "\"type\":\"LIMIT\",\"price\":\"90.00\",\"timeInForce\":\"GTD\",\"expireTimeMs\":" +
            (System.currentTimeMillis() + 3_600_000);
        final String[][] taken = {
            { "A-OPT-1", iceberg },
            { "A-OPT-2", "\"type\":\"STOP_LIMIT\",\"price\":\"120.00\",\"stopPrice\":\"119.00\"" },
            { "A-OPT-3", goodTillDate },
            { "A-OPT-4", "\"type\":\"LIMIT\",\"price\":\"90.00\",\"timeInForce\":\"DAY\"" },
        };
        for (final String[] order : taken)
        {
            final HttpResponse<String> placed =
                place(alice, base + order[1] + ",\"clientOrderId\":\"" + order[0] + "\"}");
            assertEquals(200, placed.statusCode(), order[1] + ": " + placed.body());
            assertTrue(placed.body().contains("\"execType\":\"NEW\""), placed.body());
        }
        final String[][] refused = {
            { "\"type\":\"STOP\",\"price\":\"90.00\",\"stopPrice\":\"80.00\"", "a STOP order takes no price" },
            { "\"type\":\"STOP_LIMIT\",\"price\":\"90.00\"", "stopPrice is required for a STOP_LIMIT order" },
            { "\"type\":\"LIMIT\",\"price\":\"90.00\",\"stopPrice\":\"80.00\"", "a LIMIT order takes no stopPrice" },
            { "\"type\":\"LIMIT\",\"price\":\"90.00\",\"timeInForce\":\"GTD\"", "expireTimeMs" },
            { "\"type\":\"LIMIT\",\"price\":\"90.00\",\"expireTimeMs\":1", "expireTimeMs" },
            { "\"type\":\"LIMIT\",\"price\":\"90.00\",\"displayQuantity\":\"-1\"", "displayQuantity must be" },
            { "\"type\":\"LIMIT\",\"price\":\"90.00\",\"postOnly\":\"yes\"", "postOnly must be" },
            { "\"type\":\"LIMIT\",\"price\":\"90.00\",\"selfTradePrevention\":\"NULL_VAL\"", "selfTradePrevention" },
            { "\"type\":\"ICEBERG\",\"price\":\"90.00\"", "type must be" },
            { "\"type\":\"LIMIT\",\"price\":\"90.00\",\"timeInForce\":\"GTX\"", "timeInForce must be" },
        };
        for (final String[] order : refused)
        {
            assertRefused(alice.send("POST", "/api/v1/orders", base + order[0] + ",\"clientOrderId\":\"A-OPT-X\"}"),
                400, order[1]);
        }
        assertEquals(200, alice.send("DELETE", "/api/v1/orders?symbol=BTC-USD", null).statusCode());
    }

    @Test
    void amendsAsksAboutAndCancelsAllOrdersOverRest()
    {
        final HttpResponse<String> placed = place(alice, order("A-AMD-1", "BUY", "95.00", "2", "GTC"));
        assertEquals(200, placed.statusCode(), placed.body());
        final HttpResponse<String> replaced = alice.send("PUT", "/api/v1/orders/A-AMD-1",
            "{\"symbol\":\"BTC-USD\",\"price\":\"95.25\",\"quantity\":\"3\",\"clientOrderId\":\"A-AMD-2\"}");
        assertEquals(200, replaced.statusCode(), replaced.body());
        assertTrue(replaced.body().contains("\"execType\":\"REPLACED\"") &&
            replaced.body().contains("\"price\":\"95.25\"") && replaced.body().contains("\"quantity\":\"3\""),
            replaced.body());

        final HttpResponse<String> status = aliceRead.send("GET", "/api/v1/orders/A-AMD-2", null);
        assertEquals(200, status.statusCode(), status.body());
        assertTrue(status.body().contains("\"type\":\"orderStatus\"") &&
            status.body().contains("\"clientOrderId\":\"A-AMD-2\"") && status.body().contains("\"price\":\"95.25\"") &&
            status.body().contains("\"leavesQuantity\":\"3\""), status.body());
        assertRefused(aliceRead.send("GET", "/api/v1/orders/NO-SUCH-ORDER", null), 404, "UNKNOWN_ORDER");

        final HttpResponse<String> open = aliceRead.send("GET", "/api/v1/orders?symbol=BTC-USD", null);
        assertEquals(200, open.statusCode(), open.body());
        assertTrue(open.body().startsWith("{\"type\":\"openOrders\",\"orders\":[") &&
            open.body().contains("\"clientOrderId\":\"A-AMD-2\""), open.body());
        final HttpResponse<String> none = aliceRead.send("GET", "/api/v1/orders?symbol=SOL-USD", null);
        assertEquals("{\"type\":\"openOrders\",\"orders\":[]}", none.body());

        assertRefused(aliceRead.send("DELETE", "/api/v1/orders?symbol=BTC-USD", null), 403, "may read, not trade");
        assertRefused(alice.send("DELETE", "/api/v1/orders?symbol=NOPE", null), 400, "unknown symbol");
        assertRefused(alice.send("PUT", "/api/v1/orders/A-AMD-2", "{\"symbol\":\"BTC-USD\",\"price\":\"95.25\"}"),
            400, "quantity is required");
        assertRefused(alice.send("PUT", "/api/v1/orders/A-AMD-2?symbol=BTC-USD", "{}"), 400, "in the body");
        final HttpResponse<String> cancelled = alice.send("DELETE", "/api/v1/orders?symbol=BTC-USD", null);
        assertEquals(200, cancelled.statusCode(), cancelled.body());
        assertTrue(cancelled.body().contains("\"type\":\"massCancelReport\"") &&
            cancelled.body().contains("\"symbol\":\"BTC-USD\"") && !cancelled.body().contains("\"cancelled\":0"),
            cancelled.body());
        final HttpResponse<String> after = aliceRead.send("GET", "/api/v1/orders?symbol=BTC-USD", null);
        assertEquals("{\"type\":\"openOrders\",\"orders\":[]}", after.body());
    }

    @Test
    void followsTheBookTradesAndBboOnTheMarketStreamAndRefusesBadRequestsWithAReason()
    {
        final SignedWebClient.Stream market = aliceRead.marketStream();
        Await.until("connected", () -> market.has("\"type\":\"connected\""));
        for (final String channel : List.of("book", "trades", "bbo", "statistics", "status"))
        {
            market.send("{\"op\":\"subscribe\",\"channel\":\"" + channel + "\",\"symbol\":\"SOL-USD\"}");
        }
        final String snapshot = market.await("the book's snapshot", "\"type\":\"book\"", "\"snapshot\":true");
        assertTrue(snapshot.contains("\"bids\":[],\"asks\":[]"), snapshot);
        Await.until("the status", () -> market.has("\"type\":\"status\"", "\"status\":\"OPEN\""));

        assertEquals(200, place(bob, order("B-SOL-1", "SELL", "101.50", "4", "GTC").replace("BTC-USD", "SOL-USD"))
            .statusCode());
        final String update = market.await("the ask on the book", "\"snapshot\":false",
            "\"asks\":[[\"101.50\",\"4\"]]");
        assertTrue(update.contains("\"prevSeq\":" + number(snapshot, "seq") + ","), update + " after " + snapshot);
        Await.until("the bbo", () -> market.has("\"type\":\"bbo\"", "\"askPrice\":\"101.50\"",
            "\"askQuantity\":\"4\"", "\"bidPrice\":null"));

        assertEquals(200, place(alice, order("A-SOL-1", "BUY", "101.50", "1", "IOC").replace("BTC-USD", "SOL-USD"))
            .statusCode());
        final String trades = market.await("the trade", "\"type\":\"trades\"",
            "\"price\":\"101.50\",\"quantity\":\"1\",\"aggressor\":\"BUY\"");
        Await.until("the ask reduced", () -> market.has("\"asks\":[[\"101.50\",\"3\"]]"));
        Await.until("the statistics", () -> market.has("\"type\":\"statistics\"", "\"last\":\"101.50\"",
            "\"volume\":\"1\""));
        // Alice's position from the engine's risk stream: the one lot she bought (SOL-USD is this test's alone).
        final String[] accounts = new String[1];
        Await.until(() -> "alice's SOL-USD position in " + accounts[0], () ->
            (accounts[0] = aliceRead.send("GET", "/api/v1/accounts", null).body())
            .contains("\"symbol\":\"SOL-USD\",\"position\":\"1\",\"averageCost\":\"101.50\""));
        assertRefused(aliceRead.send("GET", "/api/v1/accounts?account=1", null), 400, "no query parameters");

        // REST gives the same book and trades.
        final HttpResponse<String> book = aliceRead.send("GET", "/api/v1/book?symbol=SOL-USD&depth=5", null);
        assertTrue(book.body().contains("\"bids\":[],\"asks\":[[\"101.50\",\"3\"]]"), book.body());
        final HttpResponse<String> recent = aliceRead.send("GET", "/api/v1/trades?symbol=SOL-USD", null);
        assertTrue(recent.body().contains("\"price\":\"101.50\",\"quantity\":\"1\""), recent.body());
        assertRefused(aliceRead.send("GET", "/api/v1/book?symbol=SOL-USD&depth=0", null), 400, "depth must be");
        assertRefused(aliceRead.send("GET", "/api/v1/trades?symbol=NOPE", null), 400, "listed symbol");
        assertRefused(aliceRead.send("GET", "/api/v1/book?symbol=SOL-USD&levels=5", null), 400, "unknown query");

        // A new stream resumes the trades after the sequence before the trade: the trade again, no gap.
        final long tradeSeq = number(trades.substring(trades.indexOf("\"trades\":")), "seq");
        final SignedWebClient.Stream resumed = aliceRead.marketStream();
        Await.until("connected", () -> resumed.has("\"type\":\"connected\""));
        resumed.send("{\"op\":\"subscribe\",\"channel\":\"trades\",\"symbol\":\"SOL-USD\",\"fromSeq\":" +
            (tradeSeq - 1) + "}");
        Await.until("the trade resent", () -> resumed.has("\"type\":\"trades\"", "\"seq\":" + tradeSeq));
        assertTrue(!resumed.has("\"type\":\"gap\""), resumed.events.toString());

        // Bad requests: each answered with its reason, the stream stays open.
        final String[][] bad = {
            { "{\"op\":\"subscribe\",\"channel\":\"depth\",\"symbol\":\"SOL-USD\"}", "channel must be" },
            { "{\"op\":\"subscribe\",\"channel\":\"book\",\"symbol\":\"NOPE\"}", "listed symbol" },
            { "{\"op\":\"subscribe\",\"channel\":\"book\",\"symbol\":\"SOL-USD\"}", "already subscribed" },
            { "{\"op\":\"subscribe\",\"channel\":\"bbo\",\"symbol\":\"BTC-USD\",\"depth\":5}", "depth is for" },
            { "{\"op\":\"subscribe\",\"channel\":\"book\",\"symbol\":\"BTC-USD\",\"depth\":101}", "depth must" },
            { "{\"op\":\"watch\",\"channel\":\"book\",\"symbol\":\"BTC-USD\"}", "op must be" },
            { "{\"op\":\"subscribe\",\"channel\":\"book\",\"symbol\":\"BTC-USD\",\"x\":1}", "unknown member" },
            { "{\"op\":\"subscribe\",", "malformed JSON" },
        };
        for (final String[] request : bad)
        {
            market.send(request[0]);
            Await.until(request[1], () -> market.has("\"type\":\"error\"", request[1]));
        }
        market.send("{\"op\":\"unsubscribe\",\"channel\":\"book\",\"symbol\":\"SOL-USD\"}");
        Await.until("unsubscribed", () -> market.has("\"type\":\"unsubscribed\"", "\"channel\":\"book\""));

        // A client that floods its stream with requests is disconnected with the reason.
        for (int i = 0; i < WebRequestHandler.MAX_STREAM_REQUESTS_PER_SECOND + 10 && null == market.closeReason; i++)
        {
            market.socket.sendText("{\"op\":\"subscribe\",\"channel\":\"trades\",\"symbol\":\"BTC-USD\"}", true);
        }
        Await.until("the flooding stream closed", () -> null != market.closeReason);
        assertTrue(market.closeReason.startsWith("1008 more than"), market.closeReason);
        resumed.socket.abort();
        assertDeclaredInTheAsyncApi("/ws/v1/market", market, resumed);
    }

    /** Every message type a stream sent is one the served AsyncAPI document declares on that channel. */
    private static void assertDeclaredInTheAsyncApi(final String channel, final SignedWebClient.Stream... streams)
    {
        final HttpResponse<String> document = alice.send(alice.request("GET", "/api/v1/asyncapi.json", null).build());
        assertEquals(200, document.statusCode());
        final Map<String, Object> asyncApi = TreeJson.object(TreeJson.parse(document.body()));
        final Map<String, Object> messages = TreeJson.object(TreeJson.object(asyncApi.get("components"))
            .get("messages"));
        final String declared = TreeJson.object(TreeJson.object(asyncApi.get("channels")).get(channel)).toString();
        for (final SignedWebClient.Stream stream : streams)
        {
            for (final String event : stream.events)
            {
                final String type = TreeJson.object(TreeJson.parse(event)).get("type").toString();
                final boolean found = messages.entrySet().stream().anyMatch(message ->
                    type.equals(TreeJson.object(message.getValue()).get("name")) &&
                    declared.contains("#/components/messages/" + message.getKey()));
                assertTrue(found, "\"" + type + "\" sent on " + channel + " but not declared there: " + event);
            }
        }
    }

    @Test
    void idleConnectionsBeyondAnAddressesShareAreAnsweredWithTheReasonAndTheVenueServesOnOnceTheyGo() throws IOException
    {
        final List<java.net.Socket> idle = new java.util.ArrayList<>();
        try
        {
            for (int i = 0; i < GatewayContext.Configuration.WEB_MAX_CONNECTIONS_PER_ADDRESS_DEFAULT + 20; i++)
            {
                idle.add(new java.net.Socket("localhost", web.port()));
            }
            // The last ones were over the address's share: answered 503 with the reason, then closed.
            final java.net.Socket last = idle.get(idle.size() - 1);
            last.setSoTimeout(10_000);
            final String answer = new String(last.getInputStream().readAllBytes(),
                java.nio.charset.StandardCharsets.US_ASCII);
            assertTrue(answer.startsWith("HTTP/1.1 503") && answer.contains("too many connections"), answer);
        }
        finally
        {
            for (final java.net.Socket socket : idle)
            {
                socket.close();
            }
        }
        Await.until("served again once the idle connections closed", () ->
        {
            try
            {
                return aliceRead.send("GET", "/api/v1/instruments", null).statusCode() == 200;
            }
            catch (final IllegalStateException ex)
            {
                return false; // a pooled connection the gateway had refused
            }
        });
    }

    private static long number(final String json, final String member)
    {
        final int at = json.indexOf("\"" + member + "\":") + member.length() + 3;
        int end = at;
        while (end < json.length() && Character.isDigit(json.charAt(end)))
        {
            end++;
        }
        return Long.parseLong(json.substring(at, end));
    }
}
