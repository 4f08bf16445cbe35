package io.ringex.risk.web;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses request bodies larger than {@code ringex.risk.http.max-request-body} (16 KB) with 413 and a JSON error,
 * before authentication and before anything parses them. A body that declares its length is judged by the
 * declaration, unread. A chunked body (no Content-Length) is read here up to one byte past the limit: over it, 413;
 * within it, the request goes on with the bytes already read. Form posts ({@code application/x-www-form-urlencoded},
 * multipart) are parsed by Tomcat itself, not through this stream, so a chunked form is left to Tomcat's own limit
 * ({@code server.tomcat.max-http-form-post-size}, set to the same value in application.yml).
 * <p>
 * The largest body the API takes is a SetLimits with its per-instrument overrides, well under a kilobyte per
 * instrument; 16 KB leaves room and bounds what an anonymous caller can make the service hold per request.
 */
final class RequestBodyLimitFilter extends OncePerRequestFilter
{
    private final long maxBytes;
    private final byte[] refusal;

    /**
     * @param maxBytes the largest body accepted.
     */
    RequestBodyLimitFilter(final long maxBytes)
    {
        this.maxBytes = maxBytes;
        this.refusal = ("{\"error\":\"PAYLOAD_TOO_LARGE\",\"message\":\"The request body is larger than " + maxBytes +
            " bytes (ringex.risk.http.max-request-body)\"}").getBytes(StandardCharsets.UTF_8);
    }

    @Override
    protected void doFilterInternal(
        final HttpServletRequest request,
        final HttpServletResponse response,
        final FilterChain chain) throws ServletException, IOException
    {
        final long declared = request.getContentLengthLong();
        if (declared > maxBytes)
        {
            refuse(response);
            return;
        }
        if (declared < 0 && request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null && !isForm(request))
        {
            final byte[] body = readAtMost(request.getInputStream(), maxBytes + 1);
            if (body.length > maxBytes)
            {
                refuse(response);
                return;
            }
            chain.doFilter(new ReadBody(request, body), response);
            return;
        }
        chain.doFilter(request, response);
    }

    private void refuse(final HttpServletResponse response) throws IOException
    {
        response.setStatus(HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        // the rest of the body is not read: do not keep the connection for the next request
        response.setHeader(HttpHeaders.CONNECTION, "close");
        response.setContentLength(refusal.length);
        response.getOutputStream().write(refusal);
    }

    private static boolean isForm(final HttpServletRequest request)
    {
        final String type = request.getContentType();
        if (type == null)
        {
            return false;
        }
        final String lower = type.toLowerCase(Locale.ROOT);
        return lower.startsWith(MediaType.APPLICATION_FORM_URLENCODED_VALUE) ||
            lower.startsWith("multipart/");
    }

    private static byte[] readAtMost(final InputStream in, final long limit) throws IOException
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final byte[] chunk = new byte[4096];
        int n;
        while (out.size() < limit && (n = in.read(chunk, 0, (int)Math.min(chunk.length, limit - out.size()))) > 0)
        {
            out.write(chunk, 0, n);
        }
        return out.toByteArray();
    }

    /** The request with its body already read into memory. */
    private static final class ReadBody extends HttpServletRequestWrapper
    {
        private final byte[] body;

        ReadBody(final HttpServletRequest request, final byte[] body)
        {
            super(request);
            this.body = body;
        }

        @Override
        public int getContentLength()
        {
            return body.length;
        }

        @Override
        public long getContentLengthLong()
        {
            return body.length;
        }

        @Override
        public ServletInputStream getInputStream()
        {
            final ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream()
            {
                @Override
                public int read()
                {
                    return in.read();
                }

                @Override
                public int read(final byte[] b, final int off, final int len)
                {
                    return in.read(b, off, len);
                }

                @Override
                public boolean isFinished()
                {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady()
                {
                    return true;
                }

                @Override
                public void setReadListener(final ReadListener listener)
                {
                    throw new IllegalStateException("the body was read already; it is not read asynchronously");
                }
            };
        }

        @Override
        public BufferedReader getReader()
        {
            final String encoding = getCharacterEncoding();
            final Charset charset = encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding);
            return new BufferedReader(new InputStreamReader(getInputStream(), charset));
        }
    }
}
