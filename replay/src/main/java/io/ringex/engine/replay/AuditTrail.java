package io.ringex.engine.replay;

import io.ringex.engine.processor.EngineState;
import io.ringex.protocol.MessageCatalog;
import org.agrona.DirectBuffer;
import org.agrona.collections.LongHashSet;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The lifecycle of an order, a client order id or an account, rebuilt by replaying the journal with the processor's
 * events: each command as received (sequence, time, gateway and session, every field) and each event it produced that
 * concerns the subject (acknowledgements, fills with the counterparty's order id, cancels, rejects with their reason,
 * account updates), in the order they happened.
 * <p>
 * What concerns the subject is found by field name, through {@link MessageText}: an event mentions an order through
 * {@code orderId}, {@code buyOrderId} or {@code sellOrderId}, an account through {@code accountId},
 * {@code buyAccountId} or {@code sellAccountId}, a client order id through {@code clientOrderId} or
 * {@code origClientOrderId}; a command that names the subject also shows its answers (rejects of every kind). So a
 * message added to the schema later is found by the same names without a change here.
 * <p>
 * Threading: one thread; it owns its {@link Replayer}.
 */
public final class AuditTrail
{
    private static final long NS_PER_S = 1_000_000_000L;

    /** What to follow. */
    public static final class Query
    {
        long orderId;
        String clientOrderId;
        long accountId;
        boolean admin;
        long fromNs = Long.MIN_VALUE;
        long toNs = Long.MAX_VALUE;
        int limit = 10_000;

        /**
         * @param orderId the engine's order id.
         * @return a query for that order's lifecycle.
         */
        public static Query order(final long orderId)
        {
            final Query query = new Query();
            query.orderId = orderId;
            return query;
        }

        /**
         * @param clientOrderId the client's id of the order (any of its ids across replaces).
         * @param accountId     the account that sent it.
         * @return a query for every order the account sent with that id.
         */
        public static Query clientOrder(final String clientOrderId, final long accountId)
        {
            final Query query = new Query();
            query.clientOrderId = clientOrderId;
            query.accountId = accountId;
            return query;
        }

        /**
         * @param accountId the account.
         * @return a query for everything that happened to the account.
         */
        public static Query account(final long accountId)
        {
            final Query query = new Query();
            query.accountId = accountId;
            return query;
        }

        /**
         * @return a query for every operator's command (an admin command sent under an admin key): who sent it (the
         * key's number as its session; the operator and reason the command names, from schema version 4 for every
         * change) and the engine's answer.
         */
        public static Query admin()
        {
            final Query query = new Query();
            query.admin = true;
            return query;
        }

        /**
         * @param fromNs first command time to show, ns since the epoch.
         * @param toNs   last command time to show.
         * @return this.
         */
        public Query window(final long fromNs, final long toNs)
        {
            this.fromNs = fromNs;
            this.toNs = toNs;
            return this;
        }

        /**
         * @param limit most commands to list.
         * @return this.
         */
        public Query limit(final int limit)
        {
            this.limit = limit;
            return this;
        }

        /** @return the most commands to list. */
        public int limit()
        {
            return limit;
        }

        /** @return the subject, for titles. */
        public String describe()
        {
            final String subject = admin ? "the operators' commands" : orderId != 0 ? "order " + orderId :
                clientOrderId != null ? "client order id " + clientOrderId + " of account " + accountId :
                "account " + accountId;
            return subject + (fromNs != Long.MIN_VALUE ? " from " + Instant.ofEpochSecond(0, fromNs) : "") +
                (toNs != Long.MAX_VALUE ? " to " + Instant.ofEpochSecond(0, toNs) : "");
        }
    }

