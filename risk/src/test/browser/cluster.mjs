// Browser test of the dashboard's engine view of a three-member engine cluster, as a viewer: Debian chromium driven
// by playwright-core, as dashboard.mjs.
//
// Talks to its driver (RiskDashboardBrowserIT) over stdin/stdout: "REQUEST LEADER" is answered "OK <node id>" with the
// member that leads as the engine nodes themselves say; "REQUEST STOP_LEADER" closes that member ("OK <node id>");
// "REQUEST LEADER_NOT <node id>" waits for the cluster to elect another ("OK <its node id>"). Exit code 0 means every
// check passed.
//
// env: BASE_URL, SHOT_DIR, CHROMIUM, USER_DATA_DIR (as dashboard.mjs)
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
    if (reply.done || !/^OK( |$)/.test(reply.value.trim())) {
        throw new Error(`driver did not confirm ${what}: ${reply.value}`);
    }
    return reply.value.trim().slice(3);
}

function check(condition, message) {
    if (!condition) {
        throw new Error('CHECK FAILED: ' + message);
    }
    console.log('ok - ' + message);
}

const WIDE = { width: 1400, height: 900 };
const NARROW = { width: 800, height: 900 };
const context = await chromium.launchPersistentContext(
    process.env.USER_DATA_DIR || mkdtempSync(join(tmpdir(), 'ringex-chromium-')), {
        executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
        headless: true,
        viewport: WIDE,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
            '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
    });
const violations = [];
await context.exposeFunction('reportCspViolation', (v) => violations.push(v));
await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
        window.reportCspViolation(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'}`));
});
let page;
let failed = false;

/** The cluster table as the page shows it, one object per member row. */
async function members() {
    return page.$$eval('#cluster-table tbody tr', (rows) => rows.map((r) => {
        const c = [...r.children].map((td) => td.textContent.trim());
        return { member: c[0], node: c[1], role: c[2], term: c[3], committed: c[4], processed: c[5], lag: c[6],
            heard: c[7], hash: c[8], status: c[9] };
    }));
}

/** Wait until the table shows a member with this node id as leader, and the rest as the test says. */
async function awaitTable(what, fn, arg) {
    await page.waitForFunction(fn, arg, { timeout: 30000, polling: 250 }).catch(async (e) => {
        throw new Error(`${what}: ${e.message}; the table: ${JSON.stringify(await members())}`);
    });
}

async function shot(name) {
    for (const [size, suffix] of [[WIDE, ''], [NARROW, '-narrow']]) {
        await page.setViewportSize(size);
        await page.waitForTimeout(300);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        check(overflow <= 0, `${name}: the page fits ${size.width} px (overflow ${overflow} px)`);
        await page.screenshot({ path: join(shots, `${name}${suffix}.png`), fullPage: true });
    }
    await page.setViewportSize(WIDE);
}

try {
    page = await context.newPage();
    await page.goto(base + 'login');
    await page.fill('input[name=username]', 'viewer');
    await page.fill('input[name=password]', 'viewer');
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    await page.click('.tab[data-tab=engine]');

    // 1. the three members, the leader marked, each member's term, committed sequence and lag behind the commit
    const first = await request('LEADER');
    await awaitTable(`node ${first} shown as leader with two followers`, (id) => {
        const rows = [...document.querySelectorAll('#cluster-table tbody tr')];
        const cell = (r, i) => r.children[i].textContent.trim();
        return rows.length === 3 && rows.some((r) => cell(r, 1) === id && cell(r, 9) === 'leader') &&
            rows.filter((r) => cell(r, 2) === 'STANDBY' && cell(r, 9) === 'up').length === 2 &&
            rows.every((r) => /^[\d,]+ \/ [\d,]+$/.test(cell(r, 6)));
    }, first);
    check(!(await page.$eval('#cluster-panel', (p) => p.hidden)), 'the engine view shows the cluster panel');
    const before = await members();
    const leader = before.find((m) => m.status === 'leader');
    check(leader.node === first && leader.role === 'PRIMARY',
        `the leader the page marks is the member leading as the nodes say (node ${first}): ${JSON.stringify(leader)}`);
    check(before.map((m) => m.member).join() === 'members[0],members[1],members[2]',
        'every configured member listed, in configuration order');
    check(before.every((m) => m.term === leader.term), `every member in the leader's term ${leader.term}`);
    check(before.every((m) => /^[\d,]+$/.test(m.committed) && /^[\d,]+$/.test(m.processed)),
        'every member shows its committed and processed sequences');
    check(before.every((m) => /^[0-9a-f]{16}$/.test(m.hash) && /s ago$/.test(m.heard)),
        'every member shows its state hash and when it was last heard');
    const summary = await page.textContent('#cluster-summary');
    check(summary.includes(`leader: node ${first}`) && summary.includes(`term ${leader.term}`),
        `the panel names the leader and its term: ${summary}`);
    check((await page.$$('#cluster-panel button, #cluster-panel input, #cluster-panel select, #cluster-panel form'))
        .length === 0, 'a viewer sees the cluster read-only: nothing in it to press or fill');
    check(await page.$('.promote') === null && !(await page.textContent('body')).includes('Promote'),
        'no promotion anywhere on the page: the cluster elects its leader itself');
    await shot('risk-cluster');

    // 2. the leader is lost: the page follows the member the cluster elects, and marks the lost one stale
    await request('STOP_LEADER');
    const next = await request(`LEADER_NOT ${first}`);
    await awaitTable(`node ${next} shown as leader, node ${first} stale`, ({ first, next }) => {
        const rows = [...document.querySelectorAll('#cluster-table tbody tr')];
        const cell = (r, i) => r.children[i].textContent.trim();
        const lost = rows.find((r) => cell(r, 1) === first);
        const lead = rows.find((r) => cell(r, 9) === 'leader');
        return lost && cell(lost, 9) === 'stale' && lead && cell(lead, 1) === next && cell(lead, 2) === 'PRIMARY';
    }, { first, next });
    const after = await members();
    const newLeader = after.find((m) => m.status === 'leader');
    const lost = after.find((m) => m.node === first);
    const follower = after.find((m) => m !== newLeader && m !== lost);
    check(Number(newLeader.term) > Number(leader.term),
        `the new leader's term ${newLeader.term} is later than ${leader.term}`);
    check(lost.status === 'stale' && lost.term === leader.term,
        `the lost member is marked stale, its last report kept: ${JSON.stringify(lost)}`);
    check(follower.role === 'STANDBY' && follower.term === newLeader.term && follower.status === 'up',
        `the remaining member follows in the new term: ${JSON.stringify(follower)}`);
    check((await page.textContent('#cluster-summary')).includes(`leader: node ${next}`),
        'the panel names the new leader');
    check(!(await page.$eval('body', (b) => b.classList.contains('stale'))),
        'the page is live again: it follows the new leader with nothing typed');
    check((await page.textContent('#engine-badge')).includes(`node ${next}`),
        'the header badge names the new leader');
    await shot('risk-cluster-failover');
    check(violations.length === 0, `no Content-Security-Policy violations: ${JSON.stringify(violations)}`);
} catch (e) {
    failed = true;
    console.log(String(e.stack || e));
} finally {
    await context.close();
}
console.log(failed ? 'FAILED' : 'PASSED');
process.exit(failed ? 1 : 0);
