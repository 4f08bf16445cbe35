/*
 * The operator console (ADMIN) and the admin log (the admin commands the engine answered). Uses app.js's helpers
 * (api, esc, price, money, time, utc, toast, confirmAction, state). The lists come from the live snapshot (instruments,
 * accounts) and from the REST API (users, admin log), fetched again when the snapshot's change counters say they moved.
 * (The Audit tab, a lifecycle replayed from the engine's journal, is app.js's.) Each form sends one request to
 * /api/admin/** and shows the engine's answer under it: ACCEPTED, or REJECTED with the engine's reason (the result
 * line's data-outcome says which, for people and tests alike).
 */
'use strict';

const consoleState = { usersChange: -1, adminLogChange: -1, users: [], usersLoaded: false, usersEngine: -1 };

const isAdmin = () => Boolean(state.me && state.me.roles.includes('ADMIN'));

/** "2001, 1003" or "2001 1003" as account ids, the default first; what is not a number is left for the API to refuse. */
function accountList(text) {
    return text.split(/[\s,]+/).filter((t) => t.length > 0).map((t) => (/^\d+$/.test(t) ? Number(t) : t));
}

// ------------------------------------------------------------------ rendering (called by app.js's render)
function consoleRender(s) {
    if (state.tab === 'console') {
        renderConsoleInstruments(s.instruments);
        renderConsoleAccounts(s.accounts);
        const amend = document.getElementById('form-amend-instrument');
        if (!amend.symbol.value && amend.instrumentId.value) {
            prefillAmend(amend);
        }
        if (s.usersChange !== consoleState.usersChange) {
            consoleState.usersChange = s.usersChange;
            loadUsers();
        }
    }
    if (state.tab === 'admin-log' && s.adminLogChange !== consoleState.adminLogChange) {
        consoleState.adminLogChange = s.adminLogChange;
        loadAdminLog();
    }
}

function renderConsoleInstruments(instruments) {
    document.querySelector('#console-instruments tbody').innerHTML = instruments.map((i) => `
        <tr data-id="${i.instrumentId}"><td class="mono">${i.instrumentId}</td><td><b>${esc(i.symbol)}</b></td>
            <td>${statusBadge(i.status)}</td><td class="num">${price(i.tickSize)}</td><td class="num">${qty(i.lotSize)}</td>
            <td class="num">${price(i.referencePrice)}</td>
            <td>${i.priceBandType === 'TICKS' ? `${i.priceBand} ticks` :
        (i.priceBandType === 'BASIS_POINTS' ? `${i.priceBand} bp` : '—')}</td></tr>`).join('') ||
        '<tr><td colspan="7" class="empty">No instruments yet.</td></tr>';
}

function standingBadge(status) {
    if (!status) {
        return '<span class="badge muted" title="Not known yet: the engine sends every account\'s standing with its ' +
            'next refresh">—</span>';
    }
    const cls = { ACTIVE: 'ok', SUSPENDED: 'warn', CLOSED: 'bad' }[status] || 'muted';
    return `<span class="badge ${cls}">${esc(status)}</span>`;
}

function renderConsoleAccounts(accounts) {
    const rows = [...accounts].sort((a, b) => a.accountId - b.accountId);
    document.querySelector('#console-accounts tbody').innerHTML = rows.map((a) => `
        <tr data-id="${a.accountId}"><td class="mono">${a.accountId}</td><td>${standingBadge(a.status)}</td>
            <td class="num">${money(a.balance)}</td>
            <td>${a.killSwitch ? '<span class="badge bad">on</span>' : '<span class="unit">off</span>'}</td></tr>`).join('') ||
        '<tr><td colspan="4" class="empty">No accounts yet.</td></tr>';
}

