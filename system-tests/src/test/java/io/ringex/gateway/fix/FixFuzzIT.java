package io.ringex.gateway.fix;

import io.aeron.CommonContext;
import io.ringex.gateway.Gateway;
import io.ringex.gateway.InstrumentDirectory;
import io.ringex.gateway.testing.EngineStreams;
import io.ringex.gateway.testing.EngineUnderTest;
import io.ringex.gateway.testing.SeededRandom;
import io.ringex.gateway.testing.TestEngines;
import io.ringex.gateway.testing.TestGateways;
import io.ringex.gateway.testing.TestUsers;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.testing.Await;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Fuzzing the FIX acceptor over real TCP for a bounded time ({@code -Dringex.fuzz.seconds}, default 40): a seeded
 * mutator (seed printed; {@code -Dringex.test.seed} replays it) takes valid D, F, G and q messages and changes values
 * (extreme numbers, 19-digit decimals, control bytes, long and empty strings), tags, repeats, drops and reorders
 * fields, inserts bad repeating groups and MsgTypes the gateway does not support, and sends each, framed correctly,
 * on a logged-on session. Each message's fate is predicted with the gateway's own steps ({@link FixDictionaryCheck},
 * {@link FixCommandTranslator}) and the answer must match: a Reject(3) with the predicted SessionRejectReason, the
 * gateway's business reject, or the engine's answer to a forwarded order. Between them, on other connections,
 * framing is broken: random bytes, wrong BodyLength and CheckSum, truncated messages, before and after Logon.
 * <p>
 * At the end the acceptor must still be up (the fuzzed session still logged on, a fresh valid order answered, a new
 * connection able to log on and trade), and the gateway's counters must match what the clients saw: no encoding
 * errors, nothing dropped, Reject(3), business rejects and answers whose echo had to be made printable as counted by
 * the client.
 */
class FixFuzzIT
{
    private static final String IPC = "aeron:ipc";
    private static final String SECONDS_PROP = "ringex.fuzz.seconds";
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HH:mm:ss.SSS");
    private static final long ANSWER_TIMEOUT_MS = 10_000;
    private static final long OPTIONAL_ANSWER_MS = 200;
    private static final int[] BODY_TAGS = { 1, 11, 15, 18, 21, 37, 38, 40, 41, 44, 48, 54, 55, 59, 60, 63, 99, 110,
        111, 114, 117, 126, 167, 207, 423, 526, 530, 583, 5000, 9999, 20000 };
    private static final String[] APP_MSG_TYPES = { "D", "F", "G", "q", "AE", "8", "j", "R", "ZZ", "H", "AF" };

    @TempDir
    Path tempDir;

    private Gateway gateway;
    private EngineUnderTest engine;
    private int port;

    private final FixFields fields = new FixFields();
    private final FixDictionaryCheck dictionaryCheck = new FixDictionaryCheck();
    private final FixCommandTranslator translator = new FixCommandTranslator();
    private final FixEventTranslator answers = new FixEventTranslator();
    private final InstrumentDirectory instruments = new InstrumentDirectory();
    private final UnsafeBuffer commandOut = new UnsafeBuffer(new byte[256]);

    private int clientOrderIds;
    private int sessionRejectsSeen;
    private int gatewayBusinessRejectsSeen;
    private int answersFitted;
    private final int[] outcomes = new int[5];

    @BeforeEach
    void setUp() throws Exception
    {
        try (ServerSocket socket = new ServerSocket(0))
        {
            port = socket.getLocalPort();
        }
        final String aeronDir = CommonContext.generateRandomDirName();
        gateway = Gateway.launch(TestGateways.fixOverIpc(4, aeronDir, tempDir, port)
            .embeddedDriver(true)
            .addInstrument(2, "ETH-USD", 4), Throwable::printStackTrace);
        engine = TestEngines.launch(new EngineStreams(aeronDir, IPC, 1001, IPC, 1002, IPC, 1003,
            new EngineStreams.TestInstrument(1, "BTC-USD", 2)));
        Await.until("library connected and BTC-USD learnt", () -> gateway.fixAgent().isLibraryConnected() &&
            gateway.fixAgent().instrumentCount() >= 2, null);
        instruments.put(1, "BTC-USD", 2);
        instruments.put(2, "ETH-USD", 4);
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(engine, gateway);
    }

