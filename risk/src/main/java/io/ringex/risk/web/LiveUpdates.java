package io.ringex.risk.web;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.springframework.context.SmartLifecycle;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import io.ringex.risk.actions.ActionService;
import io.ringex.risk.audit.AdminAudit;
import io.ringex.risk.config.RiskProperties;
import io.ringex.risk.model.AccountSort;
import io.ringex.risk.model.RiskReadModel;
import io.ringex.risk.model.UserDirectory;

/**
 * Pushes the dashboard's state to browsers over SSE, coalesced: a pusher thread looks at the change counters of the
 * model, the action tracker, the user directory and the admin log every {@code ringex.risk.live.push-interval}
 * (200 ms: at most 5 pushes a second) and sends one {@code snapshot} event when any moved (the users and the admin log
 * are not in it: it carries their change counters, and the page fetches them when they moved), plus a {@code ping}
 * comment every few seconds so proxies and the page can tell a live connection from a dead one.
 * <p>
 * On shutdown every emitter is completed first (this lifecycle's phase stops before the web server's graceful
 * shutdown), so open streams do not hold the shutdown for its full timeout; the page's EventSource reconnects when
 * the service is back.
 */
@Component
public class LiveUpdates implements SmartLifecycle
{
    private static final long PING_EVERY_MS = 5_000;

    private final RiskReadModel model;
    private final ActionService actions;
    private final UserDirectory users;
    private final AdminAudit adminLog;
    private final RiskProperties properties;
    private final List<SseEmitter> emitters = new CopyOnWriteArrayList<>();
    private ScheduledExecutorService pusher;
    private volatile boolean running;
    private long lastModelChange = -1;
    private long lastActionChange = -1;
    private long lastConsoleChange = -1;
    private long lastPushMs;

    /**
     * @param model      the read model.
     * @param actions    the action tracker.
     * @param users      the user directory.
     * @param adminLog   the admin log.
     * @param properties push interval and emitter timeout.
     */
    public LiveUpdates(
        final RiskReadModel model,
        final ActionService actions,
        final UserDirectory users,
        final AdminAudit adminLog,
        final RiskProperties properties)
    {
        this.model = model;
        this.actions = actions;
        this.users = users;
        this.adminLog = adminLog;
        this.properties = properties;
    }

    /** @return a new stream for one browser, primed with the current state. */
    public SseEmitter subscribe()
    {
        final SseEmitter emitter = new SseEmitter(properties.live().emitterTimeout().toMillis());
        emitter.onCompletion(() -> emitters.remove(emitter));
        emitter.onTimeout(emitter::complete);
        emitter.onError(t -> emitters.remove(emitter));
        if (!running)
        {
            emitter.complete();
            return emitter;
        }
        emitters.add(emitter);
        try
        {
            emitter.send(SseEmitter.event().name("snapshot").reconnectTime(2000).data(snapshot(),
                MediaType.APPLICATION_JSON));
        }
        catch (final IOException | IllegalStateException ex)
        {
            emitters.remove(emitter);
        }
        return emitter;
    }

    /** @return what one push carries: the tables, the engine's latest state and recent actions. */
    public Map<String, Object> snapshot()
    {
        final Map<String, Object> out = new LinkedHashMap<>();
        out.put("serverTimeMs", System.currentTimeMillis());
        out.put("accounts", model.accounts(AccountSort.UTILISATION));
        out.put("instruments", model.instruments());
        out.put("engine", model.engine(false));
        out.put("actions", actions.recent());
        out.put("usersChange", users.changeCount());
        out.put("adminLogChange", adminLog.changeCount());
        return out;
    }

    /** @return browsers connected now. */
    public int connections()
    {
        return emitters.size();
    }

    @Override
    public void start()
    {
        running = true;
        pusher = Executors.newSingleThreadScheduledExecutor(r ->
        {
            final Thread t = new Thread(r, "risk-sse-pusher");
            t.setDaemon(true);
            return t;
        });
        final long intervalMs = Math.max(50, properties.live().pushInterval().toMillis());
        pusher.scheduleWithFixedDelay(this::pushIfChanged, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop()
    {
        running = false;
        if (pusher != null)
        {
            pusher.shutdownNow();
        }
        for (final SseEmitter emitter : emitters)
        {
            emitter.complete();
        }
        emitters.clear();
    }

    @Override
    public boolean isRunning()
    {
        return running;
    }

    private void pushIfChanged()
    {
        if (emitters.isEmpty())
        {
            return;
        }
        final long modelChange = model.changeCount();
        final long actionChange = actions.changeCount();
        final long consoleChange = users.changeCount() + adminLog.changeCount();
        final long nowMs = System.currentTimeMillis();
        // The engine's "seconds since last status" ages without events, so push at least once a second anyway.
        final boolean changed = modelChange != lastModelChange || actionChange != lastActionChange ||
            consoleChange != lastConsoleChange;
        if (!changed && nowMs - lastPushMs < 1000)
        {
            return;
        }
        lastModelChange = modelChange;
        lastActionChange = actionChange;
        lastConsoleChange = consoleChange;
        lastPushMs = nowMs;
        final Map<String, Object> snapshot = snapshot();
        for (final SseEmitter emitter : emitters)
        {
            try
            {
                emitter.send(SseEmitter.event().name("snapshot").data(snapshot, MediaType.APPLICATION_JSON));
            }
            catch (final IOException | IllegalStateException ex)
            {
                emitters.remove(emitter);
            }
        }
    }
}
