// Browser test of the risk dashboard: Debian chromium (/usr/bin/chromium) driven by playwright-core from npm, which
// downloads no browser of its own. The launch flags below keep chromium from reaching for the network at start and
// from relying on a large /dev/shm.
//
// Talks to its driver (RiskDashboardBrowserIT, or a person) over stdin/stdout: it prints "REQUEST TRADE <account>"
// or "REQUEST ORDER <account>" when it needs the engine to trade or to receive an order for the account,
// "REQUEST INSTRUMENT <id>" when the engine should take an order in an instrument the admin added, and
// "REQUEST USER <name> <password>" when the engine's user directory should hold the user the admin created with a hash
// of that password; it waits for a line "OK". Everything else it prints is progress. Exit code 0 means every check
// passed.
//
// env: BASE_URL (http://localhost:8080/), SHOT_DIR (where PNGs go), CHROMIUM (/usr/bin/chromium),
//      USER_DATA_DIR (fresh profile dir), ACCOUNT (account to kill; default: the worst-utilised one)
import { chromium } from 'playwright-core';
import { createInterface } from 'node:readline';
import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const base = (process.env.BASE_URL || 'http://localhost:8080/').replace(/\/?$/, '/');
const shots = process.env.SHOT_DIR || '.';
mkdirSync(shots, { recursive: true });
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();

async function request(what) {
    console.log(`REQUEST ${what}`);
    const reply = await lines.next();
    if (reply.done || reply.value.trim() !== 'OK') {
        throw new Error(`driver did not confirm ${what}: ${reply.value}`);
    }
}

function check(condition, message) {
    if (!condition) {
        throw new Error('CHECK FAILED: ' + message);
    }
    console.log('ok - ' + message);
}

const context = await chromium.launchPersistentContext(
    process.env.USER_DATA_DIR || mkdtempSync(join(tmpdir(), 'ringex-chromium-')), {
        executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
        headless: true,
        viewport: { width: 1280, height: 800 },
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
            '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
    });