async function loadUsers() {
    const { status, body } = await api('api/users');
    if (status !== 200) {
        consoleState.usersChange = -1;
        return;
    }
    consoleState.users = body.users;
    consoleState.usersLoaded = body.loaded;
    consoleState.usersEngine = body.engine;
    const node = state.snapshot?.engine?.nodes?.find((n) => n.engine === body.engine);
    document.getElementById('users-source').textContent = body.loaded ?
        `the engine's directory (node ${node && node.seen ? node.nodeId : '?'})` : 'waiting for the engine\'s directory…';
    document.querySelector('#console-users tbody').innerHTML = body.users.map((u) => `
        <tr data-user="${esc(u.username)}"><td><b>${esc(u.username)}</b></td>
            <td>${u.enabled ? '<span class="badge ok">enabled</span>' : '<span class="badge bad">disabled</span>'}</td>
            <td class="mono">${u.accounts.join(', ')}</td><td>${esc(u.fixSenderCompId || '—')}</td>
            <td>${u.passwordSet ? '<span class="badge ok">set</span>' : '<span class="badge warn">none</span>'}</td>
        </tr>`).join('') || '<tr><td colspan="5" class="empty">No users.</td></tr>';
    for (const sel of document.querySelectorAll('.user-select')) {
        const keep = sel.value;
        sel.innerHTML = body.users.map((u) => `<option value="${esc(u.username)}">${esc(u.username)}</option>`).join('');
        if (keep && body.users.some((u) => u.username === keep)) {
            sel.value = keep;
        }
    }
    prefillUserAccounts();
}

function fieldsText(fields) {
    return Object.entries(fields).map(([k, v]) => {
        const value = Array.isArray(v) ? '[' + v.map((e) => Object.values(e).join(':')).join(', ') + ']' : v;
        return `${k}=${value}`;
    }).join(' ');
}

async function loadAdminLog() {
    const { status, body } = await api('api/admin-log?limit=200');
    if (status !== 200) {
        consoleState.adminLogChange = -1;
        return;
    }
    document.querySelector('#admin-log-table tbody').innerHTML = body.map((e) => `
        <tr data-seq="${e.commandSequence}" data-command="${esc(e.command)}" data-status="${esc(e.status)}">
            <td>${time(e.timestampNs)}</td><td class="num mono">${e.commandSequence}</td>
            <td class="wrap">${esc(e.command).replace(/([a-z])([A-Z])/g, '$1<wbr>$2')}</td>
            <td title="${e.operatorSource === 'THIS_SERVICE' ? 'the command names no operator: this dashboard sent it for this user, and only it keeps who and why' : 'the operator the command names, as the engine journaled it'}">
                ${esc(e.operator || '—')}${e.operatorSource === 'THIS_SERVICE' ? ' <span class="unit">(dashboard)</span>' : ''}</td>
            <td class="wrap">${esc(e.reason || '—')}</td>
            <td class="wrap mono-ish">${esc(fieldsText(e.fields))}</td>
            <td class="wrap">${actionBadge(e.status)}${e.rejectReason ? ' ' + esc(e.rejectReason) : ''}</td></tr>`)
        .join('') ||
        '<tr><td colspan="7" class="empty">No admin command answered since the service started.</td></tr>';
}

// ------------------------------------------------------------------ sending
async function settle(requestId) {
    let last = null;
    for (let i = 0; i < 60; i++) {
        const { status, body } = await api(`api/actions/${requestId}`);
        if (status === 200) {
            last = body;
            if (body.status !== 'PENDING') {
                return body;
            }
        }
        await new Promise((r) => setTimeout(r, 250));
    }
    return last;
}

function showResult(form, outcome, text) {
    const result = form.querySelector('.result');
    result.dataset.outcome = outcome;
    result.className = 'result ' + ({ ACCEPTED: 'ok', SENDING: '' }[outcome] ?? 'bad');
    result.textContent = text;
}

async function adminSubmit(form, title, text, path, body) {
    if (await confirmAction(title, text) === null) {
        return;
    }
    showResult(form, 'SENDING', 'Sending…');
    const { status, body: res } = await api(path, { method: 'POST', body });
    for (const secret of form.querySelectorAll('input[type=password]')) {
        secret.value = '';
    }
    if (status === 202) {
        const sent = Array.isArray(res) ? res : [res];
        showResult(form, 'SENDING', sent.map((a) => `${a.action} sent (request ${a.requestId})`).join(' · ') +
            '; waiting for the engine…');
        const answers = await Promise.all(sent.map((a) => settle(a.requestId)));
        const accepted = answers.every((a) => a && a.status === 'ACCEPTED');
        const rejected = answers.some((a) => a && a.status === 'REJECTED');
        showResult(form, accepted ? 'ACCEPTED' : (rejected ? 'REJECTED' : 'NO_ANSWER'), answers.map((a, i) =>
            `${sent[i].action} ${a ? a.status + (a.rejectReason ? ': ' + a.rejectReason : '') : 'no answer'}`)
            .join(' · '));
        if (accepted && form.dataset.clearOnAccept) {
            // done: a second click must not do it again
            for (const name of form.dataset.clearOnAccept.split(' ')) {
                form[name].value = '';
            }
        }
    } else if (status === 403) {
        showResult(form, 'FORBIDDEN', 'Not allowed (403): the ADMIN role is needed.');
    } else {
        showResult(form, 'NOT_SENT', `Not sent (${status}): ${res ? res.message || res.error : ''}`);
    }
}

