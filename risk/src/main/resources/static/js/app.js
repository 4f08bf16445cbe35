/*
 * Ringex risk dashboard. Plain JS: one EventSource (/api/stream) feeds the tables; the open detail panes and the
 * engine charts are fetched from the REST API at most twice a second while visible. The EventSource reconnects by
 * itself when the service restarts; if the service answers 401 (session gone) the page goes to the login form.
 * Every time shown is UTC. What the page shows while the engine or the service is silent is greyed and dated
 * ("stale"), never shown as live.
 */
'use strict';

const state = {
    tab: 'accounts', me: null, officer: false, snapshot: null, lastEventMs: 0, connected: false,
    accountId: null, instrumentId: null, sort: 'utilisation', charts: {}, detailBusy: {}, limits: null,
    loggingOut: false,
};

// ------------------------------------------------------------------ formatting
const grouped = (digits) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Exact decimal text (e.g. "-1234.50000000") shown with grouping and the given decimals, rounded half away. */
function dec(text, places) {
    if (text === null || text === undefined) {
        return '—';
    }
    const value = Number(text);
    if (!Number.isFinite(value)) {
        return text;
    }
    const neg = value < 0;
    const fixed = Math.abs(value).toFixed(places);
    const [whole, frac] = fixed.split('.');
    return (neg && Number(fixed) !== 0 ? '-' : '') + grouped(whole) + (frac ? '.' + frac : '');
}
/** Money: exact 8-decimal text, shown at 2. */
const money = (text) => dec(text, 2);
/** A price is already exact text at its instrument's scale: only group the whole part. */
function price(text) {
    if (text === null || text === undefined) {
        return '—';
    }
    const neg = text.startsWith('-');
    const [whole, frac] = (neg ? text.slice(1) : text).split('.');
    return (neg ? '-' : '') + grouped(whole) + (frac !== undefined ? '.' + frac : '');
}
/** Exact money text without the zeros past the second decimal: "250000.00000000" is "250000.00", 1e-8 stays. */
function exactMoney(text) {
    if (text === null || text === undefined) {
        return '';
    }
    const [whole, frac = ''] = text.split('.');
    const kept = frac.replace(/0+$/, '');
    return whole + '.' + (kept.length < 2 ? kept.padEnd(2, '0') : kept);
}
/** Money text as integer units of 10^-8 (BigInt), or null if it is not a decimal with at most 8 places. */
function moneyUnits(text) {
    const m = /^\s*(-?)(\d+)(?:\.(\d{0,8}))?\s*$/.exec(text || '');
    if (!m) {
        return null;
    }
    const units = BigInt(m[2]) * 100000000n + BigInt((m[3] || '').padEnd(8, '0') || '0');
    return m[1] ? -units : units;
}
const qty = (n) => (n === null || n === undefined) ? '—' : (n < 0 ? '-' : '') + grouped(String(Math.abs(n)));
const pct = (r) => (r * 100).toFixed(1) + '%';
const signClass = (text) => Number(text) > 0 ? 'pos' : (Number(text) < 0 ? 'neg' : '');
const usageClass = (r) => r > 0.9 ? 'red' : (r >= 0.7 ? 'amber' : 'green');
const pad2 = (n) => String(n).padStart(2, '0');
/** UTC wall time of ms since the epoch, HH:MM:SS: the page's one convention (the Audit's too). */
function utc(ms) {
    if (!ms) {
        return '—';
    }
    const d = new Date(ms);
    return `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`;
}
/** Engine time, ns since the epoch, in UTC. */
const time = (ns) => ns ? utc(ns / 1e6) : '—';
const ago = (ms) => ms < 90000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60000)} min`;
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;',
    "'": '&#39;' }[c]));
const LIMIT_NAMES = { CREDIT: 'credit', OPEN_ORDERS: 'open orders', POSITION: 'position' };
/** What each action is called on the page (the API names them in capitals). */
const ACTION_NAMES = {
    SET_LIMITS: 'Set limits', KILL_SWITCH: 'Kill switch', TRADING_STATUS: 'Trading status',
    TAKE_SNAPSHOT: 'Snapshot', UNLOCK_LOGONS: 'Logon unlock', ADD_INSTRUMENT: 'Add instrument',
    AMEND_INSTRUMENT: 'Amend instrument', DELIST_INSTRUMENT: 'Delist instrument', OPEN_ACCOUNT: 'Open account',
    ACCOUNT_STATUS: 'Account standing', DEPOSIT: 'Deposit', WITHDRAW: 'Withdrawal', UPSERT_USER: 'User',
    SET_PASSWORD: 'Password',
};
const actionName = (a) => ACTION_NAMES[a] || a;
const VERDICTS = { ACCEPTED: 'accepted by the engine', REJECTED: 'refused by the engine', TIMED_OUT: 'no answer',
    PENDING: 'waiting for the engine', SENT: 'sent' };
const symbolOf = (id) => state.snapshot?.instruments.find((i) => i.instrumentId === Number(id))?.symbol || `#${id}`;

function bar(ratio, label) {
    const width = Math.min(100, Math.max(0, ratio * 100));
    return `<div class="bar ${usageClass(ratio)}"><i data-width="${width}"></i><span>${esc(label)}</span></div>`;
}

/** An account's standing and kill switch as one badge: each says what it means for new orders. */
function accountBadge(a) {
    const parts = [];
    let cls = 'ok';
    if (a.status === 'CLOSED') {
        parts.push('closed');
        cls = 'bad';
    } else if (a.status === 'SUSPENDED') {
        parts.push('suspended');
        cls = 'warn';
    }
    if (a.killSwitch) {
        parts.push('killed');
        cls = 'bad';
    }
    if (!parts.length) {
        if (!a.status) {
            return '<span class="badge muted" title="Standing not known yet: the engine sends it with its next ' +
                'refresh">—</span>';
        }
        parts.push('active');
    }
    return `<span class="badge ${cls} standing" data-status="${esc(a.status || '')}" ` +
        `data-killed="${a.killSwitch}">${parts.join(' · ')}</span>`;
}

/**
 * Widths of bars and depth shading. The Content-Security-Policy refuses style attributes in markup, so the markup
 * carries data-width (a percentage) and this sets it through the CSSOM, which the policy allows.
 */
function applyWidths(root) {
    for (const el of root.querySelectorAll('[data-width]')) {
        el.style.width = `${Number(el.dataset.width)}%`;
    }
}

// ------------------------------------------------------------------ HTTP
function csrfToken() {
    const m = document.cookie.match(/(?:^|; )XSRF-TOKEN=([^;]*)/);
    return m ? decodeURIComponent(m[1]) : '';
}

async function api(path, options = {}) {
    const init = Object.assign({ headers: {}, credentials: 'same-origin' }, options);
    init.headers['Accept'] = 'application/json';
    if (init.method && init.method !== 'GET') {
        init.headers['X-XSRF-TOKEN'] = csrfToken();
        if (init.body !== undefined) {
            init.headers['Content-Type'] = 'application/json';
            init.body = JSON.stringify(init.body);
        }
    }
    const response = await fetch(path, init);
    if (response.status === 401) {
        if (!state.loggingOut) {
            window.location.href = 'login';
        }
        throw new Error('not logged in');
    }
    const body = response.headers.get('content-type')?.includes('json') ? await response.json() : null;
    return { status: response.status, body };
}

// ------------------------------------------------------------------ live stream
let source = null;

