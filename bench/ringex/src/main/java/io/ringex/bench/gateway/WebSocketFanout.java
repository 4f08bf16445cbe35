package io.ringex.bench.gateway;

import org.HdrHistogram.Histogram;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Market-data fan-out over the gateway's WebSocket front end: N subscribers, each its own connection to
 * {@code /ws/v1/market} signed with one read key, subscribed to a symbol's trades; for {@code seconds} it records, per
 * trade received, the time from the engine's trade time ({@code timeNs}, the venue's wall clock on this host) to its
 * arrival at the subscriber. Prints one {@code RESULT} line: subscribers connected, trades received, their latency
 * percentiles, and subscribers the gateway closed.
 * <p>
 * {@code java ... WebSocketFanout URL KEY_ID SECRET_BASE64 SYMBOL SUBSCRIBERS SECONDS}
 */
public final class WebSocketFanout
{
    private static final Pattern TIME = Pattern.compile("\"timeNs\":(\\d+)");

    private WebSocketFanout()
    {
    }

    /**
     * @param args URL KEY_ID SECRET_BASE64 SYMBOL SUBSCRIBERS SECONDS.
     * @throws Exception on set-up failure.
     */
    public static void main(final String[] args) throws Exception
    {
        final String url = args[0].replace("http://", "ws://");
        final String keyId = args[1];
        final byte[] secret = Base64.getDecoder().decode(args[2]);
        final String symbol = args[3];
        final int subscribers = Integer.parseInt(args[4]);
        final int seconds = Integer.parseInt(args[5]);

        final Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        final AtomicLong closed = new AtomicLong();
        final List<WebSocket> sockets = new ArrayList<>();
        final HttpClient http = HttpClient.newHttpClient();
        final AtomicBoolean measuring = new AtomicBoolean();
        for (int i = 0; i < subscribers; i++)
        {
            final String timestamp = Long.toString(System.currentTimeMillis());
            final String signature = sign(secret, timestamp + "GET/ws/v1/market");
            sockets.add(http.newWebSocketBuilder().buildAsync(URI.create(url + "/ws/v1/market?key=" + keyId +
                "&timestamp=" + timestamp + "&signature=" + signature), new WebSocket.Listener()
                {
                    private final StringBuilder partial = new StringBuilder();

                    public CompletionStage<?> onText(
                        final WebSocket socket, final CharSequence data, final boolean last)
                    {
                        partial.append(data);
                        if (last)
                        {
                            onMessage(partial);
                            partial.setLength(0);
                        }
                        socket.request(1);
                        return null;
                    }

                    private void onMessage(final CharSequence message)
                    {
                        final Instant now = Instant.now();
                        final long nowNs = now.getEpochSecond() * 1_000_000_000L + now.getNano();
                        if (!measuring.get() || !message.toString().startsWith("{\"type\":\"trades\""))
                        {
                            return;
                        }
                        final Matcher time = TIME.matcher(message);
                        synchronized (latency)
                        {
                            while (time.find())
                            {
                                latency.recordValue(Math.min(latency.getHighestTrackableValue(),
                                    Math.max(1, nowNs - Long.parseLong(time.group(1)))));
                            }
                        }
                    }

                    public CompletionStage<?> onClose(final WebSocket socket, final int status, final String reason)
                    {
                        closed.incrementAndGet();
                        return null;
                    }
                }).join());
        }
        for (final WebSocket socket : sockets)
        {
            socket.sendText("{\"op\":\"subscribe\",\"channel\":\"trades\",\"symbol\":\"" + symbol + "\"}", true);
        }
        Thread.sleep(1000);
        measuring.set(true);
        Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
        measuring.set(false);
        synchronized (latency)
        {
            System.out.printf("RESULT subscribers=%d tradesReceived=%d subP50us=%.1f subP99us=%.1f subP999us=%.1f " +
                "subMaxus=%.1f closedByGateway=%d%n", subscribers, latency.getTotalCount(),
                latency.getValueAtPercentile(50) / 1e3, latency.getValueAtPercentile(99) / 1e3,
                latency.getValueAtPercentile(99.9) / 1e3, latency.getMaxValue() / 1e3, closed.get());
        }
        for (final WebSocket socket : sockets)
        {
            socket.abort();
        }
        System.exit(0);
    }

    private static String sign(final byte[] secret, final String payload) throws Exception
    {
        final Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret, "HmacSHA256"));
        return HexFormat.of().formatHex(mac.doFinal(payload.getBytes(StandardCharsets.UTF_8)));
    }
}
