package io.ringex.protocol;

import io.ringex.protocol.codecs.LogonResponseDecoder;
import io.ringex.protocol.codecs.LogonResponseEncoder;
import io.ringex.protocol.codecs.LogonStatus;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.RejectReason;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import uk.co.real_logic.sbe.ir.Signal;
import uk.co.real_logic.sbe.ir.Token;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static uk.co.real_logic.sbe.ir.GenerationUtil.collectFields;
import static uk.co.real_logic.sbe.ir.GenerationUtil.collectGroups;

/**
 * The rules that let older clients keep working as the schema grows: fields added later sit at the end of the root
 * block, group entries never grow, {@link MessageCatalog} knows each message's block length at every version, and a
 * message rewritten for an older reader ({@link OlderVersions}) is valid at that version and decodes the same.
 */
final class SchemaEvolutionTest
{
    @Test
    void catalogKnowsEveryMessagesBlockLengthAtEveryVersion() throws Exception
    {
        for (final List<Token> message : SchemaMessages.messages())
        {
            final Token begin = message.get(0);
            final List<Token> fields = new ArrayList<>();
            collectFields(message.subList(1, message.size() - 1), 0, fields);
            for (int version = MessageValidator.MIN_SUPPORTED_VERSION; version <= MessageValidator.SCHEMA_VERSION;
                version++)
            {
                int end = 0;
                int latestVersionSeen = 0;
                for (final Token field : fields)
                {
                    if (field.signal() != Signal.BEGIN_FIELD)
                    {
                        continue;
                    }
                    assertTrue(field.version() >= latestVersionSeen,
                        begin.name() + "." + field.name() + ": a field of an older version after a newer one");
                    latestVersionSeen = field.version();
                    if (field.version() <= version)
                    {
                        final Token encoding = fieldEncoding(fields, field);
                        end = Math.max(end, field.offset() + encoding.encodedLength());
                    }
                }
                assertEquals(end, MessageCatalog.blockLength((int)begin.id(), version),
                    begin.name() + " block length at version " + version);
            }
        }
    }

    @Test
    void catalogKnowsWhichVersionEachPartCameIn() throws Exception
    {
        for (final List<Token> message : SchemaMessages.messages())
        {
            final Token begin = message.get(0);
            final List<Token> body = message.subList(1, message.size() - 1);
            final List<Token> groups = new ArrayList<>();
            final List<Token> varData = new ArrayList<>();
            int i = collectFields(body, 0, new ArrayList<>());
            i = collectGroups(body, i, groups);
            uk.co.real_logic.sbe.ir.GenerationUtil.collectVarData(body, i, varData);
            final List<Integer> since = new ArrayList<>();
            for (final Token token : groups)
            {
                if (token.signal() == Signal.BEGIN_GROUP)
                {
                    since.add(Math.max(1, token.version()));
                }
            }
            for (final Token token : varData)
            {
                if (token.signal() == Signal.BEGIN_VAR_DATA)
                {
                    since.add(Math.max(1, token.version()));
                }
            }
            for (int version = MessageValidator.MIN_SUPPORTED_VERSION; version <= MessageValidator.SCHEMA_VERSION;
                version++)
            {
                final int v = version;
                final int inVersion = (int)since.stream().filter(s -> s <= v).count();
                assertEquals(inVersion, MessageCatalog.partCount((int)begin.id(), version),
                    begin.name() + " parts at version " + version);
                for (int p = 1; p < since.size(); p++)
                {
                    assertTrue(since.get(p) >= since.get(p - 1), begin.name() + ": a part added before an older one");
                }
            }
        }
    }

    @Test
    void groupEntriesNeverGrow() throws Exception
    {
        for (final List<Token> message : SchemaMessages.messages())
        {
            final List<Token> body = message.subList(1, message.size() - 1);
            final List<Token> groups = new ArrayList<>();
            collectGroups(body, collectFields(body, 0, new ArrayList<>()), groups);
            for (final Token token : groups)
            {
                assertTrue(token.version() <= 1 || token.signal() == Signal.BEGIN_GROUP,
                    message.get(0).name() + "." + token.name() + " added to a group entry after version 1");
            }
        }
    }

    @Test
    void aMessageRewrittenForAnOlderReaderIsValidThereAndDecodesTheSame()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
        final LogonResponseEncoder encoder = new LogonResponseEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .sessionId(77).status(LogonStatus.REJECTED).rejectReason(RejectReason.INVALID_CREDENTIALS)
            .heartbeatIntervalMs(1000).accountId(1001).epoch(3).logonRequestId(123456789L)
            .text("invalid credentials");
        final int length = MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
        final MessageValidator validator = new MessageValidator(1024);
        assertEquals(RejectReason.NONE, validator.validate(buffer, 0, length));

        final UnsafeBuffer older = new UnsafeBuffer(new byte[256]);
        final int olderLength = OlderVersions.copyAs(buffer, 0, length, 1, older, 0);
        assertEquals(length - Long.BYTES, olderLength);
        assertEquals(RejectReason.NONE, validator.validate(older, 0, olderLength));

        final MessageHeaderDecoder header = new MessageHeaderDecoder().wrap(older, 0);
        assertEquals(1, header.version());
        final LogonResponseDecoder decoder = new LogonResponseDecoder()
            .wrap(older, MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(), header.version());
        assertEquals(77, decoder.sessionId());
        assertEquals(LogonStatus.REJECTED, decoder.status());
        assertEquals(RejectReason.INVALID_CREDENTIALS, decoder.rejectReason());
        assertEquals(1001, decoder.accountId());
        assertEquals(3, decoder.epoch());
        assertEquals(LogonResponseDecoder.logonRequestIdNullValue(), decoder.logonRequestId());
        assertEquals("invalid credentials", decoder.text());

        assertEquals(length, OlderVersions.copyAs(buffer, 0, length, MessageValidator.SCHEMA_VERSION, older, 0));
        assertEquals(buffer.getByte(length - 1), older.getByte(length - 1));
    }

    @Test
    void aMessageClaimingANewerVersionOrTheWrongBlockLengthForItsVersionIsRefused()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
        final LogonResponseEncoder encoder = new LogonResponseEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder()).text("");
        final int length = MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
        final MessageValidator validator = new MessageValidator(1024);

        buffer.putShort(MessageHeaderDecoder.versionEncodingOffset(), (short)1, MessageHeaderDecoder.BYTE_ORDER);
        assertEquals(RejectReason.MALFORMED, validator.validate(buffer, 0, length), "v2 block length said to be v1");
        buffer.putShort(MessageHeaderDecoder.versionEncodingOffset(), (short)(MessageValidator.SCHEMA_VERSION + 1),
            MessageHeaderDecoder.BYTE_ORDER);
        assertEquals(RejectReason.UNSUPPORTED_VERSION, validator.validate(buffer, 0, length));
    }

    private static Token fieldEncoding(final List<Token> fields, final Token field)
    {
        return fields.get(fields.indexOf(field) + 1);
    }
}
