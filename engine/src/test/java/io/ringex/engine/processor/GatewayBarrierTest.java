package io.ringex.engine.processor;

import io.ringex.protocol.codecs.GatewayBarrierEncoder;
import io.ringex.protocol.codecs.GatewayBarrierReachedDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.Side;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A gateway's barrier is answered in command order, echoing its token and naming its own command sequence, and
 * changes nothing a replay or a standby could disagree on.
 */
final class GatewayBarrierTest
{
    private static final long GATEWAY_SESSION = 5L << 32;

    @Test
    void isAnsweredAfterTheEventsOfEarlierCommandsAndChangesNoState()
    {
        final Harness h = Harness.standard();
        h.send(h.encoder.limit(Harness.SESSION, 1, 1, Harness.INSTRUMENT, Side.BUY, 9_000, 10));
        final long hashBefore = h.processor.stateHash();
        final int before = h.sink.size();

        final UnsafeBuffer command = new UnsafeBuffer(new byte[64]);
        final GatewayBarrierEncoder barrier = new GatewayBarrierEncoder()
            .wrapAndApplyHeader(command, 0, new MessageHeaderEncoder())
            .sessionId(GATEWAY_SESSION)
            .token(424242);
        h.processor.onCommand(++h.sequence, ++h.time, 0, command, 0,
            MessageHeaderEncoder.ENCODED_LENGTH + barrier.encodedLength());

        assertEquals(before + 1, h.sink.size(), "one event: the answer");
        final MessageHeaderDecoder header = new MessageHeaderDecoder().wrap(h.sink.events(), h.sink.offset(before));
        assertEquals(GatewayBarrierReachedDecoder.TEMPLATE_ID, header.templateId());
        final GatewayBarrierReachedDecoder reached = new GatewayBarrierReachedDecoder().wrap(h.sink.events(),
            h.sink.offset(before) + MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(), header.version());
        assertEquals(GATEWAY_SESSION, reached.sessionId());
        assertEquals(424242, reached.token());
        assertEquals(h.sequence, reached.commandSequence());
        assertEquals(hashBefore, h.processor.stateHash(), "the state hash is unchanged");
        assertEquals(1, h.processor.state().orders.size(), "the resting order is still the only one");
    }
}
