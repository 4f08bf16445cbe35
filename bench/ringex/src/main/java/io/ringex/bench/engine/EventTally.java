package io.ringex.bench.engine;

import io.ringex.protocol.codecs.AdminResponseDecoder;
import io.ringex.protocol.codecs.AdminStatus;
import io.ringex.protocol.codecs.BusinessRejectDecoder;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.RejectReason;
import org.agrona.DirectBuffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Counts what an engine emits, by template, and every refusal by kind and reason: an ExecutionReport REJECTED, a
 * CancelReject, a BusinessReject, an AdminResponse REJECTED. Reads a few fixed offsets per event and allocates
 * nothing, so it can sit on a benchmark's hot path. Also remembers the highest commandSequence seen on an
 * ExecutionReport or CancelReject, which tells a client when its last command has been answered.
 * <p>
 * Threading: one thread writes; read the counts from another only after a happens-before edge (thread join, or an
 * acquire of a sequence the writer released after counting). {@link #maxCommandSequence()} may be read from any
 * thread: it is published with a release store, which orders it after the counts as a volatile store would, without
 * a full fence per execution report on the benchmarked thread.
 */
public final class EventTally
{
    /** Reject kinds, the first index of {@link #rejects(int, int)}. */
    public static final int EXECUTION_REPORT = 0;
    /** A CancelReject (cancel or replace refused). */
    public static final int CANCEL_REJECT = 1;
    /** A BusinessReject. */
    public static final int BUSINESS_REJECT = 2;
    /** An AdminResponse REJECTED. */
    public static final int ADMIN_RESPONSE = 3;

    private static final String[] KIND_NAMES = { "ExecutionReport", "CancelReject", "BusinessReject",
        "AdminResponse" };
    private static final ByteOrder ORDER = MessageHeaderDecoder.BYTE_ORDER;
    private static final int HEADER = MessageHeaderDecoder.ENCODED_LENGTH;
    private static final int TEMPLATES = 128;
    private static final int REASONS = 256;
    private static final VarHandle MAX_COMMAND_SEQUENCE;

    static
    {
        try
        {
            MAX_COMMAND_SEQUENCE = MethodHandles.lookup()
                .findVarHandle(EventTally.class, "maxCommandSequence", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final long[] byTemplate = new long[TEMPLATES];
    private final long[][] rejects = new long[4][REASONS];
    private long events;
    private long rejectCount;
    private long maxCommandSequence;

    /**
     * Count one event.
     *
     * @param buffer holding it.
     * @param offset where its SBE header starts.
     */
    public void onEvent(final DirectBuffer buffer, final int offset)
    {
        final int templateId = buffer.getShort(offset + MessageHeaderDecoder.templateIdEncodingOffset(), ORDER) &
            0xFFFF;
        events++;
        byTemplate[templateId < TEMPLATES ? templateId : 0]++;
        final int body = offset + HEADER;
        switch (templateId)
        {
            case ExecutionReportDecoder.TEMPLATE_ID:
                if (buffer.getByte(body + ExecutionReportDecoder.execTypeEncodingOffset()) == ExecType.REJECTED.value())
                {
                    reject(EXECUTION_REPORT, buffer.getShort(body +
                        ExecutionReportDecoder.rejectReasonEncodingOffset(), ORDER));
                }
                commandSequence(buffer.getLong(body + ExecutionReportDecoder.commandSequenceEncodingOffset(), ORDER));
                break;
            case CancelRejectDecoder.TEMPLATE_ID:
                reject(CANCEL_REJECT, buffer.getShort(body + CancelRejectDecoder.rejectReasonEncodingOffset(), ORDER));
                commandSequence(buffer.getLong(body + CancelRejectDecoder.commandSequenceEncodingOffset(), ORDER));
                break;
            case BusinessRejectDecoder.TEMPLATE_ID:
                reject(BUSINESS_REJECT, buffer.getShort(body + BusinessRejectDecoder.rejectReasonEncodingOffset(),
                    ORDER));
                break;
            case AdminResponseDecoder.TEMPLATE_ID:
                if (buffer.getByte(body + AdminResponseDecoder.statusEncodingOffset()) != AdminStatus.ACCEPTED.value())
                {
                    reject(ADMIN_RESPONSE, buffer.getShort(body + AdminResponseDecoder.rejectReasonEncodingOffset(),
                        ORDER));
                }
                break;
            default:
                break;
        }
    }

    private void reject(final int kind, final short reason)
    {
        rejects[kind][reason & 0xFF]++;
        rejectCount++;
    }

    private void commandSequence(final long sequence)
    {
        if (sequence > maxCommandSequence)
        {
            MAX_COMMAND_SEQUENCE.setRelease(this, sequence);
        }
    }

    /** Forget every count (the writer's thread, or while it is quiet). */
    public void reset()
    {
        java.util.Arrays.fill(byTemplate, 0);
        for (final long[] kind : rejects)
        {
            java.util.Arrays.fill(kind, 0);
        }
        events = 0;
        rejectCount = 0;
    }

    /** @return events counted. */
    public long events()
    {
        return events;
    }

    /**
     * @param templateId a template id.
     * @return events of that template.
     */
    public long events(final int templateId)
    {
        return byTemplate[templateId];
    }

    /** @return refusals of every kind. */
    public long rejects()
    {
        return rejectCount;
    }

    /**
     * @param kind   {@link #EXECUTION_REPORT}, {@link #CANCEL_REJECT}, {@link #BUSINESS_REJECT} or
     *               {@link #ADMIN_RESPONSE}.
     * @param reason a RejectReason value.
     * @return refusals of that kind and reason.
     */
    public long rejects(final int kind, final int reason)
    {
        return rejects[kind][reason];
    }

    /** @return the highest commandSequence on an ExecutionReport or CancelReject so far. */
    public long maxCommandSequence()
    {
        return (long)MAX_COMMAND_SEQUENCE.getAcquire(this);
    }

    /** @return refusals by kind and reason, e.g. "CancelReject/UNKNOWN_ORDER=3", or "none". */
    public String rejectSummary()
    {
        final StringBuilder out = new StringBuilder();
        for (int kind = 0; kind < rejects.length; kind++)
        {
            for (int reason = 0; reason < REASONS; reason++)
            {
                if (rejects[kind][reason] > 0)
                {
                    out.append(out.length() == 0 ? "" : ",").append(KIND_NAMES[kind]).append('/')
                        .append(RejectReason.get((short)reason)).append('=').append(rejects[kind][reason]);
                }
            }
        }
        return out.length() == 0 ? "none" : out.toString();
    }

    /** @return non-zero counts per template id, e.g. "50=1100234,52=...". */
    public String templateSummary()
    {
        final StringBuilder out = new StringBuilder();
        for (int t = 0; t < TEMPLATES; t++)
        {
            if (byTemplate[t] > 0)
            {
                out.append(out.length() == 0 ? "" : ",").append(t).append('=').append(byTemplate[t]);
            }
        }
        return out.toString();
    }
}
