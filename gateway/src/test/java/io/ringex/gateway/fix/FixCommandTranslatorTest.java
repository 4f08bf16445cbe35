package io.ringex.gateway.fix;

import io.ringex.gateway.InstrumentDirectory;
import io.ringex.gateway.auth.User;
import io.ringex.protocol.CredentialHash;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.CancelOrderDecoder;
import io.ringex.protocol.codecs.MassCancelDecoder;
import io.ringex.protocol.codecs.MassCancelScope;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.NewOrderDecoder;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.ReplaceOrderDecoder;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import io.ringex.protocol.MessageValidator;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class FixCommandTranslatorTest
{
    static final User USER = new User("alice", CredentialHash.hash("pw".toCharArray(), 1), new long[]{ 100, 101 },
        "ALICE", "RINGEX");
    static final long SESSION_ID = 42L << 32 | 7;

    private final FixCommandTranslator translator = new FixCommandTranslator();
    private final InstrumentDirectory instruments = new InstrumentDirectory();
    private final UnsafeBuffer out = new UnsafeBuffer(new byte[256]);
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();

    FixCommandTranslatorTest()
    {
        instruments.put(1, "BTC-USD", 2);
        instruments.put(2, "ETH-USD", 4);
        instruments.put(3, "WHOLE", 0);
    }

    private RejectReason translate(final char msgType, final String fields)
    {
        return translator.translate(FixMessages.scan("35=" + msgType + "|" + fields), msgType, USER, SESSION_ID,
            instruments, out);
    }

    private NewOrderDecoder newOrder()
    {
        header.wrap(out, 0);
        assertEquals(NewOrderDecoder.TEMPLATE_ID, header.templateId());
        assertEquals(RejectReason.NONE, new MessageValidator(1024).validate(out, 0, translator.encodedLength()));
        return new NewOrderDecoder().wrap(out, MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(),
            header.version());
    }

    @Test
    void newOrderSingleBecomesNewOrder()
    {
        assertEquals(RejectReason.NONE,
            translate('D', "11=A-1|1=101|55=BTC-USD|54=2|40=2|59=1|44=101.25|38=10|18=6|60=x|"));
        final NewOrderDecoder d = newOrder();
        assertEquals(SESSION_ID, d.sessionId());
        assertEquals(101, d.accountId());
        assertEquals("A-1", d.clientOrderId());
        assertEquals(1, d.instrumentId());
        assertEquals(Side.SELL, d.side());
        assertEquals(OrderType.LIMIT, d.orderType());
        assertEquals(TimeInForce.GTC, d.timeInForce());
        assertEquals(BooleanType.TRUE, d.postOnly());
        assertEquals(10125, d.price());
        assertEquals(10, d.quantity());
    }

    @Test
    void defaultsAccountAndTimeInForce()
    {
        assertEquals(RejectReason.NONE, translate('D', "11=A|55=BTC-USD|54=1|40=1|38=3|"));
        final NewOrderDecoder d = newOrder();
        assertEquals(100, d.accountId());
        assertEquals(TimeInForce.DAY, d.timeInForce());
        assertEquals(OrderType.MARKET, d.orderType());
        assertEquals(0, d.price());
        assertEquals(BooleanType.FALSE, d.postOnly());
    }

    @ParameterizedTest
    @CsvSource({
        "BTC-USD, 101.25, 10125",
        "BTC-USD, 101.250000, 10125",
        "BTC-USD, 0.01, 1",
        "BTC-USD, 7, 700",
        "ETH-USD, 2000.1234, 20001234",
        "ETH-USD, 0.0001, 1",
        "WHOLE, 12, 12",
        "WHOLE, 12.000, 12" })
    void pricesAreExactAtTheInstrumentScale(final String symbol, final String price, final long expected)
    {
        assertEquals(RejectReason.NONE, translate('D', "11=A|55=" + symbol + "|54=1|40=2|38=1|44=" + price + "|"));
        assertEquals(expected, newOrder().price());
    }

    @ParameterizedTest
    @CsvSource({
        "BTC-USD, 101.255",
        "BTC-USD, 0.001",
        "ETH-USD, 1.00001",
        "WHOLE, 12.5",
        "BTC-USD, 0",
        "BTC-USD, -1.00",
        "BTC-USD, 1e3",
        "BTC-USD, 1.2.3",
        "BTC-USD, ''",
        "BTC-USD, 99999999999999999999",
        "BTC-USD, NaN" })
    void pricesThatAreNotRepresentableAreRejectedNotRounded(final String symbol, final String price)
    {
        assertEquals(RejectReason.INVALID_PRICE,
            translate('D', "11=A|55=" + symbol + "|54=1|40=2|38=1|44=" + price + "|"));
        assertFalse(translator.text().isEmpty());
    }

    @ParameterizedTest
    @CsvSource({
        "'11=A|55=BTC-USD|54=1|40=2|38=1|', INVALID_PRICE",
        "'11=A|55=BTC-USD|54=1|40=2|38=1.5|44=1|', INVALID_QUANTITY",
        "'11=A|55=BTC-USD|54=1|40=2|38=0|44=1|', INVALID_QUANTITY",
        "'11=A|55=BTC-USD|54=1|40=2|44=1|', INVALID_QUANTITY",
        "'11=ABCDEFGHIJKLMNOPQRSTU|55=BTC-USD|54=1|40=2|38=1|44=1|', MALFORMED",
        "'11=|55=BTC-USD|54=1|40=2|38=1|44=1|', MALFORMED",
        "'55=BTC-USD|54=1|40=2|38=1|44=1|', MALFORMED",
        "'11=A|55=DOGE|54=1|40=2|38=1|44=1|', UNKNOWN_INSTRUMENT",
        "'11=A|54=1|40=2|38=1|44=1|', UNKNOWN_INSTRUMENT",
        "'11=A|55=BTC-USD|54=5|40=2|38=1|44=1|', MALFORMED",
        "'11=A|55=BTC-USD|54=1|40=P|38=1|44=1|', INVALID_ORDER_TYPE",
        "'11=A|55=BTC-USD|54=1|40=2|59=2|38=1|44=1|', INVALID_ORDER_TYPE",
        "'11=A|55=BTC-USD|54=1|40=3|38=1|', INVALID_STOP_PRICE",
        "'11=A|55=BTC-USD|54=1|40=4|38=1|99=101|', INVALID_PRICE",
        "'11=A|55=BTC-USD|54=1|40=2|38=1|44=1|99=2|', INVALID_STOP_PRICE",
        "'11=A|55=BTC-USD|54=1|40=3|38=1|99=1.001|', INVALID_STOP_PRICE",
        "'11=A|55=BTC-USD|54=1|40=2|59=6|38=1|44=1|', INVALID_EXPIRE_TIME",
        "'11=A|55=BTC-USD|54=1|40=2|59=6|38=1|44=1|126=20300101-00:00:00|432=20300101|', INVALID_EXPIRE_TIME",
        "'11=A|55=BTC-USD|54=1|40=2|59=1|38=1|44=1|126=20300101-00:00:00|', INVALID_EXPIRE_TIME",
        "'11=A|55=BTC-USD|54=1|40=2|59=6|38=1|44=1|126=2030-01-01|', INVALID_EXPIRE_TIME",
        "'11=A|55=BTC-USD|54=1|40=2|59=6|38=1|44=1|432=20300231|', INVALID_EXPIRE_TIME",
        "'11=A|55=BTC-USD|54=1|40=2|38=10|44=1|111=0|', INVALID_DISPLAY_QUANTITY",
        "'11=A|55=BTC-USD|54=1|40=2|38=10|44=1|111=2|1138=3|', INVALID_DISPLAY_QUANTITY",
        "'11=A|55=BTC-USD|54=1|40=2|38=10|44=1|110=1.5|', INVALID_MIN_QUANTITY",
        "'11=A|1=200|55=BTC-USD|54=1|40=2|38=1|44=1|', NOT_AUTHORISED",
        "'11=A|1=ACC|55=BTC-USD|54=1|40=2|38=1|44=1|', UNKNOWN_ACCOUNT",
        "'11=A|55=BTC-USD|54=1|40=2|38=1|44=1', MALFORMED",
        "'11=A|55=BTC-USD|54=1|40=2|38=1|38=1000|44=1|', MALFORMED",
        "'11=A|55=BTC-USD|54=1|40=2|38=1|44=1|44=2|', MALFORMED",
        "'11=A|11=B|55=BTC-USD|54=1|40=2|38=1|44=1|', MALFORMED",
        "'11=A|55=BTC-USD|54=1|40=2|38=+1|44=1|', INVALID_QUANTITY",
        "'11=A|55=BTC-USD|54=1|40=2|38=1|44=+1|', INVALID_PRICE",
        "'11=A\u0002|55=BTC-USD|54=1|40=2|38=1|44=1|', MALFORMED",
        "'11=A B|55=BTC-USD|54=1|40=2|38=1|44=1|', MALFORMED",
        "'11=\u00e9|55=BTC-USD|54=1|40=2|38=1|44=1|', MALFORMED" })
    void badNewOrdersAreRejectedWithAReason(final String fields, final RejectReason expected)
    {
        assertEquals(expected, translate('D', fields));
    }

    @Test
    void stopIcebergMinimumAndGtdTermsBecomeTheNewOrdersVersionTwoFields()
    {
        assertEquals(RejectReason.NONE, translate('D', "11=S|55=BTC-USD|54=1|40=4|44=101.50|99=101.25|38=10|"));
        NewOrderDecoder d = newOrder();
        assertEquals(OrderType.STOP_LIMIT, d.orderType());
        assertEquals(10_150, d.price());
        assertEquals(10_125, d.stopPrice());

        assertEquals(RejectReason.NONE, translate('D', "11=S|55=BTC-USD|54=2|40=3|99=99|38=10|44=5|"));
        d = newOrder();
        assertEquals(OrderType.STOP, d.orderType());
        assertEquals(0, d.price(), "a stop's Price is not used");
        assertEquals(9_900, d.stopPrice());

        assertEquals(RejectReason.NONE, translate('D', "11=I|55=BTC-USD|54=2|40=2|44=100|38=100|111=20|110=30|"));
        d = newOrder();
        assertEquals(20, d.displayQuantity());
        assertEquals(30, d.minQuantity());
        assertEquals(RejectReason.NONE, translate('D', "11=I|55=BTC-USD|54=2|40=2|44=100|38=100|1138=25|"));
        assertEquals(25, newOrder().displayQuantity());

        assertEquals(RejectReason.NONE, translate('D',
            "11=G|55=BTC-USD|54=1|40=2|44=100|38=1|59=6|126=20300102-03:04:05.006|"));
        d = newOrder();
        assertEquals(TimeInForce.GTD, d.timeInForce());
        assertEquals(java.time.Instant.parse("2030-01-02T03:04:05.006Z").toEpochMilli() * 1_000_000L,
            d.expireTimeNs());
        assertEquals(RejectReason.NONE, translate('D', "11=G|55=BTC-USD|54=1|40=2|44=100|38=1|59=6|432=20300102|"));
        assertEquals(java.time.Instant.parse("2030-01-03T00:00:00Z").toEpochMilli() * 1_000_000L,
            newOrder().expireTimeNs(), "good through the whole of that UTC day");
        assertEquals(RejectReason.NONE, translate('D', "11=G|55=BTC-USD|54=1|40=2|44=100|38=1|59=6|432=20280229|"));
        assertEquals(java.time.Instant.parse("2028-03-01T00:00:00Z").toEpochMilli() * 1_000_000L,
            newOrder().expireTimeNs(), "a leap day");
    }

    @Test
    void aReplaceOfAStopMayLeaveThePriceOutAndMoveTheStopPrice()
    {
        assertEquals(RejectReason.NONE, translate('G', "11=R2|41=R1|55=BTC-USD|54=1|40=3|38=4|99=102|"));
        header.wrap(out, 0);
        final ReplaceOrderDecoder replace = new ReplaceOrderDecoder().wrap(out, 8, header.blockLength(),
            header.version());
        assertEquals(0, replace.price());
        assertEquals(10_200, replace.stopPrice());
        assertEquals(RejectReason.INVALID_PRICE, translate('G', "11=R2|41=R1|55=BTC-USD|54=1|40=4|38=4|99=102|"));
        assertEquals(RejectReason.INVALID_STOP_PRICE,
            translate('G', "11=R2|41=R1|55=BTC-USD|54=1|40=2|44=1|38=4|99=1|"));
    }

    @Test
    void clOrdIdOfExactlyTwentyCharactersIsAccepted()
    {
        assertEquals(RejectReason.NONE, translate('D', "11=ABCDEFGHIJKLMNOPQRST|55=BTC-USD|54=1|40=2|38=1|44=1|"));
        assertEquals("ABCDEFGHIJKLMNOPQRST", newOrder().clientOrderId());
    }

    @Test
    void cancelReplaceAndMassCancel()
    {
        assertEquals(RejectReason.NONE, translate('F', "11=C2|41=C1|37=77|55=BTC-USD|54=1|"));
        header.wrap(out, 0);
        final CancelOrderDecoder cancel = new CancelOrderDecoder().wrap(out, 8, header.blockLength(), 1);
        assertEquals("C2", cancel.clientOrderId());
        assertEquals("C1", cancel.origClientOrderId());
        assertEquals(77, cancel.orderId());
        assertEquals(SESSION_ID, cancel.sessionId());

        assertEquals(RejectReason.NONE, translate('F', "11=C2|41=C1|37=NONE|55=BTC-USD|54=1|"));
        assertEquals(0, new CancelOrderDecoder().wrap(out, 8, header.blockLength(), 1).orderId());

        assertEquals(RejectReason.NONE, translate('G', "11=R2|41=R1|55=ETH-USD|54=1|40=2|44=1.5|38=4|"));
        header.wrap(out, 0);
        final ReplaceOrderDecoder replace = new ReplaceOrderDecoder().wrap(out, 8, header.blockLength(), 1);
        assertEquals(15000, replace.price());
        assertEquals(4, replace.quantity());
        assertEquals(2, replace.instrumentId());

        assertEquals(RejectReason.INVALID_PRICE, translate('G', "11=R2|41=R1|55=ETH-USD|54=1|40=2|44=1.55555|38=4|"));
        assertEquals(RejectReason.MALFORMED, translate('F', "11=C2|55=BTC-USD|54=1|"));
        assertEquals(RejectReason.MALFORMED, translate('F', "11=C2|41=ABCDEFGHIJKLMNOPQRSTUV|55=BTC-USD|54=1|"));

        assertEquals(RejectReason.NONE, translate('q', "11=M1|530=7|"));
        header.wrap(out, 0);
        MassCancelDecoder mass = new MassCancelDecoder().wrap(out, 8, header.blockLength(), 1);
        assertEquals(MassCancelScope.ACCOUNT, mass.scope());
        assertEquals(BooleanType.FALSE, mass.cancelOnDisconnect());
        assertEquals(100, mass.accountId());

        assertEquals(RejectReason.NONE, translate('q', "11=M2|530=1|55=ETH-USD|1=101|"));
        mass = new MassCancelDecoder().wrap(out, 8, header.blockLength(), 1);
        assertEquals(MassCancelScope.INSTRUMENT, mass.scope());
        assertEquals(2, mass.instrumentId());
        assertEquals(101, mass.accountId());

        assertEquals(RejectReason.INVALID_ARGUMENT, translate('q', "11=M3|530=3|"));
        assertEquals(RejectReason.UNKNOWN_INSTRUMENT, translate('q', "11=M3|530=1|55=NOPE|"));
        assertEquals(RejectReason.UNKNOWN_MESSAGE, translate('?', "11=X|"));
    }

    @Test
    void orderIdIsUsedUpToTheInt64MaximumAndIgnoredBeyond()
    {
        assertEquals(RejectReason.NONE, translate('F', "11=C2|41=C1|37=9223372036854775807|55=BTC-USD|54=1|"));
        header.wrap(out, 0);
        assertEquals(Long.MAX_VALUE, new CancelOrderDecoder().wrap(out, 8, header.blockLength(), 1).orderId());
        assertEquals(RejectReason.NONE, translate('F', "11=C2|41=C1|37=9223372036854775808|55=BTC-USD|54=1|"));
        assertEquals(0, new CancelOrderDecoder().wrap(out, 8, header.blockLength(), 1).orderId());
        assertEquals(RejectReason.NONE, translate('F', "11=C2|41=C1|37=-5|55=BTC-USD|54=1|"));
        assertEquals(0, new CancelOrderDecoder().wrap(out, 8, header.blockLength(), 1).orderId());
        assertEquals(RejectReason.NONE, translate('F', "11=C2|41=C1|37=0000000000000000000000077|55=BTC-USD|54=1|"));
        assertEquals(77, new CancelOrderDecoder().wrap(out, 8, header.blockLength(), 1).orderId());
        assertEquals(RejectReason.MALFORMED, translate('F', "11=C2|41=C\u0001|55=BTC-USD|54=1|"));
        assertEquals(RejectReason.MALFORMED, translate('F', "11=C2|41=C\u007f|55=BTC-USD|54=1|"));
    }

    @Test
    void fieldScannerFindsFirstOccurrenceAndRefusesGarbage()
    {
        final FixFields fields = FixMessages.scan("8=FIX.4.4|9=5|35=D|11=first|11=second|44=1.50|10=000|");
        assertEquals("first", fields.value(FixFields.CL_ORD_ID).toString());
        assertEquals(FixFields.CL_ORD_ID, fields.repeatedTag(), "and the repeat is recorded");
        assertEquals(0, FixMessages.scan("35=D|11=a|").repeatedTag());
        assertEquals("1.50", fields.value(FixFields.PRICE).toString());
        assertEquals(-1, fields.longValue(FixFields.PRICE));
        assertFalse(FixMessages.scan("35=D|x=1|").isWellFormed());
        assertFalse(FixMessages.scan("35=D|11").isWellFormed());
        assertFalse(FixMessages.scan("=1|").isWellFormed());
        assertEquals(0, FixMessages.scan("35=D|").value(FixFields.PRICE).length());
    }
}