    @Test
    void fuzzedMessagesAreAllAnsweredAndTheAcceptorStaysUp() throws Exception
    {
        final SeededRandom random = SeededRandom.forTest("FixFuzzIT");
        final long seconds = Long.getLong(SECONDS_PROP, 40);
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        int sent = 0;
        int chaosEpisodes = 0;
        try (Connection alice = Connection.open(port, "ALICE"))
        {
            alice.logon("alice", TestUsers.ALICE_PASSWORD, false);
            while (System.nanoTime() < deadlineNs)
            {
                if (sent % 40 == 39)
                {
                    chaos(random);
                    chaosEpisodes++;
                }
                final String msgType = random.nextInt(12) == 0 ?
                    APP_MSG_TYPES[random.nextInt(APP_MSG_TYPES.length)] : random.pick("D", "F", "G", "q");
                final List<String[]> body = mutate(random, validBody(msgType.length() == 1 ? msgType : "D"));
                final int seq = alice.nextSeq();
                final byte[] message = frame(msgType, "ALICE", seq, "", body);
                try
                {
                    sendAndCheck(alice, msgType, seq, message, body);
                }
                catch (final AssertionError ex)
                {
                    throw new AssertionError("seed " + random.seed() + " message " + sent + " " +
                        printable(message) + ": " + ex.getMessage(), ex);
                }
                sent++;
            }
            System.out.println("FixFuzzIT: " + sent + " messages, " + chaosEpisodes + " framing episodes; outcomes " +
                "(session reject, business reject, forwarded, unsupported type, garbled to Artio) " +
                java.util.Arrays.toString(outcomes));

            // still up: the fuzzed session trades, and a fresh one logs on and trades
            final int seq = alice.nextSeq();
            alice.send(frame("D", "ALICE", seq, "", validBody("D", "FINAL-A")));
            alice.await("FINAL-A acknowledged", m -> m.contains("\u000135=8\u0001") &&
                m.contains("\u000111=FINAL-A\u0001"));
            assertTrue(alice.messages().stream().noneMatch(m -> m.contains("\u000135=5\u0001")),
                "the fuzzed session was never logged out");
        }
        boolean bobTraded = false;
        for (int attempt = 0; attempt < 5 && !bobTraded; attempt++)
        {
            // a framing episode's connection may still be closing on the acceptor's side: a logon then is refused
            try (Connection bob = Connection.open(port, "BOB"))
            {
                if (bob.tryLogon("bob", TestUsers.BOB_PASSWORD))
                {
                    final List<String[]> body = bobs(validBody("D", "FINAL-B"));
                    bob.send(frame("D", "BOB", bob.nextSeq(), "", body));
                    bob.await("FINAL-B acknowledged", m -> m.contains("\u000135=8\u0001") &&
                        m.contains("\u000111=FINAL-B\u0001"));
                    bobTraded = true;
                }
            }
        }
        assertTrue(bobTraded, "a new connection logs on and trades after the fuzzing");

        assertTrue(sent > 100, "fuzzed " + sent);
        final FixGatewayAgent agent = gateway.fixAgent();
        Await.until("Reject(3) counted as seen: " + sessionRejectsSeen,
            () -> agent.sessionRejectsSent() == sessionRejectsSeen, null);
        Await.until("business rejects counted as seen: " + gatewayBusinessRejectsSeen,
            () -> agent.rejectsSent() - agent.sessionRejectsSent() == gatewayBusinessRejectsSeen, null);
        assertEquals(0, agent.encodingErrors(), "no answer or report failed to encode");
        // what a client sends into an answer's echo (a ClOrdID with control bytes, say) goes back with '?' for what
        // FIX cannot carry; nothing the engine reports of an accepted order needs fitting
        Await.until("answers with fitted echoes counted as seen: " + answersFitted,
            () -> agent.valuesFitted() == answersFitted, null);
        assertEquals(0, agent.droppedMessages(), "nothing dropped");
    }

    // ---------------------------------------------------------------- the checked exchange

