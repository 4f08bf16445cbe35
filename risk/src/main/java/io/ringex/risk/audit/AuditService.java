package io.ringex.risk.audit;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntUnaryOperator;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.stereotype.Service;

import io.ringex.engine.book.Instrument;
import io.ringex.engine.processor.EngineState;
import io.ringex.engine.replay.AuditTrail;
import io.ringex.engine.replay.ReplayException;
import io.ringex.engine.replay.Replayer;

/**
 * Answers the audit page by replaying the engine's journal with the engine's own replay tools
 * ({@link AuditTrail}): the same lifecycle as {@code ./ringex journal audit}, with money and prices shown as decimals
 * ({@link AuditText}). Replays run on one worker thread of this
 * service, one at a time with at most two waiting, each over its own read-only view of the journal files: nothing here
 * runs on, waits for or sends anything to the engine, which keeps journaling while a query replays what it wrote.
 * <p>
 * Threading: {@link #audit} from any request thread; the replay on the worker ("ringex-audit").
 */
@Service
@EnableConfigurationProperties(AuditProperties.class)
public class AuditService implements DisposableBean
{
    /** Why an audit could not be answered, and the HTTP status that says so. */
    public static final class AuditRefused extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        private final int status;

        /**
         * @param status  the HTTP status.
         * @param message why, for the page.
         */
        public AuditRefused(final int status, final String message)
        {
            super(message);
            this.status = status;
        }

        /** @return 400, 404, 503 or 504. */
        public int status()
        {
            return status;
        }
    }

    private final AuditProperties properties;
    private final ThreadPoolExecutor worker;
    private final AuditText text = new AuditText();

    /**
     * @param properties where the journal is.
     */
    public AuditService(final AuditProperties properties)
    {
        this.properties = properties;
        this.worker = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(2), (r) ->
        {
            final Thread thread = new Thread(r, "ringex-audit");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** @return whether a journal is configured. */
    public boolean configured()
    {
        return !properties.journalDir().isBlank();
    }

    /**
     * Replay the journal for a trail.
     *
     * @param query what to follow (its limit is capped at {@code ringex.risk.audit.max-commands}).
     * @return the trail as ordered maps for JSON.
     * @throws AuditRefused 503 without a journal or when busy, 504 past the timeout, 400/404 for a question the
     *                      journal cannot answer (a time outside it, an unknown order).
     */
    public Map<String, Object> audit(final AuditTrail.Query query)
    {
        if (!configured())
        {
            throw new AuditRefused(503, "no journal configured: set ringex.risk.audit.journal-dir to the engine " +
                "node's journal directory (docs/operations.md, \"Replay and audit\")");
        }
        query.limit(Math.min(query.limit(), properties.maxCommands()));
        final Future<Map<String, Object>> answer;
        try
        {
            answer = worker.submit(() ->
            {
                try (Replayer replayer = Replayer.open(Path.of(properties.journalDir()),
                    properties.snapshotDir().isBlank() ? null : Path.of(properties.snapshotDir())))
                {
                    final AuditTrail.Result result = new AuditTrail().run(replayer, query);
                    // prices at their instrument's scale, as the venue held it at the end of the replay
                    final Map<Integer, Integer> scales = new HashMap<>();
                    final EngineState state = replayer.processor().state();
                    for (int i = 0; i < state.bookCount(); i++)
                    {
                        final Instrument instrument = state.bookAt(i).instrument();
                        scales.put(instrument.instrumentId(), instrument.priceScale());
                    }
                    return toMap(result, (id) -> scales.getOrDefault(id, -1));
                }
            });
        }
        catch (final RejectedExecutionException ex)
        {
            throw new AuditRefused(503, "the audit worker is busy with other queries: try again shortly");
        }
        try
        {
            return answer.get(properties.timeout().toMillis(), TimeUnit.MILLISECONDS);
        }
        catch (final TimeoutException ex)
        {
            answer.cancel(true);
            throw new AuditRefused(504, "the replay took longer than " + properties.timeout().toSeconds() +
                " s: narrow the window (from/to)");
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AuditRefused(503, "interrupted");
        }
        catch (final ExecutionException ex)
        {
            if (ex.getCause() instanceof ReplayException refused)
            {
                throw new AuditRefused(refused.getMessage().startsWith("unknown order") ? 404 : 400,
                    refused.getMessage());
            }
            throw new AuditRefused(503, "the journal could not be replayed: " + ex.getCause());
        }
    }

    private Map<String, Object> toMap(final AuditTrail.Result result, final IntUnaryOperator scaleOf)
    {
        final Map<String, Object> out = new LinkedHashMap<>();
        out.put("subject", result.subject());
        out.put("truncated", result.truncated());
        out.put("restoredSequence", result.restoredSequence());
        out.put("lastSequence", result.lastSequence());
        out.put("commandsReplayed", result.commandsReplayed());
        out.put("elapsedMs", result.elapsedNs() / 1_000_000);
        final List<Object> entries = new ArrayList<>();
        for (final AuditTrail.Entry entry : result.entries())
        {
            final Map<String, Object> map = entry.toMap();
            map.put("commandText", text.readable(entry.commandText(), scaleOf));
            final List<Map<String, Object>> events = new ArrayList<>();
            for (int i = 0; i < entry.events().size(); i++)
            {
                final Map<String, Object> event = new LinkedHashMap<>();
                event.put("event", entry.events().get(i));
                event.put("text", text.readable(entry.eventTexts().get(i), scaleOf));
                events.add(event);
            }
            map.put("events", events);
            entries.add(map);
        }
        out.put("entries", entries);
        return out;
    }

    /** Stop the worker with the service. */
    public void destroy()
    {
        worker.shutdownNow();
    }
}
