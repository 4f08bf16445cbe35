package io.ringex.gateway.fix.codecs.builder;

import uk.co.real_logic.artio.builder.Encoder;
import uk.co.real_logic.artio.util.MutableAsciiBuffer;

/**
 * OrderMassCancelReport (r) as Ringex sends it: Artio's generated encoder always encodes the Instrument and
 * UnderlyingInstrument components, and with its codec validation on it refuses them without their required Symbol
 * and UnderlyingSymbol, although FIX 4.4 makes both components optional on r. A mass cancel of a whole account has no
 * instrument to name, so this encoder writes the body itself: ClOrdID(11), OrderID(37), MassCancelRequestType(530),
 * MassCancelResponse(531), TotalAffectedOrders(533), Symbol(55) only when there is one, TransactTime(60) and Text(58);
 * the generated header and trailer (BodyLength, sequence number, CompIDs, CheckSum) are Artio's, as for every other
 * message. It lives in the generated codecs' package because the header and trailer methods it needs are
 * package-private there.
 * <p>
 * Thread safety: single-threaded, reused; values are copied in, nothing is allocated per message.
 */
public final class RingexMassCancelReportEncoder extends OrderMassCancelReportEncoder
{
    private static final byte[] CL_ORD_ID = "11=".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] ORDER_ID = "37=".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] REQUEST_TYPE = "530=".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] RESPONSE = "531=".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] TOTAL_AFFECTED = "533=".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] SYMBOL = "55=".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] TRANSACT_TIME = "60=".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] TEXT = "58=".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final StringBuilder clOrdIdValue = new StringBuilder(24);
    private final StringBuilder orderIdValue = new StringBuilder(32);
    private final StringBuilder symbolValue = new StringBuilder(24);
    private final StringBuilder textValue = new StringBuilder(64);
    private final byte[] transactTimeValue = new byte[32];
    private int transactTimeLength;
    private char requestType;
    private char response;
    private int totalAffected;

    /**
     * Set the report's values; the previous ones are dropped.
     *
     * @param clOrdId       ClOrdID(11) of the OrderMassCancelRequest, printable ASCII; may be empty.
     * @param orderId       OrderID(37), printable ASCII, not empty.
     * @param requestType   MassCancelRequestType(530): '1' (a security) or '7' (all orders).
     * @param response      MassCancelResponse(531): '0' rejected, or the request type accepted.
     * @param totalAffected TotalAffectedOrders(533).
     * @param symbol        Symbol(55), or empty for none.
     * @param transactTime  a UTCTimestamp, its bytes.
     * @param timeLength    its length.
     * @param text          Text(58), or empty for none.
     * @return this.
     */
    public RingexMassCancelReportEncoder report(
        final CharSequence clOrdId,
        final CharSequence orderId,
        final char requestType,
        final char response,
        final int totalAffected,
        final CharSequence symbol,
        final byte[] transactTime,
        final int timeLength,
        final CharSequence text)
    {
        clOrdIdValue.setLength(0);
        clOrdIdValue.append(clOrdId);
        orderIdValue.setLength(0);
        orderIdValue.append(orderId);
        this.requestType = requestType;
        this.response = response;
        this.totalAffected = totalAffected;
        symbolValue.setLength(0);
        symbolValue.append(symbol);
        transactTimeLength = Math.min(timeLength, transactTimeValue.length);
        System.arraycopy(transactTime, 0, transactTimeValue, 0, transactTimeLength);
        textValue.setLength(0);
        textValue.append(text);
        return this;
    }

    /**
     * {@inheritDoc}
     */
    public long encode(final MutableAsciiBuffer buffer, final int offset)
    {
        final long startMessageResult = header().startMessage(buffer, offset);
        final int bodyStart = Encoder.offset(startMessageResult);
        int position = bodyStart + Encoder.length(startMessageResult);
        if (clOrdIdValue.length() > 0)
        {
            position = putText(buffer, position, CL_ORD_ID, clOrdIdValue);
        }
        position = putText(buffer, position, ORDER_ID, orderIdValue);
        position = putChar(buffer, position, REQUEST_TYPE, requestType);
        position = putChar(buffer, position, RESPONSE, response);
        buffer.putBytes(position, TOTAL_AFFECTED);
        position += TOTAL_AFFECTED.length;
        position += buffer.putIntAscii(position, totalAffected);
        buffer.putSeparator(position++);
        if (symbolValue.length() > 0)
        {
            position = putText(buffer, position, SYMBOL, symbolValue);
        }
        buffer.putBytes(position, TRANSACT_TIME);
        position += TRANSACT_TIME.length;
        buffer.putBytes(position, transactTimeValue, 0, transactTimeLength);
        position += transactTimeLength;
        buffer.putSeparator(position++);
        if (textValue.length() > 0)
        {
            position = putText(buffer, position, TEXT, textValue);
        }
        position += trailer().startTrailer(buffer, position);
        final int messageStart = header().finishHeader(buffer, bodyStart, position - bodyStart);
        return trailer().finishMessage(buffer, messageStart, position);
    }

    private static int putText(
        final MutableAsciiBuffer buffer, final int position, final byte[] tag, final CharSequence value)
    {
        buffer.putBytes(position, tag);
        int at = position + tag.length;
        at += buffer.putStringWithoutLengthAscii(at, value);
        buffer.putSeparator(at);
        return at + 1;
    }

    private static int putChar(final MutableAsciiBuffer buffer, final int position, final byte[] tag, final char value)
    {
        buffer.putBytes(position, tag);
        final int at = position + tag.length;
        buffer.putByte(at, (byte)value);
        buffer.putSeparator(at + 1);
        return at + 2;
    }
}