    private void sendAndCheck(
        final Connection connection, final String msgType, final int seq, final byte[] message,
        final List<String[]> body) throws IOException
    {
        final int from = connection.messages().size();
        final Predicted predicted = predict(msgType, seq, message);
        outcomes[predicted.outcome]++;
        connection.send(message);
        final String clOrdId = firstValue(body, "11");
        final String echo = clOrdId == null ? null : sanitised(clOrdId);
        final String seqField = "\u000145=" + seq + "\u0001";
        switch (predicted.outcome)
        {
            case Predicted.GARBLED ->
            {
                // Artio ignores what it takes for a garbled message (FIX's rule) and does not count its sequence
                // number: nothing comes back, and the client's next message uses the same number
                connection.drainFor(OPTIONAL_ANSWER_MS);
                assertTrue(connection.messages().subList(from, connection.messages().size()).stream()
                    .noneMatch(m -> m.contains(seqField)), "a message Artio took for garbled was answered");
                connection.reuseSeq();
            }
            case Predicted.SESSION_REJECT ->
            {
                final String reject = connection.awaitFrom(from, "Reject(3) " + predicted.detail,
                    m -> m.contains("\u000135=3\u0001") && m.contains(seqField));
                assertTrue(reject.contains("\u0001373=" + predicted.reason + "\u0001"), "predicted " +
                    predicted.detail + ", got " + printable(reject.getBytes(StandardCharsets.ISO_8859_1)));
                sessionRejectsSeen++;
                answersFitted += predicted.fitted ? 1 : 0;
            }
            case Predicted.BUSINESS_REJECT, Predicted.UNSUPPORTED ->
            {
                final String answer = connection.awaitFrom(from, "gateway reject " + predicted.detail,
                    m -> isGatewayAnswer(m, seqField, echo));
                assertTrue(answer.contains("\u000158=" + predicted.detail) || answer.contains("\u000158=THROTTLED"),
                    "predicted " + predicted.detail + ", got " +
                    printable(answer.getBytes(StandardCharsets.ISO_8859_1)));
                gatewayBusinessRejectsSeen++;
                answersFitted += predicted.fitted && !answer.contains("\u000158=THROTTLED") ? 1 : 0;
            }
            default ->
            {
                // forwarded: the engine answers D, F and G; a mass cancel is answered by the cancels it makes; a
                // status or mass status by reports that may name another ClOrdID (the order's) or none
                if ("q".equals(msgType) || "H".equals(msgType) || "AF".equals(msgType))
                {
                    connection.drainFor(OPTIONAL_ANSWER_MS);
                    break;
                }
                final String answer = connection.awaitFrom(from, "engine answer to " + msgType + " " + echo,
                    m -> m.contains("\u000111=" + echo + "\u0001") || isGatewayAnswer(m, seqField, echo) ||
                        m.contains("\u0001379=" + echo + "\u0001"));
                if (isGatewayAnswer(answer, seqField, echo))
                {
                    assertTrue(answer.contains("\u000158=THROTTLED") || answer.contains("\u000158=ENGINE_BUSY"),
                        printable(answer.getBytes(StandardCharsets.ISO_8859_1)));
                    gatewayBusinessRejectsSeen++;
                }
            }
        }
    }

    /** An answer the gateway made itself (not the engine's): it counts these as rejects. */
    private static boolean isGatewayAnswer(final String m, final String seqField, final String echo)
    {
        if (m.contains("\u000135=j\u0001"))
        {
            return m.contains(seqField);
        }
        if (echo == null || !m.contains("\u000111=" + echo + "\u0001"))
        {
            return false;
        }
        if (m.contains("\u000135=8\u0001"))
        {
            return m.contains("\u000117=G");
        }
        // the gateway's OrderCancelReject says "<REASON>: <detail>"; the engine's, the reason alone
        return m.contains("\u000135=9\u0001") && m.matches("(?s).*\u000158=[A-Z_]+: .*");
    }

