package io.ringex.gateway.web;

import io.aeron.Aeron;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.ringex.gateway.GatewayAgent;
import io.ringex.gateway.GatewayContext;
import io.ringex.gateway.auth.LogonGuard;
import io.ringex.gateway.auth.LogonPolicy;
import io.ringex.gateway.auth.User;
import io.ringex.protocol.CredentialHash;
import io.ringex.testing.Await;
import io.ringex.gateway.testing.EngineStreams;
import io.ringex.gateway.testing.RealEngineNode;
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

        driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
            .threadingMode(ThreadingMode.SHARED)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .publicationTermBufferLength(64 * 1024)
            .ipcTermBufferLength(64 * 1024)
            .publicationLingerTimeoutNs(TimeUnit.MILLISECONDS.toNanos(100))
            .imageLivenessTimeoutNs(TimeUnit.MILLISECONDS.toNanos(500)));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
        engine = RealEngineNode.launch(new EngineStreams(driver.aeronDirectoryName(), IPC, 1001, IPC, 1002, IPC,
            1003, new EngineStreams.TestInstrument(1, "BTC-USD", 2)));
        final GatewayContext ctx = new GatewayContext()
            .gatewayId(7)
            .aeronDirectoryName(driver.aeronDirectoryName())
            .clientChannel(IPC).clientStreamId(2001)
            .engineIngressChannel(IPC).engineIngressStreamId(1001)
            .engineEgressChannel(IPC).engineEgressStreamId(1002)
            .marketDataChannel(IPC).marketDataStreamId(1003)
            .fixEnabled(false)
            .throttleMessagesPerSecond(1_000_000)
            // This test's refusals all come from one address: none of them may lock the good requests out.
            .logonPolicy(new LogonPolicy(1_000, 1_000, 60_000, 900_000, 0, 64, 8, 10_000))
            .addInstrument(1, "BTC-USD", 2)
            .addUser(TestUsers.ALICE)
            .addUser(TestUsers.BOB)
            .addUser(new User("dave", CredentialHash.hash("dave-secret".toCharArray(), 1000), new long[]{ 400 },
                null, TestUsers.GATEWAY_COMP_ID, false, false, 0))
            .webEnabled(true)
            .webPort(0)
            .webHost("localhost")
            .webApiKeysFile(keys.toString())
            .webMaxBody(1024)
            .webAnswerTimeoutMs(10_000);
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
        final SignedWebClient.UserStream aliceStream = alice.userStream();
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

        final HttpResponse<String> again = alice.send("DELETE", "/api/v1/orders/A-REST-2?symbol=BTC-USD", null);
        assertEquals(422, again.statusCode(), again.body());
        assertTrue(again.body().contains("cancelReject"), again.body());
        aliceStream.socket.abort();
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
        assertRefused(alice.send("POST", "/api/v1/orders", good.replace("\"GTC\"", "\"DAY\"")), 400,
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
        assertEquals(List.of("/api/v1/openapi.json", "/api/v1/instruments", "/api/v1/orders",
            "/api/v1/orders/{clientOrderId}", "/ws/v1/user"), List.copyOf(paths.keySet()));
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
        final SignedWebClient.UserStream stream = dave.userStream();
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
        final SignedWebClient.UserStream stream = client.userStream();
        Await.until("its stream subscribed", () -> stream.has("\"type\":\"subscribed\""));

        ApiKeysFile.revoke(keys, revokable.keyId());
        Await.until("its stream closed", () -> null != stream.closeReason);
        assertTrue(stream.closeReason.contains("API key revoked"), stream.closeReason);
        assertRefused(client.send("GET", "/api/v1/instruments", null), 401, "unknown key or bad signature");
        // The other keys are untouched.
        assertEquals(200, alice.send("GET", "/api/v1/instruments", null).statusCode());
    }

    @Test
    void thePythonExampleRunsAsWritten() throws IOException, InterruptedException
    {
        // Debian's python3 with its requests and websockets packages (.ci/run installs them).
        final Path example = ProjectRoot.find().resolve("docs/examples/rest_client.py");
        final ProcessBuilder builder = new ProcessBuilder("/usr/bin/python3", example.toString(),
            "--url", "http://localhost:" + web.port(), "--symbol", "BTC-USD", "--price", "98.25", "--quantity", "3")
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
        assertTrue(output.contains("user stream: py-") && output.contains("CANCELED") && output.endsWith("ok\n"),
            output);
    }
}
