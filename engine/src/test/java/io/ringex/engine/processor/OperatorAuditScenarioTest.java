package io.ringex.engine.processor;

import io.ringex.protocol.codecs.AddInstrumentDecoder;
import io.ringex.protocol.codecs.AdminStatus;
import io.ringex.protocol.codecs.KillSwitchScope;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.TradingStatus;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.IntSupplier;

import static io.ringex.engine.processor.Harness.only;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Schema version 4: every operator's change names its operator and may give a reason, checked by the processor; a
 * change written before version 4 carries neither and is taken as it always was; a ReferenceDataRequest is answered
 * with the venue's reference data, then its AdminResponse, and changes nothing.
 */
class OperatorAuditScenarioTest
{
    private static final String LONG_REASON = "x".repeat(65);

    @Test
    void aVersion4ChangeWithoutAnOperatorOrWithAnUnusableReasonIsRefusedAndChangesNothing()
    {
        final Harness h = Harness.standard();
        final List<IntSupplier> changes = List.of(
            () -> h.encoder.addInstrument(11, 2, "NEW", 2, 1, 1, 100, PriceBandType.TICKS, 10),
            () -> h.encoder.addAccount(12, 9, SelfTradePrevention.CANCEL_NEWEST),
            () -> h.encoder.setLimits(13, 1, 5, 5, 5, 5, 5, false, new int[]{ Harness.INSTRUMENT }, new long[]{ 3 }),
            () -> h.encoder.setTradingStatus(14, Harness.INSTRUMENT, TradingStatus.HALTED),
            () -> h.encoder.setDynamicBand(15, Harness.INSTRUMENT, 100, 1_000_000),
            () -> h.encoder.killSwitch(16, KillSwitchScope.ACCOUNT, 1, true),
            () -> h.encoder.takeSnapshot(17),
            () -> h.encoder.endOfDay(18));
        final long hash = h.processor.stateHash();
        for (final String[] bad : new String[][]{ { "", "" }, { "two words", "" }, { "ops1", LONG_REASON },
            { "ops1", "tab\there" } })
        {
            h.encoder.operator(bad[0]).reason(bad[1]);
            for (final IntSupplier change : changes)
            {
                final Harness.Admin answer = only(h.send(change.getAsInt()), Harness.Admin.class).get(0);
                assertEquals(RejectReason.INVALID_ARGUMENT, answer.reason(), "operator '" + bad[0] + "' reason '" +
                    bad[1] + "': request " + answer.requestId());
            }
        }
        h.processor.onEndOfBatch();
        assertEquals(hash, h.processor.stateHash(), "nothing refused changed the state");

        h.encoder.operator("ops1").reason("new listing");
        for (final IntSupplier change : changes)
        {
            final Harness.Admin answer = only(h.send(change.getAsInt()), Harness.Admin.class).get(0);
            assertEquals(AdminStatus.ACCEPTED, answer.status(), "request " + answer.requestId() + " " + answer);
        }
    }

    @Test
    void aChangeWrittenBeforeVersion4NamesNoOperatorAndIsTakenAsBefore()
    {
        final Harness h = Harness.standard();
        final int length = h.encoder.addInstrument(21, 2, "OLD", 2, 1, 1, 100, PriceBandType.TICKS, 10);
        // What schema version 3 wrote: the same root block, nothing after it, version 3 in the header.
        final int withoutAudit = MessageHeaderEncoder.ENCODED_LENGTH + AddInstrumentDecoder.BLOCK_LENGTH;
        assertTrue(length > withoutAudit);
        h.encoder.buffer().putShort(MessageHeaderEncoder.versionEncodingOffset(), (short)3,
            MessageHeaderEncoder.BYTE_ORDER);
        final List<Object> events = h.send(withoutAudit);
        assertEquals(AdminStatus.ACCEPTED, only(events, Harness.Admin.class).get(0).status());
        assertEquals(1, only(events, Harness.Definition.class).size(), "the instrument is listed");
    }

    @Test
    void aReferenceDataRequestIsAnsweredWithEveryInstrumentAndAccountThenItsAnswerAndChangesNothing()
    {
        final Harness h = Harness.standard();
        h.send(h.encoder.addInstrument(31, 2, "TWO", 2, 1, 1, 100, PriceBandType.TICKS, 10));
        h.processor.onEndOfBatch();
        h.sink.clear();
        final long hash = h.processor.stateHash();

        final List<Object> answer = h.send(h.encoder.referenceDataRequest(77));
        assertEquals(List.of(1, 2), only(answer, Harness.Definition.class).stream()
            .map(Harness.Definition::instrumentId).toList());
        assertEquals(List.of(1L, 2L, 3L), only(answer, Harness.Risk.class).stream().map(Harness.Risk::accountId)
            .distinct().toList());
        final Object last = answer.get(answer.size() - 1);
        assertEquals(new Harness.Admin(77, AdminStatus.ACCEPTED, RejectReason.NONE), last,
            "the answer comes last, after everything it stands for");
        h.processor.onEndOfBatch();
        assertEquals(hash, h.processor.stateHash(), "a read changes nothing");
    }
}