    /** The gateway's own steps on the message, to know what it must answer. */
    private Predicted predict(final String msgType, final int seq, final byte[] message)
    {
        if (artioSeesABadCheckSum(message))
        {
            return new Predicted(Predicted.GARBLED, 0, "garbled", false);
        }
        final UnsafeBuffer buffer = new UnsafeBuffer(message);
        fields.scan(buffer, 0, message.length);
        final char type = "D".equals(msgType) || "F".equals(msgType) || "G".equals(msgType) || "q".equals(msgType) ||
            "H".equals(msgType) ? msgType.charAt(0) :
            "AF".equals(msgType) ? FixCommandTranslator.ORDER_MASS_STATUS_REQUEST : '?';
        final int invalid = dictionaryCheck.check(buffer, 0, message.length, type, fields);
        if (invalid != FixDictionaryCheck.VALID)
        {
            answers.sessionReject(fields, seq, dictionaryCheck.invalidTag(), invalid, dictionaryCheck.text());
            return new Predicted(Predicted.SESSION_REJECT, invalid, dictionaryCheck.text().toString(),
                answers.issues() != 0);
        }
        final RejectReason reason = translator.translate(fields, type, TestUsers.ALICE, 1, instruments, commandOut);
        if (reason != RejectReason.NONE)
        {
            answers.reject(fields, type, seq, reason, translator.text(), "UNKNOWN");
            return new Predicted(reason == RejectReason.UNKNOWN_MESSAGE ? Predicted.UNSUPPORTED :
                Predicted.BUSINESS_REJECT, 0, reason.name(), answers.issues() != 0);
        }
        return new Predicted(Predicted.FORWARDED, 0, "forwarded", false);
    }

    /**
     * Artio's framer sums a message's bytes as signed bytes and takes the Java remainder, so a message whose bytes
     * above 0x7F make that sum negative (and not a multiple of 256) fails its CheckSum check however right it is.
     */
    private static boolean artioSeesABadCheckSum(final byte[] message)
    {
        final int trailer = new String(message, StandardCharsets.ISO_8859_1).lastIndexOf("\u000110=") + 1;
        int signedSum = 0;
        for (int i = 0; i < trailer; i++)
        {
            signedSum += message[i];
        }
        return signedSum % 256 != Math.floorMod(signedSum, 256);
    }

    private static final class Predicted
    {
        static final int SESSION_REJECT = 0;
        static final int BUSINESS_REJECT = 1;
        static final int FORWARDED = 2;
        static final int UNSUPPORTED = 3;
        static final int GARBLED = 4;

        final int outcome;
        final int reason;
        final String detail;
        final boolean fitted;

        Predicted(final int outcome, final int reason, final String detail, final boolean fitted)
        {
            this.outcome = outcome;
            this.reason = reason;
            this.detail = detail;
            this.fitted = fitted;
        }
    }

    // ---------------------------------------------------------------- the mutator

    private List<String[]> validBody(final String msgType)
    {
        return validBody(msgType, "FZ" + (++clientOrderIds));
    }

    private static List<String[]> validBody(final String msgType, final String clOrdId)
    {
        final Map<String, String> body = new LinkedHashMap<>();
        body.put("11", clOrdId);
        if ("F".equals(msgType) || "G".equals(msgType))
        {
            body.put("41", "FZ1");
            body.put("37", "0");
        }
        body.put("1", Long.toString(TestUsers.ALICE_ACCOUNT));
        if ("q".equals(msgType))
        {
            body.put("530", "7");
        }
        else
        {
            body.put("55", "BTC-USD");
            body.put("54", "1");
        }
        body.put("60", ZonedDateTime.now(ZoneOffset.UTC).format(TIME));
        if ("D".equals(msgType) || "G".equals(msgType))
        {
            body.put("40", "2");
            body.put("59", "1");
            body.put("44", "90.00");
            body.put("38", "1");
        }
        final List<String[]> fieldsList = new ArrayList<>();
        body.forEach((tag, value) -> fieldsList.add(new String[]{ tag, value }));
        return fieldsList;
    }

    private List<String[]> mutate(final SeededRandom random, final List<String[]> body)
    {
        final int mutations = random.nextInt(4);
        for (int i = 0; i < mutations && !body.isEmpty(); i++)
        {
            final int at = random.nextInt(body.size());
            switch (random.nextInt(9))
            {
                case 0 -> body.get(at)[1] = extremeNumber(random);
                case 1 -> body.get(at)[1] = junkValue(random);
                case 2 -> body.get(at)[0] = Integer.toString(BODY_TAGS[random.nextInt(BODY_TAGS.length)]);
                case 3 -> body.add(random.nextInt(body.size() + 1), new String[]{ body.get(at)[0],
                    random.nextBoolean() ? body.get(at)[1] : extremeNumber(random) });
                case 4 -> body.remove(at);
                case 5 ->
                {
                    final int other = random.nextInt(body.size());
                    final String[] swap = body.get(at);
                    body.set(at, body.get(other));
                    body.set(other, swap);
                }
                case 6 ->
                {
                    body.add(new String[]{ "453", random.pick("2", "0", "abc", "-1", "99999999999") });
                    if (random.nextBoolean())
                    {
                        body.add(new String[]{ "448", "P1" });
                        body.add(new String[]{ "447", "D" });
                    }
                }
                case 7 -> body.add(random.nextInt(body.size() + 1), new String[]{
                    Integer.toString(BODY_TAGS[random.nextInt(BODY_TAGS.length)]), junkValue(random) });
                default -> body.get(at)[1] = body.get(at)[1] + junkValue(random);
            }
        }
        return body;
    }

