package io.ringex.engine.node;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.ringex.client.AdminCommandSigner;
import io.ringex.client.AdminKey;
import io.ringex.client.AdminKeys;
import io.ringex.client.CommandEncoder;
import io.ringex.journal.Journal;
import io.ringex.journal.JournalReader;
import io.ringex.protocol.SessionIds;
import io.ringex.protocol.codecs.AuthenticatedCommandDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewEpochEncoder;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import io.ringex.testing.Await;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The engine's ingress takes an operator's admin command only with the proof of a key it holds: a command forged on a
 * raw Aeron publication (unsigned, signed with a key it does not hold, with a wrong MAC, tampered with, sent again,
 * signed outside the window) is refused before the ring and counted in {@code ingress-admin-refused}; nothing is
 * journaled and the state hash does not move. A valid one is journaled alone, its source the key's number.
 */
class AdminAuthenticationIT
{
    private static final String IPC = "aeron:ipc";
    private static final long ADMIN_CLAIMED = SessionIds.sessionId(SessionIds.ADMIN_GATEWAY_ID, 99);

    @RegisterExtension
    final NodeTestResources env = new NodeTestResources();

    @TempDir
    Path dir;

    private final CommandEncoder commands = new CommandEncoder();
    private final UnsafeBuffer signed = new UnsafeBuffer(new byte[1024]);
    private EngineNode node;
    private EngineContext ctx;
    private EngineTestClient client;
    private Publication raw;

    private void start(final AdminKeys keys)
    {
        ctx = NodeTestSupport.forTest(new EngineContext())
            .adminKeys(keys)
            .aeronDirectoryName(env.aeronDirectoryName())
            .ingressChannel(IPC)
            .outboundChannel(IPC)
            .journalDirectory(dir.resolve("journal"))
            .snapshotDirectory(dir.resolve("snapshots"))
            .inputRingCapacity(1024)
            .outputRingCapacity(1024)
            .statusIntervalNs(50_000_000L);
        node = env.closing(EngineNode.launch(ctx));
        client = env.closing(new EngineTestClient(env.aeronDirectoryName(), ctx, IPC));
        client.awaitConnected();
        final Aeron aeron = env.closing(Aeron.connect(new Aeron.Context()
            .aeronDirectoryName(env.aeronDirectoryName())));
        // What an attacker who reaches the ingress has: an Aeron publication of its own.
        raw = env.closing(aeron.addExclusivePublication(ctx.ingressChannel(), ctx.ingressStreamId()));
        Await.until("the raw publication connected", raw::isConnected);
    }