    /** One command of the trail and the events of it that concern the subject. */
    public record Entry(long sequence, long timestampNs, long sourceId, String command, String commandText,
        List<String> events, List<String> eventTexts)
    {
        /** @return the entry as ordered maps for JSON. */
        public Map<String, Object> toMap()
        {
            final Map<String, Object> out = new LinkedHashMap<>();
            out.put("sequence", sequence);
            out.put("time", Instant.ofEpochSecond(0, timestampNs).toString());
            out.put("gateway", sourceId >>> 32);
            out.put("session", sourceId & 0xFFFF_FFFFL);
            out.put("command", command);
            out.put("commandText", commandText);
            final List<Object> list = new ArrayList<>();
            for (int i = 0; i < events.size(); i++)
            {
                final Map<String, Object> event = new LinkedHashMap<>();
                event.put("event", events.get(i));
                event.put("text", eventTexts.get(i));
                list.add(event);
            }
            out.put("events", list);
            return out;
        }
    }

    /** The trail and how it was made. */
    public record Result(String subject, List<Entry> entries, long restoredSequence, long lastSequence,
        long commandsReplayed, boolean truncated, long elapsedNs)
    {
    }

    private final MessageText command = new MessageText();
    private final MessageText event = new MessageText();
    private final LongHashSet orders = new LongHashSet();
    /** Whether the command just matched ended the followed order's life (its leaves reported as 0). */
    private boolean done;

    /**
     * Replay and collect the trail.
     *
     * @param replayer a replayer not yet started.
     * @param query    what to follow.
     * @return the trail.
     * @throws ReplayException if the window lies outside the journal, or the order is not in it.
     */
    public Result run(final Replayer replayer, final Query query)
    {
        final long startNs = System.nanoTime();
        if (query.orderId != 0)
        {
            orders.add(query.orderId);
        }
        if (query.fromNs != Long.MIN_VALUE)
        {
            replayer.checkTime(query.fromNs);
        }
        if (query.toNs != Long.MAX_VALUE && query.toNs < replayer.ends().firstTimestampNs())
        {
            replayer.checkTime(query.toNs);
        }
        if (query.orderId != 0)
        {
            replayer.startBeforeOrder(query.orderId);
        }
        else
        {
            replayer.startAtOrBefore(replayer.ends().lastSequence(), query.fromNs == Long.MIN_VALUE ?
                Long.MIN_VALUE : query.fromNs - 1);
        }
        final List<Entry> entries = new ArrayList<>();
        final boolean[] truncated = new boolean[1];
        final boolean stopWhenDone = query.orderId != 0 && query.toNs == Long.MAX_VALUE;
        replayer.replay(Long.MAX_VALUE, query.toNs,
            (sequence, timestampNs, sourceId, buffer, offset, length, log) ->
            {
                if (timestampNs < query.fromNs)
                {
                    return true;
                }
                final Entry entry = match(query, sequence, timestampNs, sourceId, buffer, offset, log);
                if (entry == null)
                {
                    return true;
                }
                if (entries.size() == query.limit)
                {
                    truncated[0] = true;
                    return false;
                }
                entries.add(entry);
                return !(stopWhenDone && done);
            });
        if (query.orderId != 0 && entries.isEmpty())
        {
            final EngineState state = replayer.processor().state();
            throw new ReplayException("unknown order id " + query.orderId + ": no command or event of the journal " +
                "up to sequence " + replayer.lastApplied() + " mentions it (order ids assigned so far: 1.." +
                state.lastOrderId() + ")");
        }
        return new Result(query.describe(), entries, replayer.restoredSequence(), replayer.lastApplied(),
            replayer.appliedCount(), truncated[0], System.nanoTime() - startNs);
    }

    private Entry match(
        final Query query,
        final long sequence,
        final long timestampNs,
        final long sourceId,
        final DirectBuffer buffer,
        final int offset,
        final EventLog log)
    {
        done = false;
        final int templateId = command.wrap(buffer, offset);
        final boolean commandNames = query.admin ? MessageCatalog.isOperatorCommand(templateId) :
            names(command, query, true);
        List<String> names = null;
        List<String> texts = null;
        for (int i = 0, n = log.count(); i < n; i++)
        {
            event.wrap(log.events(), log.offset(i));
            final boolean answer = commandNames && isAnswer(event);
            if (answer || (!query.admin && names(event, query, false)))
            {
                if (names == null)
                {
                    names = new ArrayList<>();
                    texts = new ArrayList<>();
                }
                names.add(event.name());
                texts.add(event.text());
                if (query.orderId != 0 && event.longField("orderId", 0) == query.orderId &&
                    event.has("leavesQuantity") && event.longField("leavesQuantity", -1) == 0)
                {
                    done = true;
                }
            }
        }
        if (!commandNames && names == null)
        {
            return null;
        }
        return new Entry(sequence, timestampNs, sourceId, command.name(), command.text(),
            names == null ? List.of() : names, texts == null ? List.of() : texts);
    }

