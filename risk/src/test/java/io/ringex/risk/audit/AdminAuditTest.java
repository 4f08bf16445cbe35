package io.ringex.risk.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import io.ringex.client.CommandEncoder;
import io.ringex.protocol.MessageCatalog;
import io.ringex.protocol.codecs.AccountStatus;
import io.ringex.protocol.codecs.AddInstrumentDecoder;
import io.ringex.protocol.codecs.AdjustBalanceDecoder;
import io.ringex.protocol.codecs.AdminStatus;
import io.ringex.protocol.codecs.AmendInstrumentDecoder;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.SetAccountStatusDecoder;
import io.ringex.protocol.codecs.SetLimitsDecoder;
import io.ringex.protocol.codecs.SetUserCredentialDecoder;
import io.ringex.protocol.codecs.TakeSnapshotDecoder;
import io.ringex.protocol.codecs.TradingStatus;
import io.ringex.protocol.codecs.UpsertUserDecoder;
import io.ringex.risk.aeron.EngineEventHandler;
import io.ringex.risk.model.RiskReadModel;
import io.ringex.risk.model.UserDirectory;
import io.ringex.risk.synthetic.EventEncoders;
import tools.jackson.databind.json.JsonMapper;

/**
 * The admin log fed the engine's AdminResponses (synthetic, each echoing a command the client's CommandEncoder
 * wrote, as the engine echoes what it received) through the agent's handler: who, what and why decoded from the
 * command by the generated decoders, the credential hash never turned into text, each command once, the latest kept.
 */
class AdminAuditTest
{
    private static final String HASH = "pbkdf2-sha256:20000:c2FsdHNhbHRzYWx0c2FsdA==:" +
        "aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g=";

    private final RiskReadModel model = new RiskReadModel(4, 1_000_000_000L, System::nanoTime);
    private final Map<Long, AdminAudit.SentHere> sentHere = new LinkedHashMap<>();
    private final AdminAudit audit = new AdminAudit(4, sentHere::get, model::priceScale);
    private final EngineEventHandler handler = new EngineEventHandler(0, model, (a, b, c, d, e) -> { },
        new UserDirectory(65535, 1), audit);
    private final EventEncoders events = new EventEncoders();
    private final CommandEncoder commands = new CommandEncoder().operator("ops1");

    private void feed(final int length)
    {
        handler.onFragment(new UnsafeBuffer(events.buffer(), 0, length), 0, length, null);
    }

    private void answer(final long requestId, final int templateId, final RejectReason reason, final long sequence,
        final int commandLength)
    {
        feed(events.adminResponse(requestId, templateId, reason == RejectReason.NONE ? AdminStatus.ACCEPTED :
            AdminStatus.REJECTED, reason, sequence, 1_000 + sequence, commands.buffer(), commandLength));
    }

    @Test
    void everyAdminCommandOfTheSchemaIsReadInTheSchemasOrder() throws Exception
    {
        final Document schema;
        try (InputStream in = MessageCatalog.class.getResourceAsStream("/sbe/ringex-schema.xml"))
        {
            final DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            schema = factory.newDocumentBuilder().parse(in);
        }
        final NodeList messages = schema.getElementsByTagNameNS("*", "message");
        int admin = 0;
        for (int i = 0; i < messages.getLength(); i++)
        {
            final Element message = (Element)messages.item(i);
            final int templateId = Integer.parseInt(message.getAttribute("id"));
            if (MessageCatalog.kind(templateId) != MessageCatalog.Kind.ADMIN)
            {
                continue;
            }
            admin++;
            final List<String> expected = new ArrayList<>();
            for (Node child = message.getFirstChild(); child != null; child = child.getNextSibling())
            {
                if (child instanceof Element part)
                {
                    expected.add(part.getAttribute("name"));
                }
            }
            assertEquals(expected, CommandFields.partNames(templateId), message.getAttribute("name"));
        }
        int catalogued = 0;
        for (int templateId = 0; templateId < 256; templateId++)
        {
            catalogued += MessageCatalog.kind(templateId) == MessageCatalog.Kind.ADMIN ? 1 : 0;
        }
        assertEquals(catalogued, admin, "every admin command of the catalog is in the schema, and was checked");
    }