function connect() {
    if (source) {
        source.close();
    }
    source = new EventSource('api/stream');
    source.addEventListener('snapshot', (e) => {
        state.lastEventMs = Date.now();
        state.connected = true;
        state.snapshot = JSON.parse(e.data);
        render();
    });
    source.onopen = () => {
        state.connected = true;
        updateConnection();
    };
    source.onerror = async () => {
        state.connected = false;
        updateConnection();
        if (source.readyState === EventSource.CLOSED) {
            // The server answered with an error (e.g. 401 after a restart lost the session) or went away for good:
            // EventSource gives up then, so check the session and try again ourselves.
            try {
                await api('api/me');
            } catch (err) {
                // api() redirects to the login form on 401; otherwise the service is down: retry below
            }
            setTimeout(connect, 2000);
        }
    };
}

/**
 * Whether what the page shows is live, and if not why and since when: the service unreachable (no push for 4 s), or
 * the engine silent (its last EngineStatus older than the service's timeout). Either way the figures are as of the
 * last thing heard.
 */
function liveness() {
    const now = Date.now();
    const engine = state.snapshot?.engine;
    if (!state.connected || now - state.lastEventMs > 4000) {
        return { live: false, why: 'service', sinceMs: state.lastEventMs,
            text: state.lastEventMs ? `No connection to the risk service for ${ago(now - state.lastEventMs)}: ` +
                `every figure is as of ${utc(state.lastEventMs)} UTC.` : 'Not connected to the risk service yet.' };
    }
    if (engine && engine.seen && !engine.up) {
        const heardMs = state.lastEventMs - engine.lastStatusAgeMs;
        return { live: false, why: 'engine', sinceMs: heardMs,
            text: `The engine has been silent for ${ago(now - heardMs)}: figures are as of its last status, ` +
                `${utc(heardMs)} UTC.` };
    }
    if (!engine || !engine.seen) {
        return { live: false, why: 'engine', sinceMs: 0, text: 'No EngineStatus received yet.' };
    }
    return { live: true };
}

function updateConnection() {
    const el = document.getElementById('conn');
    const text = document.getElementById('conn-text');
    const engine = state.snapshot?.engine;
    const live = liveness();
    let cls = 'conn-down';
    let label = 'Reconnecting…';
    if (live.live) {
        cls = 'conn-up';
        label = 'Live';
    } else if (live.why === 'engine') {
        cls = 'conn-warn';
        label = engine && engine.seen ? `Engine silent ${ago(Date.now() - live.sinceMs)}` : 'No engine status';
    }
    el.className = 'conn ' + cls;
    text.textContent = label;
    const badge = document.getElementById('engine-badge');
    if (engine && engine.seen) {
        const what = `${engine.role} · epoch ${engine.epoch} · node ${engine.nodeId}`;
        badge.textContent = live.live ? what : `${what} · last heard ${utc(live.sinceMs)}`;
        badge.className = 'badge ' + (live.live ? (engine.role === 'PRIMARY' ? 'ok' : 'warn') : 'stale');
        badge.title = live.live ? 'The engine node followed' : live.text;
    } else {
        badge.textContent = 'engine: no status';
        badge.className = 'badge muted';
    }
    document.body.classList.toggle('stale', !live.live);
    const banner = document.getElementById('stale-banner');
    banner.hidden = live.live;
    banner.textContent = live.live ? '' : live.text;
    document.getElementById('clock').textContent = `${utc(Date.now())} UTC`;
}

// ------------------------------------------------------------------ rendering
function render() {
    updateConnection();
    const s = state.snapshot;
    if (!s) {
        return;
    }
    renderAccounts(s.accounts);
    renderInstruments(s.instruments);
    renderActions(s.actions);
    renderGlance(s);
    fillSelects(s);
    consoleRender(s);
    if (state.tab === 'engine') {
        renderEngineCards(s.engine);
        refreshEngineCharts();
    }
    refreshDetail();
}

const SORTS = {
    utilisation: (a, b) => b.utilisation - a.utilisation || a.accountId - b.accountId,
    exposure: (a, b) => Number(b.exposure) - Number(a.exposure) || a.accountId - b.accountId,
    pnl: (a, b) => Number(a.totalPnl) - Number(b.totalPnl) || a.accountId - b.accountId,
    balance: (a, b) => Number(a.balance) - Number(b.balance) || a.accountId - b.accountId,
    account: (a, b) => a.accountId - b.accountId,
};

const INCOMPLETE = 'Positions incomplete: the engine\'s refresh has not listed all of this account\'s positions ' +
    'since the service started or followed another node (it does within one refresh interval)';

function renderAccounts(accounts) {
    const rows = [...accounts].sort(SORTS[state.sort]);
    document.getElementById('accounts-empty').hidden = rows.length > 0;
    document.querySelector('#accounts-table tbody').innerHTML = rows.map((a) => `
        <tr data-id="${a.accountId}" class="${a.accountId === state.accountId ? 'selected' : ''}">
            <td class="mono">${a.accountId}</td>
            <td title="credit ${pct(a.creditUsage)} · open orders ${pct(a.openOrdersUsage)} · position ${pct(a.positionUsage)}${a.positionsComplete ? '' : ' · ' + INCOMPLETE}">
                ${bar(a.utilisation, `${pct(a.utilisation)} ${LIMIT_NAMES[a.utilisationOf]}${a.positionsComplete ? '' : ' (partial)'}`)}</td>
            <td class="num">${money(a.exposure)}</td>
            <td class="num ${signClass(a.balance) === 'neg' ? 'neg' : ''}">${money(a.balance)}</td>
            <td class="num ${signClass(a.totalPnl)}">${money(a.totalPnl)}</td>
            <td class="num">${a.openOrders}/${a.maxOpenOrders}</td>
            <td>${accountBadge(a)}</td>
        </tr>`).join('');
    applyWidths(document.querySelector('#accounts-table tbody'));
    const total = (key) => accounts.reduce((sum, a) => sum + Number(a[key]), 0);
    const killed = accounts.filter((a) => a.killSwitch).length;
    const suspended = accounts.filter((a) => a.status === 'SUSPENDED').length;
    const worst = rows.length ? Math.max(...rows.map((a) => a.utilisation)) : 0;
    const pnl = total('totalPnl');
    document.getElementById('venue-totals').innerHTML = `
        <div><b>Accounts</b><span>${accounts.length}</span><small>${killed} killed · ${suspended} suspended</small></div>
        <div><b>Total exposure</b><span>${money(String(total('exposure')))}</span><small>USD</small></div>
        <div><b>Total P&amp;L</b><span class="${signClass(pnl)}">${money(String(pnl))}</span><small>USD</small></div>
        <div><b>Reserved by open orders</b><span>${money(String(total('reserved')))}</span><small>USD</small></div>
        <div><b>Worst utilisation</b><span class="${worst > 0.9 ? 'neg' : ''}">${pct(worst)}</span></div>`;
    if (state.accountId === null && rows.length > 0) {
        state.accountId = rows[0].accountId;
    }
}

