package io.ringex.protocol;

import io.ringex.protocol.codecs.AuthenticatedCommandDecoder;
import io.ringex.protocol.codecs.CancelAllAfterDecoder;
import io.ringex.protocol.codecs.MassQuoteDecoder;
import io.ringex.protocol.codecs.QuoteCancelDecoder;
import io.ringex.protocol.codecs.ResetMarketMakerProtectionDecoder;
import io.ringex.protocol.codecs.SetMarketMakerProtectionDecoder;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Who may send the market makers' commands: the operator's protection settings reach the engine only signed (inside an
 * AuthenticatedCommand, like every other operator command), while what a session sends for itself is order entry.
 */
final class MarketMakerMessageKindsTest
{
    @Test
    void protectionSettingsAreAnOperatorsSignedCommand()
    {
        assertEquals(MessageCatalog.Kind.ADMIN, MessageCatalog.kind(SetMarketMakerProtectionDecoder.TEMPLATE_ID));
        assertTrue(MessageCatalog.isOperatorCommand(SetMarketMakerProtectionDecoder.TEMPLATE_ID));
    }

    @Test
    void aSessionsQuotingCommandsAreOrderEntryAndNeedNoKey()
    {
        for (final int templateId : new int[]{ MassQuoteDecoder.TEMPLATE_ID, QuoteCancelDecoder.TEMPLATE_ID,
            ResetMarketMakerProtectionDecoder.TEMPLATE_ID, CancelAllAfterDecoder.TEMPLATE_ID })
        {
            assertEquals(MessageCatalog.Kind.ORDER_ENTRY, MessageCatalog.kind(templateId),
                MessageCatalog.name(templateId));
            assertFalse(MessageCatalog.isOperatorCommand(templateId), MessageCatalog.name(templateId));
        }
    }

    @Test
    void bothSetsOfVersionThreeMessagesKeepTheirIds()
    {
        assertEquals(41, AuthenticatedCommandDecoder.TEMPLATE_ID);
        assertEquals(120, MassQuoteDecoder.TEMPLATE_ID);
        assertEquals(124, SetMarketMakerProtectionDecoder.TEMPLATE_ID);
        assertEquals(127, CancelAllAfterDecoder.TEMPLATE_ID);
        assertTrue(AuthenticatedCommandDecoder.SCHEMA_VERSION >= 3, "a later schema version keeps them");
    }
}