let failed = false;
// Content-Security-Policy violations on any page (login form, dashboard, every tab): the policy allows no inline
// script or style, so a style="..." slipping back into the markup shows here (and the page would look broken).
const violations = [];
await context.exposeFunction('reportCspViolation', (v) => violations.push(v));
await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
        window.reportCspViolation(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:` +
            `${e.lineNumber} ${e.sample || ''}`));
});
// Every console action with a well-formed body: refused for the role, never for the body.
const ADMIN_CALLS = [
    ['api/admin/instruments/add', { instrumentId: 9, symbol: 'NO-USD', priceScale: 2, tickSize: '0.01', lotSize: 1,
        referencePrice: '1.00', priceBandType: 'TICKS', priceBand: 10, reason: 'role test' }],
    ['api/admin/instruments/amend', { instrumentId: 1, symbol: 'RGX-USD', tickSize: '0.01', lotSize: 1,
        referencePrice: '100.00', priceBandType: 'BASIS_POINTS', priceBand: 1000, reason: 'role test' }],
    ['api/admin/instruments/delist', { instrumentId: 1, reason: 'role test' }],
    ['api/admin/accounts/open', { accountId: 9, selfTradePrevention: 'CANCEL_NEWEST', reason: 'role test' }],
    ['api/admin/accounts/status', { accountId: 1003, status: 'SUSPENDED', reason: 'role test' }],
    ['api/admin/accounts/deposit', { accountId: 1003, amount: '1.00', reference: 'R', reason: 'role test' }],
    ['api/admin/accounts/withdraw', { accountId: 1003, amount: '1.00', reference: 'R', reason: 'role test' }],
    ['api/admin/users/create', { username: 'sneaky', password: 'long enough 1', accounts: [1003],
        fixSenderCompId: '', fixCancelOnDisconnect: false, throttleMessagesPerSecond: 0, enabled: true,
        reason: 'role test' }],
    ['api/admin/users/password', { username: 'sneaky', password: 'long enough 1', reason: 'role test' }],
    ['api/admin/users/enabled', { username: 'sneaky', enabled: false, reason: 'role test' }],
    ['api/admin/users/accounts', { username: 'sneaky', accounts: [1003], reason: 'role test' }],
];
let page;

async function login(user, password) {
    await page.goto(base + 'login');
    await page.fill('input[name=username]', user);
    await page.fill('input[name=password]', password);
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    await page.waitForSelector('#conn.conn-up', { timeout: 15000 });
    check((await page.textContent('#user')).startsWith(user), `logged in as ${user}`);
}

async function logout() {
    await Promise.all([page.waitForNavigation(), page.click('#logout-form button')]);
}

async function refusedEveryAdminAction(who) {
    // the page's own api(): the session, the CSRF token and a valid body; only the role is missing
    const answers = await page.evaluate(async (calls) => {
        const out = [];
        for (const [path, body] of calls) {
            out.push(`${path} ${(await api(path, { method: 'POST', body })).status}`);
        }
        return out;
    }, ADMIN_CALLS);
    check(answers.length === 11 && answers.every((a) => a.endsWith(' 403')),
        `${who} gets 403 on every admin action: ${answers.join(', ')}`);
}

/** Fill a console form, press its button, confirm, and wait for the engine's answer under it. */
async function submit(formId, values, button) {
    for (const [name, value] of Object.entries(values)) {
        const field = `#${formId} [name=${name}]:not(button)`;
        const kind = await page.$eval(field, (el) => `${el.tagName}:${el.type}`);
        if (kind.startsWith('SELECT')) {
            await page.selectOption(field, String(value));
        } else if (kind.endsWith('checkbox')) {
            await page.setChecked(field, Boolean(value));
        } else {
            await page.fill(field, String(value));
        }
    }
    await page.$eval(`#${formId} .result`, (r) => { delete r.dataset.outcome; });
    await page.click(button ? `#${formId} button[value="${button}"]` : `#${formId} button[type=submit]`);
    await page.waitForSelector('#confirm[open]');
    await page.click('#confirm-ok');
    await page.waitForFunction((id) => {
        const outcome = document.querySelector(`#${id} .result`).dataset.outcome;
        return outcome && outcome !== 'SENDING';
    }, formId, { timeout: 30000 });
    return page.$eval(`#${formId} .result`, (r) => ({ outcome: r.dataset.outcome, text: r.textContent }));
}

