package io.ringex.gateway.fix;

import io.ringex.gateway.InstrumentDirectory;
import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.codecs.MassStatusScope;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.OrderMassStatusRequestDecoder;
import io.ringex.protocol.codecs.OrderStatusRequestDecoder;
import io.ringex.protocol.codecs.RejectReason;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * FIX H and AF into SBE order status and mass status requests: which order, which accounts (always the user's),
 * which instrument; and the refusals (bad ids, another user's account, unknown symbol, unsupported type).
 */
class FixStatusTranslationTest
{
    private final FixCommandTranslator translator = new FixCommandTranslator();
    private final InstrumentDirectory instruments = new InstrumentDirectory();
    private final UnsafeBuffer out = new UnsafeBuffer(new byte[256]);
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();

    FixStatusTranslationTest()
    {
        instruments.put(1, "BTC-USD", 2);
    }

    private RejectReason translate(final char msgType, final String wireType, final String fields)
    {
        return translator.translate(FixMessages.scan("35=" + wireType + "|" + fields), msgType,
            FixCommandTranslatorTest.USER, FixCommandTranslatorTest.SESSION_ID, instruments, out);
    }

    private RejectReason massStatus(final String fields)
    {
        return translate(FixCommandTranslator.ORDER_MASS_STATUS_REQUEST, "AF", fields);
    }

    private void assertValid(final int templateId)
    {
        header.wrap(out, 0);
        assertEquals(templateId, header.templateId());
        assertEquals(RejectReason.NONE, new MessageValidator(1024).validate(out, 0, translator.encodedLength()));
    }

    private record MassStatus(long accountId, String requestId, MassStatusScope scope, int instrumentId,
        List<Long> accounts)
    {
    }

    private MassStatus massStatusRequest()
    {
        assertValid(OrderMassStatusRequestDecoder.TEMPLATE_ID);
        final OrderMassStatusRequestDecoder d = new OrderMassStatusRequestDecoder().wrap(out,
            MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(), header.version());
        assertEquals(FixCommandTranslatorTest.SESSION_ID, d.sessionId());
        final long accountId = d.accountId();
        final String requestId = d.statusRequestId();
        final MassStatusScope scope = d.scope();
        final int instrumentId = d.instrumentId();
        final List<Long> accounts = new ArrayList<>();
        for (final OrderMassStatusRequestDecoder.AccountsDecoder a : d.accounts())
        {
            accounts.add(a.accountId());
        }
        return new MassStatus(accountId, requestId, scope, instrumentId, accounts);
    }

    @Test
    void orderStatusRequestNamesTheOrderAndEchoesItsRequestId()
    {
        assertEquals(RejectReason.NONE, translate('H', "H", "11=A-1|37=77|790=Q-9|1=101|55=BTC-USD|54=1|"));
        assertValid(OrderStatusRequestDecoder.TEMPLATE_ID);
        final OrderStatusRequestDecoder d = new OrderStatusRequestDecoder().wrap(out,
            MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(), header.version());
        assertEquals(FixCommandTranslatorTest.SESSION_ID, d.sessionId());
        assertEquals(101, d.accountId());
        assertEquals("Q-9", d.statusRequestId());
        assertEquals(77, d.orderId());
        assertEquals("A-1", d.clientOrderId());

        assertEquals(RejectReason.NONE, translate('H', "H", "11=A-2|55=BTC-USD|54=1|"));
        final OrderStatusRequestDecoder byId = new OrderStatusRequestDecoder().wrap(out,
            MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(), header.version());
        assertEquals(100, byId.accountId(), "the user's default account");
        assertEquals("", byId.statusRequestId());
        assertEquals(0, byId.orderId());
    }

    @Test
    void massStatusTypesMapToScopesWithinTheUsersAccounts()
    {
        assertEquals(RejectReason.NONE, massStatus("584=M1|585=7|1=101|"));
        assertEquals(new MassStatus(0, "M1", MassStatusScope.ACCOUNTS, 0, List.of(100L, 101L)), massStatusRequest(),
            "7: every account of the user");
        assertEquals(RejectReason.NONE, massStatus("584=M2|585=8|1=101|"));
        assertEquals(new MassStatus(101, "M2", MassStatusScope.ACCOUNTS, 0, List.of(101L)), massStatusRequest(),
            "8: the account named");
        assertEquals(RejectReason.NONE, massStatus("584=M3|585=1|55=BTC-USD|"));
        assertEquals(new MassStatus(0, "M3", MassStatusScope.INSTRUMENT, 1, List.of(100L, 101L)),
            massStatusRequest());
    }

    @Test
    void refusals()
    {
        assertEquals(RejectReason.MALFORMED, translate('H', "H", "55=BTC-USD|54=1|"));
        assertEquals(RejectReason.MALFORMED, translate('H', "H", "11=A|790=has space|55=BTC-USD|54=1|"));
        assertEquals(RejectReason.NOT_AUTHORISED, translate('H', "H", "11=A|1=200|55=BTC-USD|54=1|"));
        assertEquals(RejectReason.MALFORMED, massStatus("585=7|"));
        assertEquals(RejectReason.NOT_AUTHORISED, massStatus("584=M|585=8|1=200|"));
        assertEquals(RejectReason.UNKNOWN_INSTRUMENT, massStatus("584=M|585=1|55=NOPE|"));
        assertEquals(RejectReason.INVALID_ARGUMENT, massStatus("584=M|585=6|"));
        assertEquals("MassStatusReqType(585) must be 1, 7 or 8", translator.text());
    }
}