    private static String extremeNumber(final SeededRandom random)
    {
        final long value = random.extremeLong();
        return switch (random.nextInt(6))
        {
            case 0 -> Long.toString(value);
            case 1 -> FixedPoint.format(value, 2);
            case 2 -> FixedPoint.format(value, 4);
            case 3 -> FixedPoint.format(value, 8);
            case 4 -> random.pick("92233720368547758.07", "1000000000000000000", "5000000000000000000",
                "999999999999999999", "9999999999999999.99", "9223372036854775808", "-9223372036854775808", "+1",
                "1e3", "-0", "0", ".5", "5.", "0.000000000000000000001", "00000000000000000000000000000001");
            default -> Long.toString(value) + random.pick("", "0", ".0", ".00000000000000000001");
        };
    }

    private static String junkValue(final SeededRandom random)
    {
        final int kind = random.nextInt(5);
        final StringBuilder out = new StringBuilder();
        final int length = kind == 4 ? 100 + random.nextInt(300) : random.nextInt(24);
        for (int i = 0; i < length; i++)
        {
            final int c = switch (kind)
            {
                case 0 -> 0x21 + random.nextInt(0x5E);
                case 1 -> random.pick(0, 2, 3, 7, 9, 10, 13, 27, 31, 127, 128, 200, 255, 0x20);
                case 2 -> random.nextBoolean() ? '=' : '0' + random.nextInt(10);
                default -> random.nextInt(256);
            };
            out.append((char)(c == 1 ? 2 : c));
        }
        return out.toString();
    }

    // ---------------------------------------------------------------- broken framing, on other connections

    private void chaos(final SeededRandom random) throws IOException
    {
        try (Connection bob = Connection.open(port, "BOB"))
        {
            final boolean loggedOn = random.nextBoolean() && bob.tryLogon("bob", TestUsers.BOB_PASSWORD);
            for (int i = 0, n = 1 + random.nextInt(3); i < n; i++)
            {
                final byte[] good = frame("D", "BOB", loggedOn ? bob.nextSeq() : 1, "", bobs(validBody("D")));
                bob.send(broken(random, good));
            }
            bob.drainFor(300);
            for (final String m : bob.messages())
            {
                // broken framing must not reach the gateway's checks; count anything that did, to keep the books
                if (m.contains("\u000135=3\u0001") && isOurSessionReject(m))
                {
                    sessionRejectsSeen++;
                }
                else if (isGatewayRefusal(m))
                {
                    gatewayBusinessRejectsSeen++;
                }
            }
        }
    }

    private static List<String[]> bobs(final List<String[]> body)
    {
        for (final String[] field : body)
        {
            if ("1".equals(field[0]))
            {
                field[1] = Long.toString(TestUsers.BOB_ACCOUNT);
            }
        }
        return body;
    }

    private static boolean isGatewayRefusal(final String m)
    {
        return (m.contains("\u000135=j\u0001") && m.contains("\u000145=")) ||
            (m.contains("\u000135=8\u0001") && m.contains("\u000117=G")) ||
            (m.contains("\u000135=9\u0001") && m.matches("(?s).*\u000158=[A-Z_]+: .*"));
    }

    private static boolean isOurSessionReject(final String m)
    {
        for (final int reason : new int[]{ 0, 1, 4, 5, 6, 13, 16, 99 })
        {
            if (m.contains("\u000158=" + FixDictionaryCheck.reasonText(reason)))
            {
                return true;
            }
        }
        return false;
    }

