package io.ringex.gateway.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * A bare-socket FIX 4.4 client for the one thing QuickFIX/J will not do on purpose: send an application message with
 * PossDupFlag=Y and an already-used MsgSeqNum (QuickFIX/J's {@code Session.send} strips PossDupFlag). Messages are
 * written as {@code tag=value|...} with '|' standing for SOH; BodyLength and CheckSum are computed here.
 */
public final class RawFixClient implements AutoCloseable
{
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HH:mm:ss.SSS");

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final String senderCompId;
    private final String targetCompId;
    private final StringBuilder pending = new StringBuilder();
    private final List<String> received = new ArrayList<>();

    /**
     * @param port         acceptor port on localhost.
     * @param senderCompId ours.
     * @param targetCompId theirs.
     * @throws IOException if it cannot connect.
     */
    public RawFixClient(final int port, final String senderCompId, final String targetCompId) throws IOException
    {
        this("localhost", port, senderCompId, targetCompId);
    }

    /**
     * @param host         the acceptor's host (the connection comes from this machine's address towards it).
     * @param port         acceptor port.
     * @param senderCompId ours.
     * @param targetCompId theirs.
     * @throws IOException if it cannot connect.
     */
    public RawFixClient(final String host, final int port, final String senderCompId, final String targetCompId)
        throws IOException
    {
        socket = new Socket(host, port);
        socket.setSoTimeout(50);
        in = socket.getInputStream();
        out = socket.getOutputStream();
        this.senderCompId = senderCompId;
        this.targetCompId = targetCompId;
    }

    /**
     * @return UTC now as a FIX timestamp.
     */
    public static String now()
    {
        return TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
    }

    /**
     * Send a message.
     *
     * @param msgType     MsgType.
     * @param seqNum      MsgSeqNum.
     * @param extraHeader more header fields, '|' separated and terminated (may be empty).
     * @param body        body fields, '|' separated and terminated.
     * @throws IOException on socket errors.
     */
    public void send(final String msgType, final int seqNum, final String extraHeader, final String body)
        throws IOException
    {
        final String afterLength = ("35=" + msgType + "|49=" + senderCompId + "|56=" + targetCompId + "|34=" + seqNum +
            "|52=" + now() + "|" + extraHeader + body).replace('|', '\u0001');
        final String head = "8=FIX.4.4\u00019=" + afterLength.length() + "\u0001" + afterLength;
        int sum = 0;
        for (final byte b : head.getBytes(StandardCharsets.US_ASCII))
        {
            sum += b & 0xFF;
        }
        final String message = head + "10=" + String.format("%03d", sum % 256) + "\u0001";
        out.write(message.getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /**
     * Read whatever has arrived.
     *
     * @return every complete message received so far, '|' for SOH.
     * @throws IOException on socket errors.
     */
    public List<String> poll() throws IOException
    {
        final byte[] chunk = new byte[4096];
        try
        {
            final int read = in.read(chunk);
            if (read > 0)
            {
                pending.append(new String(chunk, 0, read, StandardCharsets.US_ASCII));
            }
        }
        catch (final SocketTimeoutException ignore)
        {
            // nothing this time
        }
        int end;
        while ((end = indexOfChecksumEnd()) > 0)
        {
            received.add(pending.substring(0, end).replace('\u0001', '|'));
            pending.delete(0, end);
        }
        return received;
    }

    private int indexOfChecksumEnd()
    {
        final int checksum = pending.indexOf("\u000110=");
        if (checksum < 0)
        {
            return -1;
        }
        final int soh = pending.indexOf("\u0001", checksum + 1);
        return soh < 0 ? -1 : soh + 1;
    }

    /**
     * {@inheritDoc}
     */
    public void close() throws IOException
    {
        socket.close();
    }
}
