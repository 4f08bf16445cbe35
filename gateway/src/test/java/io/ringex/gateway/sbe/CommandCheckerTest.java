package io.ringex.gateway.sbe;

import io.ringex.gateway.auth.User;
import io.ringex.gateway.testing.TestUsers;
import io.ringex.protocol.MessageCatalog;
import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.codecs.AddAccountEncoder;
import io.ringex.protocol.codecs.CancelOrderEncoder;
import io.ringex.protocol.codecs.MassCancelEncoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewOrderEncoder;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.UserRole;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CommandCheckerTest
{
    private final CommandChecker checker = new CommandChecker(1024);
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);

    private RejectReason both(final int length)
    {
        final RejectReason structural = checker.validate(buffer, 0, length);
        return structural != RejectReason.NONE ? structural : checker.check(TestUsers.ALICE, buffer, 0);
    }

    @Test
    void validOrderEntryPasses()
    {
        assertEquals(RejectReason.NONE, both(SbeMessages.newOrder(buffer, 100, 10125, 1)));
        assertEquals(RejectReason.NONE, both(SbeMessages.newOrder(buffer, 101, 10125, 1)));
        assertEquals(RejectReason.NONE, both(SbeMessages.cancel(buffer, 100, "X", 0)));
        assertEquals(RejectReason.NONE, both(SbeMessages.cancel(buffer, 100, "", 5)));
        assertEquals(RejectReason.NONE, both(SbeMessages.replace(buffer, 100, 1, 1)));
        assertEquals(RejectReason.NONE, both(SbeMessages.massCancel(buffer, 100)));
    }

    @Test
    void aDropCopyOrClearingUserSendsNothingEvenForItsOwnAccounts()
    {
        for (final UserRole role : new UserRole[]{ UserRole.DROP_COPY, UserRole.CLEARING })
        {
            final User copy = new User("audit", "", new long[]{ 100 }, null, "RINGEX", false, true, 0, role);
            final int length = SbeMessages.newOrder(buffer, 100, 10125, 1);
            assertEquals(RejectReason.NONE, checker.validate(buffer, 0, length));
            assertEquals(RejectReason.DROP_COPY_SESSION, checker.check(copy, buffer, 0));
            SbeMessages.cancel(buffer, 100, "X", 0);
            assertEquals(RejectReason.DROP_COPY_SESSION, checker.check(copy, buffer, 0));
            SbeMessages.replace(buffer, 100, 1, 1);
            assertEquals(RejectReason.DROP_COPY_SESSION, checker.check(copy, buffer, 0));
            SbeMessages.massCancel(buffer, 100);
            assertEquals(RejectReason.DROP_COPY_SESSION, checker.check(copy, buffer, 0));
            assertEquals("a drop-copy session may not send orders or requests", checker.text());
        }
    }

    @Test
    void badMessagesAreRejectedWithAReason()
    {
        assertEquals(RejectReason.NOT_AUTHORISED, both(SbeMessages.newOrder(buffer, 200, 10125, 1)));
        assertEquals(RejectReason.INVALID_QUANTITY, both(SbeMessages.newOrder(buffer, 100, 10125, 0)));
        assertEquals(RejectReason.INVALID_PRICE, both(SbeMessages.newOrder(buffer, 100, -5, 1)));
        assertEquals(RejectReason.MALFORMED, both(SbeMessages.cancel(buffer, 100, "", 0)));
        assertEquals(RejectReason.INVALID_QUANTITY, both(SbeMessages.replace(buffer, 100, 1, -1)));
        assertEquals(RejectReason.NOT_AUTHORISED, both(SbeMessages.massCancel(buffer, 999)));

        final int length = SbeMessages.newOrder(buffer, 100, 1, 1);
        buffer.putByte(8 + NewOrderEncoder.sideEncodingOffset(), (byte)9);
        assertEquals(RejectReason.MALFORMED, both(length));
        assertEquals(RejectReason.MALFORMED, checker.validate(buffer, 0, length - 1));
        buffer.putShort(6, (short)(MessageValidator.SCHEMA_VERSION + 1)); // a version newer than this build's
        assertEquals(RejectReason.UNSUPPORTED_VERSION, checker.validate(buffer, 0, length));
    }

    @Test
    void clientOrderIdsFollowTheRuleTheFixGatewayApplies()
    {
        final int newOrder = SbeMessages.newOrder(buffer, 100, 10125, 1);
        final int idOffset = 8 + NewOrderEncoder.clientOrderIdEncodingOffset();
        buffer.putBytes(idOffset, new byte[]{ 'N', 2, 'X' });
        assertEquals(RejectReason.MALFORMED, both(newOrder), "a control byte");
        assertEquals("clientOrderId must be 1-20 printable ASCII characters, no space (0x21-0x7E)", checker.text());
        buffer.putBytes(idOffset, new byte[]{ 'N', ' ', 'X' });
        assertEquals(RejectReason.MALFORMED, both(newOrder), "a space");
        buffer.putBytes(idOffset, new byte[]{ 'N', 0, 'X' });
        assertEquals(RejectReason.MALFORMED, both(newOrder), "a byte hidden behind the padding");
        buffer.putBytes(idOffset, new byte[]{ 'N', (byte)0xE9, 0 });
        assertEquals(RejectReason.MALFORMED, both(newOrder), "not ASCII");
        buffer.putBytes(idOffset, new byte[]{ 'N', '~', 0 });
        assertEquals(RejectReason.NONE, both(newOrder));
        assertEquals(null, checker.text());

        final int cancel = SbeMessages.cancel(buffer, 100, "X", 0);
        buffer.setMemory(8 + CancelOrderEncoder.clientOrderIdEncodingOffset(), 20, (byte)0);
        assertEquals(RejectReason.MALFORMED, both(cancel), "a cancel names itself, as FIX's ClOrdID(11) does");
        final int cancelByOrderId = SbeMessages.cancel(buffer, 100, "", 5);
        buffer.putByte(8 + CancelOrderEncoder.origClientOrderIdEncodingOffset() + 3, (byte)'Z');
        assertEquals(RejectReason.MALFORMED, both(cancelByOrderId), "an original id hidden behind zero");

        final int massCancel = SbeMessages.massCancel(buffer, 100);
        buffer.putByte(8 + MassCancelEncoder.clientRequestIdEncodingOffset(), (byte)0x7F);
        assertEquals(RejectReason.MALFORMED, both(massCancel));
        assertEquals("clientRequestId must be 1-20 printable ASCII characters, no space (0x21-0x7E)",
            checker.text());
    }

    /**
     * Every message of the schema a client may not send (admin commands, an AuthenticatedCommand, events,
     * replication, market-data and replay requests...) is refused NOT_AUTHORISED however well formed: the gateway
     * forwards order entry only. Walks the whole catalog, so a message added later is covered the day it is added.
     */
    @Test
    void everyMessageThatIsNotAClientsIsRefusedHoweverWellFormed()
    {
        int refused = 0;
        for (int templateId = 0; templateId < 128; templateId++)
        {
            final MessageCatalog.Kind kind = MessageCatalog.kind(templateId);
            if (null == kind)
            {
                continue;
            }
            final int length = wellFormed(templateId);
            assertEquals(RejectReason.NONE, new MessageValidator(1024).validate(buffer, 0, length),
                MessageCatalog.name(templateId));
            final RejectReason expected = kind == MessageCatalog.Kind.SESSION ||
                kind == MessageCatalog.Kind.ORDER_ENTRY ? RejectReason.NONE : RejectReason.NOT_AUTHORISED;
            assertEquals(expected, checker.validate(buffer, 0, length), MessageCatalog.name(templateId));
            refused += expected == RejectReason.NOT_AUTHORISED ? 1 : 0;
        }
        assertTrue(refused > 40, "the admin, event, replication and request messages: " + refused);
    }

    /** A message of the template at this version, its block zeroed, its groups empty and its var data empty. */
    private int wellFormed(final int templateId)
    {
        final int blockLength = MessageCatalog.blockLength(templateId);
        buffer.setMemory(0, buffer.capacity(), (byte)0);
        new MessageHeaderEncoder().wrap(buffer, 0).blockLength(blockLength).templateId(templateId)
            .schemaId(MessageHeaderEncoder.SCHEMA_ID).version(MessageHeaderEncoder.SCHEMA_VERSION);
        int at = MessageHeaderEncoder.ENCODED_LENGTH + blockLength;
        int group = 0;
        for (final MessageCatalog.Part part : MessageCatalog.parts(templateId))
        {
            if (part == MessageCatalog.Part.GROUP)
            {
                buffer.putShort(at, (short)MessageCatalog.groupBlockLengths(templateId)[group++],
                    java.nio.ByteOrder.LITTLE_ENDIAN);
                at += MessageCatalog.GROUP_HEADER_LENGTH;
            }
            else
            {
                at += MessageCatalog.VAR_DATA_HEADER_LENGTH;
            }
        }
        return at;
    }

    @Test
    void adminAndEventMessagesAreNotForClients()
    {
        final AddAccountEncoder e = new AddAccountEncoder().wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .requestId(1).accountId(1).selfTradePrevention(SelfTradePrevention.CANCEL_NEWEST)
            .operatorName("mallory").reason("");
        assertEquals(RejectReason.NOT_AUTHORISED,
            checker.validate(buffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + e.encodedLength()));
    }
}