function renderInstruments(instruments) {
    document.getElementById('instruments-empty').hidden = instruments.length > 0;
    document.querySelector('#instruments-table tbody').innerHTML = instruments.map((i) => {
        const spread = i.bidPrice !== null && i.askPrice !== null ?
            (Number(i.askPrice) - Number(i.bidPrice)).toFixed(i.priceScale) : null;
        return `<tr data-id="${i.instrumentId}" class="${i.instrumentId === state.instrumentId ? 'selected' : ''}">
            <td><b>${esc(i.symbol)}</b></td>
            <td>${statusBadge(i.status)}</td>
            <td class="num">${price(i.lastPrice)}</td>
            <td class="num pos">${price(i.bidPrice)}</td>
            <td class="num neg">${price(i.askPrice)}</td>
            <td class="num">${price(spread)}</td>
            <td class="num">${qty(i.volume)}</td>
            <td class="num">${qty(i.tradeCount)}</td>
        </tr>`;
    }).join('');
    if (state.instrumentId === null && instruments.length > 0) {
        state.instrumentId = instruments[0].instrumentId;
    }
}

function renderGlance(s) {
    document.querySelector('#glance-instruments tbody').innerHTML = s.instruments.map((i) => `
        <tr data-id="${i.instrumentId}"><td><b>${esc(i.symbol)}</b></td><td>${statusBadge(i.status)}</td>
            <td class="num">${price(i.lastPrice)}</td>
            <td class="num pos">${price(i.bidPrice)}</td><td class="num neg">${price(i.askPrice)}</td>
        </tr>`).join('') || '<tr><td colspan="5" class="empty">No instruments yet.</td></tr>';
    document.querySelector('#glance-actions tbody').innerHTML = s.actions.slice(0, 5).map((a) => `
        <tr><td>${utc(a.requestedAtMs)}</td>
            <td class="wrap">${esc(actionName(a.action))}</td><td class="wrap">${esc(a.target)}</td>
            <td>${actionBadge(a.status)}</td></tr>`).join('') ||
        '<tr><td colspan="4" class="empty">No actions yet.</td></tr>';
}

function statusBadge(status) {
    const cls = status === 'OPEN' ? 'ok' : (status === 'HALTED' ? 'bad' : 'warn');
    return `<span class="badge ${cls}">${esc(status)}</span>`;
}

function actionBadge(status) {
    const cls = { ACCEPTED: 'ok', REJECTED: 'bad', TIMED_OUT: 'bad', PENDING: 'warn', SENT: 'warn' }[status] || 'muted';
    return `<span class="badge ${cls}">${esc(status)}</span>`;
}

function renderActions(actions) {
    document.querySelector('#actions-table tbody').innerHTML = actions.slice(0, 20).map((a) => `
        <tr><td class="mono">${a.requestId}</td><td class="wrap">${esc(actionName(a.action))}</td>
            <td class="wrap">${esc(a.target)}</td><td class="wrap">${esc(a.reason || '—')}</td>
            <td>${esc(a.requestedBy)}</td>
            <td title="${esc(a.rejectReason || '')}">${actionBadge(a.status)}${a.rejectReason ? ' ' + esc(a.rejectReason) : ''}</td>
            <td>${utc(a.requestedAtMs)}</td></tr>`).join('') ||
        '<tr><td colspan="7" class="empty">No actions yet.</td></tr>';
}

/** Account pickers list every account by id and start blank: an action names its account on purpose. */
function fillSelects(s) {
    const ids = s.accounts.map((a) => a.accountId).sort((x, y) => x - y);
    for (const sel of document.querySelectorAll('.account-select')) {
        if (sel.options.length !== ids.length + 1) {
            const keep = sel.value;
            sel.innerHTML = '<option value="">choose an account…</option>' +
                ids.map((id) => `<option value="${id}">${id}</option>`).join('');
            sel.value = ids.includes(Number(keep)) ? keep : '';
        }
    }
    for (const sel of document.querySelectorAll('.instrument-select')) {
        if (sel.options.length !== s.instruments.length + 1) {
            const keep = sel.value;
            sel.innerHTML = '<option value="">choose an instrument…</option>' +
                s.instruments.map((i) => `<option value="${i.instrumentId}">${esc(i.symbol)}</option>`).join('');
            sel.value = s.instruments.some((i) => String(i.instrumentId) === keep) ? keep : '';
        }
    }
}

// ------------------------------------------------------------------ details (REST, throttled)
async function throttled(key, fn) {
    if (state.detailBusy[key]) {
        // One more load once this one is done: it may have read the account before the change that asked for this.
        detailAgain[key] = true;
        return;
    }
    state.detailBusy[key] = true;
    try {
        await fn();
    } finally {
        setTimeout(() => {
            state.detailBusy[key] = false;
            if (detailAgain[key]) {
                detailAgain[key] = false;
                refreshDetail();
            }
        }, 500);
    }
}

const detailAgain = { account: false, instrument: false };

/**
 * Detail loads can overlap (a click, a refresh, a slow answer on a busy server): each is numbered when it starts, and
 * one that answers after a later one was shown is dropped, so a pane never goes back to an older state.
 */
const detailLoads = { account: { started: 0, shown: 0 }, instrument: { started: 0, shown: 0 } };
const startLoad = (key) => ++detailLoads[key].started;
function isOutdated(key, load) {
    if (load < detailLoads[key].shown) {
        return true;
    }
    detailLoads[key].shown = load;
    return false;
}

function refreshDetail() {
    if (state.tab === 'accounts' && state.accountId !== null) {
        throttled('account', loadAccount);
    } else if (state.tab === 'instruments' && state.instrumentId !== null) {
        throttled('instrument', loadInstrument);
    }
}

/** A link that starts an order's trail in the Audit tab. */
const trailLink = (orderId) => `<a href="#audit" class="trail" data-order="${orderId}" ` +
    `title="Show order ${orderId}'s trail, replayed from the journal">${orderId}</a>`;

/** A duration in engine nanoseconds, as the operator set it (ms or s). */
const duration = (ns) => Number(ns) % 1e9 === 0 ? `${Number(ns) / 1e9} s` : `${Number(ns) / 1e6} ms`;

/** Used of a limit within the interval; a limit of 0 is none. */
const used = (traded, limit, show) => Number(limit) === 0 ? `${show(traded)} <span class="unit">no limit</span>` :
    `${show(traded)} / ${show(limit)}`;

/**
 * The account's market-maker protection per group (GET /api/accounts/{id}/protection), read only: the limits, what
 * the last event said was traded within the interval, and whether new quotes are frozen. Changes are the operator's
 * (./ringex admin account protection, the reference-data file), resets the account's.
 */
function protectionPanel(groups) {
    if (!groups || groups.length === 0) {
        return '';
    }
    const stateOf = (g) => g.frozen ?
        `<span class="badge bad" title="new quotes refused (QUOTE_FROZEN)">frozen ${Number(g.frozenUntilNs) === 0 ?
            'until reset' : 'until ' + time(g.frozenUntilNs)}</span>` :
        '<span class="badge ok">active</span>';
    return `<div class="sub">Market-maker protection</div>
        <table class="grid small protection"><colgroup><col class="w44"><col><col><col><col><col class="w130"></colgroup>
            <thead><tr><th>Group</th><th>Instruments</th><th class="num">Fills</th><th class="num">Quantity</th>
                <th class="num">Notional</th><th>State</th></tr></thead><tbody>
            ${groups.map((g) => `<tr data-group="${g.groupId}" title="interval ${duration(g.intervalNs)} · freeze ${
                Number(g.freezeNs) === 0 ? 'until reset' : duration(g.freezeNs)}${g.cancelOrders ?
                ' · a breach cancels orders too' : ''} · last event ${esc(g.lastEvent)}${g.limitReached !== 'NONE' ?
                ' (' + esc(g.limitReached) + ')' : ''}">
                <td class="num">${g.groupId}</td><td>${g.instruments.map((id) => esc(symbolOf(id))).join(', ')}</td>
                <td class="num">${used(g.fills, g.fillLimit, qty)}</td>
                <td class="num">${used(g.quantityTraded, g.quantityLimit, qty)}</td>
                <td class="num">${used(g.notionalTraded, g.notionalLimit, money)}</td>
                <td>${stateOf(g)} <span class="unit">${esc(g.lastEvent)}</span></td></tr>`).join('')}
        </tbody></table>
        <p class="hint">Traded within the interval as of the group's last event (a fill of a quote, a reset, the
            engine's refresh); the operator sets the limits, the account resets them.</p>`;
}