    @Test
    void forgedAdminCommandsAreRefusedCountedAndChangeNothing()
    {
        final AdminKey key = NodeTestSupport.ADMIN_KEYS.keys().get(0);
        start(NodeTestSupport.ADMIN_KEYS);
        client.setUpMarket(1001);
        Await.until("the market set up", Await.DEFAULT_TIMEOUT, () -> client.adminResponses.size() == 4,
            client::poll, () -> client.adminResponses);
        final long hash = node.stateHash();
        final long journaled = node.journaledSequence();
        final int answers = client.adminResponses.size();
        long refused = node.counter("ingress-admin-refused");

        // 1. unsigned, claiming to be an admin source in the frame: a deposit to an account, a venue kill switch
        sendRaw(commands.buffer(), commands.adjustBalance(500, 1001, 1_000_000_000L));
        refused = awaitRefused(refused + 1);
        sendRaw(commands.buffer(), commands.killSwitch(501, io.ringex.protocol.codecs.KillSwitchScope.VENUE, 0,
            true));
        refused = awaitRefused(refused + 1);

        // 2. signed with a key the node does not hold (another number), and with another secret under its number
        sendRaw(signed, new AdminCommandSigner(new AdminKey(42, "stranger", randomSecret()))
            .sign(commands.buffer(), 0, commands.addAccount(502, 2002, SelfTradePrevention.CANCEL_NEWEST),
            signed, 0));
        refused = awaitRefused(refused + 1);
        sendRaw(signed, new AdminCommandSigner(new AdminKey(key.id(), key.name(), randomSecret()))
            .sign(commands.buffer(), 0, commands.addAccount(503, 2002, SelfTradePrevention.CANCEL_NEWEST),
            signed, 0));
        refused = awaitRefused(refused + 1);

        // 3. signed right, then tampered with: the account changed after signing
        final AdminCommandSigner signer = new AdminCommandSigner(key);
        int length = signer.sign(commands.buffer(), 0,
            commands.adjustBalance(504, 1001, 5_000_000_000L), signed, 0);
        final AuthenticatedCommandDecoder envelope = new AuthenticatedCommandDecoder()
            .wrapAndApplyHeader(signed, 0, new io.ringex.protocol.codecs.MessageHeaderDecoder());
        final int commandOffset = envelope.limit() + AuthenticatedCommandDecoder.commandHeaderLength();
        signed.putLong(commandOffset + MessageHeaderEncoder.ENCODED_LENGTH + 8, 1002);
        sendRaw(signed, length);
        refused = awaitRefused(refused + 1);

        // 4. signed too long ago, and too far ahead (a clock the node does not share)
        final long now = System.currentTimeMillis() * 1_000_000L;
        final long window = ctx.adminAuthWindowNs();
        sendRaw(signed, new AdminCommandSigner(key, () -> now - 3 * window, () -> 7L)
            .sign(commands.buffer(), 0, commands.addAccount(505, 2002, SelfTradePrevention.CANCEL_NEWEST),
            signed, 0));
        refused = awaitRefused(refused + 1);
        sendRaw(signed, new AdminCommandSigner(key, () -> now + 3 * window, () -> 8L)
            .sign(commands.buffer(), 0, commands.addAccount(506, 2002, SelfTradePrevention.CANCEL_NEWEST),
            signed, 0));
        refused = awaitRefused(refused + 1);

        // 5. signed right around what is no operator's command: a NewOrder, a NewEpoch; and a bare NewEpoch
        sendRaw(signed, signer.sign(commands.buffer(), 0, commands.newOrder(SessionIds.sessionId(1, 1), 1001, 1,
            EngineTestClient.INSTRUMENT, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false,
            SelfTradePrevention.ACCOUNT_DEFAULT, 10_000, 1), signed, 0));
        refused = awaitRefused(refused + 1);
        final UnsafeBuffer newEpoch = new UnsafeBuffer(new byte[64]);
        final int newEpochLength = MessageHeaderEncoder.ENCODED_LENGTH + new NewEpochEncoder()
            .wrapAndApplyHeader(newEpoch, 0, new MessageHeaderEncoder()).requestId(507).epoch(9).nodeId(1)
            .encodedLength();
        sendRaw(signed, signer.sign(newEpoch, 0, newEpochLength, signed, 0));
        refused = awaitRefused(refused + 1);
        sendRaw(newEpoch, newEpochLength);
        refused = awaitRefused(refused + 1);

        Await.never("an answer to a refused command", Duration.ofMillis(300),
            () -> client.adminResponses.size() != answers, client::poll);
        assertEquals(journaled, node.journaledSequence(), "nothing journaled");
        assertEquals(hash, node.stateHash(), "nothing changed");

        // 6. signed right: journaled alone, its source the key's number; and the same bytes again are a replay
        length = signer.sign(commands.buffer(), 0, commands.addAccount(508, 2002, SelfTradePrevention.CANCEL_NEWEST),
            signed, 0);
        final byte[] command = new byte[commands.addAccount(508, 2002, SelfTradePrevention.CANCEL_NEWEST)];
        commands.buffer().getBytes(0, command);
        final byte[] sniffed = new byte[length];
        signed.getBytes(0, sniffed);
        sendRaw(signed, length);
        Await.until("the signed command answered", () -> client.adminResponses.size() == answers + 1, client::poll);
        assertEquals("ACCEPTED:NONE", client.adminResponses.get(answers));
        final List<Record> records = journal();
        final Record last = records.get(records.size() - 1);
        assertEquals(SessionIds.sessionId(SessionIds.ADMIN_GATEWAY_ID, key.id()), last.sourceId,
            "the journal names the key");
        assertArrayEquals(command, last.bytes, "the command alone is journaled, not its envelope");
        final long afterHash = node.stateHash();
        final long afterJournaled = node.journaledSequence();

        sendRaw(new UnsafeBuffer(sniffed), sniffed.length);
        awaitRefused(refused + 1);
        Await.never("an answer to a replayed command", Duration.ofMillis(300),
            () -> client.adminResponses.size() != answers + 1, client::poll);
        assertEquals(afterJournaled, node.journaledSequence());
        assertEquals(afterHash, node.stateHash());

        // The gateways' bookkeeping needs no key, and names nobody: a user directory request claiming an admin source
        // is journaled with source 0.
        sendRaw(commands.buffer(), commands.userDirectoryRequest(1, 509));
        Await.until("the directory request journaled", () -> node.journaledSequence() == afterJournaled + 1);
        final List<Record> after = journal();
        assertEquals(0, after.get(after.size() - 1).sourceId);
        assertEquals(afterHash, node.stateHash(), "a directory request changes nothing");

        // A reference-data request is an operator's: unsigned, refused unjournaled and unanswered; signed, journaled
        // under the key and answered, changing nothing.
        final long directoryJournaled = node.journaledSequence();
        sendRaw(commands.buffer(), commands.referenceDataRequest(510));
        awaitRefused(refused + 2);
        assertEquals(directoryJournaled, node.journaledSequence());
        sendRaw(signed, signer.sign(commands.buffer(), 0, commands.referenceDataRequest(511), signed, 0));
        Await.until("the signed reference-data request answered",
            () -> client.adminResponses.size() == answers + 2, client::poll);
        assertEquals("ACCEPTED:NONE", client.adminResponses.get(answers + 1));
        final List<Record> read = journal();
        assertEquals(SessionIds.sessionId(SessionIds.ADMIN_GATEWAY_ID, key.id()), read.get(read.size() - 1).sourceId);
        assertEquals(afterHash, node.stateHash(), "a reference-data request changes nothing");
    }