function prefillAmend(form) {
    const i = state.snapshot?.instruments.find((x) => x.instrumentId === Number(form.instrumentId.value));
    if (i) {
        form.symbol.value = i.symbol;
        form.tickSize.value = i.tickSize;
        form.lotSize.value = i.lotSize;
        form.referencePrice.value = i.referencePrice ?? '';
        form.priceBandType.value = i.priceBandType === 'TICKS' ? 'TICKS' : 'BASIS_POINTS';
        form.priceBand.value = i.priceBand;
    }
}

function prefillUserAccounts() {
    const form = document.getElementById('form-user-accounts');
    const user = consoleState.users.find((u) => u.username === form.username.value);
    if (user && !form.accounts.value) {
        form.accounts.value = user.accounts.join(', ');
    }
}

function wireConsole() {
    const on = (id, handler) => document.getElementById(id).addEventListener('submit', (e) => {
        e.preventDefault();
        handler(e.target, e.submitter);
    });
    on('form-add-instrument', (f) => adminSubmit(f, 'Add instrument',
        `Add instrument ${f.instrumentId.value} ${f.symbol.value.trim()}?`, 'api/admin/instruments/add', {
            instrumentId: Number(f.instrumentId.value), symbol: f.symbol.value.trim(),
            priceScale: Number(f.priceScale.value), tickSize: f.tickSize.value.trim(), lotSize: Number(f.lotSize.value),
            referencePrice: f.referencePrice.value.trim(), priceBandType: f.priceBandType.value,
            priceBand: Number(f.priceBand.value), reason: f.reason.value,
        }));
    const amend = document.getElementById('form-amend-instrument');
    amend.instrumentId.addEventListener('change', () => prefillAmend(amend));
    on('form-amend-instrument', (f) => adminSubmit(f, 'Amend instrument',
        `Amend instrument ${f.instrumentId.value}?`, 'api/admin/instruments/amend', {
            instrumentId: Number(f.instrumentId.value), symbol: f.symbol.value.trim(), tickSize: f.tickSize.value.trim(),
            lotSize: Number(f.lotSize.value), referencePrice: f.referencePrice.value.trim(),
            priceBandType: f.priceBandType.value, priceBand: Number(f.priceBand.value), reason: f.reason.value,
        }));
    on('form-delist-instrument', (f) => adminSubmit(f, 'Delist instrument',
        `Delist instrument ${f.instrumentId.value}? Its orders are cancelled and it never trades again.`,
        'api/admin/instruments/delist', { instrumentId: Number(f.instrumentId.value), reason: f.reason.value }));
    on('form-open-account', (f) => adminSubmit(f, 'Open account', `Open account ${f.accountId.value}?`,
        'api/admin/accounts/open', {
            accountId: Number(f.accountId.value), selfTradePrevention: f.selfTradePrevention.value, reason: f.reason.value,
        }));
    on('form-account-status', (f, button) => adminSubmit(f, 'Account standing',
        `Set account ${f.accountId.value} ${button.value}?`, 'api/admin/accounts/status',
        { accountId: Number(f.accountId.value), status: button.value, reason: f.reason.value }));
    on('form-transfer', (f, button) => adminSubmit(f, button.value === 'deposit' ? 'Deposit' : 'Withdraw',
        `${button.value === 'deposit' ? 'Deposit' : 'Withdraw'} ${f.amount.value.trim()} USD ` +
        `${button.value === 'deposit' ? 'into' : 'from'} account ${f.accountId.value} (reference ${f.reference.value})?`,
        `api/admin/accounts/${button.value}`, {
            accountId: Number(f.accountId.value), amount: f.amount.value.trim(), reference: f.reference.value,
            reason: f.reason.value,
        }));
    on('form-create-user', (f) => adminSubmit(f, 'Create user',
        `Create user ${f.username.value.trim()} trading ${f.accounts.value}?`, 'api/admin/users/create', {
            username: f.username.value.trim(), password: f.password.value, accounts: accountList(f.accounts.value),
            fixSenderCompId: f.fixSenderCompId.value.trim(), fixCancelOnDisconnect: f.fixCancelOnDisconnect.checked,
            throttleMessagesPerSecond: Number(f.throttleMessagesPerSecond.value || 0), enabled: f.enabled.checked,
            reason: f.reason.value,
        }));
    on('form-user-password', (f) => adminSubmit(f, 'New password', `Set a new password for ${f.username.value}?`,
        'api/admin/users/password', { username: f.username.value, password: f.password.value, reason: f.reason.value }));
    on('form-user-enabled', (f, button) => adminSubmit(f, button.value === 'true' ? 'Enable user' : 'Disable user',
        button.value === 'true' ? `Enable ${f.username.value}?` :
            `Disable ${f.username.value}? Its sessions are logged out at every gateway.`,
        'api/admin/users/enabled', { username: f.username.value, enabled: button.value === 'true', reason: f.reason.value }));
    const grant = document.getElementById('form-user-accounts');
    grant.username.addEventListener('change', () => {
        grant.accounts.value = '';
        prefillUserAccounts();
    });
    on('form-user-accounts', (f) => adminSubmit(f, 'Accounts', `${f.username.value} may trade ${f.accounts.value}?`,
        'api/admin/users/accounts', { username: f.username.value, accounts: accountList(f.accounts.value),
            reason: f.reason.value }));
    wireLockouts();
    wireApiKeys();
    applyAdminRole();
}