async function loadAccount() {
    const load = startLoad('account');
    const [{ status, body: d }, protection] = await Promise.all([api(`api/accounts/${state.accountId}`),
        api(`api/accounts/${state.accountId}/protection`)]);
    if (isOutdated('account', load)) {
        return;
    }
    const pane = document.getElementById('account-detail');
    if (status !== 200) {
        pane.innerHTML = '<p class="empty">Unknown account.</p>';
        return;
    }
    const s = d.summary;
    const killButton = s.killSwitch ?
        '<button class="kill-toggle" data-active="false">Release kill switch</button>' :
        '<button class="kill-toggle danger" data-active="true">Activate kill switch</button>';
    const limits = d.limits;
    pane.innerHTML = `
        <div class="detail-head"><h2>Account <span class="mono">${s.accountId}</span></h2>
            ${accountBadge(s)}
            <div class="buttons officer-only">${killButton}</div></div>
        <div class="kv">
            <div><b>Balance</b><span>${money(s.balance)}</span></div>
            <div><b>Exposure</b><span>${money(s.exposure)}</span></div>
            <div><b>Total P&amp;L</b><span class="${signClass(s.totalPnl)}">${money(s.totalPnl)}</span></div>
            <div><b>Realised</b><span class="${signClass(s.realisedPnl)}">${money(s.realisedPnl)}</span></div>
            <div><b>Unrealised</b><span class="${signClass(s.unrealisedPnl)}">${money(s.unrealisedPnl)}</span></div>
            <div><b>Reserved</b><span>${money(s.reserved)}</span></div>
        </div>
        <table class="grid small"><colgroup><col class="w100"><col><col class="w130"></colgroup><tbody>
            <tr><td>Credit</td><td>${bar(s.creditUsage, pct(s.creditUsage))}</td><td class="num">${money(s.creditLimit)}</td></tr>
            <tr><td>Open orders</td><td>${bar(s.openOrdersUsage, pct(s.openOrdersUsage))}</td><td class="num">${s.openOrders}/${s.maxOpenOrders}</td></tr>
            <tr><td>Position</td><td>${bar(s.positionUsage, pct(s.positionUsage))}</td><td class="num">worst</td></tr>
        </tbody></table>
        <p class="hint limits-line">${limits.known ? `Default position limit ${qty(limits.defaultPositionLimit)} · ` +
            `short selling ${limits.allowShort ? 'allowed' : 'not allowed'} · max order ${qty(limits.maxOrderQuantity)} / ` +
            `${money(limits.maxOrderNotional)} USD` : 'Limits not known yet: the engine sends them with its next refresh.'}</p>
        ${protectionPanel(protection.status === 200 ? protection.body : [])}
        <div class="sub">Positions ${s.positionsComplete ? '' : '<span class="badge warn" title="' + esc(INCOMPLETE) +
            '">incomplete</span>'}</div>
        <table class="grid small positions"><colgroup><col class="w86"><col><col><col><col></colgroup>
            <thead><tr><th>Instr.</th><th class="num">Position</th><th class="num">Avg cost</th>
                <th class="num">Mark</th><th class="num">P&amp;L</th></tr></thead><tbody>
            ${d.positions.map((p) => `<tr data-instrument="${p.instrumentId}" title="limit ${qty(p.positionLimit)} · open buy ${qty(p.openBuyQuantity)} · open sell ${qty(p.openSellQuantity)} · mark and P&L as of this position's last update">
                <td>${esc(p.symbol)}</td>
                <td class="num ${p.usage > 0.9 ? 'neg' : ''}">${qty(p.position)}</td>
                <td class="num">${price(p.averageCost)}</td><td class="num">${price(p.markPrice)}</td>
                <td class="num ${signClass(Number(p.realisedPnl) + Number(p.unrealisedPnl))}">${money(String(Number(p.realisedPnl) + Number(p.unrealisedPnl)))}</td></tr>`).join('') ||
                '<tr><td colspan="5" class="empty">No positions.</td></tr>'}
        </tbody></table>
        <div class="sub">Recent fills</div>
        <table class="grid small fills"><colgroup><col class="w72"><col class="w76"><col class="w44"><col><col><col class="w56"></colgroup>
            <thead><tr><th>UTC</th><th>Instr.</th><th>Side</th><th class="num">Qty</th><th class="num">Price</th>
                <th class="num">Order</th></tr></thead><tbody>
            ${d.recentFills.slice(0, 8).map((f) => `<tr><td>${time(f.timestampNs)}</td><td>${esc(f.symbol)}</td>
                <td class="${f.side === 'BUY' ? 'pos' : 'neg'}">${f.side}</td><td class="num">${qty(f.quantity)}</td>
                <td class="num">${price(f.price)}</td><td class="num">${trailLink(f.orderId)}</td></tr>`).join('') ||
                '<tr><td colspan="6" class="empty">No fills seen yet.</td></tr>'}
        </tbody></table>
        <p class="hint">Open orders are shown as counts and open quantities per position; individual orders are not on
            the risk stream. An order id opens its trail in the Audit tab.</p>`;
    applyWidths(pane);
    applyRole();
}

