package io.ringex.risk.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/**
 * HTTP/1.1 over a plain socket, for what a real client may send and java.net.http will not: any Host header, a
 * chunked body of any size. One request per connection ({@code Connection: close}); the answer is read to the end.
 */
final class RawHttp
{
    private RawHttp()
    {
    }

    /**
     * An answer.
     *
     * @param status  the status code.
     * @param headers the header lines, as sent.
     * @param body    the body, de-chunked, as UTF-8 text.
     */
    record Response(int status, List<String> headers, String body)
    {
        /**
         * @param name a header name.
         * @return every value of that header, in order.
         */
        List<String> all(final String name)
        {
            final List<String> values = new ArrayList<>();
            final String prefix = name.toLowerCase(Locale.ROOT) + ":";
            for (final String line : headers)
            {
                if (line.toLowerCase(Locale.ROOT).startsWith(prefix))
                {
                    values.add(line.substring(prefix.length()).trim());
                }
            }
            return values;
        }

        /**
         * @param name a header name.
         * @return its first value, or null.
         */
        String header(final String name)
        {
            final List<String> values = all(name);
            return values.isEmpty() ? null : values.get(0);
        }

        /**
         * @param name a cookie name.
         * @return the whole Set-Cookie value that sets it, or null.
         */
        String setCookie(final String name)
        {
            for (final String value : all("Set-Cookie"))
            {
                if (value.startsWith(name + "="))
                {
                    return value;
                }
            }
            return null;
        }

        /**
         * @param name a cookie name.
         * @return the value it is set to, or null.
         */
        String cookieValue(final String name)
        {
            final String cookie = setCookie(name);
            if (cookie == null)
            {
                return null;
            }
            final int end = cookie.indexOf(';');
            return cookie.substring(name.length() + 1, end < 0 ? cookie.length() : end);
        }

        @Override
        public String toString()
        {
            return status + " " + headers + " " + body;
        }
    }

    /**
     * @param user     user name.
     * @param password password.
     * @return an Authorization header line for HTTP Basic.
     */
    static String basic(final String user, final String password)
    {
        return "Authorization: Basic " +
            Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * @param port    the service's port.
     * @param request request line and header lines ({@code Host} is the caller's to give), without the blank line.
     * @param body    the body, sent as is after the headers (the caller states its length or chunking), or null.
     * @return the answer.
     * @throws IOException when the connection fails before an answer.
     */
    static Response send(final int port, final List<String> request, final byte[] body) throws IOException
    {
        try (Socket socket = new Socket("localhost", port))
        {
            socket.setSoTimeout(20_000);
            final OutputStream out = socket.getOutputStream();
            final StringBuilder head = new StringBuilder();
            for (final String line : request)
            {
                head.append(line).append("\r\n");
            }
            head.append("Connection: close\r\n\r\n");
            out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            try
            {
                if (body != null)
                {
                    out.write(body);
                }
                out.flush();
            }
            catch (final IOException ex)
            {
                // the server may answer and close before it has read the whole body (413): read what it said
            }
            return read(socket.getInputStream());
        }
    }

    /**
     * @param data the bytes to send.
     * @param chunk bytes per chunk.
     * @return the bytes in chunked transfer coding, terminated.
     */
    static byte[] chunked(final byte[] data, final int chunk)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int offset = 0; offset < data.length; offset += chunk)
        {
            final int length = Math.min(chunk, data.length - offset);
            out.writeBytes((Integer.toHexString(length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(data, offset, length);
            out.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        }
        out.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        return out.toByteArray();
    }

    private static Response read(final InputStream in) throws IOException
    {
        final byte[] all = in.readAllBytes();
        final String text = new String(all, StandardCharsets.ISO_8859_1);
        final int split = text.indexOf("\r\n\r\n");
        if (split < 0)
        {
            throw new IOException("no complete answer: '" + text + "'");
        }
        final String[] lines = text.substring(0, split).split("\r\n");
        final int status = Integer.parseInt(lines[0].split(" ")[1]);
        final List<String> headers = List.of(lines).subList(1, lines.length);
        byte[] body = new byte[all.length - split - 4];
        System.arraycopy(all, split + 4, body, 0, body.length);
        final Response partial = new Response(status, headers, "");
        if ("chunked".equalsIgnoreCase(partial.header("Transfer-Encoding")))
        {
            body = dechunk(body);
        }
        return new Response(status, headers, new String(body, StandardCharsets.UTF_8));
    }

    private static byte[] dechunk(final byte[] chunked)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        int at = 0;
        while (at < chunked.length)
        {
            int eol = at;
            while (eol + 1 < chunked.length && !(chunked[eol] == '\r' && chunked[eol + 1] == '\n'))
            {
                eol++;
            }
            final String size = new String(chunked, at, eol - at, StandardCharsets.ISO_8859_1).split(";")[0].trim();
            final int length = Integer.parseInt(size, 16);
            if (length == 0)
            {
                break;
            }
            out.write(chunked, eol + 2, length);
            at = eol + 2 + length + 2;
        }
        return out.toByteArray();
    }
}