// ------------------------------------------------------------------ API keys (ADMIN)
async function loadApiKeys() {
    const body = document.querySelector('#api-keys-table tbody');
    if (!isAdmin()) {
        body.innerHTML = '<tr><td colspan="6" class="empty">Only an ADMIN sees and manages API keys.</td></tr>';
        return;
    }
    const { status, body: res } = await api('api/security/api-keys');
    if (status !== 200) {
        body.innerHTML = `<tr><td colspan="6" class="empty">${esc(res ? res.message || res.error : String(status))}` +
            '</td></tr>';
        return;
    }
    document.getElementById('api-keys-source').textContent = res.file;
    body.innerHTML = res.keys.map((k) => `<tr data-key="${esc(k.keyId)}">
        <td class="num">${k.number}</td><td class="mono-ish">${esc(k.keyId)}</td><td>${esc(k.username)}</td>
        <td>${k.permissions === 'read' ? 'read' : 'read, trade'}</td>
        <td class="mono-ish">${k.addresses.length ? k.addresses.map(esc).join(', ') : '<span class="unit">any</span>'}</td>
        <td><button type="button" class="revoke danger">Revoke</button></td></tr>`).join('') ||
        '<tr><td colspan="6" class="empty">No API keys yet.</td></tr>';
}

async function createApiKey(form) {
    const keyId = form.keyId.value.trim();
    if (await confirmAction('New API key', `Create key ${keyId} for ${form.username.value}` +
        `${form.trade.checked ? ', which may trade' : ', read only'}? Its secret is shown once.`) === null) {
        return;
    }
    const { status, body } = await api('api/security/api-keys/create', { method: 'POST', body: {
        keyId, username: form.username.value, trade: form.trade.checked,
        addresses: form.addresses.value.split(/[\s,]+/).filter((a) => a.length > 0).join(','),
    } });
    if (status === 201) {
        showResult(form, 'ACCEPTED', `Created ${body.keyId} (number ${body.number}). Secret, shown this once: `);
        const secret = document.createElement('code');
        secret.className = 'secret';
        secret.textContent = body.secret;
        form.querySelector('.result').append(secret);
        form.keyId.value = '';
    } else {
        showResult(form, status === 403 ? 'FORBIDDEN' : 'REJECTED', `Not created (${status}): ` +
            `${body ? body.message || body.error : ''}`);
    }
    loadApiKeys();
}