async function loadInstrument() {
    const load = startLoad('instrument');
    const { status, body: d } = await api(`api/instruments/${state.instrumentId}`);
    if (isOutdated('instrument', load)) {
        return;
    }
    const pane = document.getElementById('instrument-detail');
    if (status !== 200) {
        pane.innerHTML = '<p class="empty">Unknown instrument.</p>';
        return;
    }
    const s = d.summary;
    const maxQty = Math.max(1, ...d.bids.map((l) => l.quantity), ...d.asks.map((l) => l.quantity));
    const rows = [];
    for (let k = 0; k < 10; k++) {
        const b = d.bids[k];
        const a = d.asks[k];
        rows.push(`<tr>
            <td class="num">${b ? b.orderCount : ''}</td>
            <td class="num">${b ? `<i class="depth bid" data-width="${b.quantity / maxQty * 100}"></i>${qty(b.quantity)}` : ''}</td>
            <td class="num bidp">${b ? price(b.price) : ''}</td>
            <td class="num askp">${a ? price(a.price) : ''}</td>
            <td class="num">${a ? `<i class="depth ask" data-width="${a.quantity / maxQty * 100}"></i>${qty(a.quantity)}` : ''}</td>
            <td class="num">${a ? a.orderCount : ''}</td></tr>`);
    }
    pane.innerHTML = `
        <div class="detail-head"><h2>${esc(s.symbol)}</h2>${statusBadge(s.status)}
            <span class="hint">tick ${price(s.tickSize)} · lot ${qty(s.lotSize)} · ${s.priceScale} dp</span>
            <div class="buttons officer-only">${s.status === 'HALTED' ?
                '<button class="status-toggle" data-status="OPEN">Resume</button>' :
                '<button class="status-toggle danger" data-status="HALTED">Halt</button>'}</div></div>
        <div class="sub">Depth (top 10)</div>
        <table class="grid small ladder"><colgroup><col class="w36"><col><col><col><col><col class="w36"></colgroup>
            <thead><tr><th class="num">#</th><th class="num">Bid qty</th><th class="num">Bid</th><th class="num">Ask</th>
                <th class="num">Ask qty</th><th class="num">#</th></tr></thead>
            <tbody>${rows.join('')}</tbody></table>
        <div class="sub">Candles (1 minute, OHLC, UTC)</div>
        <canvas id="candles" class="candles" width="420" height="140"></canvas>
        <div class="sub">Trades (last 50)</div>
        <div class="tape">
        <table class="grid small"><colgroup><col class="w72"><col><col><col class="w60"></colgroup>
            <thead><tr><th>UTC</th><th class="num">Price</th><th class="num">Qty</th><th>Aggr.</th></tr></thead>
            <tbody>${d.tape.map((t) => `<tr><td>${time(t.timestampNs)}</td><td class="num">${price(t.price)}</td>
                <td class="num">${qty(t.quantity)}</td><td class="${t.aggressorSide === 'BUY' ? 'pos' : 'neg'}">${t.aggressorSide}</td></tr>`).join('') ||
                '<tr><td colspan="4" class="empty">No trades seen yet.</td></tr>'}</tbody></table></div>`;
    applyWidths(pane);
    drawCandles(document.getElementById('candles'), d.candles || []);
    applyRole();
}

// One-minute OHLC candles: a wick from low to high, a body from open to close (green up, red down). The axis labels
// are the highest high and the lowest low as the engine priced them (exact text at the instrument's scale).
function drawCandles(canvas, candles) {
    const g = canvas.getContext('2d');
    g.clearRect(0, 0, canvas.width, canvas.height);
    g.font = '11px system-ui, sans-serif';
    if (!candles.length) {
        g.fillStyle = '#7d8b99';
        g.fillText('No trades yet.', 8, 18);
        return;
    }
    const highest = candles.reduce((m, c) => (parseFloat(c.high) > parseFloat(m.high) ? c : m), candles[0]).high;
    const lowest = candles.reduce((m, c) => (parseFloat(c.low) < parseFloat(m.low) ? c : m), candles[0]).low;
    const min = parseFloat(lowest);
    const max = parseFloat(highest);
    const pad = 14;
    const left = 8 + Math.max(g.measureText(price(highest)).width, g.measureText(price(lowest)).width);
    const y = (p) => max === min ? canvas.height / 2 :
        pad + (max - parseFloat(p)) / (max - min) * (canvas.height - 2 * pad);
    const step = Math.min(24, (canvas.width - left - pad) / candles.length);
    candles.forEach((c, i) => {
        const x = left + i * step + step / 2;
        const up = parseFloat(c.close) >= parseFloat(c.open);
        g.strokeStyle = g.fillStyle = up ? '#3fb950' : '#f85149';
        g.beginPath();
        g.moveTo(x, y(c.high));
        g.lineTo(x, y(c.low));
        g.stroke();
        const top = Math.min(y(c.open), y(c.close));
        g.fillRect(x - step * 0.3, top, Math.max(1, step * 0.6), Math.max(1, Math.abs(y(c.open) - y(c.close))));
    });
    g.fillStyle = '#7d8b99';
    g.fillText(price(highest), 2, pad);
    g.fillText(price(lowest), 2, canvas.height - 4);
    canvas.dataset.candles = String(candles.length);
    canvas.dataset.labels = `${price(highest)} ${price(lowest)}`;
}

// ------------------------------------------------------------------ engine
function renderEngineCards(e) {
    const cluster = Boolean(e.nodes && e.nodes.length > 1);
    const last = (arr) => arr && arr.length ? arr[arr.length - 1] : 0;
    const h = state.engineHistory;
    const live = liveness();
    const card = (label, value, unit, cls = '') =>
        `<div class="card"><b>${label}</b><span class="${cls}">${value}</span><small>${unit || ''}</small></div>`;
    const us = (ns) => (ns / 1000).toFixed(1);
    const asOf = live.live ? [] : [`<div class="card as-of"><b>Figures as of</b><span>${live.sinceMs ? utc(live.sinceMs) : '—'}</span>` +
        `<small>UTC · ${live.sinceMs ? ago(Date.now() - live.sinceMs) + ' ago' : 'nothing heard'}</small></div>`];
    document.getElementById('engine-cards').innerHTML = asOf.concat([
        card('Role', e.seen ? e.role : '—', live.live ? '' : 'last reported',
            live.live ? (e.role === 'PRIMARY' ? 'pos' : '') : 'muted'),
        card(cluster ? 'Term / leader' : 'Epoch / node', e.seen ? `${e.epoch} / ${e.nodeId}` : '—'),
        card('Throughput', live.live ? (h ? qty(Math.round(last(h.throughput))) : '—') : '—',
            live.live ? 'cmd/s (5 s)' : 'no current figure'),
        card('Latency p50', us(e.latencyNs.p50), 'µs'),
        card('p99 / p99.9', `${us(e.latencyNs.p99)} / ${us(e.latencyNs.p999)}`, 'µs'),
        card('Ring occupancy', (e.ringOccupancy * 100).toFixed(2), '%', e.ringOccupancy > 0.9 ? 'neg' : ''),
        card('Journal lag', qty(e.journalLag), 'slots'),
        // A node that replicates nothing (replication off) has no lag to show.
        card('Awaiting commit', e.replicating ? qty(e.replicationLag) : 'off', e.replicating ? 'slots' : ''),
    ]).join('');
    renderCluster(e, cluster);
}

/** The cluster's members: each one's role, term, sequences, lag behind the leader's commit, and whether it is heard. */
function renderCluster(e, cluster) {
    const panel = document.getElementById('cluster-panel');
    panel.hidden = !cluster;
    if (!cluster) {
        return;
    }
    const leader = e.nodes.find((n) => n.followed);
    document.getElementById('cluster-summary').textContent = leader ?
        `leader: node ${leader.nodeId} (${leader.name}), term ${leader.epoch}` +
        (leader.committedSequence === null ? '' : `, committed ${qty(leader.committedSequence)}`) :
        'no leader known: admin commands are refused until a member claims the leadership';
    const lag = (n) => n.processorCommitLag === null ? '—' :
        `${qty(n.journalCommitLag)} / ${qty(n.processorCommitLag)}`;
    const status = (n) => !n.seen ? '<span class="badge bad">no status</span>' :
        (!n.up ? `<span class="badge stale" title="not heard within the status timeout: down, or cut off">stale</span>` :
            (n.followed ? '<span class="badge ok">leader</span>' : '<span class="badge muted">up</span>'));
    document.querySelector('#cluster-table tbody').innerHTML = e.nodes.map((n) => `
        <tr data-node="${n.engine}" class="${n.followed ? 'selected' : ''}${n.up ? '' : ' down'}">
            <td>${esc(n.name)}</td>
            <td class="mono">${n.seen ? n.nodeId : '?'}</td>
            <td class="${n.followed ? 'pos' : ''}">${n.seen ? esc(n.role) : '—'}</td>
            <td class="num">${n.seen ? n.epoch : '—'}</td>
            <td class="num">${n.committedSequence === null ? '—' : qty(n.committedSequence)}</td>
            <td class="num">${n.seen ? qty(n.processorSequence) : '—'}</td>
            <td class="num">${lag(n)}</td>
            <td>${n.seen ? (n.lastStatusAgeMs / 1000).toFixed(1) + ' s ago' : 'never'}</td>
            <td class="mono">${n.seen ? n.stateHash : '—'}</td>
            <td class="status">${status(n)}</td>
        </tr>`).join('');
}