    private static byte[] broken(final SeededRandom random, final byte[] good)
    {
        final String text = new String(good, StandardCharsets.ISO_8859_1);
        return switch (random.nextInt(8))
        {
            case 0 -> random.bytes(500);
            case 1 -> (text.substring(0, text.length() - 4) + "999\u0001").getBytes(StandardCharsets.ISO_8859_1);
            case 2 -> text.replaceFirst("\u00019=(\\d+)", "\u00019=" + (random.nextInt(400) + 1))
                .getBytes(StandardCharsets.ISO_8859_1);
            case 3 -> text.substring(0, random.nextInt(text.length())).getBytes(StandardCharsets.ISO_8859_1);
            case 4 -> text.replaceFirst("8=FIX.4.4", "8=FIX.4.2").getBytes(StandardCharsets.ISO_8859_1);
            case 5 -> text.replaceFirst("\u00019=(\\d+)", "\u00019=99999999").getBytes(StandardCharsets.ISO_8859_1);
            case 6 -> text.replaceFirst("\u00019=(\\d+)", "\u00019=x1").getBytes(StandardCharsets.ISO_8859_1);
            default -> text.replace("\u000111=", "\u000111\u0001=").getBytes(StandardCharsets.ISO_8859_1);
        };
    }

    // ---------------------------------------------------------------- wire helpers

    private static byte[] frame(
        final String msgType, final String sender, final int seq, final String extraHeader, final List<String[]> body)
    {
        final StringBuilder afterLength = new StringBuilder();
        afterLength.append("35=").append(msgType).append('\u0001').append("49=").append(sender)
            .append("\u000156=RINGEX\u000134=").append(seq).append("\u000152=")
            .append(ZonedDateTime.now(ZoneOffset.UTC).format(TIME)).append('\u0001').append(extraHeader);
        for (final String[] field : body)
        {
            afterLength.append(field[0]).append('=').append(field[1]).append('\u0001');
        }
        final byte[] tail = afterLength.toString().getBytes(StandardCharsets.ISO_8859_1);
        final String head = "8=FIX.4.4\u00019=" + tail.length + "\u0001";
        final byte[] headBytes = head.getBytes(StandardCharsets.ISO_8859_1);
        int sum = 0;
        for (final byte b : headBytes)
        {
            sum += b & 0xFF;
        }
        for (final byte b : tail)
        {
            sum += b & 0xFF;
        }
        final byte[] trailer = String.format("10=%03d\u0001", sum % 256).getBytes(StandardCharsets.ISO_8859_1);
        final byte[] message = new byte[headBytes.length + tail.length + trailer.length];
        System.arraycopy(headBytes, 0, message, 0, headBytes.length);
        System.arraycopy(tail, 0, message, headBytes.length, tail.length);
        System.arraycopy(trailer, 0, message, headBytes.length + tail.length, trailer.length);
        return message;
    }

    private static String firstValue(final List<String[]> body, final String tag)
    {
        for (final String[] field : body)
        {
            if (field[0].equals(tag))
            {
                return field[1];
            }
        }
        return null;
    }

    private static String sanitised(final String value)
    {
        final StringBuilder out = new StringBuilder();
        for (int i = 0; i < value.length(); i++)
        {
            final char c = value.charAt(i);
            out.append(c >= ' ' && c <= '~' ? c : '?');
        }
        return out.toString();
    }

    private static String printable(final byte[] message)
    {
        final StringBuilder out = new StringBuilder();
        for (final byte b : message)
        {
            final int c = b & 0xFF;
            if (c == 1)
            {
                out.append('|');
            }
            else if (c >= ' ' && c <= '~')
            {
                out.append((char)c);
            }
            else
            {
                out.append("\\x").append(String.format("%02x", c));
            }
        }
        return out.toString();
    }

    /** A bare FIX connection: bytes out, whole messages in (as ISO-8859-1 text with SOH), test requests answered. */
    private static final class Connection implements AutoCloseable
    {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;
        private final String senderCompId;
        private final StringBuilder pending = new StringBuilder();
        private final List<String> received = new ArrayList<>();
        private int nextSeq = 1;

        private Connection(final Socket socket, final String senderCompId) throws IOException
        {
            this.socket = socket;
            this.in = socket.getInputStream();
            this.out = socket.getOutputStream();
            this.senderCompId = senderCompId;
            socket.setSoTimeout(20);
        }

        static Connection open(final int port, final String senderCompId) throws IOException
        {
            return new Connection(new Socket("localhost", port), senderCompId);
        }

        int nextSeq()
        {
            return nextSeq++;
        }

        void reuseSeq()
        {
            nextSeq--;
        }

