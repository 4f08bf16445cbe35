// Browser test of the risk dashboard: Debian chromium (/usr/bin/chromium) driven by playwright-core from npm, which
// downloads no browser of its own. The launch flags below keep chromium from reaching for the network at start and
// from relying on a large /dev/shm.
//
// Talks to its driver (RiskDashboardBrowserIT, or a person) over stdin/stdout: it prints "REQUEST TRADE <account>"
// or "REQUEST ORDER <account>" when it needs the engine to trade or to receive an order for the account, and waits
// for a line "OK". Everything else it prints is progress. Exit code 0 means every check passed.
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
try {
    const page = context.pages()[0] || await context.newPage();
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
    await page.waitForTimeout(1000);
    await page.screenshot({ path: join(shots, 'risk-instruments.png') });
    await page.click('.tab[data-tab=actions]');
    await page.waitForTimeout(1000);
    await page.screenshot({ path: join(shots, 'risk-actions.png') });
    const action = await page.textContent('#actions-table tbody tr:first-child');
    check(action.includes('KILL_SWITCH') && action.includes('ACCEPTED'),
        'the kill switch action shows ACCEPTED (correlated by requestId)');

    // 6. the audit tab replays the engine's journal (read-only, while the engine writes it): the account's trail
    //    holds the kill switch and the order the engine then rejected
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
    check(violations.length === 0, `no Content-Security-Policy violations on any page: ${JSON.stringify(violations)}`);
} catch (e) {
    failed = true;
    console.log(String(e.stack || e));
} finally {
    await context.close();
}
console.log(failed ? 'FAILED' : 'PASSED');
process.exit(failed ? 1 : 0);
