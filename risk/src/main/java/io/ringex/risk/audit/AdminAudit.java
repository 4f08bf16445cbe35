package io.ringex.risk.audit;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntUnaryOperator;
import java.util.function.LongFunction;

import org.agrona.DirectBuffer;
import org.agrona.collections.LongHashSet;

import io.ringex.protocol.codecs.AdminStatus;
import io.ringex.protocol.codecs.ReferenceDataRequestDecoder;
import io.ringex.protocol.codecs.RejectReason;

/**
 * The admin log (the dashboard's Admin log tab, {@code GET /api/admin-log}): every admin command the engine answered,
 * read back from the engine's own stream. Each AdminResponse on the risk stream carries the command it answers, as the
 * engine journaled it; this keeps the latest {@code retained} of them decoded ({@link CommandFields}): who (the
 * operator the command names; for the older commands that name none, the dashboard user this service recorded as
 * sending it), when (engine time), what (the command and its fields, a credential never among them), why (its reason)
 * and the engine's answer.
 * <p>
 * It starts empty: a restarted service shows what the engine answers from then on. The engine's journal is the full
 * history ({@link AuditService} replays it for the Audit tab). An answer heard twice (from two members of a cluster
 * around a failover) is kept once: the command sequence names a command for the venue's life.
 * <p>
 * Threading: {@link #onAdminResponse} on the Aeron agent thread; the views on any thread; all under this object's
 * monitor.
 */
public final class AdminAudit
{
    /** Where the operator shown comes from. */
    public enum OperatorSource
    {
        /** The command names its operator (and gives its reason): the journal holds them. */
        COMMAND,
        /**
         * The command names none (AddInstrument, AddAccount, SetLimits, KillSwitch, SetTradingStatus, TakeSnapshot
         * carried no operator before schema version 4): this service sent it, for the dashboard user and with the
         * reason shown, and only it knows them.
         */
        THIS_SERVICE
    }

    /**
     * What this service recorded of a request it sent.
     *
     * @param user   the dashboard user who sent it.
     * @param reason the reason they gave, or null.
     */
    public record SentHere(String user, String reason)
    {
    }

    /**
     * One admin command and the engine's answer.
     *
     * @param commandSequence the command's sequence in the engine's journal.
     * @param timestampNs     engine time of the command, ns since the epoch.
     * @param requestId       the command's request id.
     * @param command         the message's name, e.g. AddInstrument.
     * @param status          ACCEPTED or REJECTED.
     * @param rejectReason    the engine's reason when REJECTED, else null.
     * @param operator        who: the operator it names, or the dashboard user who sent it from here, or null.
     * @param operatorSource  where {@code operator} comes from, null when unknown.
     * @param reason          why, as the command gives it; null when it carries no reason.
     * @param fields          what: its other fields, in wire order.
     * @param engine          index of the node that answered (in configuration order).
     */
    public record Entry(
        long commandSequence,
        long timestampNs,
        long requestId,
        String command,
        String status,
        String rejectReason,
        String operator,
        OperatorSource operatorSource,
        String reason,
        Map<String, Object> fields,
        int engine)
    {
    }

    private final int retained;
    private final LongFunction<SentHere> sentHere;
    private final IntUnaryOperator priceScaleOf;
    private final CommandFields commands = new CommandFields();
    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    private final LongHashSet sequences = new LongHashSet();
    private final AtomicLong changeCount = new AtomicLong();

    /**
     * @param retained     how many of the latest entries are kept.
     * @param sentHere     what this service recorded of a request id it sent, or null.
     * @param priceScaleOf an instrument's price scale, or -1, for showing prices.
     */
    public AdminAudit(final int retained, final LongFunction<SentHere> sentHere, final IntUnaryOperator priceScaleOf)
    {
        this.retained = retained;
        this.sentHere = sentHere;
        this.priceScaleOf = priceScaleOf;
    }

    /**
     * @param engine          the node that answered.
     * @param requestId       the request answered.
     * @param templateId      the template the answer names.
     * @param status          ACCEPTED or REJECTED.
     * @param reason          why, when rejected.
     * @param commandSequence the command's sequence.
     * @param timestampNs     the command's engine time.
     * @param command         the command answered, header included (empty when the engine sent none).
     */
    public synchronized void onAdminResponse(
        final int engine,
        final long requestId,
        final int templateId,
        final AdminStatus status,
        final RejectReason reason,
        final long commandSequence,
        final long timestampNs,
        final DirectBuffer command)
    {
        // A tool's request for the reference data changes nothing: not a change to log.
        if (templateId == ReferenceDataRequestDecoder.TEMPLATE_ID || !sequences.add(commandSequence))
        {
            return;
        }
        final CommandFields.Decoded decoded = commands.decode(command, 0, command.capacity(), templateId,
            priceScaleOf);
        String operator = decoded.operatorName();
        String why = decoded.reason();
        OperatorSource source = operator == null ? null : OperatorSource.COMMAND;
        if (operator == null)
        {
            final SentHere sent = sentHere.apply(requestId);
            if (sent != null)
            {
                operator = sent.user();
                why = why == null ? sent.reason() : why;
                source = OperatorSource.THIS_SERVICE;
            }
        }
        final boolean accepted = status == AdminStatus.ACCEPTED;
        entries.addLast(new Entry(commandSequence, timestampNs, requestId, decoded.name(),
            accepted ? "ACCEPTED" : "REJECTED", accepted ? null : reason.name(), operator, source, why,
            decoded.fields(), engine));
        while (entries.size() > retained)
        {
            sequences.remove(entries.pollFirst().commandSequence());
        }
        changeCount.incrementAndGet();
    }

    /**
     * @param limit at most this many.
     * @return the latest entries, newest first.
     */
    public synchronized List<Entry> latest(final int limit)
    {
        final List<Entry> out = new ArrayList<>(Math.min(limit, entries.size()));
        final Iterator<Entry> newestFirst = entries.descendingIterator();
        while (newestFirst.hasNext() && out.size() < limit)
        {
            out.add(newestFirst.next());
        }
        return out;
    }

    /** @return how many entries are kept at most. */
    public int retained()
    {
        return retained;
    }

    /** @return a counter that grows whenever an entry is added. */
    public long changeCount()
    {
        return changeCount.get();
    }
}