        void logon(final String username, final String password, final boolean reset) throws IOException
        {
            sendLogon(username, password, reset);
            await(senderCompId + " logged on", m -> m.contains("\u000135=A\u0001"));
        }

        /**
         * Log on with ResetSeqNumFlag=Y, so that every connection starts at 1.
         *
         * @return false if the acceptor did not answer with a Logon within a second.
         */
        boolean tryLogon(final String username, final String password) throws IOException
        {
            sendLogon(username, password, true);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            while (System.nanoTime() < deadline)
            {
                if (received.stream().anyMatch(m -> m.contains("\u000135=A\u0001")))
                {
                    return true;
                }
                if (!read())
                {
                    return false;
                }
            }
            return false;
        }

        private void sendLogon(final String username, final String password, final boolean reset)
            throws IOException
        {
            final List<String[]> body = new ArrayList<>();
            body.add(new String[]{ "98", "0" });
            body.add(new String[]{ "108", "30" });
            if (reset)
            {
                body.add(new String[]{ "141", "Y" });
            }
            body.add(new String[]{ "553", username });
            body.add(new String[]{ "554", password });
            send(frame("A", senderCompId, nextSeq(), "", body));
        }

        void send(final byte[] bytes) throws IOException
        {
            try
            {
                out.write(bytes);
                out.flush();
            }
            catch (final IOException ex)
            {
                if (!"BOB".equals(senderCompId))
                {
                    throw ex;
                }
                // a framing episode may have made the acceptor close this connection: that is its right
            }
        }

        List<String> messages()
        {
            return received;
        }

        String await(final String what, final java.util.function.Predicate<String> predicate) throws IOException
        {
            return awaitFrom(0, what, predicate);
        }

        String awaitFrom(final int from, final String what, final java.util.function.Predicate<String> predicate)
            throws IOException
        {
            final int[] checked = { from };
            final String[] found = new String[1];
            Await.until(what, Duration.ofMillis(ANSWER_TIMEOUT_MS), () ->
            {
                for (; checked[0] < received.size(); checked[0]++)
                {
                    if (predicate.test(received.get(checked[0])))
                    {
                        found[0] = received.get(checked[0]);
                        return true;
                    }
                }
                return false;
            }, this::readUnchecked, () -> "received since: " + received.subList(Math.min(from, received.size()),
                received.size()).stream().map(m -> printable(m.getBytes(StandardCharsets.ISO_8859_1))).toList());
            return found[0];
        }

        void drainFor(final long millis) throws IOException
        {
            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
            while (System.nanoTime() < deadline && !socket.isClosed())
            {
                if (!read())
                {
                    return;
                }
            }
        }

        private void readUnchecked()
        {
            try
            {
                read();
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }

        /**
         * @return false once the peer closed the connection.
         */
        private boolean read() throws IOException
        {
            final byte[] chunk = new byte[8192];
            final int count;
            try
            {
                count = in.read(chunk);
            }
            catch (final SocketTimeoutException ex)
            {
                return true;
            }
            catch (final IOException ex)
            {
                if ("BOB".equals(senderCompId))
                {
                    return false;
                }
                throw ex;
            }
            if (count < 0)
            {
                if (!"BOB".equals(senderCompId))
                {
                    fail(senderCompId + "'s connection was closed by the acceptor; received " + received.size());
                }
                return false;
            }
            pending.append(new String(chunk, 0, count, StandardCharsets.ISO_8859_1));
            int end;
            while ((end = checksumEnd()) > 0)
            {
                final String message = pending.substring(0, end);
                pending.delete(0, end);
                received.add(message);
                if (message.contains("\u000135=1\u0001"))
                {
                    final int at = message.indexOf("\u0001112=");
                    final String id = at < 0 ? "" : message.substring(at + 5, message.indexOf('\u0001', at + 1));
                    final List<String[]> body = new ArrayList<>();
                    body.add(new String[]{ "112", id });
                    send(frame("0", senderCompId, nextSeq(), "", body));
                }
            }
            return true;
        }

        private int checksumEnd()
        {
            final int checksum = pending.indexOf("\u000110=");
            if (checksum < 0)
            {
                return -1;
            }
            final int soh = pending.indexOf("\u0001", checksum + 1);
            return soh < 0 ? -1 : soh + 1;
        }

        public void close() throws IOException
        {
            socket.close();
        }
    }
}