    @Test
    void aNodeWithoutAdminKeysRefusesEveryAdminCommand()
    {
        start(null);
        final long refused = node.counter("ingress-admin-refused");
        final long journaled = node.journaledSequence();
        final AdminCommandSigner signer = new AdminCommandSigner(NodeTestSupport.ADMIN_KEYS.keys().get(0));
        sendRaw(signed, signer.sign(commands.buffer(), 0, commands.addAccount(1, 1001,
            SelfTradePrevention.CANCEL_NEWEST), signed, 0));
        sendRaw(commands.buffer(), commands.addAccount(2, 1001, SelfTradePrevention.CANCEL_NEWEST));
        awaitRefused(refused + 2);
        assertEquals(journaled, node.journaledSequence());
    }

    private long awaitRefused(final long expected)
    {
        Await.until("ingress-admin-refused at " + expected, Await.DEFAULT_TIMEOUT,
            () -> node.counter("ingress-admin-refused") == expected, client::poll,
            () -> node.counter("ingress-admin-refused"));
        return expected;
    }

    private void sendRaw(final org.agrona.DirectBuffer buffer, final int length)
    {
        Await.until("offered", () -> raw.offer(buffer, 0, length, (termBuffer, termOffset, frameLength) ->
            ADMIN_CLAIMED) > 0, client::poll);
    }

    private static byte[] randomSecret()
    {
        final byte[] secret = new byte[AdminKey.MIN_SECRET_LENGTH];
        new java.security.SecureRandom().nextBytes(secret);
        return secret;
    }

    private record Record(long sourceId, int templateId, byte[] bytes)
    {
    }

    private List<Record> journal()
    {
        final List<Record> records = new ArrayList<>();
        try (Journal journal = Journal.open(ctx.journalDirectory(), Journal.Durability.PROCESS);
            JournalReader reader = journal.newReader())
        {
            while (reader.read((sequence, timestampNs, sourceId, templateId, buffer, offset, length) ->
            {
                final byte[] bytes = new byte[length];
                buffer.getBytes(offset, bytes);
                records.add(new Record(sourceId, templateId, bytes));
            }, 1024) > 0)
            {
                // until the end
            }
        }
        return records;
    }
}
