package io.ringex.gateway.web;

import io.ringex.testing.Await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A test client of the REST and WebSocket front end as any language's would be: java.net.http, signing each request
 * with {@link RequestAuthenticator#sign} (what docs/client.md tells clients to compute).
 */
final class SignedWebClient
{
    private final HttpClient http = HttpClient.newHttpClient();
    private final String base;
    private final String keyId;
    private final byte[] secret;

    SignedWebClient(final int port, final String keyId, final byte[] secret)
    {
        this.base = "http://localhost:" + port;
        this.keyId = keyId;
        this.secret = secret;
    }

    HttpResponse<String> send(final String method, final String pathAndQuery, final String body)
    {
        return send(signed(method, pathAndQuery, body, System.currentTimeMillis()));
    }

    HttpRequest signed(final String method, final String pathAndQuery, final String body, final long timestampMs)
    {
        final String timestamp = Long.toString(timestampMs);
        final byte[] bytes = null == body ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        final String signature = RequestAuthenticator.sign(secret, timestamp, method, pathAndQuery, bytes);
        return request(method, pathAndQuery, body)
            .header(RequestAuthenticator.KEY_HEADER, keyId)
            .header(RequestAuthenticator.TIMESTAMP_HEADER, timestamp)
            .header(RequestAuthenticator.SIGNATURE_HEADER, signature)
            .build();
    }

    HttpRequest.Builder request(final String method, final String pathAndQuery, final String body)
    {
        final HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + pathAndQuery));
        if (null != body)
        {
            builder.header("Content-Type", "application/json");
        }
        return builder.method(method, null == body ? HttpRequest.BodyPublishers.noBody() :
            HttpRequest.BodyPublishers.ofString(body));
    }

    HttpResponse<String> send(final HttpRequest request)
    {
        try
        {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException(ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    /** The key's user stream, signed in the query; its text frames collect in {@code events}. */
    Stream userStream()
    {
        return stream(WebRequestHandler.USER_STREAM);
    }

    /** A market-data stream, signed in the query. */
    Stream marketStream()
    {
        return stream(WebRequestHandler.MARKET_STREAM);
    }

    private Stream stream(final String path)
    {
        final String timestamp = Long.toString(System.currentTimeMillis());
        final String signature = RequestAuthenticator.sign(secret, timestamp, "GET", path, new byte[0]);
        final Stream stream = new Stream();
        stream.socket = http.newWebSocketBuilder().buildAsync(URI.create(base.replace("http:", "ws:") +
            path + "?key=" + keyId + "&timestamp=" + timestamp + "&signature=" + signature), stream).join();
        return stream;
    }

    static final class Stream implements WebSocket.Listener
    {
        final CopyOnWriteArrayList<String> events = new CopyOnWriteArrayList<>();
        private final StringBuilder partial = new StringBuilder();
        volatile String closeReason;
        WebSocket socket;

        public CompletionStage<?> onText(final WebSocket webSocket, final CharSequence data, final boolean last)
        {
            partial.append(data);
            if (last)
            {
                events.add(partial.toString());
                partial.setLength(0);
            }
            webSocket.request(1);
            return null;
        }

        public CompletionStage<?> onClose(final WebSocket webSocket, final int statusCode, final String reason)
        {
            closeReason = statusCode + " " + reason;
            return null;
        }

        void send(final String text)
        {
            socket.sendText(text, true).join();
        }

        boolean has(final String... fragments)
        {
            return null != find(fragments);
        }

        /** @return the first event holding every fragment, once there is one. */
        String await(final String what, final String... fragments)
        {
            Await.until(what, () -> has(fragments));
            return find(fragments);
        }

        /** @return the first event holding every fragment, or null. */
        String find(final String... fragments)
        {
            for (final String event : events)
            {
                boolean all = true;
                for (final String fragment : fragments)
                {
                    all &= event.contains(fragment);
                }
                if (all)
                {
                    return event;
                }
            }
            return null;
        }
    }
}