    @Test
    void whoWhatAndWhyComeFromTheCommandTheEngineEchoes()
    {
        feed(events.instrumentDefinition(4, "NEW-USD", 2, 5, 10, 5_000, TradingStatus.OPEN, 1));
        answer(31, AdjustBalanceDecoder.TEMPLATE_ID, RejectReason.NONE, 7,
            commands.adjustBalance(31, 2001, 2_500_000_000_000L, "WIRE-42", "initial funding"));
        answer(32, AmendInstrumentDecoder.TEMPLATE_ID, RejectReason.INSTRUMENT_HAS_ORDERS, 8,
            commands.amendInstrument(32, 4, "NEW-USD", 10, 10, 5_010, PriceBandType.TICKS, 20, "wider tick"));

        final List<AdminAudit.Entry> entries = audit.latest(10);
        assertEquals(2, entries.size());
        final AdminAudit.Entry amend = entries.get(0);
        assertEquals("AmendInstrument", amend.command(), "newest first");
        assertEquals("REJECTED", amend.status());
        assertEquals("INSTRUMENT_HAS_ORDERS", amend.rejectReason());
        assertEquals("ops1", amend.operator());
        assertEquals(AdminAudit.OperatorSource.COMMAND, amend.operatorSource());
        assertEquals("wider tick", amend.reason());
        assertEquals("0.10", amend.fields().get("tickSize"), "a price at the instrument's scale, from the model");
        assertEquals("50.10", amend.fields().get("referencePrice"));
        assertEquals("TICKS", amend.fields().get("priceBandType"));
        assertEquals(8L, amend.commandSequence());
        assertEquals(1_008L, amend.timestampNs());

        final AdminAudit.Entry funding = entries.get(1);
        assertEquals("AdjustBalance", funding.command());
        assertEquals("ACCEPTED", funding.status());
        assertNull(funding.rejectReason());
        assertEquals(31, funding.requestId());
        assertEquals(List.of("accountId", "amount", "reference"), List.copyOf(funding.fields().keySet()),
            "requestId, operator and reason are columns of their own");
        assertEquals(2001L, funding.fields().get("accountId"));
        assertEquals("25000.00000000", funding.fields().get("amount"), "money as exact decimal text");
        assertEquals("WIRE-42", funding.fields().get("reference"));
    }

    /**
     * The command just encoded as schema version 3 wrote it: without the operatorName and reason at its end (the
     * encoder's "ops1" and no reason) and with version 3 in its header.
     */
    private int asVersion3(final int length)
    {
        commands.buffer().putShort(6, (short)3, java.nio.ByteOrder.LITTLE_ENDIAN);
        return length - (4 + "ops1".length()) - 4;
    }

    @Test
    void aCommandThatNamesNoOperatorShowsWhoSentItFromHereAndGroupsAreLists()
    {
        // Written before schema version 4, these two changes named no operator.
        sentHere.put(41L, new AdminAudit.SentHere("admin", "listing approved"));
        answer(41, AddInstrumentDecoder.TEMPLATE_ID, RejectReason.NONE, 3, asVersion3(
            commands.addInstrument(41, 4, "NEW-USD", 3, 5, 10, 50_000, PriceBandType.BASIS_POINTS, 1000)));
        final int limitsLength = asVersion3(commands.setLimits(42, 2001, 100, 250_000 * 100_000_000L, 50_000, 40,
            20, false, new int[] {4}, new long[] {400}));
        answer(42, SetLimitsDecoder.TEMPLATE_ID, RejectReason.NONE, 4, limitsLength);

        final AdminAudit.Entry limits = audit.latest(10).get(0);
        assertEquals("SetLimits", limits.command());
        assertNull(limits.operator(), "sent by another admin source: the command names no one");
        assertNull(limits.operatorSource());
        assertEquals("250000.00000000", limits.fields().get("maxOrderNotional"));
        assertEquals("0.00050000", limits.fields().get("creditLimit"));
        assertEquals(List.of(Map.of("instrumentId", 4, "positionLimit", 400L)), limits.fields().get("positionLimits"));

        final AdminAudit.Entry add = audit.latest(10).get(1);
        assertEquals("AddInstrument", add.command());
        assertEquals("admin", add.operator());
        assertEquals(AdminAudit.OperatorSource.THIS_SERVICE, add.operatorSource());
        assertEquals("listing approved", add.reason());
        assertEquals("NEW-USD", add.fields().get("symbol"));
        assertEquals("0.005", add.fields().get("tickSize"), "at the scale the command itself carries");
        assertEquals("50.000", add.fields().get("referencePrice"));

        // From schema version 4 the change names its operator and reason itself, whoever sent it.
        sentHere.put(43L, new AdminAudit.SentHere("admin", "what this service recorded"));
        commands.reason("new listing");
        answer(43, AddInstrumentDecoder.TEMPLATE_ID, RejectReason.NONE, 5,
            commands.addInstrument(43, 5, "NEW2-USD", 2, 1, 1, 5_000, PriceBandType.BASIS_POINTS, 1000));
        final AdminAudit.Entry named = audit.latest(10).get(0);
        assertEquals("ops1", named.operator());
        assertEquals(AdminAudit.OperatorSource.COMMAND, named.operatorSource());
        assertEquals("new listing", named.reason());
    }