function chart(id, type, datasets, opts = {}) {
    if (!window.Chart) {
        return null;
    }
    if (!state.charts[id]) {
        Chart.defaults.color = '#8595a5';
        Chart.defaults.borderColor = '#2a3541';
        Chart.defaults.font.size = 11;
        state.charts[id] = new Chart(document.getElementById(id), {
            type,
            data: { labels: [], datasets: datasets.map((d) => Object.assign({
                data: [], borderWidth: 1.5, pointRadius: 0, tension: 0.2, fill: false }, d)) },
            options: Object.assign({
                animation: false, responsive: true, maintainAspectRatio: false,
                plugins: { legend: { display: datasets.length > 1, labels: { boxWidth: 10 } } },
                scales: { x: { ticks: { maxTicksLimit: 6, maxRotation: 0 } }, y: { beginAtZero: true } },
            }, opts),
        });
    }
    return state.charts[id];
}

async function refreshEngineCharts() {
    await throttled('engine', async () => {
        const { status, body: e } = await api('api/engine');
        if (status !== 200) {
            return;
        }
        const h = e.history;
        state.engineHistory = h;
        renderEngineCards(e);
        const labels = h.timeMs.map((t) => utc(t));
        const set = (c, series) => {
            if (!c) {
                return;
            }
            c.data.labels = labels;
            series.forEach((s, i) => { c.data.datasets[i].data = s; });
            c.update('none');
        };
        set(chart('ch-exposure', 'line', [{ label: 'exposure', borderColor: '#4e9be6', fill: true,
            backgroundColor: 'rgba(78,155,230,.12)' }]), [h.exposure]);
        set(chart('ch-throughput', 'line', [{ label: 'commands/s', borderColor: '#2fb47c' }]), [h.throughput]);
        set(chart('ch-latency', 'line', [
            { label: 'p50', borderColor: '#2fb47c' }, { label: 'p99', borderColor: '#e3a33b' },
            { label: 'p99.9', borderColor: '#e0524f' }, { label: 'max', borderColor: '#a48be8', borderDash: [4, 3] }],
        { scales: { x: { ticks: { maxTicksLimit: 6, maxRotation: 0 } }, y: { type: 'logarithmic' } } }),
        [h.p50Us, h.p99Us, h.p999Us, h.maxUs]);
        set(chart('ch-ring', 'line', [{ label: 'occupancy %', borderColor: '#e3a33b' }],
            { scales: { x: { ticks: { maxTicksLimit: 6, maxRotation: 0 } }, y: { beginAtZero: true, suggestedMax: 1 } } }),
        [h.ringOccupancy.map((o) => o * 100)]);
        set(chart('ch-lag', 'line', [{ label: 'journal', borderColor: '#4e9be6' },
            { label: 'replication', borderColor: '#a48be8' }]),
        [h.journalLag, h.replicationLag.map((lag) => (lag < 0 ? null : lag))]);
        const reasons = Object.keys(e.rejects);
        const rc = chart('ch-rejects', 'bar', [{ label: 'rejects', backgroundColor: '#e0524f', maxBarThickness: 22 }],
            { indexAxis: 'y', plugins: { legend: { display: false } },
                scales: { x: { beginAtZero: true, ticks: { precision: 0 } }, y: { ticks: { autoSkip: false } } } });
        if (rc) {
            rc.data.labels = reasons.length ? reasons : ['none'];
            rc.data.datasets[0].data = reasons.length ? reasons.map((r) => e.rejects[r]) : [0];
            rc.update('none');
        }
    });
}

// ------------------------------------------------------------------ actions
/**
 * The confirmation dialog: a title, a sentence, optionally a list of changes (before → after), and for an action a
 * required reason. Resolves to the reason typed (or '' when none is asked), or null when cancelled.
 */
function confirmAction(title, text, { changes = null, reason = false } = {}) {
    const dialog = document.getElementById('confirm');
    document.getElementById('confirm-title').textContent = title;
    document.getElementById('confirm-text').textContent = text;
    const list = document.getElementById('confirm-changes');
    list.hidden = !changes;
    list.innerHTML = changes ? changes.map((c) => `<li>${esc(c)}</li>`).join('') : '';
    const reasonLabel = document.getElementById('confirm-reason-label');
    const reasonInput = document.getElementById('confirm-reason');
    reasonLabel.hidden = !reason;
    reasonInput.required = reason;
    reasonInput.value = '';
    return new Promise((resolve) => {
        dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok' ? reasonInput.value.trim() : null),
            { once: true });
        dialog.showModal();
        if (reason) {
            reasonInput.focus();
        }
    });
}

function toast(text, kind) {
    const el = document.getElementById('toast');
    el.textContent = text;
    el.className = 'toast ' + (kind || '');
    el.hidden = false;
    clearTimeout(el.timer);
    el.timer = setTimeout(() => { el.hidden = true; }, 6000);
}

/** Confirm (with a reason), send, and follow the engine's answer. */
async function act(title, text, path, body, changes) {
    const reason = await confirmAction(title, text, { changes, reason: true });
    if (reason === null) {
        return false;
    }
    const { status, body: res } = await api(path, { method: 'POST', body: Object.assign({}, body, { reason }) });
    if (status === 202) {
        toast(`${actionName(res.action)}: ${res.target} — sent, waiting for the engine…`, 'ok');
        followAction(res.requestId);
        return true;
    }
    if (status === 403) {
        toast('Not allowed: the RISK_OFFICER role is needed.', 'bad');
    } else {
        toast(`Not sent (${status}): ${res ? res.message || res.error : ''}`, 'bad');
    }
    return false;
}

async function followAction(requestId) {
    for (let i = 0; i < 20; i++) {
        await new Promise((r) => setTimeout(r, 500));
        const { status, body } = await api(`api/actions/${requestId}`);
        if (status === 200 && body.status !== 'PENDING' && body.status !== 'SENT') {
            toast(`${actionName(body.action)}: ${body.target} — ${VERDICTS[body.status] || body.status}` +
                `${body.rejectReason ? ' (' + body.rejectReason + ')' : ''}`, body.status === 'ACCEPTED' ? 'ok' : 'bad');
            return;
        }
    }
}

function killSwitch(scope, accountId, active) {
    const target = scope === 'VENUE' ? 'the WHOLE VENUE' : `account ${accountId}`;
    act(active ? 'Activate the kill switch' : 'Release the kill switch', active ?
        `Activate the kill switch of ${target}? Its open orders are cancelled and new orders refused.` :
        `Release the kill switch of ${target}? Trading is allowed again.`,
    'api/actions/kill-switch', { scope, accountId: Number(accountId || 0), active });
}

function tradingStatus(instrumentId, status) {
    const symbol = symbolOf(instrumentId);
    act(status === 'HALTED' ? `Halt ${symbol}` : `Resume ${symbol}`,
        status === 'HALTED' ? `Halt ${symbol}? New orders are refused; resting orders stay.` : `Resume trading in ${symbol}?`,
        'api/actions/trading-status', { instrumentId: Number(instrumentId), status });
}

