package io.ringex.protocol;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.RejectReason;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import uk.co.real_logic.sbe.ir.Token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

/**
 * Every message the schema declares, encoded with random values, decodes to the same values and passes the
 * validator; cut short, re-versioned or re-numbered, it is refused with the right reason.
 * <p>
 * The round trip runs for 40 random seeds (QuickTheories). A failure ends with {@code Seed was N};
 * {@code -DQT_SEED=N} replays it, e.g. {@code mvn -B -o test -pl protocol -Dtest=SchemaRoundTripTest -DQT_SEED=N}.
 */
class SchemaRoundTripTest
{
    private static final int MAX_LENGTH = 4096;

    @Test
    void everyMessageRoundTripsAndValidates() throws Exception
    {
        final Collection<List<Token>> messages = SchemaMessages.messages();
        qt().withExamples(40).forAll(longs().all()).checkAssert((seed) -> roundTripsAndValidates(messages, seed));
    }

    private static void roundTripsAndValidates(final Collection<List<Token>> messages, final long seed)
    {
        try
        {
            roundTripsAndValidatesOrThrows(messages, seed);
        }
        catch (final Exception ex)
        {
            // The codecs are reached by reflection: a checked exception here is a codec that is not as the schema says.
            throw new AssertionError("codec reflection failed for seed " + seed, ex);
        }
    }

    private static void roundTripsAndValidatesOrThrows(final Collection<List<Token>> messages, final long seed)
        throws Exception
    {
        final MessageValidator validator = new MessageValidator(MAX_LENGTH);
        for (final List<Token> message : messages)
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[MAX_LENGTH]);
            final List<Object> encoded = new ArrayList<>();
            final int length = SchemaMessages.encode(message, buffer, new Random(seed), encoded);
            final String name = message.get(0).name();

            assertEquals(encoded, SchemaMessages.decode(message, buffer), name);
            assertEquals(RejectReason.NONE, validator.validate(buffer, 0, length), name);
            assertEquals(RejectReason.MALFORMED, validator.validate(buffer, 0, length - 1), name + " truncated");
            assertEquals(RejectReason.MALFORMED, validator.validate(buffer, 0, length + 1), name + " trailing");
        }
    }

    @Test
    void newerVersionOtherSchemaAndUnknownTemplateAreRefused() throws Exception
    {
        final MessageValidator validator = new MessageValidator(MAX_LENGTH);
        for (final List<Token> message : SchemaMessages.messages())
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[MAX_LENGTH]);
            final int length = SchemaMessages.encode(message, buffer, new Random(7), new ArrayList<>());
            final MessageHeaderEncoder header = new MessageHeaderEncoder().wrap(buffer, 0);
            final int templateId = message.get(0).id();

            header.version(MessageValidator.SCHEMA_VERSION + 1);
            assertEquals(RejectReason.UNSUPPORTED_VERSION, validator.validate(buffer, 0, length));
            header.version(MessageValidator.SCHEMA_VERSION).schemaId(MessageValidator.SCHEMA_ID + 1);
            assertEquals(RejectReason.UNSUPPORTED_VERSION, validator.validate(buffer, 0, length));
            header.schemaId(MessageValidator.SCHEMA_ID).templateId(templateId + 1000);
            assertEquals(RejectReason.UNKNOWN_MESSAGE, validator.validate(buffer, 0, length));
            header.templateId(templateId).blockLength(MessageCatalog.blockLength(templateId) + 1);
            assertEquals(RejectReason.MALFORMED, validator.validate(buffer, 0, length));
        }
    }

    @Test
    void catalogMatchesTheSchema() throws Exception
    {
        final Set<Integer> schemaIds = new TreeSet<>();
        for (final List<Token> message : SchemaMessages.messages())
        {
            final Token begin = message.get(0);
            final int templateId = begin.id();
            schemaIds.add(templateId);
            assertTrue(MessageCatalog.isKnown(templateId), begin.name());
            assertEquals(begin.name(), MessageCatalog.name(templateId));
            assertEquals(begin.encodedLength(), MessageCatalog.blockLength(templateId), begin.name());
            assertEquals(SchemaMessages.parts(message), List.of(MessageCatalog.parts(templateId)), begin.name());
        }

        final Set<Integer> catalogIds = new TreeSet<>();
        for (int id = 0; id < 65536; id++)
        {
            if (MessageCatalog.isKnown(id))
            {
                catalogIds.add(id);
            }
        }
        assertEquals(schemaIds, catalogIds);
    }

    @Test
    void messageLongerThanTheConfiguredMaximumIsRefused() throws Exception
    {
        final List<Token> logon = SchemaMessages.messages().stream()
            .filter((m) -> m.get(0).name().equals("Logon")).findFirst().orElseThrow();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[MAX_LENGTH]);
        final int length = SchemaMessages.encode(logon, buffer, new Random(3), new ArrayList<>());

        assertEquals(RejectReason.NONE, new MessageValidator(length).validate(buffer, 0, length));
        assertEquals(RejectReason.MALFORMED, new MessageValidator(length - 1).validate(buffer, 0, length));
    }
}
