package io.ringex.app;

import io.ringex.gateway.web.ApiKey;
import io.ringex.gateway.web.ApiKeys;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The load generator over the gateway's REST API, as any language's client would send: {@code POST /api/v1/orders}
 * signed with the user's API key (from the keys file named by {@code --api-keys}), over java.net.http's pool of
 * HTTP/1.1 connections. An order's first report is its HTTP answer (the engine's report, or 422 with its refusal).
 * Answers arrive on the HTTP client's threads, stamped there, and are handed to the generator's thread through a
 * queue: this transport measures the venue, not itself, and is not zero-allocation.
 */
final class RestLoadTransport implements LoadGenerator.Transport
{
    /** Requests in flight at most; more waits (back-pressure to the generator). */
    private static final int MAX_IN_FLIGHT = 4096;

    private final String base;
    private final Path keysFile;
    private final LoadGenerator.Reports reports;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final Map<String, ApiKey> keys = new HashMap<>();
    private final ConcurrentLinkedQueue<long[]> answers = new ConcurrentLinkedQueue<>();
    /** Client order ids of this run start with it: a key's earlier runs used other ones. */
    private final String run = Long.toString(System.currentTimeMillis() % 1_000_000_000L, 36);
    private int inFlight;
    private long failures;

    RestLoadTransport(final String host, final int port, final Path keysFile, final LoadGenerator.Reports reports)
    {
        this.base = "http://" + host + ":" + port;
        this.keysFile = keysFile;
        this.reports = reports;
    }

    public void connect(final List<DemoData.Account> accounts)
    {
        final ApiKeys all = ApiKeys.load(keysFile);
        for (final DemoData.Account account : accounts)
        {
            final ApiKey key = all.keys().stream().filter(k -> k.username().equals(account.user()) && k.mayTrade())
                .findFirst().orElseThrow(() -> new IllegalStateException("no API key that may trade for user " +
                account.user() + " in " + keysFile + " (./ringex admin apikey create --file " + keysFile +
                " --key-id ID --username " + account.user() + " --trade)"));
            keys.put(account.user(), key);
        }
    }

    public boolean send(
        final long id,
        final DemoData.Account account,
        final DemoData.Instrument instrument,
        final boolean buy,
        final long price,
        final long quantity,
        final boolean ioc)
    {
        if (inFlight >= MAX_IN_FLIGHT)
        {
            return false;
        }
        final ApiKey key = keys.get(account.user());
        final String body = "{\"symbol\":\"" + instrument.symbol() + "\",\"side\":\"" + (buy ? "BUY" : "SELL") +
            "\",\"type\":\"LIMIT\",\"timeInForce\":\"" + (ioc ? "IOC" : "GTC") + "\",\"price\":\"" +
            BigDecimal.valueOf(price, instrument.priceScale()).toPlainString() + "\",\"quantity\":\"" + quantity +
            "\",\"clientOrderId\":\"L" + run + "-" + Long.toString(id, 36) + "\",\"account\":" + account.id() + "}";
        final String timestamp = Long.toString(System.currentTimeMillis());
        final HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/api/v1/orders"))
            .header("Content-Type", "application/json")
            .header("X-RINGEX-KEY", key.keyId())
            .header("X-RINGEX-TIMESTAMP", timestamp)
            .header("X-RINGEX-SIGNATURE", sign(key.secret(), timestamp + "POST/api/v1/orders" + body))
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
        inFlight++;
        http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).whenComplete((response, failure) ->
            answers.add(new long[]{ id, System.nanoTime(), null == failure ? outcome(response) : -1 }));
        return true;
    }

    /** 1: the engine's report; 2: refused THROTTLED; 0: refused otherwise; -1: no answer. */
    private static long outcome(final HttpResponse<String> response)
    {
        final int status = response.statusCode();
        if (status == 200 || status == 422 && response.body().contains("\"executionReport\""))
        {
            return 1;
        }
        return status == 429 && response.body().contains("THROTTLED") ? 2 : 0;
    }

    public int poll()
    {
        int work = 0;
        long[] answer;
        while (null != (answer = answers.poll()))
        {
            inFlight--;
            work++;
            if (answer[2] == 1)
            {
                reports.onFirstReport(answer[0], answer[1]);
            }
            else
            {
                failures += answer[2] < 0 ? 1 : 0;
                reports.onReject(answer[0], answer[2] == 2);
            }
        }
        return work;
    }

    /** @return requests that got no HTTP answer (connection refused or reset). */
    long failures()
    {
        return failures;
    }

    private static String sign(final byte[] secret, final String payload)
    {
        try
        {
            final Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(payload.getBytes(StandardCharsets.UTF_8)));
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    public void close()
    {
        // java.net.http's client holds no session with the venue: nothing to log out of.
    }
}