    @Test
    void aCredentialHashIsNeverTurnedIntoText() throws Exception
    {
        answer(51, SetUserCredentialDecoder.TEMPLATE_ID, RejectReason.NONE, 9,
            commands.setUserCredential(51, "trader7", HASH, "reset at their request"));
        answer(52, UpsertUserDecoder.TEMPLATE_ID, RejectReason.UNKNOWN_ACCOUNT, 10,
            commands.upsertUser(52, "trader7", true, new long[] {2001, 9}, "T7", true, 0, "grant"));

        final List<AdminAudit.Entry> entries = audit.latest(10);
        final AdminAudit.Entry credential = entries.get(1);
        assertEquals("SetUserCredential", credential.command());
        assertEquals(Map.of("username", "trader7", "credentialHash", CommandFields.NOT_SHOWN), credential.fields());
        assertEquals("ops1", credential.operator());
        final String json = JsonMapper.builder().build().writeValueAsString(entries);
        assertFalse(json.contains(HASH.substring(20)), json);
        assertFalse(json.contains("c2FsdHNhbHRzYWx0c2FsdA"), "not even the salt");

        final AdminAudit.Entry upsert = entries.get(0);
        assertEquals("UNKNOWN_ACCOUNT", upsert.rejectReason());
        assertEquals(List.of(Map.of("accountId", 2001L), Map.of("accountId", 9L)), upsert.fields().get("accounts"));
        assertEquals("T7", upsert.fields().get("fixSenderCompId"));
        assertEquals("TRUE", upsert.fields().get("enabled"));
    }

    @Test
    void eachCommandIsKeptOnceAndOnlyTheLatestAreKept()
    {
        for (int i = 1; i <= 6; i++)
        {
            answer(60 + i, TakeSnapshotDecoder.TEMPLATE_ID, RejectReason.NONE, 100 + i, commands.takeSnapshot(60 + i));
        }
        // the same answer again, as another member might publish it around a failover
        answer(66, TakeSnapshotDecoder.TEMPLATE_ID, RejectReason.NONE, 106, commands.takeSnapshot(66));
        assertEquals(List.of(106L, 105L, 104L, 103L),
            audit.latest(10).stream().map(AdminAudit.Entry::commandSequence).toList());
        assertEquals(List.of(106L, 105L), audit.latest(2).stream().map(AdminAudit.Entry::commandSequence).toList());
    }

    @Test
    void anAnswerWithoutItsCommandOrWithABrokenOneIsStillListed()
    {
        feed(events.adminResponse(71, SetAccountStatusDecoder.TEMPLATE_ID, AdminStatus.ACCEPTED, RejectReason.NONE,
            20, 1));
        final AdminAudit.Entry bare = audit.latest(1).get(0);
        assertEquals("SetAccountStatus", bare.command(), "named by the template the answer gives");
        assertEquals(Map.of(), bare.fields());

        final int length = commands.setAccountStatus(72, 2001, AccountStatus.SUSPENDED, "review");
        final UnsafeBuffer broken = new UnsafeBuffer(new byte[length - 6]);
        broken.putBytes(0, commands.buffer(), 0, length - 6);
        feed(events.adminResponse(72, SetAccountStatusDecoder.TEMPLATE_ID, AdminStatus.ACCEPTED, RejectReason.NONE,
            21, 1, broken, broken.capacity()));
        final AdminAudit.Entry cut = audit.latest(1).get(0);
        assertEquals("SetAccountStatus", cut.command());
        assertTrue(String.valueOf(cut.fields().get("problem")).startsWith("malformed"), cut.fields().toString());
        assertEquals(null, model.account(2001), "a command that cannot be read changes no account's standing");
    }
}