function wireActions() {
    document.getElementById('form-kill').addEventListener('submit', (e) => {
        e.preventDefault();
        const f = e.target;
        killSwitch(f.scope.value, f.accountId.value, e.submitter.value === 'true');
    });
    document.getElementById('form-kill').scope.addEventListener('change', (e) => {
        const venue = e.target.value === 'VENUE';
        e.target.form.accountId.disabled = venue;
        e.target.form.accountId.required = !venue;
    });
    document.getElementById('form-status').addEventListener('submit', (e) => {
        e.preventDefault();
        tradingStatus(e.target.instrumentId.value, e.submitter.value);
    });
    wireLimits();
    document.getElementById('form-ops').addEventListener('submit', (e) => {
        e.preventDefault();
        act('Take snapshot', 'Ask the engine to write a snapshot now?', 'api/actions/snapshot', {});
    });
    document.body.addEventListener('click', (e) => {
        const kill = e.target.closest('.kill-toggle');
        if (kill) {
            killSwitch('ACCOUNT', state.accountId, kill.dataset.active === 'true');
        }
        const st = e.target.closest('.status-toggle');
        if (st) {
            tradingStatus(state.instrumentId, st.dataset.status);
        }
        const trail = e.target.closest('a.trail');
        if (trail) {
            e.preventDefault();
            openTrail(trail.dataset.order);
        }
    });
}

// ------------------------------------------------------------------ limits: every value shown, only changes sent
const LIMIT_FIELDS = [
    ['creditLimit', 'Credit limit', 'money'], ['maxOrderNotional', 'Max order notional', 'money'],
    ['maxOrderQuantity', 'Max order quantity', 'qty'], ['maxOpenOrders', 'Max open orders', 'qty'],
    ['defaultPositionLimit', 'Default position limit', 'qty'], ['allowShort', 'Short selling', 'flag'],
];

function limitsForm() {
    return document.getElementById('form-limits');
}

function instrumentOptions(selected) {
    return (state.snapshot?.instruments || []).map((i) => `<option value="${i.instrumentId}"` +
        `${i.instrumentId === selected ? ' selected' : ''}>${esc(i.symbol)}</option>`).join('');
}

function addInstrumentLimitRow(instrumentId, limit) {
    const row = document.createElement('tr');
    row.innerHTML = `<td><select class="limit-instrument">${instrumentOptions(instrumentId)}</select></td>` +
        `<td><input class="limit-value" type="number" min="0" required value="${limit ?? ''}"></td>` +
        '<td><button type="button" class="remove-limit small-button" title="Back to the default limit">Remove</button></td>';
    limitsForm().querySelector('.limits-instruments tbody').appendChild(row);
}

/** Show the account's limits as the engine holds them (GET /api/accounts/{id}/limits); nothing else is guessed. */
async function loadLimits() {
    const f = limitsForm();
    const fields = f.querySelector('.limits-fields');
    const note = f.querySelector('.limits-state');
    f.querySelector('.limits-instruments tbody').innerHTML = '';
    state.limits = null;
    fields.disabled = true;
    if (!f.accountId.value) {
        note.textContent = 'Choose an account: its limits are shown as the engine holds them.';
        return;
    }
    const { status, body } = await api(`api/accounts/${f.accountId.value}/limits`);
    if (status !== 200 || String(body.accountId) !== f.accountId.value) {
        note.textContent = status === 200 ? '' : `Could not read the limits (${status}).`;
        return;
    }
    if (!body.known) {
        note.textContent = 'The engine has not sent this account\'s limits since the service started; it does with ' +
            'its next refresh (a few seconds). Nothing can be changed until then.';
        return;
    }
    state.limits = body;
    f.creditLimit.value = exactMoney(body.creditLimit);
    f.maxOrderNotional.value = exactMoney(body.maxOrderNotional);
    f.maxOrderQuantity.value = body.maxOrderQuantity;
    f.maxOpenOrders.value = body.maxOpenOrders;
    f.defaultPositionLimit.value = body.defaultPositionLimit;
    f.allowShort.checked = body.allowShort;
    for (const p of body.positionLimits) {
        addInstrumentLimitRow(p.instrumentId, p.positionLimit);
    }
    fields.disabled = !state.officer;
    note.textContent = `Account ${body.accountId} is ${body.status.toLowerCase()}; these are the engine's current ` +
        'limits. Change what you mean to: the rest is sent back as it is.';
}

/** What the form says now, in the API's shape. */
function limitsInForm() {
    const f = limitsForm();
    const own = [...f.querySelectorAll('.limits-instruments tbody tr')].map((row) => ({
        instrumentId: Number(row.querySelector('.limit-instrument').value),
        positionLimit: Number(row.querySelector('.limit-value').value),
    }));
    return {
        accountId: Number(f.accountId.value), creditLimit: f.creditLimit.value.trim(),
        maxOrderNotional: f.maxOrderNotional.value.trim(), maxOrderQuantity: Number(f.maxOrderQuantity.value),
        maxOpenOrders: Number(f.maxOpenOrders.value), defaultPositionLimit: Number(f.defaultPositionLimit.value),
        allowShort: f.allowShort.checked, positionLimits: own,
    };
}

/** Each change from the limits shown to the form's, as "what: before → after" for the confirmation. */
function limitChanges(before, after) {
    const changes = [];
    const show = (kind, v) => kind === 'money' ? `${money(v)} USD` : kind === 'flag' ? (v ? 'allowed' : 'not allowed') :
        qty(v);
    for (const [key, label, kind] of LIMIT_FIELDS) {
        const same = kind === 'money' ? moneyUnits(before[key]) === moneyUnits(after[key]) : before[key] === after[key];
        if (!same) {
            changes.push(`${label}: ${show(kind, before[key])} → ${show(kind, after[key])}`);
        }
    }
    const was = new Map(before.positionLimits.map((p) => [p.instrumentId, p.positionLimit]));
    const now = new Map(after.positionLimits.map((p) => [p.instrumentId, p.positionLimit]));
    for (const id of [...new Set([...was.keys(), ...now.keys()])].sort((a, b) => a - b)) {
        if (was.get(id) !== now.get(id)) {
            const side = (v, dflt) => v === undefined ? `the default (${qty(dflt)})` : qty(v);
            changes.push(`${symbolOf(id)} position limit: ${side(was.get(id), before.defaultPositionLimit)} → ` +
                `${side(now.get(id), after.defaultPositionLimit)}`);
        }
    }
    return changes;
}

