package io.ringex.gateway.sbe;

import io.ringex.gateway.testing.SeededRandom;
import io.ringex.gateway.testing.TestUsers;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.CancelOrderEncoder;
import io.ringex.protocol.codecs.MassCancelEncoder;
import io.ringex.protocol.codecs.MassCancelScope;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewOrderEncoder;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.ReplaceOrderEncoder;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * The SBE gateway's checks ({@link CommandChecker}) with extreme values in every field of every order-entry message,
 * against a reference model written here from the rules (docs/client.md, "Rules of engagement"): an explicit table
 * of edges for each int64 and int32 field, every raw value of every enum field, client order ids of any bytes in
 * each id field; then seeded random messages with every field extreme at once. Nothing may throw and every verdict
 * must be the model's.
 */
class CommandCheckerExtremesTest
{
    private static final int HEADER = MessageHeaderEncoder.ENCODED_LENGTH;

    private final CommandChecker checker = new CommandChecker(1024);
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);

    /** One message's values, raw. */
    static final class Values
    {
        int templateId = NewOrderEncoder.TEMPLATE_ID;
        long sessionId = 7;
        long accountId = TestUsers.ALICE_ACCOUNT;
        int instrumentId = 1;
        long price = 10125;
        long quantity = 10;
        long orderId;
        byte[] clientOrderId = { 'N', '1' };
        byte[] origClientOrderId = { 'O', '1' };
        int side = 1;
        int orderType = 1;
        int timeInForce = 1;
        int postOnly;
        int selfTradePrevention;
        int scope = 1;
        int cancelOnDisconnect;

        @Override
        public String toString()
        {
            return "template " + templateId + " session " + sessionId + " account " + accountId + " instrument " +
                instrumentId + " price " + price + " qty " + quantity + " orderId " + orderId + " id " +
                java.util.Arrays.toString(clientOrderId) + " orig " + java.util.Arrays.toString(origClientOrderId) +
                " side " + side + " type " + orderType + " tif " + timeInForce + " postOnly " + postOnly + " stp " +
                selfTradePrevention + " scope " + scope + " cod " + cancelOnDisconnect;
        }
    }

    private int encode(final Values v)
    {
        buffer.setMemory(0, buffer.capacity(), (byte)0);
        final MessageHeaderEncoder header = new MessageHeaderEncoder();
        final int length;
        switch (v.templateId)
        {
            case NewOrderEncoder.TEMPLATE_ID ->
            {
                final NewOrderEncoder e = new NewOrderEncoder().wrapAndApplyHeader(buffer, 0, header)
                    .sessionId(v.sessionId).accountId(v.accountId).instrumentId(v.instrumentId).side(Side.BUY)
                    .orderType(OrderType.LIMIT).timeInForce(TimeInForce.GTC).postOnly(BooleanType.FALSE)
                    .selfTradePrevention(SelfTradePrevention.ACCOUNT_DEFAULT).price(v.price).quantity(v.quantity);
                putId(NewOrderEncoder.clientOrderIdEncodingOffset(), v.clientOrderId);
                putByte(NewOrderEncoder.sideEncodingOffset(), v.side);
                putByte(NewOrderEncoder.orderTypeEncodingOffset(), v.orderType);
                putByte(NewOrderEncoder.timeInForceEncodingOffset(), v.timeInForce);
                putByte(NewOrderEncoder.postOnlyEncodingOffset(), v.postOnly);
                putByte(NewOrderEncoder.selfTradePreventionEncodingOffset(), v.selfTradePrevention);
                length = e.encodedLength();
            }
            case CancelOrderEncoder.TEMPLATE_ID ->
            {
                final CancelOrderEncoder e = new CancelOrderEncoder().wrapAndApplyHeader(buffer, 0, header)
                    .sessionId(v.sessionId).accountId(v.accountId).orderId(v.orderId).instrumentId(v.instrumentId);
                putId(CancelOrderEncoder.clientOrderIdEncodingOffset(), v.clientOrderId);
                putId(CancelOrderEncoder.origClientOrderIdEncodingOffset(), v.origClientOrderId);
                length = e.encodedLength();
            }
            case ReplaceOrderEncoder.TEMPLATE_ID ->
            {
                final ReplaceOrderEncoder e = new ReplaceOrderEncoder().wrapAndApplyHeader(buffer, 0, header)
                    .sessionId(v.sessionId).accountId(v.accountId).orderId(v.orderId).instrumentId(v.instrumentId)
                    .price(v.price).quantity(v.quantity);
                putId(ReplaceOrderEncoder.clientOrderIdEncodingOffset(), v.clientOrderId);
                putId(ReplaceOrderEncoder.origClientOrderIdEncodingOffset(), v.origClientOrderId);
                length = e.encodedLength();
            }
            default ->
            {
                final MassCancelEncoder e = new MassCancelEncoder().wrapAndApplyHeader(buffer, 0, header)
                    .sessionId(v.sessionId).accountId(v.accountId).scope(MassCancelScope.ACCOUNT)
                    .instrumentId(v.instrumentId).cancelOnDisconnect(BooleanType.FALSE);
                putId(MassCancelEncoder.clientRequestIdEncodingOffset(), v.clientOrderId);
                putByte(MassCancelEncoder.scopeEncodingOffset(), v.scope);
                putByte(MassCancelEncoder.cancelOnDisconnectEncodingOffset(), v.cancelOnDisconnect);
                length = e.encodedLength();
            }
        }
        return HEADER + length;
    }

    private void putId(final int offset, final byte[] id)
    {
        buffer.setMemory(HEADER + offset, 20, (byte)0);
        buffer.putBytes(HEADER + offset, id, 0, Math.min(20, id.length));
    }

    private void putByte(final int offset, final int value)
    {
        buffer.putByte(HEADER + offset, (byte)value);
    }

    /** The rules, written independently of the checker. */
    private static RejectReason model(final Values v)
    {
        final boolean idOk = validId(v.clientOrderId);
        boolean origAbsent = true;
        for (int i = 0; i < Math.min(20, v.origClientOrderId.length); i++)
        {
            origAbsent &= v.origClientOrderId[i] == 0;
        }
        final boolean origOk = origAbsent ? v.orderId != 0 : validId(v.origClientOrderId);
        switch (v.templateId)
        {
            case NewOrderEncoder.TEMPLATE_ID:
                if (!in(v.side, 1, 2) || !in(v.orderType, 1, 4) || !in(v.timeInForce, 1, 5) ||
                    !in(v.postOnly, 0, 1) || !in(v.selfTradePrevention, 0, 4) || !idOk)
                {
                    return RejectReason.MALFORMED;
                }
                if (v.quantity <= 0)
                {
                    return RejectReason.INVALID_QUANTITY;
                }
                if ((v.orderType == 1 || v.orderType == 4) && v.price <= 0)
                {
                    return RejectReason.INVALID_PRICE;
                }
                break;
            case CancelOrderEncoder.TEMPLATE_ID:
                if (!idOk || !origOk)
                {
                    return RejectReason.MALFORMED;
                }
                break;
            case ReplaceOrderEncoder.TEMPLATE_ID:
                if (!idOk || !origOk)
                {
                    return RejectReason.MALFORMED;
                }
                if (v.quantity <= 0)
                {
                    return RejectReason.INVALID_QUANTITY;
                }
                if (v.price < 0)
                {
                    return RejectReason.INVALID_PRICE;
                }
                break;
            default:
                if (!in(v.scope, 1, 3) || !in(v.cancelOnDisconnect, 0, 1) || !idOk)
                {
                    return RejectReason.MALFORMED;
                }
                break;
        }
        return v.accountId == TestUsers.ALICE_ACCOUNT || v.accountId == TestUsers.ALICE_SECOND_ACCOUNT ?
            RejectReason.NONE : RejectReason.NOT_AUTHORISED;
    }

    private static boolean in(final int value, final int min, final int max)
    {
        return value >= min && value <= max;
    }

    private static boolean validId(final byte[] id)
    {
        final int n = Math.min(20, id.length);
        int end = 0;
        while (end < n && id[end] != 0)
        {
            if (id[end] < 0x21 || id[end] > 0x7E)
            {
                return false;
            }
            end++;
        }
        for (int i = end; i < n; i++)
        {
            if (id[i] != 0)
            {
                return false;
            }
        }
        return end > 0;
    }

    private void check(final Values v)
    {
        final int length = encode(v);
        assertEquals(RejectReason.NONE, checker.validate(buffer, 0, length), v.toString());
        final RejectReason verdict = checker.check(TestUsers.ALICE, buffer, 0);
        assertEquals(model(v), verdict, v.toString());
        if (verdict == RejectReason.MALFORMED)
        {
            assertNotNull(checker.text(), "a MALFORMED verdict says why");
        }
    }

    private static final int[] TEMPLATES = { NewOrderEncoder.TEMPLATE_ID, CancelOrderEncoder.TEMPLATE_ID,
        ReplaceOrderEncoder.TEMPLATE_ID, MassCancelEncoder.TEMPLATE_ID };

    static Stream<Arguments> everyNumericField()
    {
        final List<Arguments> cases = new ArrayList<>();
        for (final int template : TEMPLATES)
        {
            for (final String field : new String[]{ "sessionId", "accountId", "price", "quantity", "orderId" })
            {
                for (final long value : SeededRandom.EDGE_LONGS)
                {
                    cases.add(Arguments.of(template, field, value));
                }
            }
            for (final int value : SeededRandom.EDGE_INTS)
            {
                cases.add(Arguments.of(template, "instrumentId", (long)value));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "template {0} {1}={2}")
    @MethodSource("everyNumericField")
    void everyNumericFieldAtEveryEdge(final int template, final String field, final long value)
    {
        for (final long orderId : new long[]{ 0, 77 })
        {
            final Values v = new Values();
            v.templateId = template;
            v.orderId = orderId;
            switch (field)
            {
                case "sessionId" -> v.sessionId = value;
                case "accountId" -> v.accountId = value;
                case "price" -> v.price = value;
                case "quantity" -> v.quantity = value;
                case "orderId" -> v.orderId = value;
                default -> v.instrumentId = (int)value;
            }
            check(v);
        }
    }

    @Test
    void everyRawValueOfEveryEnumField()
    {
        for (int raw = 0; raw < 256; raw++)
        {
            for (int field = 0; field < 7; field++)
            {
                final Values v = new Values();
                v.templateId = field < 5 ? NewOrderEncoder.TEMPLATE_ID : MassCancelEncoder.TEMPLATE_ID;
                switch (field)
                {
                    case 0 -> v.side = raw;
                    case 1 -> v.orderType = raw;
                    case 2 -> v.timeInForce = raw;
                    case 3 -> v.postOnly = raw;
                    case 4 -> v.selfTradePrevention = raw;
                    case 5 -> v.scope = raw;
                    default -> v.cancelOnDisconnect = raw;
                }
                check(v);
            }
        }
    }

    @Test
    void clientOrderIdsOfAnyBytesInEveryIdField()
    {
        final SeededRandom random = SeededRandom.forTest("clientOrderIdsOfAnyBytesInEveryIdField");
        for (int i = 0; i < 5_000; i++)
        {
            final Values v = new Values();
            v.templateId = TEMPLATES[random.nextInt(TEMPLATES.length)];
            v.orderId = random.nextBoolean() ? 0 : 5;
            final byte[] bytes = i < 256 ? new byte[]{ 'A', (byte)i } : random.bytes(22);
            if (random.nextBoolean())
            {
                v.clientOrderId = bytes;
            }
            else
            {
                v.origClientOrderId = bytes;
            }
            check(v);
        }
    }

    @Test
    void seededRandomMessagesWithEveryFieldExtreme()
    {
        final SeededRandom random = SeededRandom.forTest("CommandChecker seededRandomMessagesWithEveryFieldExtreme");
        final int[] verdicts = new int[RejectReason.values().length];
        for (int i = 0; i < 20_000; i++)
        {
            final Values v = new Values();
            v.templateId = TEMPLATES[random.nextInt(TEMPLATES.length)];
            v.sessionId = random.extremeLong();
            v.accountId = random.nextInt(3) == 0 ? random.extremeLong() : 100 + random.nextInt(2);
            v.instrumentId = random.extremeInt();
            v.price = random.extremeLong();
            v.quantity = random.extremeLong();
            v.orderId = random.nextBoolean() ? 0 : random.extremeLong();
            if (random.nextInt(4) == 0)
            {
                v.clientOrderId = random.bytes(22);
            }
            if (random.nextInt(4) == 0)
            {
                v.origClientOrderId = random.bytes(22);
            }
            v.side = random.nextInt(8) == 0 ? random.nextInt(256) : 1 + random.nextInt(2);
            v.orderType = random.nextInt(8) == 0 ? random.nextInt(256) : 1 + random.nextInt(2);
            v.timeInForce = random.nextInt(8) == 0 ? random.nextInt(256) : 1 + random.nextInt(4);
            v.postOnly = random.nextInt(8) == 0 ? random.nextInt(256) : random.nextInt(2);
            v.selfTradePrevention = random.nextInt(8) == 0 ? random.nextInt(256) : random.nextInt(5);
            v.scope = random.nextInt(8) == 0 ? random.nextInt(256) : 1 + random.nextInt(3);
            v.cancelOnDisconnect = random.nextInt(8) == 0 ? random.nextInt(256) : random.nextInt(2);
            try
            {
                check(v);
            }
            catch (final AssertionError | RuntimeException ex)
            {
                throw new AssertionError("seed " + random.seed() + " iteration " + i + ": " + ex.getMessage(), ex);
            }
            verdicts[model(v).ordinal()]++;
        }
        System.out.println("verdicts " + java.util.Arrays.toString(verdicts));
    }
}