    private static boolean isAnswer(final MessageText message)
    {
        final String name = message.name();
        return name.endsWith("Reject") || name.equals("AdminResponse");
    }

    /**
     * Whether a message concerns the subject; for the client order id query, an event that reports an order under
     * the id adds the order's engine id to those followed (a replace gives the order a new client id; its fills
     * carry the new one).
     */
    private boolean names(final MessageText message, final Query query, final boolean isCommand)
    {
        if (query.orderId != 0 || query.clientOrderId != null)
        {
            if (mentionsOrder(message))
            {
                return true;
            }
            if (query.clientOrderId != null && message.longField("accountId", 0) == query.accountId &&
                (query.clientOrderId.equals(message.textField("clientOrderId")) ||
                query.clientOrderId.equals(message.textField("origClientOrderId"))))
            {
                final long orderId = message.longField("orderId", 0);
                if (!isCommand && orderId != 0)
                {
                    orders.add(orderId);
                }
                return true;
            }
            return false;
        }
        return message.longField("accountId", 0) == query.accountId ||
            message.longField("buyAccountId", 0) == query.accountId ||
            message.longField("sellAccountId", 0) == query.accountId;
    }

    private boolean mentionsOrder(final MessageText message)
    {
        if (orders.isEmpty())
        {
            return false;
        }
        final long orderId = message.longField("orderId", 0);
        return (orderId != 0 && orders.contains(orderId)) || orders.contains(message.longField("buyOrderId", 0)) ||
            orders.contains(message.longField("sellOrderId", 0));
    }

    /**
     * The trail for people: one block per command, its events indented under it.
     *
     * @param result from {@link #run}.
     * @return the text.
     */
    public static String text(final Result result)
    {
        final StringBuilder out = new StringBuilder(4096);
        out.append("audit of ").append(result.subject()).append(": ").append(result.entries().size())
            .append(" commands").append(result.truncated() ? " (limit reached: narrow the window)" : "")
            .append('\n');
        for (final Entry e : result.entries())
        {
            out.append(String.format("%n#%d %s gateway %d session %d  %s%n", e.sequence(),
                Instant.ofEpochSecond(0, e.timestampNs()), e.sourceId() >>> 32, e.sourceId() & 0xFFFF_FFFFL,
                e.commandText()));
            for (final String text : e.eventTexts())
            {
                out.append("    -> ").append(text).append('\n');
            }
        }
        out.append(String.format("%nreplayed %d commands (from %s to sequence %d) in %.3f s%n",
            result.commandsReplayed(), result.restoredSequence() == 0 ? "the journal's start" :
            "the snapshot at sequence " + result.restoredSequence(), result.lastSequence(),
            result.elapsedNs() / (double)NS_PER_S));
        return out.toString();
    }

    /**
     * @param result from {@link #run}.
     * @return the trail as JSON.
     */
    public static String json(final Result result)
    {
        final Map<String, Object> out = new LinkedHashMap<>();
        out.put("subject", result.subject());
        out.put("truncated", result.truncated());
        out.put("restoredSequence", result.restoredSequence());
        out.put("lastSequence", result.lastSequence());
        out.put("commandsReplayed", result.commandsReplayed());
        final List<Object> entries = new ArrayList<>();
        for (final Entry e : result.entries())
        {
            entries.add(e.toMap());
        }
        out.put("entries", entries);
        return StateExport.json(out);
    }
}
