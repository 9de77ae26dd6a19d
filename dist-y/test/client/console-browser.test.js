"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = __importDefault(require("node:fs"));
const node_os_1 = __importDefault(require("node:os"));
const node_path_1 = __importDefault(require("node:path"));
const playwright_core_1 = require("playwright-core");
const agent_1 = require("../helpers/agent");
const http_1 = require("../helpers/http");
const pg_1 = require("../helpers/pg");
const subscriptions_1 = require("../helpers/subscriptions");
const client_1 = require("../../src/client");
// Debian's chromium, installed by .ci/run; playwright-core never downloads a browser of its own.
const CHROMIUM = process.env.PATINA_CHROMIUM ?? '/usr/bin/chromium';
const ARGS = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
];
const SCHEMA = `
CREATE TABLE items (id INTEGER NOT NULL PRIMARY KEY, name TEXT, qty INTEGER);
CREATE TABLE notes (k TEXT NOT NULL PRIMARY KEY, body TEXT);
`;
/** Waits until the text of the first element matching selector matches re; fails with the text it had. */
async function waitText(page, selector, re, timeout = 15000) {
    try {
        await page.waitForFunction(([sel, src, flags]) => new RegExp(src, flags).test(globalThis.document.querySelector(sel)?.textContent ?? ''), [selector, re.source, re.flags], { timeout });
    }
    catch (err) {
        const now = await page
            .locator(selector)
            .first()
            .textContent({ timeout: 1000 })
            .catch(() => '(no such element)');
        throw new Error(`${selector} did not come to match ${re}; its text: ${JSON.stringify(now)}`, { cause: err });
    }
}
/** Waits until no element matches selector. */
async function waitGone(page, selector) {
    await page.locator(selector).waitFor({ state: 'detached' });
}
describe('web console in a real headless Chromium', function () {
    this.timeout(120000);
    let a;
    let b;
    let profile;
    let context;
    let page;
    const foreign = [];
    const pageErrors = [];
    before(async () => {
        a = await (0, agent_1.startAgent)({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0', '--gossip-addr', '127.0.0.1:0'] });
        b = await (0, agent_1.startAgent)({ schema: SCHEMA, args: ['--gossip-addr', '127.0.0.1:0', '--bootstrap', a.gossip] });
        await (0, subscriptions_1.write)(a.http, [
            ["INSERT INTO items (id, name, qty) VALUES (1, 'apples', 3), (2, 'pears', 5), (3, 'plums', 8)"],
        ]);
        profile = node_fs_1.default.mkdtempSync(node_path_1.default.join(node_os_1.default.tmpdir(), 'patina-chromium-'));
        context = await playwright_core_1.chromium.launchPersistentContext(profile, {
            executablePath: CHROMIUM,
            headless: true,
            args: ARGS,
            viewport: { width: 1180, height: 720 },
        });
        page = context.pages()[0] ?? (await context.newPage());
        const origin = new URL(a.http).origin;
        page.on('request', (r) => {
            if (new URL(r.url()).origin !== origin)
                foreign.push(r.url());
        });
        page.on('pageerror', (e) => pageErrors.push(String(e)));
    });
    after(async () => {
        await context?.close();
        if (profile)
            node_fs_1.default.rmSync(profile, { recursive: true, force: true });
        await b?.dispose();
        await a?.dispose();
    });
    it('serves the page and the client library from the package, with a content security policy', async () => {
        const r = await (0, http_1.request)(a.http, 'GET', '/console');
        strict_1.default.equal(r.status, 200);
        strict_1.default.match(String(r.headers['content-type']), /text\/html/);
        strict_1.default.match(String(r.headers['content-security-policy']), /default-src 'self'/);
        strict_1.default.match(r.text, /<script type="module" src="\/console\/console.js">/);
        const lib = await (0, http_1.request)(a.http, 'GET', '/console/client/index.js');
        strict_1.default.equal(lib.status, 200);
        strict_1.default.match(lib.text, /PatinaClient/);
        const missing = await (0, http_1.request)(a.http, 'GET', '/console/client/..%2F..%2Fpackage.json');
        strict_1.default.equal(missing.status, 404);
        strict_1.default.match(String(missing.json.error), /no such console file/);
        const post = await (0, http_1.request)(a.http, 'POST', '/console');
        strict_1.default.equal(post.status, 405);
        strict_1.default.match(String(post.json.error), /method POST is not allowed on \/console/);
    });
    it('loads, lists the tables from the schema and the cluster members with replication lag', async () => {
        await page.goto(`${a.http}/console`);
        await page.locator('#tables a[data-table="items"]').waitFor();
        strict_1.default.deepEqual(await page.locator('#tables a').allTextContents(), ['items', 'notes']);
        strict_1.default.match((await page.locator('#tables li').first().textContent()) ?? '', /items\s*id, name, qty/);
        await page.locator('#cluster .members tbody tr').first().waitFor({ timeout: 30000 });
        await waitText(page, '#cluster', /alive/, 30000);
        strict_1.default.match((await page.locator('#replication-lag').textContent()) ?? '', /replication lag: \d+ versions?/);
        strict_1.default.match((await page.locator('#cluster').textContent()) ?? '', new RegExp(b.gossip.replace(/\./g, '\\.')));
    });
    it("runs a query and shows its rows streamed into a table with the query time; errors show the agent's message", async () => {
        await page.fill('#sql', 'SELECT id, name, qty FROM items ORDER BY id');
        await page.click('#run');
        await waitText(page, '#query-status', /3 rows · query [\d.]+ ms/);
        strict_1.default.deepEqual(await page.locator('#results th').allTextContents(), ['id', 'name', 'qty']);
        strict_1.default.deepEqual(await page.locator('#results tbody tr').first().locator('td').allTextContents(), [
            '1',
            'apples',
            '3',
        ]);
        strict_1.default.equal(await page.locator('#results tbody tr').count(), 3);
        await page.click('#tables a[data-table="notes"]');
        await waitText(page, '#query-status', /0 rows/);
        strict_1.default.equal(await page.inputValue('#sql'), 'SELECT * FROM "notes" LIMIT 100');
        strict_1.default.deepEqual(await page.locator('#results th').allTextContents(), ['k', 'body']);
        await page.fill('#sql', 'SELEKT 1');
        await page.click('#run');
        await page.locator('#query-status.error').waitFor();
        strict_1.default.match((await page.locator('#query-status').textContent()) ?? '', /syntax error.*\(HTTP 400\)/);
        // 64-bit integers show exactly.
        await page.fill('#sql', 'SELECT 9223372036854775807 AS big, NULL AS missing');
        await page.keyboard.press('Control+Enter');
        await waitText(page, '#query-status', /1 row ·/);
        strict_1.default.deepEqual(await page.locator('#results tbody td').allTextContents(), ['9223372036854775807', 'NULL']);
    });
    it('shows a live subscription whose rows change in place, with the changed cells highlighted, for writes through HTTP and PostgreSQL', async () => {
        await page.fill('#sql', 'SELECT id, name, qty FROM items WHERE qty > 2');
        await page.click('#subscribe');
        await waitText(page, '#live-status', /^live · 3 rows · change 0/);
        const qty2 = page.locator('#live tr[data-rowid="2"] td[data-col="qty"]');
        strict_1.default.equal(await qty2.textContent(), '5');
        // Through HTTP.
        await (0, subscriptions_1.write)(a.http, [['UPDATE items SET qty = 55 WHERE id = 2']]);
        await waitText(page, '#live tr[data-rowid="2"] td[data-col="qty"]', /^55$/);
        strict_1.default.match((await qty2.getAttribute('class')) ?? '', /changed/);
        strict_1.default.doesNotMatch((await page.locator('#live tr[data-rowid="2"] td[data-col="name"]').getAttribute('class')) ?? '', /changed/, 'only the changed cell is highlighted');
        // Through PostgreSQL, on the same agent.
        const client = (0, pg_1.pgClient)(a.pg.port);
        await client.connect();
        try {
            await client.query("UPDATE items SET name = 'big pears' WHERE id = 2");
            await client.query("INSERT INTO items (id, name, qty) VALUES (4, 'figs', 13)");
            await client.query('DELETE FROM items WHERE id = 1');
        }
        finally {
            await client.end();
        }
        await waitText(page, '#live tr[data-rowid="2"] td[data-col="name"]', /^big pears$/);
        strict_1.default.match((await page.locator('#live tr[data-rowid="2"] td[data-col="name"]').getAttribute('class')) ?? '', /changed/);
        await page.locator('#live tr.inserted[data-rowid="4"]').waitFor();
        strict_1.default.deepEqual(await page.locator('#live tr[data-rowid="4"] td').allTextContents(), ['4', '4', 'figs', '13']);
        await waitGone(page, '#live tr[data-rowid="1"]');
        // A write on the other agent arrives by replication.
        await (0, subscriptions_1.write)(b.http, [['UPDATE items SET qty = 21 WHERE id = 3']]);
        await waitText(page, '#live tr[data-rowid="3"] td[data-col="qty"]', /^21$/, 30000);
        strict_1.default.match((await page.locator('#live-status').textContent()) ?? '', /^live · 3 rows · change \d+ · query id [0-9a-f-]{36}$/);
        const shot = await page.screenshot({ type: 'png' });
        strict_1.default.deepEqual([...shot.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
        // `PATINA_CONSOLE_SCREENSHOT=docs/console.png npm test` refreshes the README's picture.
        if (process.env.PATINA_CONSOLE_SCREENSHOT)
            node_fs_1.default.writeFileSync(process.env.PATINA_CONSOLE_SCREENSHOT, shot);
    });
    it('sends the token typed into the page as a bearer header, and fetches nothing from elsewhere', async () => {
        const auth = [];
        const listener = (r) => {
            if (r.url().includes('/v1/'))
                auth.push(r.headers().authorization ?? '');
        };
        page.on('request', listener);
        await page.fill('#token', 'tok-123');
        await page.click('#token-form button');
        strict_1.default.equal(await page.evaluate(() => globalThis.sessionStorage.getItem('patina.token')), 'tok-123');
        await page.fill('#sql', 'SELECT 1');
        await page.click('#run');
        await waitText(page, '#query-status', /1 row ·/);
        page.off('request', listener);
        strict_1.default.ok(auth.includes('Bearer tok-123'), JSON.stringify(auth));
        await page.evaluate(() => globalThis.sessionStorage.removeItem('patina.token'));
        strict_1.default.deepEqual(foreign, [], 'every request went to the agent');
        strict_1.default.deepEqual(pageErrors, []);
    });
});
describe('web console: a live view through an agent restart', function () {
    this.timeout(120000);
    it('shows the stream reconnecting while the agent is down, then resumes and applies later writes', async () => {
        let agent = await (0, agent_1.startAgent)({ schema: SCHEMA });
        const dir = agent.dir;
        const port = new URL(agent.http).port;
        const profile = node_fs_1.default.mkdtempSync(node_path_1.default.join(node_os_1.default.tmpdir(), 'patina-chromium-'));
        const context = await playwright_core_1.chromium.launchPersistentContext(profile, {
            executablePath: CHROMIUM,
            headless: true,
            args: ARGS,
        });
        try {
            await (0, subscriptions_1.write)(agent.http, [["INSERT INTO items (id, name, qty) VALUES (1, 'apples', 3)"]]);
            const page = context.pages()[0] ?? (await context.newPage());
            await page.goto(`${agent.http}/console`);
            // The page puts a first query into the empty box once the tables are listed: wait for that,
            // so it does not land in the middle of the text typed here.
            await page.locator('#tables a[data-table="items"]').waitFor();
            await page.fill('#sql', 'SELECT id, name, qty FROM items');
            await page.click('#subscribe');
            await waitText(page, '#live-status', /^live · 1 rows · change 0/);
            await agent.stop();
            await waitText(page, '#live-status', /reconnecting in \d+ ms/);
            // The same folder and port: the page's address stays valid.
            agent = await new agent_1.AgentProcess({ schema: SCHEMA, dir, args: ['--api-addr', `127.0.0.1:${port}`] }).start();
            await (0, subscriptions_1.write)(agent.http, [['UPDATE items SET qty = 30 WHERE id = 1']]);
            await waitText(page, '#live tr[data-rowid="1"] td[data-col="qty"]', /^30$/, 30000);
            await waitText(page, '#live-status', /^live · 1 rows · change 1/);
        }
        finally {
            await context.close();
            node_fs_1.default.rmSync(profile, { recursive: true, force: true });
            await agent.dispose();
            node_fs_1.default.rmSync(dir, { recursive: true, force: true });
        }
    });
});
describe('web console and client library with [api.auth]', function () {
    this.timeout(120000);
    const READ = 'console-read-token-0123456789';
    const WRITE = 'console-write-token-0123456789';
    it('loads the page without a token, and shows data only with a valid token typed into it', async () => {
        const agent = await (0, agent_1.startAgent)({
            schema: SCHEMA,
            config: `[api.auth]\ntokens = [{ token = "${READ}", role = "read" }, { token = "${WRITE}", role = "write" }]\n`,
        });
        const profile = node_fs_1.default.mkdtempSync(node_path_1.default.join(node_os_1.default.tmpdir(), 'patina-chromium-'));
        const context = await playwright_core_1.chromium.launchPersistentContext(profile, {
            executablePath: CHROMIUM,
            headless: true,
            args: ARGS,
        });
        try {
            // The library sends its token option as the bearer header; without one the agent answers 401.
            await new client_1.PatinaClient({ url: agent.http, token: WRITE }).transaction([
                "INSERT INTO items (id, name, qty) VALUES (1, 'apples', 3)",
            ]);
            await strict_1.default.rejects(new client_1.PatinaClient({ url: agent.http }).query('SELECT 1').all(), (e) => e.status === 401 && /authentication required/.test(e.message));
            await strict_1.default.rejects(new client_1.PatinaClient({ url: agent.http, token: 'wrong' }).query('SELECT 1').all(), (e) => e.status === 401 && /not valid/.test(e.message));
            await strict_1.default.rejects(new client_1.PatinaClient({ url: agent.http, token: READ }).transaction(['DELETE FROM items']), (e) => e.status === 403 && /needs the write role/.test(e.message));
            strict_1.default.deepEqual((await new client_1.PatinaClient({ url: agent.http, token: READ }).query('SELECT 1').all()).rows, [[1]]);
            const page = context.pages()[0] ?? (await context.newPage());
            const res = await page.goto(`${agent.http}/console`);
            strict_1.default.equal(res?.status(), 200, 'the page itself needs no token');
            await waitText(page, '#tables', /authentication required.*\(HTTP 401\)/);
            await page.fill('#token', 'wrong');
            await page.click('#token-form button');
            await waitText(page, '#tables', /not valid.*\(HTTP 401\)/);
            await page.fill('#token', READ);
            await page.click('#token-form button');
            await page.locator('#tables a[data-table="items"]').waitFor();
            await page.fill('#sql', 'SELECT count(*) FROM items');
            await page.click('#run');
            await waitText(page, '#query-status', /1 row ·/);
            await page.fill('#sql', 'SELECT id, name, qty FROM items');
            await page.click('#subscribe');
            await waitText(page, '#live-status', /^live · 1 rows · change 0/);
            await new client_1.PatinaClient({ url: agent.http, token: WRITE }).transaction(['UPDATE items SET qty = 4 WHERE id = 1']);
            await waitText(page, '#live tr[data-rowid="1"] td[data-col="qty"]', /^4$/);
            strict_1.default.equal(await page.evaluate(() => globalThis.sessionStorage.getItem('patina.token')), READ);
        }
        finally {
            await context.close();
            node_fs_1.default.rmSync(profile, { recursive: true, force: true });
            await agent.dispose();
        }
    });
});
//# sourceMappingURL=console-browser.test.js.map