package io.ringex.client;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.ringex.protocol.codecs.AdminResponseEncoder;
import io.ringex.protocol.codecs.AdminStatus;
import io.ringex.protocol.codecs.AuthenticatedCommandDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.SelfTradePrevention;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link AdminClient#request} takes its own answer: on a real media driver, an engine stand-in answers every command
 * first as if to another admin source with the same request id (another command echoed), then to this one.
 */
class AdminClientTest
{
    private static final String IPC = "aeron:ipc";
    private static final int INGRESS = 1001;
    private static final int RISK = 1004;
    private static final AdminKey KEY = AdminKeys.generate("test").keys().get(0);

    private MediaDriver driver;
    private Aeron aeron;
    private Thread engine;
    private final AtomicBoolean running = new AtomicBoolean(true);

    @BeforeEach
    void start()
    {
        driver = MediaDriver.launchEmbedded(new MediaDriver.Context().threadingMode(ThreadingMode.SHARED)
            .dirDeleteOnStart(true).dirDeleteOnShutdown(true).ipcTermBufferLength(64 * 1024));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
    }

    @AfterEach
    void stop() throws InterruptedException
    {
        running.set(false);
        if (null != engine)
        {
            engine.join();
        }
        CloseHelper.quietCloseAll(aeron, driver);
    }

    @Test
    void aRequestTakesTheAnswerThatEchoesItsCommandNotAnotherSourcesWithTheSameRequestId()
    {
        startEngine(true);
        try (AdminClient admin = new AdminClient(aeron, IPC, INGRESS, IPC, RISK, KEY))
        {
            final AdminClient.Answer answer = admin.request(admin.commands().addAccount(7, 1001,
                SelfTradePrevention.CANCEL_NEWEST));

            assertFalse(answer.accepted());
            assertEquals(RejectReason.DUPLICATE_ID, answer.reason());
            assertEquals(7, answer.requestId());
            assertEquals(2, answer.commandSequence());
        }
    }

    @Test
    void noAnswerWithinTheTimeoutIsAnError()
    {
        startEngine(false);
        try (AdminClient admin = new AdminClient(aeron, IPC, INGRESS, IPC, RISK, KEY))
        {
            admin.timeoutNs(TimeUnit.MILLISECONDS.toNanos(300));
            final int length = admin.commands().addAccount(8, 1001, SelfTradePrevention.CANCEL_NEWEST);
            final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> admin.request(length));
            assertTrue(ex.getMessage().contains("no answer from the engine to request 8"), ex.getMessage());
        }
    }

    /**
     * @param answerOwn whether the command itself gets an answer (else only the other source's does).
     */
    private void startEngine(final boolean answerOwn)
    {
        final Subscription ingress = aeron.addSubscription(IPC, INGRESS);
        final Publication risk = aeron.addPublication(IPC, RISK);
        engine = new Thread(() ->
        {
            final UnsafeBuffer out = new UnsafeBuffer(new byte[1024]);
            final MessageHeaderDecoder header = new MessageHeaderDecoder();
            while (running.get())
            {
                ingress.poll((DirectBuffer signed, int signedOffset, int signedLength,
                    io.aeron.logbuffer.Header h) ->
                {
                    // An admin command comes signed: the engine answers the command inside.
                    final AuthenticatedCommandDecoder envelope = new AuthenticatedCommandDecoder()
                        .wrapAndApplyHeader(signed, signedOffset, new MessageHeaderDecoder());
                    assertEquals(KEY.id(), envelope.keyId());
                    final int length = envelope.commandLength();
                    final int offset = envelope.limit() + AuthenticatedCommandDecoder.commandHeaderLength();
                    final DirectBuffer buffer = signed;
                    header.wrap(buffer, offset);
                    final long requestId = buffer.getLong(offset + MessageHeaderDecoder.ENCODED_LENGTH,
                        java.nio.ByteOrder.LITTLE_ENDIAN);
                    // Another source's command with the same request id: the same message, another account.
                    final UnsafeBuffer other = new UnsafeBuffer(new byte[length]);
                    other.putBytes(0, buffer, offset, length);
                    other.putLong(MessageHeaderDecoder.ENCODED_LENGTH + 8, 999_999, java.nio.ByteOrder.LITTLE_ENDIAN);
                    offer(risk, out, answer(out, requestId, header.templateId(), RejectReason.NONE, 1, other, 0,
                        length));
                    if (answerOwn)
                    {
                        offer(risk, out, answer(out, requestId, header.templateId(), RejectReason.DUPLICATE_ID, 2,
                            buffer, offset, length));
                    }
                }, 10);
                Thread.onSpinWait();
            }
        });
        engine.start();
    }

    private static int answer(
        final UnsafeBuffer out,
        final long requestId,
        final int templateId,
        final RejectReason reason,
        final long sequence,
        final DirectBuffer command,
        final int offset,
        final int length)
    {
        return MessageHeaderEncoder.ENCODED_LENGTH + new AdminResponseEncoder()
            .wrapAndApplyHeader(out, 0, new MessageHeaderEncoder())
            .requestId(requestId)
            .templateId(templateId)
            .status(reason == RejectReason.NONE ? AdminStatus.ACCEPTED : AdminStatus.REJECTED)
            .rejectReason(reason)
            .commandSequence(sequence)
            .timestampNs(0)
            .putCommand(command, offset, length)
            .encodedLength();
    }

    private static void offer(final Publication publication, final UnsafeBuffer buffer, final int length)
    {
        while (publication.offer(buffer, 0, length) < 0)
        {
            Thread.onSpinWait();
        }
    }
}
