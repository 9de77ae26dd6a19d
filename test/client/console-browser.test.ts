import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, type Page, chromium } from 'playwright-core';
import { AgentProcess, startAgent } from '../helpers/agent';
import { request } from '../helpers/http';
import { pgClient } from '../helpers/pg';
import { write } from '../helpers/subscriptions';
import { PatinaClient, type PatinaError } from '../../src/client';

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
async function waitText(page: Page, selector: string, re: RegExp, timeout = 15000): Promise<void> {
  try {
    await page.waitForFunction(
      ([sel, src, flags]) =>
        new RegExp(src, flags).test(
          (
            globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }
          ).document.querySelector(sel)?.textContent ?? '',
        ),
      [selector, re.source, re.flags] as const,
      { timeout },
    );
  } catch (err) {
    const now = await page
      .locator(selector)
      .first()
      .textContent({ timeout: 1000 })
      .catch(() => '(no such element)');
    throw new Error(`${selector} did not come to match ${re}; its text: ${JSON.stringify(now)}`, { cause: err });
  }
}

/** Waits until no element matches selector. */
async function waitGone(page: Page, selector: string): Promise<void> {
  await page.locator(selector).waitFor({ state: 'detached' });
}

describe('web console in a real headless Chromium', function () {
  this.timeout(120000);
  let a: AgentProcess;
  let b: AgentProcess;
  let profile: string;
  let context: BrowserContext;
  let page: Page;
  const foreign: string[] = [];
  const pageErrors: string[] = [];

  before(async () => {
    a = await startAgent({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0', '--gossip-addr', '127.0.0.1:0'] });
    b = await startAgent({ schema: SCHEMA, args: ['--gossip-addr', '127.0.0.1:0', '--bootstrap', a.gossip!] });
    await write(a.http, [
      ["INSERT INTO items (id, name, qty) VALUES (1, 'apples', 3), (2, 'pears', 5), (3, 'plums', 8)"],
    ]);
    profile = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      viewport: { width: 1180, height: 720 },
    });
    page = context.pages()[0] ?? (await context.newPage());
    const origin = new URL(a.http).origin;
    page.on('request', (r) => {
      if (new URL(r.url()).origin !== origin) foreign.push(r.url());
    });
    page.on('pageerror', (e) => pageErrors.push(String(e)));
  });

  after(async () => {
    await context?.close();
    if (profile) fs.rmSync(profile, { recursive: true, force: true });
    await b?.dispose();
    await a?.dispose();
  });

  it('serves the page and the client library from the package, with a content security policy', async () => {
    const r = await request(a.http, 'GET', '/console');
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /text\/html/);
    assert.match(String(r.headers['content-security-policy']), /default-src 'self'/);
    assert.match(r.text, /<script type="module" src="\/console\/console.js">/);
    const lib = await request(a.http, 'GET', '/console/client/index.js');
    assert.equal(lib.status, 200);
    assert.match(lib.text, /PatinaClient/);
    const missing = await request(a.http, 'GET', '/console/client/..%2F..%2Fpackage.json');
    assert.equal(missing.status, 404);
    assert.match(String((missing.json as { error: string }).error), /no such console file/);
    const post = await request(a.http, 'POST', '/console');
    assert.equal(post.status, 405);
    assert.match(String((post.json as { error: string }).error), /method POST is not allowed on \/console/);
  });

  it('loads, lists the tables from the schema and the cluster members with replication lag', async () => {
    await page.goto(`${a.http}/console`);
    await page.locator('#tables a[data-table="items"]').waitFor();
    assert.deepEqual(await page.locator('#tables a').allTextContents(), ['items', 'notes']);
    assert.match((await page.locator('#tables li').first().textContent()) ?? '', /items\s*id, name, qty/);
    await page.locator('#cluster .members tbody tr').first().waitFor({ timeout: 30000 });
    await waitText(page, '#cluster', /alive/, 30000);
    assert.match((await page.locator('#replication-lag').textContent()) ?? '', /replication lag: \d+ versions?/);
    assert.match((await page.locator('#cluster').textContent()) ?? '', new RegExp(b.gossip!.replace(/\./g, '\\.')));
  });

  it("runs a query and shows its rows streamed into a table with the query time; errors show the agent's message", async () => {
    await page.fill('#sql', 'SELECT id, name, qty FROM items ORDER BY id');
    await page.click('#run');
    await waitText(page, '#query-status', /3 rows · query [\d.]+ ms/);
    assert.deepEqual(await page.locator('#results th').allTextContents(), ['id', 'name', 'qty']);
    assert.deepEqual(await page.locator('#results tbody tr').first().locator('td').allTextContents(), [
      '1',
      'apples',
      '3',
    ]);
    assert.equal(await page.locator('#results tbody tr').count(), 3);

    await page.click('#tables a[data-table="notes"]');
    await waitText(page, '#query-status', /0 rows/);
    assert.equal(await page.inputValue('#sql'), 'SELECT * FROM "notes" LIMIT 100');
    assert.deepEqual(await page.locator('#results th').allTextContents(), ['k', 'body']);

    await page.fill('#sql', 'SELEKT 1');
    await page.click('#run');
    await page.locator('#query-status.error').waitFor();
    assert.match((await page.locator('#query-status').textContent()) ?? '', /syntax error.*\(HTTP 400\)/);

    // 64-bit integers show exactly.
    await page.fill('#sql', 'SELECT 9223372036854775807 AS big, NULL AS missing');
    await page.keyboard.press('Control+Enter');
    await waitText(page, '#query-status', /1 row ·/);
    assert.deepEqual(await page.locator('#results tbody td').allTextContents(), ['9223372036854775807', 'NULL']);
  });

  it('shows a live subscription whose rows change in place, with the changed cells highlighted, for writes through HTTP and PostgreSQL', async () => {
    await page.fill('#sql', 'SELECT id, name, qty FROM items WHERE qty > 2');
    await page.click('#subscribe');
    await waitText(page, '#live-status', /^live · 3 rows · change 0/);
    const qty2 = page.locator('#live tr[data-rowid="2"] td[data-col="qty"]');
    assert.equal(await qty2.textContent(), '5');

    // Through HTTP.
    await write(a.http, [['UPDATE items SET qty = 55 WHERE id = 2']]);
    await waitText(page, '#live tr[data-rowid="2"] td[data-col="qty"]', /^55$/);
    assert.match((await qty2.getAttribute('class')) ?? '', /changed/);
    assert.doesNotMatch(
      (await page.locator('#live tr[data-rowid="2"] td[data-col="name"]').getAttribute('class')) ?? '',
      /changed/,
      'only the changed cell is highlighted',
    );

    // Through PostgreSQL, on the same agent.
    const client = pgClient(a.pg!.port);
    await client.connect();
    try {
      await client.query("UPDATE items SET name = 'big pears' WHERE id = 2");
      await client.query("INSERT INTO items (id, name, qty) VALUES (4, 'figs', 13)");
      await client.query('DELETE FROM items WHERE id = 1');
    } finally {
      await client.end();
    }
    await waitText(page, '#live tr[data-rowid="2"] td[data-col="name"]', /^big pears$/);
    assert.match(
      (await page.locator('#live tr[data-rowid="2"] td[data-col="name"]').getAttribute('class')) ?? '',
      /changed/,
    );
    await page.locator('#live tr.inserted[data-rowid="4"]').waitFor();
    assert.deepEqual(await page.locator('#live tr[data-rowid="4"] td').allTextContents(), ['4', '4', 'figs', '13']);
    await waitGone(page, '#live tr[data-rowid="1"]');

    // A write on the other agent arrives by replication.
    await write(b.http, [['UPDATE items SET qty = 21 WHERE id = 3']]);
    await waitText(page, '#live tr[data-rowid="3"] td[data-col="qty"]', /^21$/, 30000);
    assert.match(
      (await page.locator('#live-status').textContent()) ?? '',
      /^live · 3 rows · change \d+ · query id [0-9a-f-]{36}$/,
    );

    const shot = await page.screenshot({ type: 'png' });
    assert.deepEqual([...shot.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
    // `PATINA_CONSOLE_SCREENSHOT=docs/console.png npm test` refreshes the README's picture.
    if (process.env.PATINA_CONSOLE_SCREENSHOT) fs.writeFileSync(process.env.PATINA_CONSOLE_SCREENSHOT, shot);
  });

  it('sends the token typed into the page as a bearer header, and fetches nothing from elsewhere', async () => {
    const auth: string[] = [];
    const listener = (r: { url(): string; headers(): Record<string, string> }) => {
      if (r.url().includes('/v1/')) auth.push(r.headers().authorization ?? '');
    };
    page.on('request', listener);
    await page.fill('#token', 'tok-123');
    await page.click('#token-form button');
    assert.equal(
      await page.evaluate(() =>
        (globalThis as unknown as { sessionStorage: { getItem(k: string): string | null } }).sessionStorage.getItem(
          'patina.token',
        ),
      ),
      'tok-123',
    );
    await page.fill('#sql', 'SELECT 1');
    await page.click('#run');
    await waitText(page, '#query-status', /1 row ·/);
    page.off('request', listener);
    assert.ok(auth.includes('Bearer tok-123'), JSON.stringify(auth));
    await page.evaluate(() =>
      (globalThis as unknown as { sessionStorage: { removeItem(k: string): void } }).sessionStorage.removeItem(
        'patina.token',
      ),
    );
    assert.deepEqual(foreign, [], 'every request went to the agent');
    assert.deepEqual(pageErrors, []);
  });
});

describe('web console: a live view through an agent restart', function () {
  this.timeout(120000);

  it('shows the stream reconnecting while the agent is down, then resumes and applies later writes', async () => {
    let agent = await startAgent({ schema: SCHEMA });
    const dir = agent.dir;
    const port = new URL(agent.http).port;
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-chromium-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
    });
    try {
      await write(agent.http, [["INSERT INTO items (id, name, qty) VALUES (1, 'apples', 3)"]]);
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
      agent = await new AgentProcess({ schema: SCHEMA, dir, args: ['--api-addr', `127.0.0.1:${port}`] }).start();
      await write(agent.http, [['UPDATE items SET qty = 30 WHERE id = 1']]);
      await waitText(page, '#live tr[data-rowid="1"] td[data-col="qty"]', /^30$/, 30000);
      await waitText(page, '#live-status', /^live · 1 rows · change 1/);
    } finally {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
      await agent.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('web console and client library with [api.auth]', function () {
  this.timeout(120000);
  const READ = 'console-read-token-0123456789';
  const WRITE = 'console-write-token-0123456789';

  it('loads the page without a token, and shows data only with a valid token typed into it', async () => {
    const agent = await startAgent({
      schema: SCHEMA,
      config: `[api.auth]\ntokens = [{ token = "${READ}", role = "read" }, { token = "${WRITE}", role = "write" }]\n`,
    });
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-chromium-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
    });
    try {
      // The library sends its token option as the bearer header; without one the agent answers 401.
      await new PatinaClient({ url: agent.http, token: WRITE }).transaction([
        "INSERT INTO items (id, name, qty) VALUES (1, 'apples', 3)",
      ]);
      await assert.rejects(
        new PatinaClient({ url: agent.http }).query('SELECT 1').all(),
        (e: PatinaError) => e.status === 401 && /authentication required/.test(e.message),
      );
      await assert.rejects(
        new PatinaClient({ url: agent.http, token: 'wrong' }).query('SELECT 1').all(),
        (e: PatinaError) => e.status === 401 && /not valid/.test(e.message),
      );
      await assert.rejects(
        new PatinaClient({ url: agent.http, token: READ }).transaction(['DELETE FROM items']),
        (e: PatinaError) => e.status === 403 && /needs the write role/.test(e.message),
      );
      assert.deepEqual((await new PatinaClient({ url: agent.http, token: READ }).query('SELECT 1').all()).rows, [[1]]);

      const page = context.pages()[0] ?? (await context.newPage());
      const res = await page.goto(`${agent.http}/console`);
      assert.equal(res?.status(), 200, 'the page itself needs no token');
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
      await new PatinaClient({ url: agent.http, token: WRITE }).transaction(['UPDATE items SET qty = 4 WHERE id = 1']);
      await waitText(page, '#live tr[data-rowid="1"] td[data-col="qty"]', /^4$/);
      assert.equal(
        await page.evaluate(() =>
          (globalThis as unknown as { sessionStorage: { getItem(k: string): string | null } }).sessionStorage.getItem(
            'patina.token',
          ),
        ),
        READ,
      );
    } finally {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
      await agent.dispose();
    }
  });
});