try {
    page = context.pages()[0] || await context.newPage();
    page.on('pageerror', (e) => console.log('page error: ' + e.message));
    page.on('console', (m) => {
        if (m.text().includes('Content Security Policy')) {
            violations.push(m.text());
        }
    });

    // 1. anonymous -> login form; log in as the risk officer
    await page.goto(base);
    check(page.url().includes('/login'), 'anonymous user is sent to the login form');
    await page.fill('input[name=username]', 'officer');
    await page.fill('input[name=password]', 'officer');
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    await page.waitForSelector('#accounts-table tbody tr[data-id]', { timeout: 15000 });
    await page.waitForSelector('#conn.conn-up', { timeout: 15000 });
    check(true, 'logged in; accounts table filled; connection indicator says Live');
    const headers = (await page.request.get(base)).headers();
    check((headers['content-security-policy'] || '').includes("script-src 'self'") &&
        !(headers['content-security-policy'] || '').includes('unsafe-inline'),
    `the dashboard is served with a strict Content-Security-Policy: ${headers['content-security-policy']}`);
    const barWidth = await page.evaluate(() => document.querySelector('#accounts-table .bar > i').style.width);
    check(/^[0-9.]+%$/.test(barWidth), `utilisation bars are sized under the policy (width ${barWidth})`);

    // 2. an account's exposure changes after trades
    const account = process.env.ACCOUNT ||
        await page.getAttribute('#accounts-table tbody tr[data-id]:first-child', 'data-id');
    const row = `#accounts-table tbody tr[data-id="${account}"]`;
    const exposureBefore = await page.textContent(`${row} td:nth-child(3)`);
    await request(`TRADE ${account}`);
    await page.waitForFunction(([sel, before]) => {
        const td = document.querySelector(sel + ' td:nth-child(3)');
        return td && td.textContent !== before;
    }, [row, exposureBefore], { timeout: 15000 });
    const exposureAfter = await page.textContent(`${row} td:nth-child(3)`);
    check(true, `account ${account} exposure changed after a trade: ${exposureBefore} -> ${exposureAfter}`);

    await page.click(row);
    await page.waitForSelector(`#account-detail .kill-toggle`, { timeout: 10000 });
    await page.waitForTimeout(1500);
    await page.screenshot({ path: join(shots, 'risk-dashboard.png') });
    console.log('screenshot risk-dashboard.png');

    // 3. kill switch: confirm dialog, then the account shows KILLED
    const rejectsBefore = await page.evaluate(async () =>
        (await (await fetch('api/engine')).json()).rejects.ACCOUNT_KILLED || 0);
    await page.click('#account-detail .kill-toggle[data-active="true"]');
    await page.waitForSelector('#confirm[open]');
    await page.screenshot({ path: join(shots, 'risk-kill-switch-confirm.png') });
    await page.click('#confirm-ok');
    await page.waitForSelector(`${row} .badge.bad`, { timeout: 15000 });
    check(true, `account ${account} shows KILLED after the kill switch`);

    // 4. the engine rejects the account's next order
    await request(`ORDER ${account}`);
    await page.waitForFunction(async (before) => {
        const e = await (await fetch('api/engine')).json();
        return (e.rejects.ACCOUNT_KILLED || 0) > before;
    }, rejectsBefore, { timeout: 15000, polling: 500 });
    check(true, 'the engine rejected the killed account\'s next order (ACCOUNT_KILLED counted in EngineStatus)');

    // 5. the other tabs, for the record
    await page.click('.tab[data-tab=engine]');
    await page.waitForTimeout(2500);
    await page.screenshot({ path: join(shots, 'risk-engine.png') });
    await page.click('.tab[data-tab=instruments]');
    await page.waitForSelector('#instrument-detail .ladder, #instrument-detail table', { timeout: 10000 });
    await page.waitForSelector('#candles[data-candles]', { timeout: 10000 });
    check(await page.$eval('#candles', (c) => Number(c.dataset.candles)) >= 1,
        'the instrument pane draws one-minute candles from the engine\'s trades');
    await page.waitForTimeout(1000);
    await page.screenshot({ path: join(shots, 'risk-instruments.png') });
    await page.click('.tab[data-tab=actions]');
    await page.waitForTimeout(1000);
    await page.screenshot({ path: join(shots, 'risk-actions.png') });
    const action = await page.textContent('#actions-table tbody tr:first-child');
    check(action.includes('KILL_SWITCH') && action.includes('ACCEPTED'),
        'the kill switch action shows ACCEPTED (correlated by requestId)');

    // 6. the operator console: a risk officer and a viewer see its lists, and every admin action is refused (403)
    await page.click('.tab[data-tab=console]');
    await page.waitForSelector('#console-instruments tbody tr[data-id]', { timeout: 10000 });
    check(await page.$eval('#form-add-instrument button[type=submit]', (b) => b.disabled) &&
        !(await page.$eval('#admin-notice', (n) => n.hidden)), 'a risk officer sees the console with its forms disabled');
    await refusedEveryAdminAction('a risk officer');
    await logout();
    await login('viewer', 'viewer');
    await refusedEveryAdminAction('a viewer');
    await logout();

    // 7. an admin adds an instrument, opens and funds an account, creates a user; the engine answers each
    await login('admin', 'admin');
    await page.click('.tab[data-tab=console]');
    await page.waitForFunction(() => document.getElementById('users-source').textContent.includes('node'), null,
        { timeout: 15000 });
    check(true, 'the user directory arrived from the engine');
    let result = await submit('form-add-instrument', { instrumentId: 4, symbol: 'NEW-USD', priceScale: 2,
        tickSize: '0.01', lotSize: 1, referencePrice: '50.00', priceBandType: 'BASIS_POINTS', priceBand: 1000,
        reason: 'listing approved' });
    check(result.outcome === 'ACCEPTED', `AddInstrument answered: ${result.text}`);
    await page.waitForSelector('#console-instruments tbody tr[data-id="4"]', { timeout: 15000 });
    check((await page.textContent('#console-instruments tbody tr[data-id="4"]')).includes('NEW-USD'),
        'the new instrument is listed, from the engine\'s InstrumentDefinition');
    await request('INSTRUMENT 4');
    check(true, 'the engine took a resting order in the new instrument');

    result = await submit('form-open-account', { accountId: 2001, selfTradePrevention: 'CANCEL_NEWEST',
        reason: 'new client' });
    check(result.outcome === 'ACCEPTED', `AddAccount answered: ${result.text}`);
    await page.waitForSelector('#console-accounts tbody tr[data-id="2001"] .badge.ok', { timeout: 15000 });
    check(true, 'account 2001 is listed ACTIVE');
    result = await submit('form-open-account', { accountId: 2001, selfTradePrevention: 'CANCEL_NEWEST',
        reason: 'opened twice by mistake' });
    check(result.outcome === 'REJECTED' && result.text.includes('DUPLICATE_ID'),
        `the engine's refusal is shown with its reason: ${result.text}`);

    await page.waitForSelector('#form-transfer select[name=accountId] option[value="2001"]',
        { state: 'attached', timeout: 15000 });
    result = await submit('form-transfer', { accountId: 2001, amount: '25000.00', reference: 'WIRE-2001',
        reason: 'initial funding' }, 'deposit');
    check(result.outcome === 'ACCEPTED', `the deposit answered: ${result.text}`);
    await page.waitForFunction(() => (document.querySelector('#console-accounts tbody tr[data-id="2001"]')
        ?.textContent || '').includes('25,000.00'), null, { timeout: 15000 });
    check(true, 'account 2001 shows a balance of 25,000.00 (the engine\'s AccountRiskUpdate)');

    const password = 'Tr4der-Seven!';
    result = await submit('form-create-user', { username: 'trader7', password, accounts: '2001',
        fixSenderCompId: 'TRADER7', reason: 'onboarding' });
    check(result.outcome === 'ACCEPTED' && result.text.includes('UPSERT_USER ACCEPTED') &&
        result.text.includes('SET_PASSWORD ACCEPTED'), `the new user answered: ${result.text}`);
    check(await page.$eval('#form-create-user input[name=password]', (i) => i.value) === '',
        'the password field is emptied once sent');
    await page.waitForFunction(() => (document.querySelector('#console-users tbody tr[data-user="trader7"]')
        ?.textContent || '').includes('set'), null, { timeout: 15000 });
    check(true, 'trader7 is listed with a password set (the engine\'s UserDefinition)');
    await request(`USER trader7 ${password}`);
    check(true, 'the engine holds trader7 with a hash of the password typed');
    // a taller window for the console's forms (a full-page shot would draw the sticky bar mid-page)
    await page.setViewportSize({ width: 1280, height: 1180 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(shots, 'risk-console.png') });
    await page.setViewportSize({ width: 1280, height: 800 });

    // 8. the admin log shows those actions, read back from the engine's answers, and never a credential
    await page.click('.tab[data-tab=admin-log]');
    await page.waitForSelector('#admin-log-table tbody tr[data-command="SetUserCredential"]', { timeout: 15000 });
    const newest = async (command) => page.textContent(`#admin-log-table tbody tr[data-command="${command}"]`);
    const instrumentRow = await newest('AddInstrument');
    check(instrumentRow.includes('admin') && instrumentRow.includes('(console)') &&
        instrumentRow.includes('listing approved') && instrumentRow.includes('symbol=NEW-USD') &&
        instrumentRow.includes('ACCEPTED'), `admin log: AddInstrument by admin, recorded here: ${instrumentRow}`);
    const accountRow = await newest('AddAccount');
    check(accountRow.includes('REJECTED') && accountRow.includes('DUPLICATE_ID'),
        `admin log: the refused AddAccount with the engine's reason: ${accountRow}`);
    const fundingRow = await newest('AdjustBalance');
    check(fundingRow.includes('admin') && !fundingRow.includes('(console)') &&
        fundingRow.includes('initial funding') && fundingRow.includes('amount=25000.00000000') &&
        fundingRow.includes('reference=WIRE-2001') && fundingRow.includes('ACCEPTED'),
    `admin log: the deposit with operator, reason and reference from the journaled command: ${fundingRow}`);
    const userRow = await newest('UpsertUser');
    check(userRow.includes('admin') && userRow.includes('onboarding') && userRow.includes('username=trader7') &&
        userRow.includes('accounts=[2001]'), `admin log: UpsertUser: ${userRow}`);
    const credentialRow = await newest('SetUserCredential');
    check(credentialRow.includes('credentialHash=(not shown)') && credentialRow.includes('ACCEPTED'),
        `admin log: SetUserCredential without its hash: ${credentialRow}`);
    const page_ = await page.textContent('body');
    check(!page_.includes('pbkdf2') && !page_.includes(password), 'no credential hash or password anywhere on the page');
    await page.screenshot({ path: join(shots, 'risk-admin-log.png') });

    // 9. the Audit tab replays the engine's journal (read-only, while the engine writes it): the killed account's
    //    trail holds the kill switch and the order the engine then rejected
    await page.click('.tab[data-tab=audit]');
    await page.fill('#form-audit input[name=account]', String(account));
    await page.click('#form-audit button[type=submit]');
    await page.waitForSelector('.audit-entry', { timeout: 30000 });
    const trail = await page.textContent('#audit-entries');
    check(trail.includes('KillSwitch') && trail.includes(`accountId=${account}`),
        `the audit trail of account ${account} shows the kill switch command`);
    check(trail.includes('rejectReason=ACCOUNT_KILLED'),
        'and the order the engine rejected after it, with the reason');
    await page.screenshot({ path: join(shots, 'risk-audit.png') });
    // the console's commands are in the journal too: account 2001's trail, opened and funded by the admin
    await page.fill('#form-audit input[name=account]', '2001');
    await page.click('#form-audit button[type=submit]');
    // the answer replaces the killed account's trail (which holds an AdjustBalance too): wait for its summary, or
    // for the emptied one of a refusal
    await page.waitForFunction(() => {
        const summary = document.getElementById('audit-summary').textContent;
        return summary.startsWith('account 2001:') || summary === '';
    }, null, { timeout: 30000 });
    const opened = await page.textContent('#audit-entries');
    check(opened.includes('AddAccount') && opened.includes('AdjustBalance') && opened.includes('accountId=2001'),
        'the audit trail of account 2001 holds the AddAccount and the AdjustBalance the admin sent from the console: ' +
        opened.slice(0, 300));
    check(!(await page.textContent('body')).includes('pbkdf2'), 'still no credential hash anywhere on the page');
    check(violations.length === 0, `no Content-Security-Policy violations on any page: ${JSON.stringify(violations)}`);
} catch (e) {
    failed = true;
    console.log(String(e.stack || e));
} finally {
    await context.close();
}
console.log(failed ? 'FAILED' : 'PASSED');
process.exit(failed ? 1 : 0);