function wireLimits() {
    const f = limitsForm();
    f.accountId.addEventListener('change', loadLimits);
    f.querySelector('.add-instrument-limit').addEventListener('click', () => addInstrumentLimitRow(null, ''));
    f.addEventListener('click', (e) => {
        const remove = e.target.closest('.remove-limit');
        if (remove) {
            remove.closest('tr').remove();
        }
    });
    f.addEventListener('submit', async (e) => {
        e.preventDefault();
        const loaded = state.limits;
        if (!loaded) {
            toast('The account\'s current limits are not known: nothing sent.', 'bad');
            return;
        }
        const after = limitsInForm();
        if (moneyUnits(after.creditLimit) === null || moneyUnits(after.maxOrderNotional) === null) {
            toast('Money limits are decimals with at most 8 places: nothing sent.', 'bad');
            return;
        }
        const ids = after.positionLimits.map((p) => p.instrumentId);
        if (new Set(ids).size !== ids.length) {
            toast('An instrument has two limits: keep one. Nothing sent.', 'bad');
            return;
        }
        const changes = limitChanges(loaded, after);
        if (!changes.length) {
            toast('Nothing changed: nothing sent.', 'ok');
            return;
        }
        // Someone may have changed them since they were shown: sending the old values back would undo that.
        const { status, body: current } = await api(`api/accounts/${after.accountId}/limits`);
        if (status !== 200 || JSON.stringify(current) !== JSON.stringify(loaded)) {
            await loadLimits();
            toast('The limits changed at the engine since they were shown: the form now shows the current ones. ' +
                'Check your change and send it again.', 'bad');
            return;
        }
        if (await act(`Set limits of account ${after.accountId}`, 'These limits change; every other limit stays ' +
            'as it is:', 'api/actions/limits', after, changes)) {
            setTimeout(loadLimits, 1500);
        }
    });
}

function applyRole() {
    for (const el of document.querySelectorAll('.officer-only button, form.action button')) {
        el.disabled = !state.officer;
        el.title = state.officer ? '' : 'Needs the RISK_OFFICER role';
    }
    document.getElementById('viewer-notice').hidden = state.officer;
}

// ------------------------------------------------------------------ audit
/** "Name field=value|field=value" as the name and the fields, an order id opening that order's trail. */
function auditMessage(text) {
    const space = text.indexOf(' ');
    const name = space < 0 ? text : text.slice(0, space);
    const fields = space < 0 ? '' : text.slice(space + 1).split('|').join('  ');
    const linked = esc(fields).replace(/\b((?:orderId|buyOrderId|sellOrderId|restingOrderId|aggressorOrderId)=)(\d+)/g,
        (m, key, id) => (Number(id) > 0 ? `${key}${trailLink(id)}` : m));
    return `<b>${esc(name)}</b> <span class="mono audit-fields-text">${linked}</span>`;
}

function renderAudit(trail) {
    const summary = document.getElementById('audit-summary');
    summary.textContent = `${trail.subject}: ${trail.entries.length} commands` +
        (trail.truncated ? ' (limit reached: narrow the window)' : '') +
        ` · replayed ${qty(trail.commandsReplayed)} commands from ` +
        (trail.restoredSequence ? `the snapshot at ${qty(trail.restoredSequence)}` : 'the journal\'s start') +
        ` to ${qty(trail.lastSequence)} in ${qty(trail.elapsedMs)} ms · times in UTC`;
    const out = document.getElementById('audit-entries');
    if (!trail.entries.length) {
        out.innerHTML = '<p class="empty">Nothing in the journal concerns it.</p>';
        return;
    }
    out.innerHTML = trail.entries.map((e) => `<div class="audit-entry">
        <div class="audit-head"><span class="mono">#${esc(e.sequence)}</span> <span class="mono">${esc(e.time)}</span>
            <span class="hint">gateway ${esc(e.gateway)} session ${esc(e.session)}</span></div>
        <div class="audit-command">${auditMessage(e.commandText)}</div>
        <ul class="audit-events">${e.events.map((ev) => `<li>${auditMessage(ev.text)}</li>`).join('')}</ul>
    </div>`).join('');
}

async function runAudit(params) {
    document.getElementById('audit-summary').textContent = 'replaying the journal…';
    const { status, body } = await api('api/audit?' + params.toString());
    if (status !== 200) {
        document.getElementById('audit-summary').textContent = '';
        document.getElementById('audit-entries').innerHTML =
            `<p class="empty">${esc(body && body.message ? body.message : 'HTTP ' + status)}</p>`;
        return;
    }
    renderAudit(body);
}

/** Start an order's trail: the Audit tab, its form filled with the order id, the search run. */
function openTrail(orderId) {
    const f = document.getElementById('form-audit');
    for (const name of ['order', 'clientOrder', 'account', 'from', 'to']) {
        f[name].value = '';
    }
    f.order.value = orderId;
    showTab('audit');
    runAudit(new URLSearchParams({ order: String(orderId) }));
}

function wireAudit() {
    document.getElementById('form-audit').addEventListener('submit', async (e) => {
        e.preventDefault();
        const f = e.target;
        const params = new URLSearchParams();
        for (const name of ['order', 'clientOrder', 'account', 'from', 'to']) {
            if (f[name].value.trim()) {
                params.set(name, f[name].value.trim());
            }
        }
        runAudit(params);
    });
}

// ------------------------------------------------------------------ navigation
function showTab(tab) {
    state.tab = tab;
    for (const b of document.querySelectorAll('.tab')) {
        b.classList.toggle('active', b.dataset.tab === tab);
    }
    for (const p of document.querySelectorAll('.tabpane')) {
        p.classList.toggle('active', p.id === 'tab-' + tab);
    }
    if (history.replaceState) {
        history.replaceState(null, '', '#' + tab);
    }
    // the console's lists and the admin log are fetched afresh when their tab is opened
    consoleState.usersChange = -1;
    consoleState.adminLogChange = -1;
    if (tab === 'console') {
        loadLocks();
        loadApiKeys();
    }
    render();
}

async function init() {
    const { body: me } = await api('api/me');
    state.me = me;
    // roles include the ones a role implies: an ADMIN is also RISK_OFFICER and VIEWER
    state.officer = me.roles.includes('RISK_OFFICER');
    const role = me.roles.includes('ADMIN') ? 'admin' : (state.officer ? 'risk officer' : 'viewer');
    document.getElementById('user').textContent = `${me.username} (${role})`;
    document.getElementById('logout-form').addEventListener('submit', async (e) => {
        e.preventDefault();
        // one navigation only: a poll answered 401 after this must not start its own to the login page
        state.loggingOut = true;
        if (source) {
            source.close();
        }
        await fetch('logout', { method: 'POST', headers: { 'X-XSRF-TOKEN': csrfToken() }, credentials: 'same-origin' });
        window.location.href = 'login?logout';
    });
    for (const b of document.querySelectorAll('.tab')) {
        b.addEventListener('click', () => showTab(b.dataset.tab));
    }
    document.getElementById('account-sort').addEventListener('change', (e) => {
        state.sort = e.target.value;
        render();
    });
    document.querySelector('#accounts-table tbody').addEventListener('click', (e) => {
        const tr = e.target.closest('tr[data-id]');
        if (tr) {
            state.accountId = Number(tr.dataset.id);
            state.detailBusy.account = false;
            render();
        }
    });
    document.querySelector('#instruments-table tbody').addEventListener('click', (e) => {
        const tr = e.target.closest('tr[data-id]');
        if (tr) {
            state.instrumentId = Number(tr.dataset.id);
            state.detailBusy.instrument = false;
            render();
        }
    });
    wireActions();
    wireConsole();
    wireAudit();
    applyRole();
    const hash = window.location.hash.replace('#', '');
    if (['accounts', 'instruments', 'engine', 'actions', 'console', 'admin-log', 'audit'].includes(hash)) {
        showTab(hash);
    }
    connect();
    setInterval(() => {
        updateConnection();
        if (state.tab === 'engine' && state.snapshot && !liveness().live) {
            renderEngineCards(state.snapshot.engine);
        }
    }, 1000);
}

document.addEventListener('DOMContentLoaded', init);