async function revokeApiKey(keyId) {
    if (await confirmAction('Revoke an API key', `Revoke ${keyId}? Every gateway refuses it within a second and ` +
        'closes its streams; its number is never given again.') === null) {
        return;
    }
    const { status, body } = await api('api/security/api-keys/revoke', { method: 'POST', body: { keyId } });
    toast(status === 200 ? `API key ${keyId} revoked.` : `Not revoked (${status}): ` +
        `${body ? body.message || body.error : ''}`, status === 200 ? 'ok' : 'bad');
    loadApiKeys();
}

function wireApiKeys() {
    document.getElementById('form-create-api-key').addEventListener('submit', (e) => {
        e.preventDefault();
        createApiKey(e.target);
    });
    document.querySelector('#api-keys-table tbody').addEventListener('click', (e) => {
        const button = e.target.closest('button.revoke');
        if (button) {
            revokeApiKey(button.closest('tr').dataset.key);
        }
    });
}

// ------------------------------------------------------------------ lockouts (ADMIN)
async function loadLocks() {
    const body = document.querySelector('#dashboard-locks tbody');
    if (!isAdmin()) {
        body.innerHTML = '<tr><td colspan="5" class="empty">Only an ADMIN sees and lifts lockouts.</td></tr>';
        return;
    }
    const { status, body: locks } = await api('api/security/locks');
    if (status !== 200) {
        body.innerHTML = `<tr><td colspan="5" class="empty">Could not read the locks (${status}).</td></tr>`;
        return;
    }
    body.innerHTML = locks.map((l) => `<tr data-kind="${esc(l.kind)}" data-key="${esc(l.key)}">
        <td>${l.kind === 'USER' ? 'user name' : 'address'}</td><td class="mono-ish" title="${esc(l.key)}">${esc(l.key)}</td>
        <td>${utc(l.lockedUntilMs)}</td><td class="num">${l.locks}</td>
        <td><button type="button" class="unlock">Unlock</button></td></tr>`).join('') ||
        '<tr><td colspan="5" class="empty">No dashboard login is locked.</td></tr>';
}

async function unlockLogin(kind, key) {
    const what = kind === 'USER' ? `user name "${key}"` : `address ${key}`;
    if (await confirmAction('Lift a login lockout', `Let ${what} log in to the dashboard again? Its failed logins are ` +
        'forgotten. A user name in the list may be a mistyped one, or a password typed into the user field.') === null) {
        return;
    }
    const { status, body } = await api('api/security/unlock', { method: 'POST',
        body: kind === 'USER' ? { username: key } : { address: key } });
    toast(status === 200 ? `Dashboard login of ${what} unlocked.` : `Not unlocked (${status}): ` +
        `${body ? body.message || body.error : ''}`, status === 200 ? 'ok' : 'bad');
    loadLocks();
}

function wireLockouts() {
    document.querySelector('#lockouts .refresh-locks').addEventListener('click', loadLocks);
    document.querySelector('#dashboard-locks tbody').addEventListener('click', (e) => {
        const button = e.target.closest('button.unlock');
        if (button) {
            const row = button.closest('tr');
            unlockLogin(row.dataset.kind, row.dataset.key);
        }
    });
    document.getElementById('form-unlock-logons').addEventListener('submit', (e) => {
        e.preventDefault();
        const f = e.target;
        const username = f.username.value.trim();
        const address = f.address.value.trim();
        if (!username && !address) {
            showResult(f, 'NOT_SENT', 'Give a user name, an address or both.');
            return;
        }
        adminSubmit(f, 'Lift a logon lockout', `Let ${[username && 'user ' + username, address && 'address ' + address]
            .filter(Boolean).join(' and ')} log on to every gateway again?`, 'api/actions/unlock-logons',
        { username, address, reason: f.reason.value });
    });
}

function applyAdminRole() {
    const admin = isAdmin();
    for (const el of document.querySelectorAll('.admin-form button')) {
        el.disabled = !admin;
        el.title = admin ? '' : 'Needs the ADMIN role';
    }
    document.getElementById('admin-notice').hidden = admin;
}
